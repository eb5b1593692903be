// The log analyzer's first pass: finds a set of byte strings across a whole block at memory speed, counting the
// newlines it passes, so that lines are looked at only around a hit.
//
// The vector paths are Teddy's method: each needle is put in one of 8 buckets, and for each of its first three
// bytes two 16-entry tables (one indexed by the low nibble, one by the high) say which buckets allow that byte
// there. Three shifted loads, six shuffles and a few ANDs give, for every position of a 32- or 64-byte chunk, the
// buckets whose needles may start there; byte tables then rule out the nibble tables' false positives, and only
// what is left is compared whole.
#include "CBlockScan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

enum { needle_limit = 64, length_limit = 32, prefix = 3 };

enum sv_level { level_scalar, level_avx2, level_avx512 };

struct sv_needles {
    int count;
    enum sv_level level;
    unsigned char bucket[needle_limit];
    unsigned char length[needle_limit];
    unsigned char bytes[needle_limit][length_limit];
    /// Each needle's first eight bytes (fewer for a short one, the rest masked off), compared in one load.
    uint64_t head[needle_limit];
    uint64_t head_mask[needle_limit];
    /// Per prefix position: buckets allowed by the low nibble (16 entries), then by the high nibble (16).
    unsigned char nibbles[prefix][2][16];
    /// Per prefix position: buckets allowed by the whole byte.
    unsigned char exact[prefix][256];
};

#if defined(__x86_64__)
/// The widest vector path this CPU and its kernel (which must save the wider registers) both support.
static enum sv_level sv_cpu_level(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return level_scalar;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0x6) != 0x6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return level_scalar;
    if ((lo & 0xe0) == 0xe0 && (b & bit_AVX512F) && (b & bit_AVX512BW)) return level_avx512;
    return (b & bit_AVX2) ? level_avx2 : level_scalar;
}
#else
static enum sv_level sv_cpu_level(void) { return level_scalar; }
#endif

sv_needles *sv_needles_new(const char *const needles[], const size_t lengths[], int count) {
    if (count < 1 || count > needle_limit) return NULL;
    sv_needles *set = calloc(1, sizeof *set);
    if (set == NULL) return NULL;
    unsigned char firsts[8];
    int buckets = 0;
    for (int i = 0; i < count; i++) {
        if (lengths[i] < 1 || lengths[i] > length_limit || memchr(needles[i], '\n', lengths[i]) != NULL) {
            free(set);
            return NULL;
        }
        const unsigned char *needle = (const unsigned char *)needles[i];
        // Needles that start alike share a bucket; past eight first bytes, buckets are shared round the clock.
        int bucket = buckets;
        for (int k = 0; k < buckets; k++) {
            if (firsts[k] == needle[0]) bucket = k;
        }
        if (bucket == buckets) {
            if (buckets < 8) {
                firsts[buckets++] = needle[0];
            } else {
                bucket = i % 8;
            }
        }
        unsigned char bit = (unsigned char)(1u << bucket);
        set->bucket[i] = bit;
        set->length[i] = (unsigned char)lengths[i];
        memcpy(set->bytes[i], needle, lengths[i]);
        size_t head = lengths[i] < 8 ? lengths[i] : 8;
        memcpy(&set->head[i], needle, head);
        set->head_mask[i] = head == 8 ? ~0ull : (1ull << (8 * head)) - 1;
        for (int j = 0; j < prefix; j++) {
            // Past a short needle's end any byte will do.
            for (int v = 0; v < 256; v++) {
                if ((size_t)j >= lengths[i] || v == needle[j]) set->exact[j][v] |= bit;
            }
            for (int v = 0; v < 16; v++) {
                if ((size_t)j >= lengths[i] || v == (needle[j] & 15)) set->nibbles[j][0][v] |= bit;
                if ((size_t)j >= lengths[i] || v == (needle[j] >> 4)) set->nibbles[j][1][v] |= bit;
            }
        }
    }
    set->count = count;
    set->level = sv_cpu_level();
    return set;
}

void sv_needles_free(sv_needles *set) { free(set); }

/// Whether a needle of one of `buckets` starts at `at` and ends by `length`.
static inline int sv_needle_at(const sv_needles *set, const unsigned char *p, size_t length, size_t at, unsigned buckets) {
    uint64_t word = 0;
    int whole = at + 8 <= length;
    if (whole) memcpy(&word, p + at, 8);
    for (int i = 0; i < set->count; i++) {
        size_t n = set->length[i];
        if (!(set->bucket[i] & buckets) || at + n > length) continue;
        if (whole ? (word & set->head_mask[i]) != set->head[i] : memcmp(p + at, set->bytes[i], n < 8 ? n : 8) != 0) continue;
        if (n <= 8 || memcmp(p + at + 8, set->bytes[i] + 8, n - 8) == 0) return 1;
    }
    return 0;
}

/// The buckets whose needles may start at `at`, by whole bytes; a position past `length` rules out all but the
/// needles too short to reach it.
static inline unsigned sv_exact(const sv_needles *set, const unsigned char *p, size_t length, size_t at) {
    unsigned buckets = set->exact[0][p[at]];
    for (int j = 1; j < prefix && buckets; j++) {
        buckets &= at + j < length ? set->exact[j][p[at + j]] : set->exact[j][0] & set->exact[j][1];
    }
    return buckets;
}

static inline size_t sv_found(size_t at, size_t count, size_t start, size_t *newlines, size_t *line_start) {
    *newlines += count;
    *line_start = start;
    return at;
}

