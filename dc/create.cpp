#include "dc/create.hpp"

#include "dc/primitivity.hpp"
#include "dc/tempering.hpp"
#include "dc/threads.hpp"
#include "generators/mt.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// dc_create
// ---------------------------------------------------------------------------------------------

namespace {

// rngvet mode: candidates drawn before giving up on an id. Each id has 2^15 possible aaa and
// about one in p has a primitive phi, so this many draws failing would point to a bug.
constexpr int dc_max_draws = 1 << 20;

// dcmt's limit of candidates per id (its MAX_SEARCH).
constexpr int dcmt_max_candidates = 10000;

// rngvet mode: primitive aaa tempered per id (the first ones of the id's stream); the set
// keeps the one whose tempering reaches the lowest defect sum.
constexpr int rngvet_aaa_per_id = 2;

// The parallel search of dc_create.
//
// Both modes look, in a stream of candidate aaa, for the first primitive ones in stream
// order: dcmt mode has one stream (one MT19937 for all ids in turn: an id's candidates start
// right after the draws of the previous id's winner), rngvet mode one stream per id. Such a
// stream is a lane. A candidate passes the prescreen when it is drawn (cheap, under the
// lock); the exact test runs outside the lock, on any thread, and threads take the next
// untested candidate of a lane in stream order even before the earlier ones have finished
// (speculation: almost every candidate is reducible). When a candidate proves primitive and
// completes its id (its `want`-th primitive), every later candidate of the lane is dropped
// (tests under way are cancelled) and the lane goes on with the next id from the stream right
// after that candidate, as dcmt does; an earlier candidate that proves primitive later moves
// the cut back. An id is settled when all its candidates up to the cut are tested, from the
// front of the lane; its tempering is then a job of its own, which threads take before
// candidates. The result is the first primitive ones in stream order whatever the threads
// did, so it does not depend on the thread count.
class DcSearch {
public:
    DcSearch(
        const MtCharpoly& phi, const DcCreateOptions& o, int threads, std::function<void()> tick)
        : phi_(phi)
        , o_(o)
        , threads_(threads)
        , dcmt_(o.creator == DcCreator::dcmt_061)
        , want_(dcmt_ ? 1 : rngvet_aaa_per_id)
        , nn_(mt_params_for(o.p, 0, 0, 0).nn)
        , draw_limit_(o.max_draws > 0 ? o.max_draws
                  : dcmt_             ? dcmt_max_candidates
                                      : dc_max_draws)
        , tick_(std::move(tick))
        , aaa_(static_cast<std::size_t>(o.count))
        , sets_(static_cast<std::size_t>(o.count))
    {
        if (dcmt_) {
            lanes_.resize(1);
            Lane& lane = lanes_[0];
            lane.rng = std::make_unique<MtState>();
            mt_seed(*lane.rng, mt19937_, o.seed); // init_dc(seed): init_genrand
            lane.first_id = 0;
            lane.last_id = o.count - 1;
            lane.gen_id = lane.conf_id = 0;
            lane.started = true;
        } else {
            lanes_.resize(static_cast<std::size_t>(o.count));
            for (int i = 0; i < o.count; ++i) {
                Lane& lane = lanes_[static_cast<std::size_t>(i)];
                lane.first_id = lane.last_id = lane.gen_id = lane.conf_id = i;
            }
        }
    }

    std::vector<MtParams> run()
    {
        const auto n = static_cast<std::size_t>(threads_);
        dc_parallel_for(n, threads_, [this](std::size_t) { work(); });
        if (error_) std::rethrow_exception(error_);
        return std::move(sets_);
    }

private:
    struct Candidate {
        std::uint32_t aaa = 0;
        int id = 0; // index of the id (0 .. count - 1)
        std::unique_ptr<MtState> after; // dcmt mode: the stream right after its draws
        enum class State { untested, testing, reducible, primitive } state = State::untested;
        std::atomic<bool> dropped{ false };
    };

    struct Lane {
        std::deque<std::shared_ptr<Candidate>> cands; // not yet settled, in stream order
        std::size_t handed = 0; // cands[0 .. handed) are tested or under test
        int in_flight = 0;
        bool started = false;
        std::unique_ptr<MtState> rng; // the stream after the last candidate drawn
        int first_id = 0;
        int last_id = 0;
        int gen_id = 0; // the id the next draw is for
        int draws = 0; // draws for gen_id so far
        bool exhausted = false; // gen_id reached the draw limit
        bool gen_done = false; // every id of the lane has its cut
        int conf_id = 0; // the id being settled at the front
        std::vector<std::uint32_t> conf_aaa; // its primitive aaa settled so far
    };

    void start(Lane& lane, int id)
    {
        lane.rng = std::make_unique<MtState>();
        const std::uint32_t key[2] = { o_.seed, static_cast<std::uint32_t>(o_.start_id + id) };
        mt19937_init_by_array(*lane.rng, mt19937_, key, 2);
        lane.started = true;
    }

