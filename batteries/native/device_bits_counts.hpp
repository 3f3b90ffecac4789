// The integer work of sstring_AutoCor, sstring_HammingIndep, sstring_HammingCorr and
// sstring_HammingWeight2 (device_bits.hpp) written once with Thrust, for whichever device system
// it is compiled with: CUDA in device_bits_cuda.cu (nvcc), the host's OpenMP in
// tests/test_native_device_bits.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words are written into the system's memory by Numbers::fill_device (device_counts.hpp's
// pattern), a chunk at a time, and only integers come back: AutoCor's count of differing bits,
// the tables of pairs of weights of HammingIndep and HammingCorr, HammingWeight2's weights of
// blocks. Each number gives unif01_StripB (gen, r, s): s bits of GetBits (the top 32 bits of the
// word, stream.hpp's top32) after its r most significant, as Numbers::strip_b. What crosses a
// chunk's end is carried as the CPU paths carry it across their blocks of numbers: AutoCor keeps
// the last d / s + 1 numbers of a chunk for the bits d places further, HammingCorr the last
// weight of a chunk for the pair it begins, HammingWeight2 the part of a block the chunk ends in.
// The chunks of HammingIndep are whole pairs of blocks (and whole numbers).
//
// Only Thrust interfaces found in both Debian 12's Thrust 1.17 and CUDA 13's CCCL are used.
#pragma once

#include "device_counts.hpp"

#include <thrust/iterator/transform_iterator.h>

namespace rngvet::native::device_counts {

// GetBits: the top 32 bits of a word of `bits` bits (stream.hpp's top32).
struct Bits32 {
    int bits;

    RNGVET_HD Word operator()(Word x) const
    {
        if (bits >= 32) {
            const Word top = x >> (bits - 32);
            return top > 0xFFFFFFFFull ? Word(0xFFFFFFFFull) : top;
        }
        return (x << (32 - bits)) & 0xFFFFFFFFull;
    }
};

// Fills dst[0, count) (device memory, count > 0) with the next count words of `in`; as fill.
inline bool fill_at(Numbers& in, Word* dst, std::size_t count, bool first)
{
    wait_for_device();
    if (in.fill_device(dst, count)) return true;
    if (first) return false;
    throw std::runtime_error("native test: the stream stopped writing its numbers into device "
                             "memory in the middle of the test");
}

// How blocks of L bits come from the numbers (hamming_indep.cpp's Layout, sstring_bits.cpp's
// Blocks): with L >= s a block is L / s numbers of s bits and, when L % s > 0, one number of
// which L % s bits count (StripB (r, L % s)); with L < s a number gives s / L blocks, its lowest
// L bits first. The masks select the bits in place in GetBits's 32.
struct BitBlocks {
    Bits32 top;
    bool long_blocks;
    Index words_per_block; // long: L / s, one more when L % s > 0
    Index full_words; // long: L / s
    Word mask_s; // the s bits of StripB (r, s)
    Word mask_rest; // the L % s bits of StripB (r, L % s)
    int shift_s; // 32 - r - s
    int L;
    Word block_mask; // short: 2^L - 1
    Index blocks_per_word; // short: s / L; long: 1

