/*
 * A supervisor that takes a worker's channel over (issue 34) asks it to resynchronise with a queued signal whose
 * value is the generation it asks under (pidfd_send_signal with SI_QUEUE). The handler only records the request;
 * the worker answers it between messages. Being interrupted is the point, so the handler has no SA_RESTART: a read
 * or poll blocked on the channel returns EINTR, and the worker looks.
 */
#include "WorkerRuntime.h"

#include "signals.h"

static unsigned long long requested_generation;
static int requested;

static void on_resync(int signal, void *info, void *context) {
    (void)signal;
    (void)context;
    /* siginfo_t for a queued signal: signo, errno, code (3 ints and padding), the sender's pid and uid, its value. */
    unsigned long long generation = *(const unsigned long long *)((const char *)info + 24);
    __atomic_store_n(&requested_generation, generation, __ATOMIC_RELAXED);
    __atomic_store_n(&requested, 1, __ATOMIC_RELEASE);
}

long wr_watch_resync(int signal) { return wr_handle_signal(signal, on_resync); }

int wr_take_resync(unsigned long long *generation) {
    /* Asked before every message the worker reads: a plain load first, the locked exchange only once asked. */
    if (!__atomic_load_n(&requested, __ATOMIC_RELAXED) || !__atomic_exchange_n(&requested, 0, __ATOMIC_ACQUIRE)) return 0;
    *generation = __atomic_load_n(&requested_generation, __ATOMIC_RELAXED);
    return 1;
}
