/* Signal handlers in the worker's runtime, which has no C library to install them. Private to the runtime's C
 * files. */
#ifndef WORKER_RUNTIME_SIGNALS_H
#define WORKER_RUNTIME_SIGNALS_H

/* Installs `handler` for `signal` (rt_sigaction, SA_SIGINFO, no SA_RESTART): it gets the siginfo_t as its second
 * argument. 0, or -errno. */
long wr_handle_signal(int signal, void (*handler)(int, void *, void *));

#endif
