! Monte Carlo pi through librngvet's Fortran module: the error of the mean over R replications
! of N points, in units of its standard deviation (4 * Binomial(N, pi/4) / N).
!
!   mcpi_fortran [CONFIGURATION] [--print K]
!
! --print K writes the first K numbers (es25.17) and stops.
program mcpi
  use, intrinsic :: iso_c_binding
  use rngvet
  implicit none
  character(len=1024) :: configuration, arg
  type(c_ptr) :: s
  real(c_double) :: u(10)
  real(c_double), allocatable :: x(:)
  integer :: r, j, k, nargs, print_count
  integer(c_int64_t) :: p, hits
  integer(c_int64_t), parameter :: points = 1000000
  integer, parameter :: reps = 10
  double precision, parameter :: pi = 3.14159265358979323846d0
  double precision :: estimate, total, sd

  configuration = 'ranmar48/1/single/increment/1802,9373;zero=smallest'
  print_count = -1
  nargs = command_argument_count()
  j = 1
  do while (j <= nargs)
     call get_command_argument(j, arg)
     if (arg == '--print') then
        call get_command_argument(j + 1, arg)
        read (arg, *) print_count
        j = j + 1
     else
        configuration = arg
     end if
     j = j + 1
  end do

  if (rngvet_open(s, configuration) /= RNGVET_OK) then
     write (0, '(a)') 'mcpi_fortran: ' // rngvet_error()
     stop 1
  end if
  if (print_count >= 0) then
     allocate(x(print_count))
     if (rngvet_u01(s, x) /= RNGVET_OK) stop 1
     do j = 1, print_count
        write (*, '(es25.17)') x(j)
     end do
     call rngvet_close(s)
     stop
  end if
  write (*, '(a)') 'stream ' // rngvet_name(s) // ' on ' // rngvet_backend(s)
  total = 0
  do r = 1, reps
     hits = 0
     do p = 1, points, 5
        if (rngvet_u01(s, u) /= RNGVET_OK) stop 1
        do k = 1, 9, 2
           if (u(k)**2 + u(k + 1)**2 < 1d0) hits = hits + 1
        end do
     end do
     estimate = 4d0 * dble(hits) / dble(points)
     total = total + estimate
  end do
  sd = 4d0 * sqrt(pi / 4 * (1 - pi / 4) / dble(points)) / sqrt(dble(reps))
  write (*, '(a, f12.9, a, sp, f7.2, a)') 'pi ~ ', total / reps, ', error ', &
       (total / reps - pi) / sd, ' sigma'
  call rngvet_close(s)
end program mcpi
