/*
 * bench_bits.c: the latency of damka_probe_bits and damka_probe_wdl_bits on
 * cached blocks, from C.
 *
 *   cc -O2 -I ffi/include ffi/examples/bench_bits.c target/release/libdamka_ffi.a \
 *      -lpthread -ldl -lm -o bench_bits
 *   ./bench_bits tables russian 4 4096 20
 *
 * Arguments: DIR VARIANT PIECES COUNT ROUNDS. Draws COUNT random placements of
 * PIECES pieces (a fixed seed; at least one piece each, either side to move) and
 * keeps the legal ones, probes them all once (which reads and caches their
 * blocks), then times ROUNDS more passes over them on one thread with each call
 * and prints the mean time of one probe.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "damka.h"

typedef struct {
    uint64_t sets[4];
    int white_to_move;
} position;

static uint64_t state = 0x9e3779b97f4a7c15u;

/* xorshift64*: a number in 0..n-1. */
static unsigned below(unsigned n) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (unsigned)((state * 0x2545f4914f6cdd1du) >> 33) % n;
}

static position random_position(unsigned squares, unsigned pieces) {
    position p;
    memset(&p, 0, sizeof p);
    uint64_t taken = 0;
    for (unsigned i = 0; i < pieces; i++) {
        unsigned square;
        do {
            square = below(squares);
        } while (taken >> square & 1);
        taken |= (uint64_t)1 << square;
        unsigned black = i == 0 ? 0 : i == 1 ? 1 : below(2);
        unsigned king = below(3) == 0;
        p.sets[black * 2 + king] |= (uint64_t)1 << square;
    }
    p.white_to_move = below(2);
    return p;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Mean nanoseconds per call of `rounds` passes over `ps`; with `full`,
 * damka_probe_bits, else damka_probe_wdl_bits. */
static double time_passes(damka_tb *tb, const position *ps, size_t count, int rounds, int full,
                          int64_t *checksum) {
    double start = seconds();
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < count; i++) {
            const position *p = &ps[i];
            if (full) {
                damka_result res;
                damka_probe_bits(tb, p->sets[0], p->sets[1], p->sets[2], p->sets[3],
                                 p->white_to_move, &res);
                *checksum += res.wdl * 1000 + res.dtw + res.best_move[0];
            } else {
                int32_t wdl = 0;
                damka_probe_wdl_bits(tb, p->sets[0], p->sets[1], p->sets[2], p->sets[3],
                                     p->white_to_move, &wdl);
                *checksum += wdl;
            }
        }
    }
    return (seconds() - start) / ((double)count * rounds) * 1e9;
}

int main(int argc, char **argv) {
    if (argc != 6 || atoi(argv[3]) < 2 || atoi(argv[4]) < 1 || atoi(argv[5]) < 1) {
        fprintf(stderr, "usage: %s DIR VARIANT PIECES COUNT ROUNDS\n", argv[0]);
        return 2;
    }
    unsigned pieces = (unsigned)atoi(argv[3]);
    size_t wanted = (size_t)atoi(argv[4]);
    int rounds = atoi(argv[5]);
    char err[512];
    damka_tb *tb = damka_open(argv[1], argv[2], err, sizeof err);
    if (tb == NULL) {
        fprintf(stderr, "bench_bits: %s\n", err);
        return 2;
    }
    unsigned squares = strcmp(argv[2], "international") == 0 ? 50 : 32;
    position *ps = malloc(wanted * sizeof *ps);
    size_t count = 0, illegal = 0;
    for (size_t i = 0; i < wanted; i++) {
        position p = random_position(squares, pieces);
        damka_result r;
        int code = damka_probe_bits(tb, p.sets[0], p.sets[1], p.sets[2], p.sets[3],
                                    p.white_to_move, &r);
        if (code == DAMKA_ERR_IMPOSSIBLE_POSITION) {
            illegal++;
        } else if (code != 0) {
            char message[512];
            damka_last_error(message, sizeof message);
            fprintf(stderr, "bench_bits: %s\n", message);
            return 1;
        } else {
            ps[count++] = p;
        }
    }
    int64_t checksum = 0;
    double full = time_passes(tb, ps, count, rounds, 1, &checksum);
    double wdl = time_passes(tb, ps, count, rounds, 0, &checksum);
    printf("%zu legal %u-piece positions (%zu illegal draws left out), %d rounds, blocks cached\n",
           count, pieces, illegal, rounds);
    printf("damka_probe_bits (value, DTW, best move): %.0f ns per call\n", full);
    printf("damka_probe_wdl_bits (value only): %.0f ns per call\n", wdl);
    printf("(checksum %" PRId64 ")\n", checksum);
    damka_close(tb);
    free(ps);
    return 0;
}
