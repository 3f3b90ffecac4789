! librngvet for Fortran: the C API (rngvet.h) through iso_c_binding, with Fortran strings.
!
!   use rngvet
!   type(c_ptr) :: s
!   real(c_double) :: x(10)
!   if (rngvet_open(s, 'ranmar48/1/single/increment/1802,9373;zero=smallest') /= RNGVET_OK) &
!       error stop rngvet_error()
!   if (rngvet_u01(s, x) /= RNGVET_OK) error stop rngvet_error()
!   call rngvet_close(s)
!
! Every function returns RNGVET_OK (0) or an error code; rngvet_error() is the message.
module rngvet
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer, parameter, public :: RNGVET_OK = 0, RNGVET_ERROR_INPUT = 1, &
       RNGVET_ERROR_BACKEND = 2, RNGVET_ERROR_STORE = 3, RNGVET_ERROR_SYSTEM = 4
  integer, parameter, public :: RNGVET_BUFFERED = 0, RNGVET_DIRECT = 1

  public :: rngvet_open, rngvet_close, rngvet_u01, rngvet_u32, rngvet_skip, rngvet_error, &
       rngvet_name, rngvet_backend, rngvet_position, rngvet_cernlib_configure, &
       rngvet_cernlib_configuration

  interface
     function c_open_with(stream, configuration, backend, iface, buffer) &
          bind(C, name='rngvet_open_with') result(status)
       import :: c_ptr, c_char, c_int, c_size_t
       type(c_ptr), intent(out) :: stream
       character(kind=c_char), dimension(*), intent(in) :: configuration, backend
       integer(c_int), value :: iface
       integer(c_size_t), value :: buffer
       integer(c_int) :: status
     end function c_open_with
     subroutine c_close(stream) bind(C, name='rngvet_close')
       import :: c_ptr
       type(c_ptr), value :: stream
     end subroutine c_close
     function c_u01(stream, values, n) bind(C, name='rngvet_u01') result(status)
       import :: c_ptr, c_double, c_size_t, c_int
       type(c_ptr), value :: stream
       real(c_double), dimension(*), intent(out) :: values
       integer(c_size_t), value :: n
       integer(c_int) :: status
     end function c_u01
     function c_u32(stream, values, n) bind(C, name='rngvet_u32') result(status)
       import :: c_ptr, c_int32_t, c_size_t, c_int
       type(c_ptr), value :: stream
       integer(c_int32_t), dimension(*), intent(out) :: values
       integer(c_size_t), value :: n
       integer(c_int) :: status
     end function c_u32
     function c_skip(stream, n) bind(C, name='rngvet_skip') result(status)
       import :: c_ptr, c_int64_t, c_int
       type(c_ptr), value :: stream
       integer(c_int64_t), value :: n
       integer(c_int) :: status
     end function c_skip
     function c_position(stream) bind(C, name='rngvet_position') result(n)
       import :: c_ptr, c_int64_t
       type(c_ptr), value :: stream
       integer(c_int64_t) :: n
     end function c_position
     function c_last_error() bind(C, name='rngvet_last_error') result(p)
       import :: c_ptr
       type(c_ptr) :: p
     end function c_last_error
     function c_stream_name(stream) bind(C, name='rngvet_stream_name') result(p)
       import :: c_ptr
       type(c_ptr), value :: stream
       type(c_ptr) :: p
     end function c_stream_name
     function c_stream_backend(stream) bind(C, name='rngvet_stream_backend') result(p)
       import :: c_ptr
       type(c_ptr), value :: stream
       type(c_ptr) :: p
     end function c_stream_backend
     function c_cernlib_configure(configuration) bind(C, name='rngvet_cernlib_configure') &
          result(status)
       import :: c_char, c_int
       character(kind=c_char), dimension(*), intent(in) :: configuration
       integer(c_int) :: status
     end function c_cernlib_configure
     function c_cernlib_configuration() bind(C, name='rngvet_cernlib_configuration') result(p)
       import :: c_ptr
       type(c_ptr) :: p
     end function c_cernlib_configuration
     function c_strlen(s) bind(C, name='strlen') result(n)
       import :: c_ptr, c_size_t
       type(c_ptr), value :: s
       integer(c_size_t) :: n
     end function c_strlen
  end interface