    // The weight of the part of a long block in position `position` of the block.
    RNGVET_HD Cell long_part(Word w, Index position) const
    {
        return bits_set(top(w) & (position < full_words ? mask_s : mask_rest));
    }
    // The weight of the long block at w[0, words_per_block).
    RNGVET_HD Cell long_block(const Word* w) const
    {
        Cell c = 0;
        for (Index j = 0; j < full_words; ++j)
            c += bits_set(top(w[j]) & mask_s);
        if (mask_rest != 0) c += bits_set(top(w[full_words]) & mask_rest);
        return c;
    }
    // The weight of short block j of a number.
    RNGVET_HD Cell short_block(Word w, Index j) const
    {
        return bits_set(((top(w) >> shift_s) >> (j * static_cast<Index>(L))) & block_mask);
    }
    // The weight of block b of words that begin with a block (and with a number).
    RNGVET_HD Cell block(const Word* w, Index b) const
    {
        if (long_blocks) return long_block(w + b * words_per_block);
        return short_block(w[b / blocks_per_word], b % blocks_per_word);
    }
};

inline BitBlocks bit_blocks_for(const Numbers& in, int r, int s, long L)
{
    BitBlocks g{};
    g.top = Bits32{ in.bits() };
    g.long_blocks = L >= s;
    g.full_words = g.long_blocks ? static_cast<Index>(L / s) : 0;
    const int rest = g.long_blocks ? static_cast<int>(L % s) : 0;
    g.words_per_block = g.full_words + (rest > 0 ? 1 : 0);
    g.mask_s = ((Word(1) << s) - 1) << (32 - r - s);
    g.mask_rest = rest > 0 ? ((Word(1) << rest) - 1) << (32 - r - rest) : 0;
    g.shift_s = 32 - r - s;
    g.L = static_cast<int>(L);
    g.block_mask = g.long_blocks ? 0 : (Word(1) << L) - 1;
    g.blocks_per_word = g.long_blocks ? 1 : static_cast<Index>(s / L);
    return g;
}

// Adds the counts of the cells keys[0, m) to table (its cells indexed by key): sorts keys.
inline void add_to_table(thrust::device_vector<Cell>& keys, std::size_t m,
    thrust::device_vector<Cell>& distinct, thrust::device_vector<Index>& counts,
    thrust::device_vector<Index>& table)
{
    const std::ptrdiff_t mm = static_cast<std::ptrdiff_t>(m);
    thrust::sort(keys.begin(), keys.begin() + mm);
    const auto ends = thrust::reduce_by_key(keys.begin(), keys.begin() + mm,
        thrust::constant_iterator<Index>(1), distinct.begin(), counts.begin());
    const thrust::counting_iterator<Index> index(0);
    thrust::for_each(index, index + (ends.first - distinct.begin()),
        AddCount{ thrust::raw_pointer_cast(distinct.data()),
            thrust::raw_pointer_cast(counts.data()), thrust::raw_pointer_cast(table.data()) });
}

// ---------------------------------------------------------------------------------------------
// sstring_AutoCor.

// Whether the s bits of number i differ from the s bits d places further, counted: those begin
// in number i + q, s1 bits into it (q = d / s, s1 = d % s, s2 = s - s1), as bit_runs.cpp counts.
struct Differing {
    const Word* w;
    Bits32 top;
    int shift; // 32 - r - s
    Word mask; // 2^s - 1
    Index q;
    int s1, s2;

    RNGVET_HD Word strip(Word x) const { return (top(x) >> shift) & mask; }
    RNGVET_HD Index operator()(Index i) const
    {
        const Word further = ((strip(w[i + q]) << s1) | (strip(w[i + q + 1]) >> s2)) & mask;
        return bits_set(strip(w[i]) ^ further);
    }
};

// sstring_AutoCor's A of each of N replications (device_bits.hpp). A replication reads
// q + 1 + K numbers; a chunk of at most max_words numbers is written after the q + 1 numbers
// kept from the chunk before, and the numbers of the chunk that have their bits d places
// further among the words held are counted. As birthday_spacings_counts for the rest (nullopt
// with nothing read where `in` cannot write device memory).
inline std::optional<std::vector<std::uint64_t>> auto_cor_counts(
    Numbers& in, long N, long K_long, int r, int s, int d, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const std::uint64_t K = static_cast<std::uint64_t>(K_long);
    const std::size_t q = static_cast<std::size_t>(d / s);
    const std::uint64_t total = q + 1 + K;
    const std::size_t capacity = static_cast<std::size_t>(
        std::min<std::uint64_t>(total, q + 1 + std::max<std::size_t>(1, max_words)));
    thrust::device_vector<Word> words(capacity);
    thrust::device_vector<Word> kept(q + 1);
    const Differing differing{ thrust::raw_pointer_cast(words.data()), Bits32{ in.bits() },
        32 - r - s, (Word(1) << s) - 1, static_cast<Index>(q), d % s, s - d % s };
    const thrust::counting_iterator<Index> index(0);

    std::vector<std::uint64_t> A(static_cast<std::size_t>(N));
    for (std::size_t rep = 0; rep < A.size(); ++rep) {
        std::uint64_t done = 0; // numbers compared
        std::size_t held = 0; // numbers in words[]
        std::uint64_t read = 0;
        std::uint64_t sum = 0;
        while (read < total) {
            const std::size_t size
                = static_cast<std::size_t>(std::min<std::uint64_t>(total - read, capacity - held));
            if (!fill_at(
                    in, thrust::raw_pointer_cast(words.data()) + held, size, rep == 0 && read == 0))
                return std::nullopt;
            held += size;
            read += size;
            // Numbers i with i + q + 1 held, up to K.
            const std::size_t ready
                = static_cast<std::size_t>(std::min<std::uint64_t>(held - (q + 1), K - done));
            sum += thrust::transform_reduce(index, index + static_cast<std::ptrdiff_t>(ready),
                differing, Index(0), thrust::plus<Index>());
            done += ready;
            // The numbers not compared yet (q + 1 of them while numbers are left to read) move
            // to the front.
            const std::size_t keep = held - ready;
            if (read < total && ready > 0) {
                thrust::copy(words.begin() + static_cast<std::ptrdiff_t>(ready),
                    words.begin() + static_cast<std::ptrdiff_t>(held), kept.begin());
                thrust::copy(
                    kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(keep), words.begin());
            }
            held = keep;
        }
        A[rep] = sum;
    }
    return A;
}

// ---------------------------------------------------------------------------------------------
// sstring_HammingIndep.

// Pair p of a chunk that begins with a pair (and with a number): blocks 2p and 2p + 1, its cell
// [weight of the first][weight of the second] in a table of rows of L + 1.
struct IndepPair {
    const Word* w;
    BitBlocks g;
    Cell row;

