#include "CLZ4.h"

#include <string.h>

/* Copies `length` bytes in 16-byte steps, writing up to 15 bytes past them: for a copy whose source and destination
   both have 16 bytes to spare, and which reads no byte it writes in the same step. */
static inline void wild_copy(uint8_t *to, const uint8_t *from, size_t length) {
    for (size_t i = 0; i < length; i += 16) memcpy(to + i, from + i, 16);
}

/* A length whose 4-bit field is 15 goes on in bytes, each added, until one below 255. */
static int extend(size_t *length, const uint8_t *in, size_t in_size, size_t *at) {
    if (*length != 15) return SV_LZ4_OK;
    for (;;) {
        if (*at >= in_size) return SV_LZ4_TRUNCATED;
        uint8_t byte = in[(*at)++];
        *length += byte;
        if (byte != 255) return SV_LZ4_OK;
        /* A length past any block's size is damage, not a reason to loop on. */
        if (*length >= ((size_t)1 << 30)) return SV_LZ4_OVERLONG;
    }
}

int sv_lz4_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *written) {
    size_t at = 0, w = 0;
    int status = SV_LZ4_OK;
    while (at < in_size) {
        uint8_t token = in[at++];
        size_t literals = token >> 4;
        if ((status = extend(&literals, in, in_size, &at)) != SV_LZ4_OK) break;
        if (literals > in_size - at) { status = SV_LZ4_TRUNCATED; break; }
        if (literals > out_size - w) { status = SV_LZ4_OVERLONG; break; }
        if (in_size - at - literals >= 16 && out_size - w - literals >= 16) {
            wild_copy(out + w, in + at, literals);
        } else if (literals > 0) {
            memcpy(out + w, in + at, literals);
        }
        w += literals;
        at += literals;
        /* The last sequence is literals alone. */
        if (at == in_size) break;
        if (in_size - at < 2) { status = SV_LZ4_TRUNCATED; break; }
        size_t offset = (size_t)in[at] | (size_t)in[at + 1] << 8;
        at += 2;
        if (offset == 0 || offset > w) { status = SV_LZ4_BAD_OFFSET; break; }
        size_t match = token & 15;
        if ((status = extend(&match, in, in_size, &at)) != SV_LZ4_OK) break;
        match += 4;
        if (match > out_size - w) { status = SV_LZ4_OVERLONG; break; }
        uint8_t *to = out + w;
        const uint8_t *from = to - offset;
        if (offset >= 16 && out_size - w - match >= 16) {
            /* What each step reads was written before it: 16 or more bytes back. */
            wild_copy(to, from, match);
        } else if (offset >= match) {
            memcpy(to, from, match);
        } else if (offset >= 8) {
            /* Overlapping, but each 8 bytes copied were written before the copy reaches them. */
            size_t i = 0;
            for (; i + 8 <= match; i += 8) memcpy(to + i, from + i, 8);
            for (; i < match; i++) to[i] = from[i];
        } else {
            /* An offset shorter than 8 repeats a short pattern: byte by byte. */
            for (size_t i = 0; i < match; i++) to[i] = from[i];
        }
        w += match;
    }
    *written = w;
    return status;
}
