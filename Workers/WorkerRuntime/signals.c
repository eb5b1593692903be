#include "signals.h"

#include <sys/syscall.h>

#include "raw_syscall.h"

#if defined(__x86_64__)
/* The kernel returns from a handler through the restorer its sigaction names (rt_sigreturn); x86_64 refuses a
 * handler without one, where glibc would name its own. */
extern void wr_restore(void);
__asm__(".text\n.globl wr_restore\nwr_restore:\n mov $15, %eax\n syscall\n");
#define WR_SA_RESTORER 0x04000000
#endif

long wr_handle_signal(int signal, void (*handler)(int, void *, void *)) {
    struct {
        void *handler;
        unsigned long flags;
        void *restorer;
        unsigned long mask;
    } action = {(void *)handler, 4 /* SA_SIGINFO */, 0, 0};
#if defined(__x86_64__)
    action.flags |= WR_SA_RESTORER;
    action.restorer = (void *)wr_restore;
#endif
    return sys6(SYS_rt_sigaction, signal, (long)&action, 0, sizeof action.mask, 0, 0);
}
