/*
 * The least a child can do between exec and its hello, so that the launchers (the supervisor's, the C floor's,
 * Foundation.Process) are compared on their own, without the child's start-up drowning the difference. Built on
 * the worker's own runtime (no libc, no start-up code): writes the hello frame to fd 4 (or to standard output
 * when fd 4 is not open, as under Foundation.Process), then reads until end of file.
 *
 *   cc -O2 -static -nostdlib -ffreestanding -fno-builtin -fno-stack-protector -Wl,-e,wr_entry \
 *      -I Workers/WorkerRuntime/include -o bare scripts/bare.c Workers/WorkerRuntime/runtime.c
 */
#include "WorkerRuntime.h"

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    int mapped = wr_is_open(WR_CHANNEL_OUT_FD);
    /* The supervisor's hello frame: length 8, tag 1, pid 0, protocol version 6, sandbox off. */
    static const unsigned char hello[12] = {8, 0, 0, 0, 1, 0, 0, 0, 0, 6, 0, 0};
    wr_write(mapped ? WR_CHANNEL_OUT_FD : 1, hello, sizeof hello);
    char buffer[256];
    while (wr_read(mapped ? WR_CHANNEL_IN_FD : 0, buffer, sizeof buffer) > 0) {}
    return 0;
}
