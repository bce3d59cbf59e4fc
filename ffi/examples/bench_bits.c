/*
 * bench_bits.c: the latency of damka_probe_bits on cached blocks, from C.
 *
 *   cc -O2 -I ffi/include ffi/examples/bench_bits.c target/release/libdamka.a \
 *      -lpthread -ldl -lm -o bench_bits
 *   ./bench_bits tables russian 20 < positions
 *
 * Reads positions as probe_threads.c does, probes them all once (which reads and
 * caches their blocks), then times ROUNDS more passes over them on one thread
 * and prints the mean time of one probe.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "damka.h"

typedef struct {
    uint64_t sets[4];
    int white_to_move;
} position;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Probes every position once; returns how many failed. */
static size_t pass(damka_tb *tb, const position *ps, size_t count, int64_t *checksum) {
    size_t failed = 0;
    for (size_t i = 0; i < count; i++) {
        damka_result r;
        const position *p = &ps[i];
        if (damka_probe_bits(tb, p->sets[0], p->sets[1], p->sets[2], p->sets[3],
                             p->white_to_move, &r) != 0) {
            failed++;
        } else {
            *checksum += r.wdl * 1000 + r.dtw + r.best_move[0];
        }
    }
    return failed;
}

int main(int argc, char **argv) {
    if (argc != 4 || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: %s DIR VARIANT ROUNDS < positions\n", argv[0]);
        return 2;
    }
    int rounds = atoi(argv[3]);
    char err[512];
    damka_tb *tb = damka_open(argv[1], argv[2], err, sizeof err);
    if (tb == NULL) {
        fprintf(stderr, "bench_bits: %s\n", err);
        return 2;
    }
    size_t count = 0, capacity = 1024;
    position *ps = malloc(capacity * sizeof *ps);
    position p;
    char side;
    while (scanf("%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %c", &p.sets[0], &p.sets[1],
                 &p.sets[2], &p.sets[3], &side) == 5) {
        if (count == capacity) {
            capacity *= 2;
            ps = realloc(ps, capacity * sizeof *ps);
        }
        p.white_to_move = side == 'w';
        ps[count++] = p;
    }
    int64_t checksum = 0;
    size_t failed = pass(tb, ps, count, &checksum);
    double start = seconds();
    for (int r = 0; r < rounds; r++) {
        pass(tb, ps, count, &checksum);
    }
    double elapsed = seconds() - start;
    double probes = (double)count * rounds;
    printf("%zu positions (%zu failed), %d rounds: %.0f ns per damka_probe_bits "
           "(checksum %" PRId64 ")\n",
           count, failed, rounds, elapsed / probes * 1e9, checksum);
    damka_close(tb);
    free(ps);
    return failed > 0;
}