    // Draws the lane's next candidate that passes the prescreen; false when the lane has no
    // more (all its ids cut, or the current one out of draws).
    bool draw(Lane& lane)
    {
        if (!lane.started) start(lane, lane.first_id);
        if (lane.gen_done || lane.exhausted) return false;
        const auto id = static_cast<std::uint32_t>(o_.start_id + lane.gen_id);
        while (lane.draws < draw_limit_) {
            const std::uint32_t r = mt_next(*lane.rng, mt19937_);
            ++lane.draws;
            const std::uint32_t aaa = dcmt_ ? (r & 0xFFFF0000u) | 0x80000000u | id
                                            : 0x80000000u | (r & 0x7FFF0000u) | (id & 0xFFFFu);
            if (!phi_.prescreen(aaa)) continue;
            auto c = std::make_shared<Candidate>();
            c->aaa = aaa;
            c->id = lane.gen_id;
            if (dcmt_) {
                for (int d = 0; d < nn_; ++d) // dcmt's period check draws its start state
                    mt_next(*lane.rng, mt19937_);
                c->after = std::make_unique<MtState>(*lane.rng);
            }
            lane.cands.push_back(std::move(c));
            return true;
        }
        lane.exhausted = true;
        check_exhausted(lane);
        return false;
    }

    bool has_work(Lane& lane) { return lane.handed < lane.cands.size() || draw(lane); }

    // The lane a thread tests its next candidate from: its previous lane while no other
    // thread works on it, else a lane not started yet, else the started one with the fewest
    // tests under way. Null when no lane has a candidate to test.
    Lane* pick(int& last)
    {
        if (dcmt_) return has_work(lanes_[0]) ? &lanes_[0] : nullptr;
        if (last >= 0) {
            Lane& lane = lanes_[static_cast<std::size_t>(last)];
            if (lane.in_flight == 0 && has_work(lane)) return &lane;
        }
        while (next_lane_ < lanes_.size()) {
            Lane& lane = lanes_[next_lane_];
            active_.push_back(next_lane_++);
            if (has_work(lane)) {
                last = static_cast<int>(active_.back());
                return &lane;
            }
        }
        Lane* best = nullptr;
        for (std::size_t i = 0; i < active_.size();) {
            Lane& lane = lanes_[active_[i]];
            if (!has_work(lane)) { // a lane never regains work in rngvet mode
                active_[i] = active_.back();
                active_.pop_back();
                continue;
            }
            if (!best || lane.in_flight < best->in_flight) {
                best = &lane;
                last = static_cast<int>(active_[i]);
            }
            ++i;
        }
        return best;
    }

    // A test result: cut the lane after the candidate that completes an id, then settle what
    // the front of the lane allows.
    void record(Lane& lane, const Candidate& c)
    {
        if (c.state == Candidate::State::primitive) {
            int found = c.id == lane.conf_id ? static_cast<int>(lane.conf_aaa.size()) : 0;
            for (std::size_t i = 0; i < lane.cands.size(); ++i) {
                const Candidate& x = *lane.cands[i];
                if (x.id != c.id || x.state != Candidate::State::primitive) continue;
                if (++found < want_) continue;
                cut_after(lane, i);
                break;
            }
        }
        settle(lane);
    }

    void cut_after(Lane& lane, std::size_t i)
    {
        const Candidate& c = *lane.cands[i];
        for (std::size_t j = i + 1; j < lane.cands.size(); ++j)
            lane.cands[j]->dropped = true;
        lane.cands.resize(i + 1);
        lane.handed = std::min(lane.handed, lane.cands.size());
        lane.exhausted = false;
        lane.draws = 0;
        if (c.id >= lane.last_id) {
            lane.gen_done = true;
            lane.gen_id = c.id;
            // No more draws: free the state (several KB; rngvet mode has a lane per id).
            lane.rng.reset();
        } else {
            lane.gen_done = false;
            lane.gen_id = c.id + 1;
            // Only dcmt mode has lanes with several ids, and its candidates keep `after`.
            lane.rng = std::make_unique<MtState>(*c.after);
        }
    }

    void settle(Lane& lane)
    {
        while (!lane.cands.empty()) {
            const Candidate& c = *lane.cands.front();
            if (c.state == Candidate::State::untested || c.state == Candidate::State::testing)
                break;
            if (c.state == Candidate::State::primitive) {
                lane.conf_aaa.push_back(c.aaa);
                if (static_cast<int>(lane.conf_aaa.size()) == want_) {
                    aaa_[static_cast<std::size_t>(c.id)] = std::move(lane.conf_aaa);
                    lane.conf_aaa.clear();
                    tempering_.push_back(c.id);
                    ++lane.conf_id;
                    if (dcmt_ && tick_) tick_();
                }
            }
            lane.cands.pop_front();
            --lane.handed;
        }
        check_exhausted(lane);
    }

