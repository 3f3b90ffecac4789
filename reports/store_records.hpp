// What the store keeps, as records: a run's status and its words, the records of the runs,
// benches, start checks and campaign stamps, and the schema version they make up. The store
// (store.hpp) reads and writes them; its tables (schema.hpp) name their members. Both include
// this header, and neither includes the other's.
#pragma once

#include "batteries/records.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace rngvet {

inline constexpr int store_schema_version = 6;

// A run's status as stored (runs.status, campaign_tasks.status): one row per status, its text in
// the store. The CHECK of runs.status (reports/schema.cpp) is written from the same table.
enum class RunStatus { running, complete, interrupted, failed };
inline constexpr Term<RunStatus> run_status_terms[] = {
    { RunStatus::running, "running", "" },
    { RunStatus::complete, "complete", "" },
    { RunStatus::interrupted, "interrupted", "" },
    { RunStatus::failed, "failed", "" },
};
constexpr const char* to_text(RunStatus s)
{
    return term_text(run_status_terms, s);
}
// The table of the type's terms (found by argument-dependent lookup, as the store's columns do).
constexpr const auto& terms_of(RunStatus)
{
    return run_status_terms;
}
// nullopt for any other text.
inline std::optional<RunStatus> run_status_from_text(const std::string& text)
{
    return term_value(run_status_terms, text);
}

struct RunRecord {
    std::int64_t run_id = 0;
    std::string generator; // e.g. ranmar48
    std::string config; // canonical configuration name
    std::string seed; // e.g. 1802,9373
    std::string backend; // cpu, openmp, opencl, cuda
    std::string battery; // smallcrush, crush, bigcrush
    RunMode mode = RunMode::serial;
    RunStatus status = RunStatus::running;
    int resolution_bits = 0;
    std::string params_sha256;
    std::string testu01_version;
    std::string rngvet_version;
    std::string host;
    std::string command_line;
    std::string started_at; // UTC, ISO 8601
    std::string finished_at;
    std::uint64_t numbers_used = 0;
    double cpu_seconds = 0;
    int jobs = 1;
    std::string cpu_model;
    std::string gpu_model;
    std::string options; // the configuration's command-line options, one per line
    std::string tests_selected; // "" for the whole battery, else e.g. "1,5,10"
    std::string input_sha256; // file: generators: SHA-256 of the input file at the start
    std::string params_check; // mtdc: "verified", "verified (cached)" or "unverified (allowed)"
    std::string engine
        = "testu01"; // asked for: testu01, native or auto (each test's: tests.engine)
};

// TestRecord (one test's provenance) and the statistics are the runner's own structs.
using StatisticRecord = Statistic;

// One measured throughput of a configuration on a backend (`rngvet bench`).
struct BenchRecord {
    std::int64_t bench_id = 0;
    std::string config;
    std::string backend;
    std::string device;
    std::string placement; // "device" (device-resident) or "host" (delivered to pinned host memory)
    double numbers_per_second = 0;
    double bytes_per_second = 0;
    std::string measured_at;
    std::string command_line;
};

// The start check of `rngvet validate` on one multi-instance configuration (schema 6;
// validators/checks.hpp's StartCorrelation, docs/reports.md): the bits of neighbouring
// instances compared over the first `steps` numbers of `pairs` pairs.
struct StartCheckRecord {
    std::int64_t check_id = 0;
    std::string config; // canonical configuration name, as runs.config
    int bits = 32; // bits of each word compared
    int pairs = 0;
    int steps = 0;
    double agreement = 0.5; // fraction of the compared bits that agree
    double z = 0;
    double p = 1; // two-sided
    int worst_pair = 0; // i of the most extreme pair (i, i+1)
    double worst_agreement = 0.5;
    double worst_p = 1; // Bonferroni-corrected
    bool passed = true;
    std::string checked_at; // UTC, ISO 8601
    std::string rngvet_version;
    std::string host;
    std::string command_line;
};

// Campaigns (schema 3; rngvet campaign, docs/campaigns.md).

// Which task of which campaign a task database holds; written before the task's run starts.
struct CampaignStamp {
    std::string campaign_id;
    int task_id = 0;
    std::string configuration; // the campaign file's name of the configuration
    std::string seed; // as in runs.seed
    std::string tests; // the task's tests, e.g. "1,4,7"
};

// "campaign C task T (configuration, seed S, tests L)"; whether two stamps are the same.
std::string describe_stamp(const CampaignStamp& s);
bool same_stamp(const CampaignStamp& a, const CampaignStamp& b);

} // namespace rngvet
