#ifndef SUPERVISOR_CBLOCKSCAN_H
#define SUPERVISOR_CBLOCKSCAN_H

/* The log analyzer's scan over whole blocks: byte searches, a set of needles found with the widest vectors the CPU
   has, and a helper thread that scans one block while its caller works on another. */

#include <stddef.h>
#include <stdint.h>

/// memrchr(3), a GNU extension Swift's Glibc module does not show.
const void *sv_memrchr(const void *bytes, int byte, size_t length);

/// memmem(3), a GNU extension Swift's Glibc module does not show.
const void *sv_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// A set of byte strings to look for all at once: the log analyzer's first pass over whole blocks (Needles.c).
typedef struct sv_needles sv_needles;

/// Copies `count` needles (each 1 to 32 bytes and no newline, at most 64 needles); NULL if the set breaks those
/// limits. The scan uses the widest vectors the CPU has (AVX-512BW, AVX2, or none). Free it with sv_needles_free.
sv_needles *sv_needles_new(const char *const needles[], const size_t lengths[], int count);
void sv_needles_free(sv_needles *set);

/// Where a needle first starts in `bytes[from, length)`, or `length` if none does. Adds the newlines in `from` up to
/// that position to `*newlines`, and sets `*line_start` to the position after the last of them (`from` if none):
/// the start of the line the needle is in.
size_t sv_needles_next(const sv_needles *set, const void *bytes, size_t from, size_t length, size_t *newlines,
                       size_t *line_start);

/// Whether any needle occurs in `bytes`.
int sv_needles_any(const sv_needles *set, const void *bytes, size_t length);

/// Lowers the vector path a set uses (0: none, 1: AVX2, 2: AVX-512BW) but never above what the CPU has, so that
/// tests can hold every path to the same answers.
void sv_needles_limit_level(sv_needles *set, int level);

/// A needle a needle thread found: where it starts, where its line starts, and the newlines from the start of the
/// scan to that line.
typedef struct sv_needle_hit {
    size_t at;
    size_t line_start;
    size_t newlines;
} sv_needle_hit;

/// A helper thread that scans one block for a set's needles while its caller works on another (NeedleThread.c). It
/// blocks every signal. NULL if it could not start.
typedef struct sv_needle_thread sv_needle_thread;
sv_needle_thread *sv_needle_thread_new(const sv_needles *set);
/// Stops the thread and frees it; a scan started must have been waited for.
void sv_needle_thread_free(sv_needle_thread *thread);
/// Starts finding the first needle of each line of `bytes[from, length)`, up to `capacity` of them, into `hits`;
/// both must stay untouched until sv_needle_thread_wait returns.
void sv_needle_thread_start(sv_needle_thread *thread, const void *bytes, size_t from, size_t length,
                            sv_needle_hit *hits, size_t capacity);
/// Waits for the scan: returns how many hits it wrote, and where it stopped (`length`, or the start of the line after
/// the last hit when `capacity` ran out) with the newlines before that.
size_t sv_needle_thread_wait(sv_needle_thread *thread, size_t *end, size_t *newlines);

#endif
