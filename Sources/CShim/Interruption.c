// What a termination signal removes and says before it ends the process: the temporary files of outputs not yet
// written, and one line naming them. The handler only reads what is set here and makes async-signal-safe calls
// (unlink, write, raise), so it may run at any moment, on any thread.
#define _GNU_SOURCE
#include "CShim.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { slot_count = SV_INTERRUPTION_SLOTS, message_capacity = 4096 };

static struct {
    int used;
    char path[PATH_MAX];
} slots[slot_count];

// Two buffers: a new message is written into the one the handler is not reading, then made current.
static char messages[2][message_capacity];
static size_t message_lengths[2];
static int current_message;

int sv_interruption_add(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    for (int i = 0; i < slot_count; i++) {
        if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE)) continue;
        memcpy(slots[i].path, path, length + 1);
        __atomic_store_n(&slots[i].used, 1, __ATOMIC_RELEASE);
        return i;
    }
    return -1;
}

void sv_interruption_remove(int slot) {
    if (slot >= 0 && slot < slot_count) __atomic_store_n(&slots[slot].used, 0, __ATOMIC_RELEASE);
}

void sv_interruption_message(const char *text) {
    int next = 1 - __atomic_load_n(&current_message, __ATOMIC_ACQUIRE);
    size_t length = strlen(text);
    if (length > message_capacity) length = message_capacity;
    memcpy(messages[next], text, length);
    message_lengths[next] = length;
    __atomic_store_n(&current_message, next, __ATOMIC_RELEASE);
}

static void sv_interrupted(int sig) {
    int saved = errno;
    for (int i = 0; i < slot_count; i++) {
        if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE)) unlink(slots[i].path);
    }
    int which = __atomic_load_n(&current_message, __ATOMIC_ACQUIRE);
    const char *text = messages[which];
    size_t left = message_lengths[which];
    while (left > 0) {
        ssize_t n = write(STDERR_FILENO, text, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text += n;
        left -= (size_t)n;
    }
    // SA_RESETHAND put the default action back: the signal, blocked while this runs, ends the process on return,
    // so that whoever waits sees it killed by the signal, as without this handler.
    raise(sig);
    errno = saved;
}

int sv_interruption_install(void) {
    const int signals[] = {SIGINT, SIGTERM};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = sv_interrupted;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&action.sa_mask, signals[i]);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) != 0) return -1;
        // A signal the parent made us ignore (a background job of a shell) stays ignored.
        if (old.sa_handler == SIG_IGN) continue;
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}
