// Planning: the tests packed into shards of roughly equal cost, the campaign expanded into its
// tasks (configurations x seeds x shards), and the wall-time estimate of a plan.
#include "batteries/battery_choice.hpp"
#include "campaign.hpp"
#include "generators/error.hpp"
#include "kernels/backend.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace rngvet::campaigns {

std::vector<std::vector<int>> pack_shards(
    const BatteryCatalogue& battery, const std::vector<int>& tests, int shards)
{
    std::vector<int> order = tests;
    if (order.empty())
        for (const TestEntry& t : battery.tests)
            order.push_back(t.number);
    if (shards < 1 || static_cast<std::size_t>(shards) > order.size())
        throw InputError("cannot split " + std::to_string(order.size()) + " tests into "
            + std::to_string(shards) + " shards");
    // Costliest first; equal costs in test order, so the packing is reproducible.
    std::stable_sort(order.begin(), order.end(),
        [&](int a, int b) { return battery.test(a).cost > battery.test(b).cost; });
    std::vector<std::vector<int>> bins(static_cast<std::size_t>(shards));
    std::vector<double> load(bins.size(), 0);
    for (int t : order) {
        const auto least
            = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        bins[least].push_back(t);
        load[least] += battery.test(t).cost;
    }
    for (auto& b : bins)
        std::sort(b.begin(), b.end());
    std::sort(bins.begin(), bins.end(),
        [](const auto& a, const auto& b) { return a.front() < b.front(); });
    return bins;
}

double longest_first_makespan(std::vector<double> costs, int workers)
{
    if (workers < 1) workers = 1;
    std::sort(costs.begin(), costs.end(), std::greater<>());
    std::vector<double> load(static_cast<std::size_t>(workers), 0);
    for (double c : costs)
        *std::min_element(load.begin(), load.end()) += c;
    return *std::max_element(load.begin(), load.end());
}

std::vector<CampaignTask> expand(const Campaign& campaign)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    const auto shards = pack_shards(battery, campaign.tests, campaign.shards);
    std::vector<CampaignTask> tasks;
    for (const CampaignConfiguration& conf : campaign.configurations) {
        if (conf.configs.size() != conf.seeds.size())
            throw std::logic_error("configuration " + conf.name + " was not resolved (its seeds "
                + std::to_string(conf.seeds.size()) + ", its configurations "
                + std::to_string(conf.configs.size()) + ")");
        for (std::size_t i = 0; i < conf.seeds.size(); ++i) {
            const std::string& seed = conf.seeds[i];
            for (const auto& shard : shards) {
                CampaignTask t;
                t.id = static_cast<int>(tasks.size());
                t.configuration = conf.name;
                t.config = conf.configs[i];
                t.seed = seed;
                t.tests = shard;
                for (int n : shard)
                    t.cost += battery.test(n).cost;
                t.run_arguments = run_options(conf.keys, seed);
                BatteryChoiceText choice;
                choice.battery = campaign.battery;
                choice.tests = join_ints(shard);
                choice.engine = campaign.engine;
                const std::vector<std::string> more = battery_choice_arguments(choice);
                t.run_arguments.insert(t.run_arguments.end(), more.begin(), more.end());
                tasks.push_back(t);
            }
        }
    }
    return tasks;
}

CampaignPlan plan_campaign(
    const Campaign& campaign, const std::vector<CampaignTask>& tasks, int nodes, int cpus_per_node)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    CampaignPlan p;
    p.cpus_per_task = campaign.slurm.cpus_per_task;
    for (const auto& conf : campaign.configurations)
        p.pairs += conf.seeds.size();
    std::vector<double> walls;
    for (const CampaignTask& t : tasks) {
        p.cpu_seconds += t.cost;
        std::vector<double> costs;
        for (int n : t.tests)
            costs.push_back(battery.test(n).cost);
        walls.push_back(longest_first_makespan(costs, p.cpus_per_task));
    }
    p.slots = nodes * std::max(1, cpus_per_node / p.cpus_per_task);
    if (!walls.empty()) {
        p.shortest_task = *std::min_element(walls.begin(), walls.end());
        p.longest_task = *std::max_element(walls.begin(), walls.end());
    }
    p.wall_seconds = longest_first_makespan(walls, p.slots);
    return p;
}

} // namespace rngvet::campaigns
