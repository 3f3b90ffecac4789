// libFuzzer target: a campaign's task table (DIR/tasks.tsv, read by campaign status, merge,
// resubmit and the task runs). The input is the table's body; its end line (task count and
// SHA-256) is added here, so the fuzzer reaches the rows instead of the hash check. Any input
// may be refused with InputError; a table that is read writes back to the same table.
#include "campaigns/campaign.hpp"
#include "generators/error.hpp"
#include "generators/sha256.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string body(reinterpret_cast<const char*>(data), size);
    // The task rows: lines that start with a digit (a task id).
    std::size_t rows = 0;
    for (std::size_t at = 0; at < body.size(); at = body.find('\n', at) + 1) {
        if (body[at] >= '0' && body[at] <= '9') ++rows;
        if (body.find('\n', at) == std::string::npos) break;
    }
    for (const std::size_t count : { rows, rows + 1 }) {
        const std::string text
            = body + "end\t" + std::to_string(count) + "\t" + rngvet::sha256_hex(body) + "\n";
        try {
            const rngvet::campaigns::TaskTable table
                = rngvet::campaigns::parse_task_table(text, "fuzz.tsv");
            const rngvet::campaigns::TaskTable again = rngvet::campaigns::parse_task_table(
                rngvet::campaigns::write_task_table(table), "fuzz-again.tsv");
            if (!rngvet::campaigns::same_tasks(table.tasks, again.tasks)) std::abort();
        } catch (const rngvet::InputError&) {
        }
    }
    return 0;
}
