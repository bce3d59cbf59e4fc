/*
 * probe.c: probes the positions given one FEN per line on standard input and
 * prints one JSON line each, with the fields `damka probe --json` prints.
 *
 *   cc -I ffi/include ffi/examples/probe.c target/release/libdamka_ffi.a \
 *      -lpthread -ldl -lm -o probe
 *   echo "W:WKa1,Kc1,Ke1:BKh2" | ./probe tables russian russian R1=4
 *
 * Arguments: DIR VARIANT [RULE_SET [PLAYED]]. With a rule set, each line also
 * gets the answer under the rules. Exits 1 if any position had no answer.
 */
#include <stdio.h>
#include <string.h>

#include "damka.h"

static const char *wdl_name(int wdl) {
    return wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw";
}

static const char *rules_name(int value) {
    static const char *names[] = {"loss", "blessed-loss", "draw", "cursed-win", "win"};
    return value >= -2 && value <= 2 ? names[value + 2] : "unknown";
}

/* Prints `"key": "text"`, or `"key": null` for an empty text. */
static void print_text(const char *key, const char *text) {
    if (text[0] == '\0') {
        printf("\"%s\": null", key);
    } else {
        printf("\"%s\": \"%s\"", key, text);
    }
}

static void print_error(const char *fen, int code) {
    char message[512];
    damka_last_error(message, sizeof message);
    printf("{\"fen\": \"%s\", \"error\": \"%s\", \"code\": %d}\n", fen, message, code);
    fprintf(stderr, "probe: %s: %s (%s)\n", fen, message, damka_strerror(code));
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s DIR VARIANT [RULE_SET [PLAYED]] < fens\n", argv[0]);
        return 2;
    }
    const char *rule_set = argc > 3 ? argv[3] : NULL;
    const char *played = argc > 4 ? argv[4] : "";
    char err[512];
    damka_tb *tb = damka_open(argv[1], argv[2], err, sizeof err);
    if (tb == NULL) {
        fprintf(stderr, "probe: %s\n", err);
        return 2;
    }
    int failed = 0;
    char line[1024];
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        damka_result r;
        int code = damka_probe_fen(tb, line, &r);
        if (code != 0) {
            print_error(line, code);
            failed = 1;
            continue;
        }
        printf("{\"fen\": \"%s\", \"wdl\": \"%s\", ", line, wdl_name(r.wdl));
        if (r.wdl == 0) {
            printf("\"dtw\": null, ");
        } else {
            printf("\"dtw\": %d, ", r.dtw);
        }
        print_text("best_move", r.best_move);
        if (rule_set != NULL) {
            damka_rules_result rr;
            code = damka_probe_rules_fen(tb, line, rule_set, played, &rr);
            if (code != 0) {
                printf("}\n");
                print_error(line, code);
                failed = 1;
                continue;
            }
            printf(", \"rules\": {\"wdl\": \"%s\", ", rules_name(rr.value));
            print_text("rule", rr.rule);
            if (rr.value == 2 || rr.value == -2) {
                printf(", \"distance\": %d, ", rr.distance);
            } else {
                printf(", \"distance\": null, ");
            }
            print_text("best_move", rr.best_move);
            printf("}");
        }
        printf("}\n");
    }
    damka_close(tb);
    return failed;
}
