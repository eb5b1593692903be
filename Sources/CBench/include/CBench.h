#ifndef SUPERVISOR_CBENCH_H
#define SUPERVISOR_CBENCH_H

/* What `supervisor bench` needs of the system and nothing else does: one CPU to measure on, and malloc's free
   memory given back between scale rounds. */

/// Pins the calling thread (and the children it spawns from now on) to the first CPU it may run on, saving its
/// current mask in `saved` (at least 128 bytes); sv_restore_affinity puts it back. Returns 0 or -1.
int sv_pin_to_one_cpu(void *saved);
int sv_restore_affinity(const void *saved);

/* Gives the memory malloc holds free back to the system (glibc's malloc_trim(0)); 1 if any went back. */
int sv_return_free_memory(void);

#endif
