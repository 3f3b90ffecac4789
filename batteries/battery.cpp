#include "battery.hpp"

#include "registry.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

extern "C" {
#include <testu01/bbattery.h>
#include <testu01/swrite.h>
}

namespace rngvet {
namespace {

// TestU01's report goes to a temporary file that has no name: it is unlinked as soon as it is
// created, so no exit path (an exception, a signal, kill -9) can leave it behind in /tmp.
class AnonymousFile {
public:
    AnonymousFile()
    {
        char name[] = "/tmp/rngvet-testu01-XXXXXX";
        fd_ = mkstemp(name);
        if (fd_ < 0) throw std::runtime_error("cannot create a temporary file for TestU01's log");
        unlink(name);
    }
    ~AnonymousFile() { close(fd_); }
    AnonymousFile(const AnonymousFile&) = delete;
    AnonymousFile& operator=(const AnonymousFile&) = delete;
    int fd() const { return fd_; }
    std::string contents() const
    {
        std::string text;
        char buffer[65536];
        for (off_t at = 0;;) {
            const ssize_t n = pread(fd_, buffer, sizeof buffer, at);
            if (n <= 0) break;
            text.append(buffer, static_cast<std::size_t>(n));
            at += n;
        }
        return text;
    }

private:
    int fd_ = -1;
};

// Sends the process's stdout to `fd` while TestU01 writes its report, and restores it.
class StdoutToFile {
public:
    explicit StdoutToFile(int fd)
    {
        std::fflush(stdout);
        saved_ = dup(STDOUT_FILENO);
        if (saved_ < 0 || dup2(fd, STDOUT_FILENO) < 0) {
            restore();
            throw std::runtime_error("cannot send TestU01's log to a temporary file");
        }
    }
    ~StdoutToFile() { restore(); }

private:
    void restore()
    {
        if (saved_ < 0) return;
        std::fflush(stdout);
        dup2(saved_, STDOUT_FILENO);
        close(saved_);
        saved_ = -1;
    }
    int saved_ = -1;
};

std::string version_from_log(const std::string& log)
{
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find("Version:");
        if (at == std::string::npos) continue;
        std::string v = line.substr(at + 8);
        v.erase(0, v.find_first_not_of(" \t"));
        v.erase(v.find_last_not_of(" \t\r") + 1);
        return v;
    }
    return "unknown";
}

} // namespace

std::string testu01_library_version()
{
    // SmallCrush with no test selected reads nothing and prints its header, version included.
    static const std::string version = [] {
        const AnonymousFile tmp_log;
        unif01_Gen* dummy = unif01_CreateDummyGen();
        int rep[201] = { 0 };
        const lebool basic = swrite_Basic;
        swrite_Basic = TRUE;
        {
            StdoutToFile redirect(tmp_log.fd());
            bbattery_RepeatSmallCrush(dummy, rep);
        }
        swrite_Basic = basic;
        unif01_DeleteDummyGen(dummy);
        return version_from_log(tmp_log.contents());
    }();
    return version;
}

BatteryResult run_battery(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path)
{
    // rngvet's own batteries read the same generator record.
    const BatteryFamily& family = battery_family_row(battery.family());
    if (family.own != nullptr) return family.own(gen, battery, tests, log_path);
    // TestU01 reads rep[1..ntests]; its arrays are sized for 200 entries.
    int rep[201] = { 0 };
    const std::vector<int> selected = battery.selected(tests);
    for (int n : selected)
        rep[battery.test(n).number] = 1;

    // Positions of the selected tests' statistics in the full battery.
    std::vector<Statistic> expected;
    int index = 0;
    for (const TestEntry& t : battery.tests) {
        for (int k = 0; k < t.statistics; ++k) {
            ++index;
            if (rep[t.number]) expected.push_back({ index, t.number, "", 0.0 });
        }
    }

    const AnonymousFile tmp_log;
    BatteryResult result;
    const std::clock_t start = std::clock();
    {
        StdoutToFile redirect(tmp_log.fd());
        family.testu01(gen, battery, rep);
    }
    result.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    const std::string log = tmp_log.contents();
    result.testu01_version = version_from_log(log);
    if (!log_path.empty()) {
        std::ofstream dst(log_path, std::ios::binary);
        dst << log;
        if (!dst.flush())
            throw std::runtime_error("cannot write TestU01's log to '" + log_path + "'");
    }

    if (bbattery_NTests != static_cast<int>(expected.size())) {
        // The catalogue does not describe this TestU01 build. For a subset the positions cannot
        // be placed; for the whole battery keep every p-value (hours of CPU) in TestU01's order
        // and mark the test numbers unknown (0) rather than lose them.
        if (!tests.empty())
            throw std::runtime_error("TestU01 wrote " + std::to_string(bbattery_NTests)
                + " statistics where the catalogue of " + battery.name + " expects "
                + std::to_string(expected.size()));
        std::fprintf(stderr,
            "rngvet: warning: TestU01 wrote %d statistics where the catalogue of %s "
            "expects %zu; test numbers are stored as 0\n",
            bbattery_NTests, battery.name.c_str(), expected.size());
        expected.clear();
        for (int j = 0; j < bbattery_NTests; ++j)
            expected.push_back({ j + 1, 0, "", 0.0 });
    }
    for (int j = 0; j < bbattery_NTests; ++j) {
        Statistic s = expected[static_cast<std::size_t>(j)];
        s.test_name = bbattery_TestNames[j];
        s.pvalue = bbattery_pVal[j];
        result.statistics.push_back(s);
    }
    return result;
}

} // namespace rngvet
