// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
#include "native_support.hpp"
