// A helper thread that runs the needle scan (Needles.c) over the next block while the caller works on the current
// one: the analyzer's second core.
#include "CBlockScan.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum sv_job { job_none, job_posted, job_done, job_stop };

struct sv_needle_thread {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    enum sv_job job;
    const sv_needles *set;
    const unsigned char *bytes;
    size_t from, length;
    sv_needle_hit *hits;
    size_t capacity, count, end, newlines;
};

/// The first needle of each line in `bytes[from, length)`, up to `capacity` of them.
static void sv_find_hits(struct sv_needle_thread *t) {
    size_t at = t->from, count = 0, newlines = 0;
    while (at < t->length && count < t->capacity) {
        size_t line_start = at;
        size_t found = sv_needles_next(t->set, t->bytes, at, t->length, &newlines, &line_start);
        if (found == t->length) {
            at = found;
            break;
        }
        t->hits[count++] = (sv_needle_hit){.at = found, .line_start = line_start, .newlines = newlines};
        const unsigned char *newline = memchr(t->bytes + found, '\n', t->length - found);
        if (newline == NULL) {
            at = t->length;
            break;
        }
        at = (size_t)(newline - t->bytes) + 1;
        newlines++;
    }
    t->count = count;
    t->end = at;
    t->newlines = newlines;
}

static void *sv_needle_thread_main(void *arg) {
    struct sv_needle_thread *t = arg;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (t->job != job_posted && t->job != job_stop) pthread_cond_wait(&t->changed, &t->lock);
        if (t->job == job_stop) break;
        pthread_mutex_unlock(&t->lock);
        sv_find_hits(t);
        pthread_mutex_lock(&t->lock);
        t->job = job_done;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

sv_needle_thread *sv_needle_thread_new(const sv_needles *set) {
    struct sv_needle_thread *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->set = set;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->changed, NULL);
    // Signals stay with the threads that handle them.
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved);
    int rc = pthread_create(&t->thread, NULL, sv_needle_thread_main, t);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&t->changed);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    return t;
}

void sv_needle_thread_free(sv_needle_thread *t) {
    pthread_mutex_lock(&t->lock);
    t->job = job_stop;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->changed);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void sv_needle_thread_start(sv_needle_thread *t, const void *bytes, size_t from, size_t length, sv_needle_hit *hits,
                            size_t capacity) {
    pthread_mutex_lock(&t->lock);
    t->bytes = bytes;
    t->from = from;
    t->length = length;
    t->hits = hits;
    t->capacity = capacity;
    t->job = job_posted;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
}

size_t sv_needle_thread_wait(sv_needle_thread *t, size_t *end, size_t *newlines) {
    pthread_mutex_lock(&t->lock);
    while (t->job != job_done) pthread_cond_wait(&t->changed, &t->lock);
    t->job = job_none;
    size_t count = t->count;
    *end = t->end;
    *newlines = t->newlines;
    pthread_mutex_unlock(&t->lock);
    return count;
}
