! CERNLIB / CORSIKA-compatible entries over a librngvet configuration (by default CERNLIB's
! ranmar48 with its zero rule; rngvet_cernlib_configure of module rngvet, or
! $RNGVET_CERNLIB_CONFIG, chooses another before the first number; rngvet.h says how IJKL maps
! onto it), so that a code written for CERNLIB's RM48 or CORSIKA's RMMARD can link these instead:
!
!   CALL RMMARD(RVEC, LENV, ISEQ)      LENV numbers of sequence ISEQ into DOUBLE PRECISION RVEC
!   CALL RMMAQD(ISEED, ISEQ, CHOPT)    CHOPT 'S': start sequence ISEQ at IJKL = ISEED(1) after
!                                      ISEED(2) + ISEED(3) * 10**9 numbers; 'R': read them back
!   CALL RM48(RVEC, LENV)              sequence 1
!   CALL RM48IN(IJKL, NTOT, NTOT2)     starts sequence 1
!   CALL RM48UT(IJKL, NTOT, NTOT2)     reads sequence 1's seed and count
!
! These entries have no status argument: like CERNLIB, they print the error and stop the
! program when given what they cannot do (the C API, rngvet.h, returns codes instead).
module rngvet_cernlib_c
  use, intrinsic :: iso_c_binding
  implicit none
  interface
     function next(values, n, iseq) bind(C, name='rngvet_cernlib_next') result(status)
       import :: c_double, c_int
       real(c_double), dimension(*), intent(out) :: values
       integer(c_int), value :: n, iseq
       integer(c_int) :: status
     end function next
     function set(iseq, ijkl, ntot, ntot2) bind(C, name='rngvet_cernlib_set') result(status)
       import :: c_int
       integer(c_int), value :: iseq, ijkl, ntot, ntot2
       integer(c_int) :: status
     end function set
     function get(iseq, ijkl, ntot, ntot2) bind(C, name='rngvet_cernlib_get') result(status)
       import :: c_int
       integer(c_int), value :: iseq
       integer(c_int), intent(out) :: ijkl, ntot, ntot2
       integer(c_int) :: status
     end function get
  end interface
contains
  subroutine check(status)
    use rngvet, only: RNGVET_OK, rngvet_error
    integer(c_int), intent(in) :: status
    if (status /= RNGVET_OK) then
       write (0, '(a)') 'rngvet: ' // rngvet_error()
       error stop 2
    end if
  end subroutine check
end module rngvet_cernlib_c

subroutine rmmard(rvec, lenv, iseq)
  use rngvet_cernlib_c
  implicit none
  double precision, intent(out) :: rvec(*)
  integer, intent(in) :: lenv, iseq
  call check(next(rvec, int(lenv, c_int), int(iseq, c_int)))
end subroutine rmmard

subroutine rmmaqd(iseed, iseq, chopt)
  use rngvet_cernlib_c
  implicit none
  integer, intent(inout) :: iseed(3)
  integer, intent(in) :: iseq
  character(len=*), intent(in) :: chopt
  integer(c_int) :: ijkl, ntot, ntot2
  if (index(chopt, 'R') > 0) then
     call check(get(int(iseq, c_int), ijkl, ntot, ntot2))
     iseed(1) = ijkl
     iseed(2) = ntot
     iseed(3) = ntot2
  else if (index(chopt, 'S') > 0) then
     call check(set(int(iseq, c_int), int(iseed(1), c_int), int(iseed(2), c_int), &
          int(iseed(3), c_int)))
  else
     write (0, '(a)') "rngvet: RMMAQD: CHOPT must be 'S' (set) or 'R' (read), got '" // chopt // "'"
     error stop 2
  end if
end subroutine rmmaqd

subroutine rm48(rvec, lenv)
  implicit none
  double precision, intent(out) :: rvec(*)
  integer, intent(in) :: lenv
  call rmmard(rvec, lenv, 1)
end subroutine rm48

subroutine rm48in(ijkl, ntot, ntot2)
  implicit none
  integer, intent(in) :: ijkl, ntot, ntot2
  integer :: iseed(3)
  iseed = [ijkl, ntot, ntot2]
  call rmmaqd(iseed, 1, 'S')
end subroutine rm48in

subroutine rm48ut(ijkl, ntot, ntot2)
  implicit none
  integer, intent(out) :: ijkl, ntot, ntot2
  integer :: iseed(3)
  call rmmaqd(iseed, 1, 'R')
  ijkl = iseed(1)
  ntot = iseed(2)
  ntot2 = iseed(3)
end subroutine rm48ut
