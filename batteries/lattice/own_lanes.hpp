// The chains of ising.hpp in the own-lanes mode (ising.hpp, "Own lanes"), written as machines
// that stop where their numbers run out and go on from there when more arrive: every replica
// reads a window of its own lane (the numbers of one block of rounds) at a time, takes what it
// needs, and keeps its place in the middle of a step (a Wolff cluster half grown, a sweep half
// done) until the next window. One replica's machine, with its lattice and stack, is a plain
// state and plain arrays: ising.cpp runs the replicas on host threads and ising_device_chain.hpp
// runs the Wolff machine, the same code, one device thread per replica (RNGVET_HD).
//
// Each machine draws its numbers in the count and order of the host chain (ising.cpp's
// IsingChain with one lane, the statement of ising.hpp), so that a replica equals that chain on
// its lane's numbers; the window only says where the machine stops, never what it draws. A
// machine stops only when it needs a number past its window, so every replica that has steps
// left has taken its whole window when a block ends.
//
// The bond sum is kept exactly: a Wolff step adds, for each spin it flips, in flip order,
// -2 s h (s the spin before the flip, h the sum of its four neighbours then), which sums to the
// change the host chain counts from the cluster's boundary; a Metropolis flip adds -2 s h as the
// host chain does; a Swendsen-Wang sweep recounts it from the spins, as the host chain does.
#pragma once

#include "batteries/lattice/metropolis.hpp"
#include "generators/portable.hpp"

#include <cstdint>

