/*
 * The least a child can do between exec and its hello, so that the launchers (the supervisor's, the C floor's,
 * Foundation.Process) are compared on their own, without the child's start-up drowning the difference. Built on
 * the worker's own runtime (no libc, no start-up code): writes the hello frame to fd 4 (or to standard output
 * when fd 4 is not open, as under Foundation.Process), then reads until end of file.
 *
 * Started as the supervisor starts a worker (its pid as the first argument) without `--no-sandbox`, it first
 * installs the least filter any seccomp sandbox has: no new privileges, then allow every call of the right
 * architecture. What that costs a start is the floor beside the worker's own sandbox in `supervisor bench`.
 *
 *   cc -O2 -static -nostdlib -ffreestanding -fno-builtin -fno-stack-protector -Wl,-e,wr_entry \
 *      -I Workers/WorkerRuntime/include -I Workers/WorkerRuntime -o bare scripts/bare.c Workers/WorkerRuntime/runtime.c
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>

#include "WorkerRuntime.h"
#include "raw_syscall.h"

static void least_filter(void) {
    /* As the worker's filter starts: its first load keeps the kernel from emulating it for every call number. */
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer)),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WR_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = {sizeof program / sizeof program[0], program};
    if (sys(SYS_prctl, 38 /* PR_SET_NO_NEW_PRIVS */, 1, 0) < 0
        || sys(SYS_prctl, 22 /* PR_SET_SECCOMP */, SECCOMP_MODE_FILTER, &filter) < 0) wr_exit(71);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    if (wr_expected_parent() > 0 && !wr_sandbox_refused()) least_filter();
    int mapped = wr_is_open(WR_CHANNEL_OUT_FD);
    /* The supervisor's hello frame: length 8, tag 1, pid 0, protocol version 6, sandbox off. */
    static const unsigned char hello[12] = {8, 0, 0, 0, 1, 0, 0, 0, 0, 6, 0, 0};
    wr_write(mapped ? WR_CHANNEL_OUT_FD : 1, hello, sizeof hello);
    char buffer[256];
    while (wr_read(mapped ? WR_CHANNEL_IN_FD : 0, buffer, sizeof buffer) > 0) {}
    return 0;
}
