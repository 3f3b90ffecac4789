// bits_read() from the per-battery tables of battery_tables.cpp, which also say how the bits each
// test reads were derived from TestU01's bbattery.c; the registry names each family's table.
#include "bits_read.hpp"

#include "battery_tables.hpp"
#include "catalogue.hpp"
#include "generators/error.hpp"
#include "registry.hpp"

#include <stdexcept>

namespace rngvet {

BitsRead bits_read(const std::string& battery, int test_number)
{
    const std::string family = battery_family(battery);
    const BatteryFamily* family_row = nullptr;
    try {
        family_row = &battery_family_row(family);
    } catch (const InputError&) {
        throw std::out_of_range("no bits-read table for battery '" + family + "'");
    }
    const tables::Rows& rows = family_row->tests;
    if (test_number < 1 || static_cast<std::size_t>(test_number) > rows.size())
        throw std::out_of_range(battery + " has no test " + std::to_string(test_number));
    const tables::TestRow& row = rows[static_cast<std::size_t>(test_number - 1)];
    int r = row.r, bits = row.bits;
    if (family_row->bits_from_parameters) {
        try {
            const BatteryCatalogue& c = catalogue_for(battery);
            r = c.r;
            bits = c.s;
        } catch (const InputError&) {
            throw std::out_of_range("no bits-read table for battery '" + battery + "'");
        }
    }
    BitsRead b;
    b.first_bit = r + 1;
    b.all_bits = bits == 0;
    b.highest_bit = b.all_bits ? 32 : r + bits;
    b.call = row.call;
    b.resolution_matters = family_row->resolution_matters;
    return b;
}

int highest_bit_read(const std::string& battery, int test_number)
{
    return bits_read(battery, test_number).highest_bit;
}

} // namespace rngvet
