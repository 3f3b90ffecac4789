! A CORSIKA-style caller of CERNLIB's RANMAR entries, linked against librngvet instead:
! sequence 1 set to IJKL after NTOT + NTOT2 * 10**9 numbers, numbers drawn with RMMARD, the
! counters read back with RMMAQD.
!
!   corsika IJKL NTOT NTOT2 K [CONFIGURATION]
!
! prints K numbers of sequence 1 (es25.17), then IJKL NTOT NTOT2. The entries run on
! CONFIGURATION when given (rngvet_cernlib_configure, before the first number), else on
! $RNGVET_CERNLIB_CONFIG, else on CERNLIB's ranmar48.
program corsika
  use rngvet, only: RNGVET_OK, rngvet_cernlib_configure, rngvet_error
  implicit none
  integer :: iseed(3), k, i
  character(len=32) :: arg
  character(len=512) :: configuration
  double precision, allocatable :: rvec(:)
  do i = 1, 3
     call get_command_argument(i, arg)
     read (arg, *) iseed(i)
  end do
  call get_command_argument(4, arg)
  read (arg, *) k
  allocate(rvec(k))
  if (command_argument_count() >= 5) then
     call get_command_argument(5, configuration)
     if (rngvet_cernlib_configure(trim(configuration)) /= RNGVET_OK) then
        write (0, '(a)') 'corsika: ' // rngvet_error()
        error stop 2
     end if
  end if
  call rmmaqd(iseed, 1, 'S')
  call rmmard(rvec, k, 1)
  do i = 1, k
     write (*, '(es25.17)') rvec(i)
  end do
  call rmmaqd(iseed, 1, 'R')
  write (*, '(3i12)') iseed
end program corsika
