/*
 * probe_threads.c: probes positions given as bit sets from several threads at
 * once, all on one handle, with damka_probe_bits.
 *
 *   cc -I ffi/include ffi/examples/probe_threads.c target/release/libdamka_ffi.a \
 *      -lpthread -ldl -lm -o probe_threads
 *   ./probe_threads tables russian 2 < positions
 *
 * Each input line is `WHITE_MEN WHITE_KINGS BLACK_MEN BLACK_KINGS SIDE`: four
 * hexadecimal sets in the layout damka.h draws, and `w` or `b`. Thread t probes
 * lines t, t + THREADS, ...; every thread probes every line a second time in the
 * other order, so that the threads overlap on the same blocks. The answers are
 * printed in input order as `wdl dtw best_move` (`-` for no move), or
 * `error CODE`; the program exits 1 if two probes of a line disagree, or if
 * damka_probe_wdl_bits disagrees with damka_probe_bits.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damka.h"

typedef struct {
    uint64_t sets[4];
    int white_to_move;
    damka_result result;
    int code;
} job;

typedef struct {
    damka_tb *tb;
    job *jobs;
    size_t count;
    size_t first;
    size_t step;
    int disagreements;
} worker;

static int same(const damka_result *a, const damka_result *b) {
    return a->wdl == b->wdl && a->dtw == b->dtw && strcmp(a->best_move, b->best_move) == 0;
}

static void *run(void *arg) {
    worker *w = arg;
    for (size_t i = w->first; i < w->count; i += w->step) {
        job *j = &w->jobs[i];
        j->code = damka_probe_bits(w->tb, j->sets[0], j->sets[1], j->sets[2], j->sets[3],
                                   j->white_to_move, &j->result);
        int32_t wdl = 2;
        int code = damka_probe_wdl_bits(w->tb, j->sets[0], j->sets[1], j->sets[2], j->sets[3],
                                        j->white_to_move, &wdl);
        if (code != j->code || (code == 0 && wdl != j->result.wdl)) {
            w->disagreements++;
        }
    }
    /* Again, every line, from the other end. */
    for (size_t k = w->count; k-- > 0;) {
        job *j = &w->jobs[k];
        damka_result again;
        int code = damka_probe_bits(w->tb, j->sets[0], j->sets[1], j->sets[2], j->sets[3],
                                    j->white_to_move, &again);
        if (k % w->step == w->first && (code != j->code || (code == 0 && !same(&again, &j->result)))) {
            w->disagreements++;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR VARIANT THREADS < positions\n", argv[0]);
        return 2;
    }
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "THREADS must be 1 to 64\n");
        return 2;
    }
    char err[512];
    damka_tb *tb = damka_open(argv[1], argv[2], err, sizeof err);
    if (tb == NULL) {
        fprintf(stderr, "probe_threads: %s\n", err);
        return 2;
    }
    size_t count = 0, capacity = 1024;
    job *jobs = malloc(capacity * sizeof *jobs);
    char side;
    job j;
    while (scanf("%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %c", &j.sets[0], &j.sets[1],
                 &j.sets[2], &j.sets[3], &side) == 5) {
        if (count == capacity) {
            capacity *= 2;
            jobs = realloc(jobs, capacity * sizeof *jobs);
        }
        j.white_to_move = side == 'w';
        jobs[count++] = j;
    }
    pthread_t ids[64];
    worker workers[64];
    for (int t = 0; t < threads; t++) {
        workers[t] = (worker){tb, jobs, count, (size_t)t, (size_t)threads, 0};
        pthread_create(&ids[t], NULL, run, &workers[t]);
    }
    int disagreements = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        disagreements += workers[t].disagreements;
    }
    for (size_t i = 0; i < count; i++) {
        if (jobs[i].code != 0) {
            printf("error %d\n", jobs[i].code);
        } else {
            const damka_result *r = &jobs[i].result;
            printf("%d %d %s\n", r->wdl, r->dtw, r->best_move[0] ? r->best_move : "-");
        }
    }
    damka_close(tb);
    free(jobs);
    if (disagreements > 0) {
        fprintf(stderr, "probe_threads: %d probes disagreed\n", disagreements);
        return 1;
    }
    return 0;
}
