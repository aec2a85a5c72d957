/* The wasm module's export layer (wasm/tc_wasm.c), built natively under the
 * sanitizers: the first byte picks a preset, the rest is split at newlines
 * into texts fed to every export that takes text (FEN, moves, explain, move
 * paths, PGN, front matter), with queries in between. Nothing may crash,
 * leak or read out of bounds. */
#include "topochess.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The export layer's functions (no header: the module's ABI is its exports). */
void *tcw_malloc(size_t n);
void tcw_free(void *p);
tc_error *tcw_error_new(void);
char *tcw_presets_json(void);
tc_variant *tcw_variant_preset(const char *name, tc_error *err);
tc_variant *tcw_variant_frontmatter(const char *text, size_t len, tc_error *err);
void tcw_variant_free(tc_variant *v);
char *tcw_variant_json(const tc_variant *v);
int32_t *tcw_variant_steps(const tc_variant *v);
char *tcw_variant_lines(const tc_variant *v, int cell, int letter);
char *tcw_variant_report(const tc_variant *v);
tc_position *tcw_game_new(const tc_variant *v);
void tcw_game_free(tc_position *p);
int tcw_game_set_fen(tc_position *p, const char *fen, tc_error *err);
char *tcw_game_fen(const tc_position *p);
char *tcw_game_board(const tc_position *p);
char *tcw_game_legal(const tc_position *p);
char *tcw_game_play(tc_position *p, const char *text, tc_error *err);
int tcw_game_undo(tc_position *p);
char *tcw_game_status(const tc_position *p);
char *tcw_game_lines(const tc_position *p, int cell, int mode);
char *tcw_game_attacks(const tc_position *p, int cell, int by);
char *tcw_game_move_path(const tc_position *p, const char *text, tc_error *err);
char *tcw_game_explain(const tc_position *p, const char *text);
char *tcw_game_history(const tc_position *p);
char *tcw_game_pgn(const tc_position *p, const char *tags, const char *result);
char *tcw_game_load_pgn(tc_position *p, const char *text, size_t len, tc_error *err);
char *tcw_game_divide(tc_position *p, int depth);

void tc_host_info(const char *json, size_t len);
int tc_host_poll(void);
void tc_host_info(const char *json, size_t len) { (void)json, (void)len; }
int tc_host_poll(void) { return 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    tc_error *err = tcw_error_new();
    const tc_variant_def *def = tc_preset(data[0] % tc_preset_count());
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;

    tc_variant *fv = tcw_variant_frontmatter(text, size - 1, err); /* the whole input as a page */
    tcw_variant_free(fv);
    /* presets are built once and kept: building the tables is the slow part */
    static tc_variant *cache[16];
    int pi = data[0] % tc_preset_count();
    if (!cache[pi])
        cache[pi] = tcw_variant_preset(def->name, err);
    tc_variant *v = cache[pi];
    tc_position *p = v ? tcw_game_new(v) : NULL;
    if (p) {
        free(tcw_game_load_pgn(p, text, size - 1, err));
        int cells = tc_variant_cells(v);
        char *line = text;
        for (int k = 0; line && k < 16; k++) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            int cell = (unsigned char)line[0] % cells;
            switch (k % 4) {
            case 0: tcw_game_set_fen(p, line, err); break;
            case 1: free(tcw_game_play(p, line, err)); break;
            case 2: free(tcw_game_explain(p, line)); break;
            default: free(tcw_game_move_path(p, line, err)); break;
            }
            free(tcw_game_lines(p, cell, k & 1));
            free(tcw_game_attacks(p, cell, k & 1));
            free(tcw_variant_lines(v, cell, "PNBRQKpnbrqk"[k % 12]));
            line = nl ? nl + 1 : NULL;
        }
        free(tcw_game_fen(p));
        free(tcw_game_board(p));
        free(tcw_game_legal(p));
        free(tcw_game_status(p));
        free(tcw_game_history(p));
        free(tcw_game_pgn(p, "White\tA\nBlack\tB\nbad line\n", ""));
        free(tcw_game_divide(p, 1));
        while (tcw_game_undo(p) == 0)
            ;
    }
    if (v && data[0] < 16) {
        free(tcw_variant_json(v));
        free(tcw_variant_steps(v));
        free(tcw_variant_report(v));
        free(tcw_presets_json());
    }
    tcw_game_free(p);
    free(text);
    tcw_free(err);
    return 0;
}
