// The merge of a campaign's task databases into its campaign database (rngvet campaign merge,
// docs/campaigns.md): each task's run folded into one run per (campaign, configuration, seed).
// The checks and the campaign tables' SQL are its own; the rows are copied column for column by
// the store's generic copy (Store::copy_rows, from the column lists of reports/schema.hpp).
#pragma once

#include "reports/store.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace rngvet::campaigns {

// What a campaign database expects of one task database.
struct CampaignTaskSpec {
    CampaignStamp stamp;
    std::string config; // canonical configuration name (runs.config)
    std::string battery; // runs.battery
    std::string tests_selected; // the campaign's selection of the battery, "" for all of it
    int battery_tests = 0; // tests in that selection: the folded run is complete with all
};

// What merging one task database did.
struct CampaignMerge {
    std::int64_t run_id = 0; // the campaign run the task was folded into (0: no run yet)
    std::int64_t tests_added = 0;
    std::int64_t statistics_added = 0;
    std::optional<RunStatus> task_status; // of the task's last run; nullopt when it has none yet
    std::size_t task_tests = 0; // tests the task database holds
};

// Folds the runs of the task database at `task_db` into the campaign database `store`, in one
// transaction: one run per (campaign, configuration, seed), each test and statistic at most
// once, so merging again adds nothing and changes nothing. A file that is not an rngvet store,
// is damaged, or carries another stamp (or runs of another configuration) is refused with
// InputError before anything is written.
CampaignMerge merge_campaign_task(Store& store, const std::string& task_db,
    const CampaignTaskSpec& spec, const std::string& merged_at);

} // namespace rngvet::campaigns
