// Whole batteries on the native engine: the same p-values as TestU01's, stored by rngvet run.
#include "support.hpp"
