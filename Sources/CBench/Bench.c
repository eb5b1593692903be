#define _GNU_SOURCE
#include "CBench.h"

#include <malloc.h>
#include <sched.h>

int sv_pin_to_one_cpu(void *saved) {
    cpu_set_t *mask = saved, one;
    if (sched_getaffinity(0, sizeof *mask, mask)) return -1;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, mask)) {
            CPU_SET(cpu, &one);
            return sched_setaffinity(0, sizeof one, &one);
        }
    }
    return -1;
}

int sv_restore_affinity(const void *saved) { return sched_setaffinity(0, sizeof(cpu_set_t), saved); }

int sv_return_free_memory(void) { return malloc_trim(0); }