contains

  ! A C string owned by the library, as a Fortran string.
  function from_c(p) result(text)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    n = int(c_strlen(p))
    allocate(character(len=n) :: text)
    if (n == 0) return
    call c_f_pointer(p, chars, [n])
    do i = 1, n
       text(i:i) = chars(i)
    end do
  end function from_c

  ! Opens a stream: a canonical name or the options of `rngvet run`. backend: 'auto' (default),
  ! 'cpu', 'openmp', 'opencl', 'cuda'; interface: RNGVET_BUFFERED (default) or RNGVET_DIRECT.
  function rngvet_open(stream, configuration, backend, interface, buffer_numbers) result(status)
    type(c_ptr), intent(out) :: stream
    character(len=*), intent(in) :: configuration
    character(len=*), intent(in), optional :: backend
    integer, intent(in), optional :: interface
    integer(c_size_t), intent(in), optional :: buffer_numbers
    integer :: status
    character(len=:), allocatable :: b
    integer(c_int) :: i
    integer(c_size_t) :: n
    b = 'auto'
    if (present(backend)) b = backend
    i = RNGVET_BUFFERED
    if (present(interface)) i = int(interface, c_int)
    n = 0
    if (present(buffer_numbers)) n = buffer_numbers
    status = c_open_with(stream, trim(configuration) // c_null_char, trim(b) // c_null_char, i, n)
  end function rngvet_open

  subroutine rngvet_close(stream)
    type(c_ptr), intent(inout) :: stream
    call c_close(stream)
    stream = c_null_ptr
  end subroutine rngvet_close

  ! Fills values with the next numbers as GetU01 reads them: in [0, 1), never 1.
  function rngvet_u01(stream, values) result(status)
    type(c_ptr), intent(in) :: stream
    real(c_double), intent(out) :: values(:)
    integer :: status
    status = c_u01(stream, values, int(size(values), c_size_t))
  end function rngvet_u01

  ! Fills values with the 32-bit words GetBits reads (as signed 32-bit integers: the bits).
  function rngvet_u32(stream, values) result(status)
    type(c_ptr), intent(in) :: stream
    integer(c_int32_t), intent(out) :: values(:)
    integer :: status
    status = c_u32(stream, values, int(size(values), c_size_t))
  end function rngvet_u32

  function rngvet_skip(stream, n) result(status)
    type(c_ptr), intent(in) :: stream
    integer(c_int64_t), intent(in) :: n
    integer :: status
    status = c_skip(stream, n)
  end function rngvet_skip

  function rngvet_position(stream) result(n)
    type(c_ptr), intent(in) :: stream
    integer(c_int64_t) :: n
    n = c_position(stream)
  end function rngvet_position

  function rngvet_error() result(text)
    character(len=:), allocatable :: text
    text = from_c(c_last_error())
  end function rngvet_error

  function rngvet_name(stream) result(text)
    type(c_ptr), intent(in) :: stream
    character(len=:), allocatable :: text
    text = from_c(c_stream_name(stream))
  end function rngvet_name

  function rngvet_backend(stream) result(text)
    type(c_ptr), intent(in) :: stream
    character(len=:), allocatable :: text
    text = from_c(c_stream_backend(stream))
  end function rngvet_backend

  ! Chooses the configuration of the CERNLIB entries (RMMARD, RMMAQD, RM48, ...; cernlib.f90)
  ! before their first number: a canonical name or the options form. Refused (a status, with
  ! rngvet_error()) once a number has been delivered, and for a configuration that is not valid.
  function rngvet_cernlib_configure(configuration) result(status)
    character(len=*), intent(in) :: configuration
    integer :: status
    status = c_cernlib_configure(trim(configuration) // c_null_char)
  end function rngvet_cernlib_configure

  ! The canonical name of the CERNLIB entries' configuration ('' with rngvet_error() set when
  ! $RNGVET_CERNLIB_CONFIG is not a configuration).
  function rngvet_cernlib_configuration() result(text)
    character(len=:), allocatable :: text
    type(c_ptr) :: p
    p = c_cernlib_configuration()
    if (c_associated(p)) then
       text = from_c(p)
    else
       text = ''
    end if
  end function rngvet_cernlib_configuration

end module rngvet
