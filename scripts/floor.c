/*
 * The floor the supervisor is measured against: the same work in plain C with nothing in the way.
 *
 *   floor worker            act as a worker: write a hello frame to fd 4, then wait for EOF on fd 3
 *   floor spawn N [WORKER]  N times: posix_spawn a worker with the supervisor's file actions and time
 *                           posix_spawn -> its hello bytes readable. The worker is this static binary unless
 *                           WORKER names another (to time a real WebContent build's start-up on its own).
 *   floor kill N [WORKER]   N times: spawn, await hello, SIGKILL, time the kill -> pidfd readable. With WORKER
 *                           (the real WebContent), the process torn down by the kernel is the same one the
 *                           supervisor watches, so the difference is the supervisor's own overhead.
 *
 * spawn and kill print each sample in nanoseconds, one per line.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int worker(void) {
    /* The supervisor's hello frame: length 7, tag 1, pid (u32 LE), version (u16 LE). */
    uint32_t pid = (uint32_t)getpid();
    unsigned char frame[11] = {7, 0, 0, 0, 1, pid, pid >> 8, pid >> 16, pid >> 24, 1, 0};
    if (write(4, frame, sizeof frame) != sizeof frame) return 1;
    char buffer[256];
    while (read(3, buffer, sizeof buffer) > 0) {}
    return 0;
}

struct child { pid_t pid; int pidfd, to, from; };

static struct child spawn_worker(const char *path, long *spawn_to_hello) {
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) { perror("pipe2"); exit(1); }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attrs;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to[0], 3);
    posix_spawn_file_actions_adddup2(&actions, from[1], 4);
    posix_spawn_file_actions_addclosefrom_np(&actions, 5);
    posix_spawnattr_init(&attrs);
    posix_spawnattr_setsigmask(&attrs, &none);
    posix_spawnattr_setsigdefault(&attrs, &all);
    posix_spawnattr_setpgroup(&attrs, 0);
    posix_spawnattr_setflags(&attrs, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    char parent[16];
    snprintf(parent, sizeof parent, "%d", getpid());
    char *argv[] = {(char *)path, "worker", parent, NULL};
    char *envp[] = {"SWIFT_BACKTRACE=enable=no", NULL};
    struct child c;
    long start = now_ns();
    if (posix_spawn(&c.pid, path, &actions, &attrs, argv, envp)) { perror("posix_spawn"); exit(1); }
    c.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
    close(to[0]);
    close(from[1]);
    char hello[11];
    if (read(from[0], hello, sizeof hello) <= 0) { fprintf(stderr, "floor: no hello\n"); exit(1); }
    *spawn_to_hello = now_ns() - start;
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attrs);
    c.to = to[1];
    c.from = from[0];
    return c;
}

static void finish(struct child c) {
    close(c.to);
    close(c.from);
    siginfo_t info;
    waitid(P_PIDFD, (id_t)c.pidfd, &info, WEXITED);
    close(c.pidfd);
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "worker") == 0) return worker();
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: floor worker | floor spawn N | floor kill N [WORKER]\n");
        return 64;
    }
    int n = atoi(argv[2]);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) { perror("readlink"); return 1; }
    self[len] = 0;
    for (int i = 0; i < n; i++) {
        long spawn_to_hello;
        struct child c = spawn_worker(argc == 4 ? argv[3] : self, &spawn_to_hello);
        if (strcmp(argv[1], "spawn") == 0) {
            printf("%ld\n", spawn_to_hello);
        } else {
            struct pollfd ready = {.fd = c.pidfd, .events = POLLIN};
            long start = now_ns();
            syscall(SYS_pidfd_send_signal, c.pidfd, SIGKILL, NULL, 0);
            poll(&ready, 1, -1);
            printf("%ld\n", now_ns() - start);
        }
        finish(c);
    }
    return 0;
}
