#ifndef SUPERVISOR_CLZ4_H
#define SUPERVISOR_CLZ4_H

/* LZ4's block format decoded (lz4/lz4, doc/lz4_Block_format.md), for the unified log's bv41 chunksets: the
   UnifiedLog module's one piece of unchecked memory access, every length and offset checked here instead. */

#include <stddef.h>
#include <stdint.h>

enum {
    SV_LZ4_OK = 0,
    /// The input ended inside a sequence.
    SV_LZ4_TRUNCATED = 1,
    /// A match reaches before the start of the output, or has offset 0.
    SV_LZ4_BAD_OFFSET = 2,
    /// The output would outgrow `out_size`.
    SV_LZ4_OVERLONG = 3,
};

/// Decodes the block `in[0, in_size)` into `out[0, out_size)`, never reading or writing outside either. Sets
/// `*written` to the bytes written, and returns SV_LZ4_OK, or the first damage found.
int sv_lz4_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *written);

#endif