    RNGVET_HD Cell operator()(Index p) const
    {
        return g.block(w, 2 * p) * row + g.block(w, 2 * p + 1);
    }
};

// For each of N replications of n pairs: the table of counts, then done(replication, table)
// (device_bits.hpp). A chunk is whole pairs and whole numbers (with L < s a multiple of s / L
// pairs, 2 (s / L) blocks being 2 numbers), at most max_words numbers where a pair fits; the
// last chunk of a replication may end with part of a number, as the CPU path reads it. False,
// with nothing read and done never called, where `in` cannot write device memory.
template <class Done>
bool hamming_indep_counts(Numbers& in, long N, long n_long, int r, int s, int L, const Done& done,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const BitBlocks g = bit_blocks_for(in, r, s, L);
    const std::uint64_t n = static_cast<std::uint64_t>(n_long);
    std::uint64_t chunk_pairs;
    if (g.long_blocks) {
        chunk_pairs = std::max<std::uint64_t>(1, max_words / (2 * g.words_per_block));
    } else {
        const std::uint64_t k = g.blocks_per_word;
        chunk_pairs = std::max<std::uint64_t>(k, (max_words / 2) / k * k);
    }
    chunk_pairs = std::min(chunk_pairs, n);
    auto words_of = [&g](std::uint64_t np) -> std::size_t {
        if (g.long_blocks) return static_cast<std::size_t>(2 * np * g.words_per_block);
        return static_cast<std::size_t>((2 * np + g.blocks_per_word - 1) / g.blocks_per_word);
    };
    const std::size_t row = static_cast<std::size_t>(L) + 1;
    thrust::device_vector<Word> words(words_of(chunk_pairs));
    thrust::device_vector<Cell> keys(chunk_pairs), distinct(chunk_pairs);
    thrust::device_vector<Index> counts(chunk_pairs), table(row * row);
    const IndepPair pair{ thrust::raw_pointer_cast(words.data()), g, static_cast<Cell>(row) };
    const thrust::counting_iterator<Index> index(0);
    std::vector<std::uint64_t> host(row * row);
    for (long rep = 0; rep < N; ++rep) {
        thrust::fill(table.begin(), table.end(), Index(0));
        for (std::uint64_t first = 0; first < n;) {
            const std::uint64_t m = std::min(chunk_pairs, n - first);
            if (!fill(in, words, words_of(m), rep == 0 && first == 0)) return false;
            thrust::transform(index, index + static_cast<std::ptrdiff_t>(m), keys.begin(), pair);
            add_to_table(keys, static_cast<std::size_t>(m), distinct, counts, table);
            first += m;
        }
        thrust::copy(table.begin(), table.end(), host.begin());
        done(rep, host);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// sstring_HammingCorr.

// The weight of block b of a chunk that begins with a block (and with a number).
struct BlockWeight {
    const Word* w;
    BitBlocks g;

    RNGVET_HD Cell operator()(Index b) const { return g.block(w, b); }
};

// The cell of the pair that block i of a chunk ends: [the weight before][its weight], the
// weight before block 0 being the chunk before's last (`carried`); `none` (the table's extra
// cell, not returned) for the first block of a replication.
struct CorrPair {
    const Cell* weights;
    Cell carried; // L + 1 for none
    Cell row; // L + 1
    Cell none; // (L + 1)^2

    RNGVET_HD Cell operator()(Index i) const
    {
        const Cell pre = i > 0 ? weights[i - 1] : carried;
        return pre < row ? pre * row + weights[i] : none;
    }
};

// For each of N replications of n blocks: the table of the pairs of successive weights, then
// done(replication, table) (device_bits.hpp). A chunk is whole blocks (at most max_words numbers
// where a block fits; with L < s a multiple of s / L blocks, at most max_words of them where s / L
// fit, and the last chunk of a replication ends with the n % (s / L) blocks of one more number,
// as the CPU path reads them). False, with
// nothing read and done never called, where `in` cannot write device memory.
template <class Done>
bool hamming_corr_counts(Numbers& in, long N, long n_long, int r, int s, int L, const Done& done,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const BitBlocks g = bit_blocks_for(in, r, s, L);
    const std::uint64_t n = static_cast<std::uint64_t>(n_long);
    const std::uint64_t chunk_blocks = std::min(n,
        g.long_blocks
            ? std::max<std::uint64_t>(1, max_words / g.words_per_block)
            : std::max<std::uint64_t>(1, max_words / g.blocks_per_word) * g.blocks_per_word);
    auto words_of = [&g](std::uint64_t nb) -> std::size_t {
        if (g.long_blocks) return static_cast<std::size_t>(nb * g.words_per_block);
        return static_cast<std::size_t>((nb + g.blocks_per_word - 1) / g.blocks_per_word);
    };
    const Cell row = static_cast<Cell>(L) + 1;
    const std::size_t cells = static_cast<std::size_t>(row * row);
    thrust::device_vector<Word> words(words_of(chunk_blocks));
    thrust::device_vector<Cell> weights(chunk_blocks);
    thrust::device_vector<Cell> keys(chunk_blocks), distinct(chunk_blocks);
    thrust::device_vector<Index> counts(chunk_blocks), table(cells + 1);
    const BlockWeight weight{ thrust::raw_pointer_cast(words.data()), g };
    const thrust::counting_iterator<Index> index(0);
    std::vector<std::uint64_t> host(cells);
    for (long rep = 0; rep < N; ++rep) {
        thrust::fill(table.begin(), table.end(), Index(0));
        Cell carried = row;
        for (std::uint64_t first = 0; first < n;) {
            const std::uint64_t m = std::min(chunk_blocks, n - first);
            const std::ptrdiff_t mm = static_cast<std::ptrdiff_t>(m);
            if (!fill(in, words, words_of(m), rep == 0 && first == 0)) return false;
            thrust::transform(index, index + mm, weights.begin(), weight);
            thrust::transform(index, index + mm, keys.begin(),
                CorrPair{ thrust::raw_pointer_cast(weights.data()), carried, row,
                    static_cast<Cell>(cells) });
            carried = weights[static_cast<std::size_t>(m - 1)];
            add_to_table(keys, static_cast<std::size_t>(m), distinct, counts, table);
            first += m;
        }
        thrust::copy(
            table.begin(), table.begin() + static_cast<std::ptrdiff_t>(cells), host.begin());
        done(rep, host);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// sstring_HammingWeight2.

// The block of word i of a chunk that begins at word `first` of the replication (long blocks).
struct BlockOf {
    Index first;
    Index words_per_block;

    RNGVET_HD Index operator()(Index i) const { return (first + i) / words_per_block; }
};

// The weight of word i's part of its long block (the chunk beginning at word `first`).
struct PartWeight {
    const Word* w;
    BitBlocks g;
    Index first;

    RNGVET_HD Cell operator()(Index i) const
    {
        return g.long_part(w[i], (first + i) % g.words_per_block);
    }
};

// For each of N replications: the weights of its blocks in stream order, a run of them at a time,
// done(replication, weights, count) (device_bits.hpp). Long blocks (L >= s): the K = n / L
// blocks of L / s (+1) numbers each, read in chunks of at most max_words numbers that need not
// end with a block: a chunk's parts of blocks are summed by block, and the part of a block the
// chunk ends in is carried into the next chunk's first. Short blocks (L < s): the s / L blocks of
// each of ceil(K / (s / L)) numbers, at most max_words blocks a chunk where s / L fit. False, with
// nothing read and done never called, where `in` cannot write device memory.
template <class Done>
bool hamming_weight_blocks(Numbers& in, long N, long n, int r, int s, long L, const Done& done,
    std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return false;
    const BitBlocks g = bit_blocks_for(in, r, s, L);
    const std::uint64_t K = static_cast<std::uint64_t>(n / L);
    const std::uint64_t total = g.long_blocks
        ? K * g.words_per_block
        : K / g.blocks_per_word + (K % g.blocks_per_word > 0 ? 1 : 0);
    // Short blocks: at most max_words blocks (s / L of them a number) in a chunk.
    const std::size_t most
        = g.long_blocks ? max_words : max_words / static_cast<std::size_t>(g.blocks_per_word);
    const std::size_t chunk
        = static_cast<std::size_t>(std::min<std::uint64_t>(total, std::max<std::size_t>(1, most)));
    // Blocks met by a chunk: long, at most chunk / words_per_block + 2; short, s / L a word.
    const std::size_t outputs = g.long_blocks
        ? std::min<std::size_t>(chunk, chunk / static_cast<std::size_t>(g.words_per_block) + 2)
        : chunk * static_cast<std::size_t>(g.blocks_per_word);
    thrust::device_vector<Word> words(std::max<std::size_t>(1, chunk));
    thrust::device_vector<Index> blocks(g.long_blocks ? outputs : 0);
    thrust::device_vector<Cell> sums(outputs);
    const thrust::counting_iterator<Index> index(0);
    const Word* w = thrust::raw_pointer_cast(words.data());
    std::vector<Index> host_blocks(blocks.size());
    std::vector<Cell> host_sums(outputs);
    std::vector<long> out;
    out.reserve(outputs + 1);
    for (long rep = 0; rep < N; ++rep) {
        bool pending = false; // a block begun in an earlier chunk
        Index pending_block = 0;
        long pending_weight = 0;
        for (std::uint64_t first = 0; first < total;) {
            const std::size_t m
                = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, total - first));
            const std::ptrdiff_t mm = static_cast<std::ptrdiff_t>(m);
            if (!fill(in, words, m, rep == 0 && first == 0)) return false;
            out.clear();
            if (g.long_blocks) {
                const auto ends = thrust::reduce_by_key(
                    thrust::make_transform_iterator(index, BlockOf{ first, g.words_per_block }),
                    thrust::make_transform_iterator(
                        index + mm, BlockOf{ first, g.words_per_block }),
                    thrust::make_transform_iterator(index, PartWeight{ w, g, first }),
                    blocks.begin(), sums.begin());
                const std::size_t e = static_cast<std::size_t>(ends.first - blocks.begin());
                thrust::copy(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(e),
                    host_blocks.begin());
                thrust::copy(
                    sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(e), host_sums.begin());
                for (std::size_t j = 0; j < e; ++j) {
                    if (pending && pending_block == host_blocks[j]) {
                        pending_weight += static_cast<long>(host_sums[j]);
                        continue;
                    }
                    if (pending) out.push_back(pending_weight);
                    pending = true;
                    pending_block = host_blocks[j];
                    pending_weight = static_cast<long>(host_sums[j]);
                }
                // The last block met ends with the chunk's last word?
                if (pending && (first + m) % g.words_per_block == 0) {
                    out.push_back(pending_weight);
                    pending = false;
                }
            } else {
                const std::size_t b = m * static_cast<std::size_t>(g.blocks_per_word);
                thrust::transform(index, index + static_cast<std::ptrdiff_t>(b), sums.begin(),
                    BlockWeight{ w, g });
                thrust::copy(
                    sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(b), host_sums.begin());
                out.assign(host_sums.begin(), host_sums.begin() + static_cast<std::ptrdiff_t>(b));
            }
            if (!out.empty()) done(rep, out.data(), out.size());
            first += m;
        }
    }
    return true;
}

} // namespace rngvet::native::device_counts
