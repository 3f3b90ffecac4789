// generators/configuration.cpp reaches mt_characteristic_polynomial through this name; the
// Dynamic Creator itself lives in dc/ (dc/dynamic_creator.hpp), above generators/.
#pragma once

#include "mt_charpoly.hpp"