/// A byte at a time from `i`: the tail of the vector paths, and the whole scan where they are missing.
static size_t sv_next_scalar(const sv_needles *set, const unsigned char *p, size_t i, size_t length, size_t count,
                             size_t start, size_t *newlines, size_t *line_start) {
    for (; i < length; i++) {
        if (p[i] == '\n') {
            count++;
            start = i + 1;
        } else if (set->exact[0][p[i]]) {
            unsigned buckets = sv_exact(set, p, length, i);
            if (buckets && sv_needle_at(set, p, length, i, buckets)) break;
        }
    }
    return sv_found(i, count, start, newlines, line_start);
}

#if defined(__x86_64__)
/// Looks at a chunk's candidates in order: returns the first that is a needle, or SIZE_MAX, and adds the chunk's
/// newlines before it (all of them, if none is) to `count`, moving `start` past the last.
static inline __attribute__((always_inline)) size_t sv_chunk(const sv_needles *set, const unsigned char *p,
                                                             size_t length, size_t chunk, uint64_t candidates,
                                                             uint64_t lines, size_t *count, size_t *start) {
    size_t found = SIZE_MAX;
    for (; candidates; candidates &= candidates - 1) {
        size_t at = chunk + (size_t)__builtin_ctzll(candidates);
        unsigned buckets = sv_exact(set, p, length, at);
        if (buckets && sv_needle_at(set, p, length, at, buckets)) {
            lines &= (1ull << (at - chunk)) - 1;
            found = at;
            break;
        }
    }
    *count += (size_t)__builtin_popcountll(lines);
    if (lines) *start = chunk + 64 - (size_t)__builtin_clzll(lines);
    return found;
}

__attribute__((target("avx2,popcnt,lzcnt,bmi")))
static size_t sv_next_avx2(const sv_needles *set, const unsigned char *p, size_t i, size_t length, size_t *newlines,
                           size_t *line_start) {
    const __m256i low = _mm256_set1_epi8(15);
    const __m256i newline = _mm256_set1_epi8('\n');
    __m256i lo[prefix], hi[prefix];
    for (int j = 0; j < prefix; j++) {
        lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->nibbles[j][0]));
        hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->nibbles[j][1]));
    }
    size_t count = 0, start = i;
    for (; i + 32 + prefix <= length; i += 32) {
        __m256i match = _mm256_set1_epi8(-1);
        __m256i first = _mm256_setzero_si256();
        for (int j = 0; j < prefix; j++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(p + i + j));
            if (j == 0) first = v;
            __m256i l = _mm256_shuffle_epi8(lo[j], _mm256_and_si256(v, low));
            __m256i h = _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
            match = _mm256_and_si256(match, _mm256_and_si256(l, h));
        }
        uint64_t none = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(match, _mm256_setzero_si256()));
        uint64_t candidates = ~none & 0xffffffffull;
        uint64_t lines = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(first, newline));
        size_t found = sv_chunk(set, p, length, i, candidates, lines, &count, &start);
        if (found != SIZE_MAX) return sv_found(found, count, start, newlines, line_start);
    }
    return sv_next_scalar(set, p, i, length, count, start, newlines, line_start);
}

__attribute__((target("avx512f,avx512bw,popcnt,lzcnt,bmi")))
static size_t sv_next_avx512(const sv_needles *set, const unsigned char *p, size_t i, size_t length, size_t *newlines,
                             size_t *line_start) {
    const __m512i low = _mm512_set1_epi8(15);
    const __m512i newline = _mm512_set1_epi8('\n');
    __m512i lo[prefix], hi[prefix];
    for (int j = 0; j < prefix; j++) {
        lo[j] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)set->nibbles[j][0]));
        hi[j] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)set->nibbles[j][1]));
    }
    size_t count = 0, start = i;
    for (; i + 64 + prefix <= length; i += 64) {
        __m512i match = _mm512_set1_epi8(-1);
        __m512i first = _mm512_setzero_si512();
        for (int j = 0; j < prefix; j++) {
            __m512i v = _mm512_loadu_si512((const void *)(p + i + j));
            if (j == 0) first = v;
            __m512i l = _mm512_shuffle_epi8(lo[j], _mm512_and_si512(v, low));
            __m512i h = _mm512_shuffle_epi8(hi[j], _mm512_and_si512(_mm512_srli_epi16(v, 4), low));
            match = _mm512_and_si512(match, _mm512_and_si512(l, h));
        }
        uint64_t candidates = _mm512_test_epi8_mask(match, match);
        uint64_t lines = _mm512_cmpeq_epi8_mask(first, newline);
        size_t found = sv_chunk(set, p, length, i, candidates, lines, &count, &start);
        if (found != SIZE_MAX) return sv_found(found, count, start, newlines, line_start);
    }
    return sv_next_scalar(set, p, i, length, count, start, newlines, line_start);
}
#endif

size_t sv_needles_next(const sv_needles *set, const void *bytes, size_t from, size_t length, size_t *newlines,
                       size_t *line_start) {
    const unsigned char *p = bytes;
#if defined(__x86_64__)
    if (set->level == level_avx512) return sv_next_avx512(set, p, from, length, newlines, line_start);
    if (set->level == level_avx2) return sv_next_avx2(set, p, from, length, newlines, line_start);
#endif
    return sv_next_scalar(set, p, from, length, 0, from, newlines, line_start);
}

int sv_needles_any(const sv_needles *set, const void *bytes, size_t length) {
    size_t newlines = 0, line_start = 0;
    return sv_needles_next(set, bytes, 0, length, &newlines, &line_start) < length;
}

void sv_needles_limit_level(sv_needles *set, int level) {
    if (level < (int)set->level) set->level = (enum sv_level)level;
}
