#define _GNU_SOURCE
#include "CBlockScan.h"

#include <string.h>

const void *sv_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

const void *sv_memrchr(const void *bytes, int byte, size_t length) { return memrchr(bytes, byte, length); }
