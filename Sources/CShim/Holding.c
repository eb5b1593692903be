/* What a supervisor needs to hold workers another process started: descriptors passed over a socket (SCM_RIGHTS),
   and a reaped process's exit read through a pidfd that is not its parent's. */
#define _GNU_SOURCE
#include "CShim.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/ioctl.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* The first published struct pidfd_info (include/uapi/linux/pidfd.h, 64 bytes), which older headers lack. */
struct sv_pidfd_info {
    uint64_t mask;
    uint64_t cgroupid;
    uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
    int32_t exit_code;
};
#define SV_PIDFD_INFO_EXIT (1UL << 3)
#define SV_PIDFD_GET_INFO _IOWR(0xFF, 11, struct sv_pidfd_info)

int sv_pidfd_exit_status(int pidfd, int *status) {
    struct sv_pidfd_info info;
    memset(&info, 0, sizeof info);
    info.mask = SV_PIDFD_INFO_EXIT;
    if (ioctl(pidfd, SV_PIDFD_GET_INFO, &info) != 0) return -1;
    if (!(info.mask & SV_PIDFD_INFO_EXIT)) return 0;
    *status = info.exit_code;
    return 1;
}

int sv_pidfd_queue_signal(int pidfd, int sig, uint64_t value) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    info.si_signo = sig;
    info.si_code = SI_QUEUE;
    info.si_pid = getpid();
    info.si_uid = getuid();
    info.si_value.sival_ptr = (void *)(uintptr_t)value;
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, &info, 0);
}

int sv_socketpair_seqpacket(int fds[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds); }

ssize_t sv_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count) {
    if (count < 0 || count > SV_MAX_PASSED_FDS) { errno = EINVAL; return -1; }
    char control[CMSG_SPACE(sizeof(int) * SV_MAX_PASSED_FDS)];
    memset(control, 0, sizeof control);
    struct iovec iov = { .iov_base = (void *)bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (count > 0) {
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)count);
    }
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

ssize_t sv_receive_with_fds(int socket, void *bytes, size_t capacity, int *fds, int *count, int *truncated) {
    char control[CMSG_SPACE(sizeof(int) * SV_MAX_PASSED_FDS)];
    struct iovec iov = { .iov_base = bytes, .iov_len = capacity };
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    *count = 0;
    *truncated = 0;
    ssize_t received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + sizeof(int) * (size_t)i, sizeof fd);
            /* Never more than the caller has room for: any beyond are closed, not leaked. */
            if (*count < SV_MAX_PASSED_FDS) fds[(*count)++] = fd; else close(fd);
        }
    }
    /* A message cut short (MSG_TRUNC) or whose descriptors did not all fit (MSG_CTRUNC, the kernel closed the rest). */
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) *truncated = 1;
    return received;
}

/* An abstract address (Linux, unix(7)): a leading NUL, then `name`, which names no file and vanishes with its last
   socket. */
static int abstract_address(const char *name, struct sockaddr_un *address, socklen_t *length) {
    size_t count = strlen(name);
    if (count == 0 || count + 1 > sizeof address->sun_path) { errno = ENAMETOOLONG; return -1; }
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path + 1, name, count);
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + count);
    return 0;
}

int sv_listen_abstract(const char *name) {
    struct sockaddr_un address;
    socklen_t length;
    if (abstract_address(name, &address, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, length) != 0 || listen(fd, 4) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* The peer's credentials (SO_PEERCRED): only a process of this user is answered, or trusted. */
static int same_user(int fd, pid_t *pid) {
    struct ucred peer;
    socklen_t size = sizeof peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) return -1;
    if (peer.uid != geteuid()) { errno = EACCES; return -1; }
    if (pid) *pid = peer.pid;
    return 0;
}

int sv_accept_same_user(int listener) {
    int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) return -1;
    if (same_user(fd, NULL) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sv_connect_abstract(const char *name, pid_t *peer) {
    struct sockaddr_un address;
    socklen_t length;
    if (abstract_address(name, &address, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, length) != 0 || same_user(fd, peer) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
