! A CORSIKA-style caller of CERNLIB's RANMAR entries, linked against librngvet instead:
! sequence 1 set to IJKL after NTOT + NTOT2 * 10**9 numbers, numbers drawn with RMMARD, the
! counters read back with RMMAQD.
!
!   corsika IJKL NTOT NTOT2 K     prints K numbers of sequence 1 (es25.17), then IJKL NTOT NTOT2
program corsika
  implicit none
  integer :: iseed(3), k, i
  character(len=32) :: arg
  double precision, allocatable :: rvec(:)
  do i = 1, 3
     call get_command_argument(i, arg)
     read (arg, *) iseed(i)
  end do
  call get_command_argument(4, arg)
  read (arg, *) k
  allocate(rvec(k))
  call rmmaqd(iseed, 1, 'S')
  call rmmard(rvec, k, 1)
  do i = 1, k
     write (*, '(es25.17)') rvec(i)
  end do
  call rmmaqd(iseed, 1, 'R')
  write (*, '(3i12)') iseed
end program corsika