namespace rngvet::lattice::own_lanes {

// The neighbour of site i in `direction` (ising.hpp's order: 0 right, 1 left, 2 down, 3 up) on
// the periodic L x L lattice.
RNGVET_HD int neighbour(int L, int i, int direction)
{
    const int y = i / L, x = i - y * L;
    switch (direction) {
    case 0:
        return y * L + (x + 1 == L ? 0 : x + 1);
    case 1:
        return y * L + (x == 0 ? L - 1 : x - 1);
    case 2:
        return (y + 1 == L ? 0 : y + 1) * L + x;
    default:
        return (y == 0 ? L - 1 : y - 1) * L + x;
    }
}

// The sum of the four neighbours' spins (one division for the four).
RNGVET_HD int neighbour_sum(const std::int8_t* spins, int L, int i)
{
    const int y = i / L, x = i - y * L, row = y * L;
    return spins[row + (x + 1 == L ? 0 : x + 1)] + spins[row + (x == 0 ? L - 1 : x - 1)]
        + spins[(y + 1 == L ? 0 : row + L) + x] + spins[(y == 0 ? (L - 1) * L : row - L) + x];
}

// What one replica's machine keeps between windows (the same for the three algorithms; each
// uses its fields). A value-initialised state is a replica that has not started: all spins up
// (the caller sets them), bond sum 2N.
struct State {
    std::uint64_t steps; // steps finished
    std::uint64_t numbers; // numbers taken
    std::uint64_t flips; // spins flipped in the measured steps
    std::int64_t bond_sum; // after the last finished step
    std::int64_t change; // Wolff: the bond sum's change in the step under way
    std::int32_t top; // Wolff: the stack's height; -1 between steps
    std::int32_t site; // Wolff: the site being examined; others: the place in the step
    std::int32_t direction; // Wolff: the next neighbour of `site` to test (4: pop another)
    std::int32_t count; // spins flipped in the step under way
    std::int32_t sigma; // Wolff: the cluster's original spin; Swendsen-Wang: the phase
    std::int32_t started; // 0 before the replica's first step
};

// What every replica of a run shares.
struct Plan {
    int L;
    double p_add; // 1 - exp(-2K)
    double table[3]; // metropolis_table(K)
    std::uint64_t thermalisation;
    std::uint64_t total; // thermalisation + measured steps
};

// The window: `available` numbers of the replica, number(k) the k-th (0-based) of them.
// `out` takes the bond sum after each measured step finished in the window (at most
// `available` of them: each step finished in a window takes at least one of its numbers), and
// `measured` counts them. Returns the numbers taken.

inline void start(State& s, const Plan& plan)
{
    s = State{};
    s.bond_sum = 2 * static_cast<std::int64_t>(plan.L) * plan.L;
    s.top = -1;
    s.direction = 4;
    s.started = 1;
}

// A step finished: its bond sum out if measured.
RNGVET_HD void finish_step(State& s, const Plan& plan, std::int32_t* out, std::uint32_t& measured)
{
    if (s.steps >= plan.thermalisation) {
        s.flips += static_cast<std::uint64_t>(s.count);
        out[measured++] = static_cast<std::int32_t>(s.bond_sum);
    }
    ++s.steps;
    s.count = 0;
}

// Wolff (ising.hpp): the seed from one number, floor(u N); then, popping the LIFO stack, each
// neighbour in the order right, left, down, up that still has the spin sigma takes one number
// and joins if u < p_add. `stack` holds N sites.
template <class Number>
RNGVET_HD std::uint32_t wolff(State& s, const Plan& plan, std::int8_t* spins, std::int32_t* stack,
    const Number& number, std::uint32_t available, std::int32_t* out, std::uint32_t& measured)
{
    const int L = plan.L, n = L * L;
    std::uint32_t k = 0;
    while (s.steps < plan.total) {
        if (s.top < 0) {
            if (k == available) break;
            int seed = static_cast<int>(number(k++) * n);
            if (seed >= n) seed = n - 1;
            const int sigma = spins[seed];
            s.sigma = sigma;
            s.change = -2 * sigma * neighbour_sum(spins, L, seed);
            spins[seed] = static_cast<std::int8_t>(-sigma);
            stack[0] = seed;
            s.top = 1;
            s.count = 1;
            s.direction = 4;
        }
        const int sigma = s.sigma;
        for (;;) {
            if (s.direction == 4) {
                if (s.top == 0) break;
                s.site = stack[--s.top];
                s.direction = 0;
            }
            const int j = neighbour(L, s.site, s.direction);
            if (spins[j] == sigma) {
                if (k == available) {
                    s.numbers += k;
                    return k;
                }
                if (number(k++) < plan.p_add) {
                    s.change += -2 * sigma * neighbour_sum(spins, L, j);
                    spins[j] = static_cast<std::int8_t>(-sigma);
                    stack[s.top++] = j;
                    ++s.count;
                }
            }
            ++s.direction;
        }
        s.bond_sum += s.change;
        s.top = -1;
        finish_step(s, plan, out, measured);
    }
    s.numbers += k;
    return k;
}

// Checkerboard Metropolis (metropolis.hpp): the sweep's q-th site takes one number.
template <class Number>
RNGVET_HD std::uint32_t metropolis(State& s, const Plan& plan, std::int8_t* spins,
    const Number& number, std::uint32_t available, std::int32_t* out, std::uint32_t& measured)
{
    const int L = plan.L, n = L * L;
    const Checkerboard board{ L };
    const int black = board.sites(0);
    std::uint32_t k = 0;
    while (s.steps < plan.total) {
        for (; s.site < n; ++s.site) {
            if (k == available) {
                s.numbers += k;
                return k;
            }
            const int q = s.site;
            const int i = q < black ? board.site(0, q) : board.site(1, q - black);
            const int sh = spins[i] * neighbour_sum(spins, L, i);
            if (metropolis_accepts(number(k++), sh, plan.table)) {
                spins[i] = static_cast<std::int8_t>(-spins[i]);
                s.bond_sum -= 2 * sh;
                ++s.count;
            }
        }
        s.site = 0;
        finish_step(s, plan, out, measured);
    }
    s.numbers += k;
    return k;
}

// The root of `site`'s cluster, halving paths as the host chain does.
RNGVET_HD int find_root(std::int32_t* parent, int site)
{
    while (parent[site] != site) {
        parent[site] = parent[parent[site]];
        site = parent[site];
    }
    return site;
}

// Swendsen-Wang (ising.hpp): phase 0, bond e = 2 i + d (d = 0 right, 1 down) takes one number,
// occupied if the spins are equal and u < p_add (union keeping the smaller root); phase 1, the
// sites in order, one number at each root: its cluster flips if u < 1/2. `parent` and `flip`
// hold N entries.
template <class Number>
RNGVET_HD std::uint32_t swendsen_wang(State& s, const Plan& plan, std::int8_t* spins,
    std::int32_t* parent, std::uint8_t* flip, const Number& number, std::uint32_t available,
    std::int32_t* out, std::uint32_t& measured)
{
    const int L = plan.L, n = L * L;
    std::uint32_t k = 0;
    while (s.steps < plan.total) {
        if (s.sigma == 0 && s.site == 0)
            for (int i = 0; i < n; ++i)
                parent[i] = i;
        for (; s.sigma == 0 && s.site < 2 * n; ++s.site) {
            if (k == available) {
                s.numbers += k;
                return k;
            }
            const int i = s.site / 2;
            const int j = neighbour(L, i, s.site % 2 == 0 ? 0 : 2);
            const double u = number(k++);
            if (spins[i] == spins[j] && u < plan.p_add) {
                const int a = find_root(parent, i), b = find_root(parent, j);
                if (a < b)
                    parent[b] = a;
                else if (b < a)
                    parent[a] = b;
            }
        }
        if (s.sigma == 0) {
            s.sigma = 1;
            s.site = 0;
        }
        for (; s.site < n; ++s.site) {
            const int i = s.site;
            const int root = find_root(parent, i);
            if (root == i) {
                if (k == available) {
                    s.numbers += k;
                    return k;
                }
                flip[i] = number(k++) < 0.5 ? 1 : 0;
            }
            if (flip[root]) {
                spins[i] = static_cast<std::int8_t>(-spins[i]);
                ++s.count;
            }
        }
        std::int64_t sum = 0;
        for (int i = 0; i < n; ++i)
            sum += spins[i] * (spins[neighbour(L, i, 0)] + spins[neighbour(L, i, 2)]);
        s.bond_sum = sum;
        s.sigma = 0;
        s.site = 0;
        finish_step(s, plan, out, measured);
    }
    s.numbers += k;
    return k;
}

} // namespace rngvet::lattice::own_lanes
