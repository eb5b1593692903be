/*
 * The floor the supervisor is measured against: the same work in plain C with nothing in the way.
 *
 *   floor worker            act as a worker: write a hello frame to fd 4, then read frames from fd 3 until EOF,
 *                           echoing each title probe (tag 11) and ping (tag 13) back to fd 4
 *   floor spawn N [WORKER]  N times: posix_spawn a worker with the supervisor's file actions and time
 *                           posix_spawn -> its hello bytes readable. The worker is this static binary unless
 *                           WORKER names another (to time a real WebContent build's start-up on its own).
 *   floor kill N [WORKER]   N times: spawn, await hello, SIGKILL, time the kill -> pidfd readable. With WORKER
 *                           (the real WebContent), the process torn down by the kernel is the same one the
 *                           supervisor watches, so the difference is the supervisor's own overhead.
 *
 *   floor roundtrip N       N title-probe-sized frames to a floor worker, each awaiting its echo: the pipe
 *                           ping-pong under the supervisor's title probe
 *   floor stream N          N 5-byte frames to a floor worker, one write each as the supervisor sends them,
 *                           then a ping: the time until its echo, under the supervisor's one-way throughput
 *
 *   floor restore N FILE    N times: read FILE whole and CRC-32 it (slicing-by-8): what restoring a session file
 *                           costs before a single tab is made, under the supervisor's session restore
 *
 * spawn, kill, roundtrip and restore print each sample in nanoseconds, one per line; stream prints its one total.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    /* The supervisor's hello frame: length 8, tag 1, pid (u32 LE), version (u16 LE), sandbox (off). */
    uint32_t pid = (uint32_t)getpid();
    unsigned char frame[12] = {8, 0, 0, 0, 1, pid, pid >> 8, pid >> 16, pid >> 24, 6, 0, 0};
    if (write(4, frame, sizeof frame) != sizeof frame) return 1;
    /* Frames are [u32 LE length][tag][payload]; parse them as the worker does, answer probes and pings. */
    static unsigned char buffer[1 << 16];
    size_t have = 0;
    ssize_t n;
    while ((n = read(3, buffer + have, sizeof buffer - have)) > 0) {
        have += (size_t)n;
        size_t at = 0;
        while (have - at >= 4) {
            uint32_t length = buffer[at] | buffer[at + 1] << 8 | buffer[at + 2] << 16 | (uint32_t)buffer[at + 3] << 24;
            if (have - at < 4 + length) break;
            unsigned char tag = buffer[at + 4];
            if ((tag == 11 || tag == 13) && write(4, buffer + at, 4 + length) != (ssize_t)(4 + length)) return 1;
            at += 4 + length;
        }
        memmove(buffer, buffer + at, have - at);
        have -= at;
    }
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
    char *envp[] = {"SWIFT_BACKTRACE=enable=no,swift-backtrace=", NULL}; /* the supervisor's, for a Swift WORKER */
    struct child c;
    long start = now_ns();
    if (posix_spawn(&c.pid, path, &actions, &attrs, argv, envp)) { perror("posix_spawn"); exit(1); }
    c.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
    close(to[0]);
    close(from[1]);
    char hello[12];
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

static uint32_t crc_table[8][256];

/* Reads `path` whole and returns its CRC-32, or exits. */
static uint32_t read_and_checksum(const char *path) {
    if (!crc_table[0][1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            crc_table[0][i] = c;
        }
        for (int t = 1; t < 8; t++)
            for (int i = 0; i < 256; i++) crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) { perror(path); exit(1); }
    unsigned char *bytes = malloc(info.st_size + 1);
    ssize_t total = 0, n;
    while ((n = read(fd, bytes + total, info.st_size + 1 - total)) > 0) total += n;
    close(fd);
    uint32_t crc = 0xffffffffu;
    ssize_t i = 0;
    for (; i + 8 <= total; i += 8) {
        uint32_t a = crc ^ (bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | (uint32_t)bytes[i + 3] << 24);
        crc = crc_table[7][a & 0xff] ^ crc_table[6][(a >> 8) & 0xff] ^ crc_table[5][(a >> 16) & 0xff] ^ crc_table[4][a >> 24]
            ^ crc_table[3][bytes[i + 4]] ^ crc_table[2][bytes[i + 5]] ^ crc_table[1][bytes[i + 6]] ^ crc_table[0][bytes[i + 7]];
    }
    for (; i < total; i++) crc = crc_table[0][(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
    free(bytes);
    return ~crc;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "worker") == 0) return worker();
    if (argc == 4 && strcmp(argv[1], "restore") == 0) {
        volatile uint32_t sink = 0;
        for (int i = 0, n = atoi(argv[2]); i < n; i++) {
            long start = now_ns();
            sink ^= read_and_checksum(argv[3]);
            printf("%ld\n", now_ns() - start);
        }
        return 0;
    }
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: floor worker | floor spawn|kill N [WORKER] | floor roundtrip|stream N | floor restore N FILE\n");
        return 64;
    }
    int n = atoi(argv[2]);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) { perror("readlink"); return 1; }
    self[len] = 0;
    if (strcmp(argv[1], "roundtrip") == 0 || strcmp(argv[1], "stream") == 0) {
        /* One CPU for both processes, as the supervisor's channel benchmark does. */
        cpu_set_t mask, one;
        sched_getaffinity(0, sizeof mask, &mask);
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
            if (CPU_ISSET(cpu, &mask)) { CPU_SET(cpu, &one); break; }
        sched_setaffinity(0, sizeof one, &one);
        long ignored;
        struct child c = spawn_worker(self, &ignored);
        unsigned char probe[9] = {5, 0, 0, 0, 11, 0, 0, 0, 0}, reply[9];
        unsigned char frame[5] = {1, 0, 0, 0, 17}, ping[13] = {9, 0, 0, 0, 13, 1};
        if (strcmp(argv[1], "roundtrip") == 0) {
            for (int i = 0; i < n; i++) {
                long start = now_ns();
                if (write(c.to, probe, sizeof probe) != sizeof probe || read(c.from, reply, sizeof reply) != sizeof reply) return 1;
                printf("%ld\n", now_ns() - start);
            }
        } else {
            long start = now_ns();
            for (int i = 0; i < n; i++)
                if (write(c.to, frame, sizeof frame) != sizeof frame) return 1;
            if (write(c.to, ping, sizeof ping) != sizeof ping || read(c.from, ping, sizeof ping) != sizeof ping) return 1;
            printf("%ld\n", now_ns() - start);
        }
        finish(c);
        return 0;
    }
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