    // Throws when the id at the front of the lane can no longer be completed: all its
    // candidates are settled and its stream reached the draw limit. Called wherever either
    // can become true last (after settling, and when a draw reaches the limit), so that no
    // thread waits for work that will never come.
    void check_exhausted(const Lane& lane) const
    {
        if (!(lane.cands.empty() && lane.exhausted && lane.gen_id == lane.conf_id)) return;
        const int id = o_.start_id + lane.conf_id;
        throw std::runtime_error(dcmt_
                ? "dc_create: dcmt gives up on id " + std::to_string(id) + " after "
                    + std::to_string(draw_limit_) + " candidates (dcmt returns the sets before it)"
                : "dc_create: no primitive aaa found for id " + std::to_string(id) + " in "
                    + std::to_string(draw_limit_) + " draws");
    }

    void work()
    {
        int last = -1;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            if (error_ || tempered_ == o_.count) break;
            if (!tempering_.empty()) {
                const int id = tempering_.front();
                tempering_.pop_front();
                lock.unlock();
                try {
                    temper(id);
                } catch (...) {
                    lock.lock();
                    fail(std::current_exception());
                    break;
                }
                lock.lock();
                ++tempered_;
                changed_.notify_all();
                continue;
            }
            Lane* lane = nullptr;
            try {
                lane = pick(last);
            } catch (...) {
                fail(std::current_exception());
                break;
            }
            if (!lane) {
                changed_.wait(lock);
                continue;
            }
            std::shared_ptr<Candidate> c = lane->cands[lane->handed++];
            c->state = Candidate::State::testing;
            ++lane->in_flight;
            lock.unlock();
            bool primitive = false;
            try {
                primitive = phi_.primitive(c->aaa, &c->dropped);
            } catch (...) {
                lock.lock();
                --lane->in_flight;
                fail(std::current_exception());
                break;
            }
            lock.lock();
            --lane->in_flight;
            if (!c->dropped) {
                c->state = primitive ? Candidate::State::primitive : Candidate::State::reducible;
                try {
                    record(*lane, *c);
                } catch (...) {
                    fail(std::current_exception());
                    break;
                }
            }
            changed_.notify_all();
        }
        changed_.notify_all();
    }

    void temper(int id)
    {
        const std::vector<std::uint32_t>& aaa = aaa_[static_cast<std::size_t>(id)];
        MtParams prm;
        if (dcmt_) {
            prm = mt_params_for(o_.p, aaa.at(0), 0, 0);
            dc_tune_tempering_dcmt(prm);
        } else {
            prm = dc_temper_best_of(o_.p, aaa);
        }
        sets_[static_cast<std::size_t>(id)] = prm;
        if (tick_) tick_();
    }

    void fail(std::exception_ptr e)
    {
        if (!error_) error_ = std::move(e);
        changed_.notify_all();
    }

    const MtCharpoly& phi_;
    const DcCreateOptions& o_;
    int threads_;
    bool dcmt_;
    int want_;
    int nn_;
    int draw_limit_; // draws per id before giving up
    std::function<void()> tick_;
    const MtParams mt19937_ = mt19937_params();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Lane> lanes_;
    std::size_t next_lane_ = 0; // rngvet mode: lanes started so far
    std::vector<std::size_t> active_; // rngvet mode: started lanes that may have work
    std::deque<int> tempering_; // settled ids waiting for their tempering
    int tempered_ = 0;
    std::vector<std::vector<std::uint32_t>> aaa_; // per id, once settled
    std::vector<MtParams> sets_;
    std::exception_ptr error_;
};

} // namespace

const char* dc_creator_name(DcCreator c)
{
    return c == DcCreator::dcmt_061 ? "dcmt-0.6.1" : "rngvet";
}

MtParamSet dc_create(const DcCreateOptions& o)
{
    if (!is_mersenne_exponent(o.p) || o.p < 521) {
        throw std::invalid_argument("dc_create: p must be a Mersenne exponent in 521..44497");
    }
    if (o.count < 1 || o.start_id < 0 || o.start_id + o.count - 1 > 65535)
        throw std::invalid_argument("dc_create: ids must lie in 0..65535 and count be >= 1");
    const MtCharpoly phi(o.p);
    MtParamSet out;
    out.source = "dc-create";
    out.p = o.p;
    out.creator = dc_creator_name(o.creator);
    out.dc_seed = std::to_string(o.seed);
    const auto count = static_cast<std::size_t>(o.count);
    std::atomic<int> done{ 0 };
    std::mutex progress_mutex;
    const int total = o.creator == DcCreator::dcmt_061 ? 2 * o.count : o.count;
    auto tick = [&] {
        const int n = ++done;
        if (o.progress) {
            std::lock_guard<std::mutex> lock(progress_mutex);
            o.progress(n, total);
        }
    };
    // Threads beyond the number of ids still help: they test further candidates of the
    // streams.
    DcSearch search(
        phi, o, dc_thread_count(o.threads, std::numeric_limits<std::size_t>::max()), tick);
    out.sets = search.run();
    out.ids.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        out.ids[i] = static_cast<std::uint32_t>(o.start_id) + static_cast<std::uint32_t>(i);
    return out;
}

MtParamSet dc_create(int p, int count, std::uint32_t seed, int threads, const DcProgress& progress)
{
    DcCreateOptions o;
    o.p = p;
    o.count = count;
    o.seed = seed;
    o.threads = threads;
    o.progress = progress;
    return dc_create(o);
}

} // namespace rngvet
