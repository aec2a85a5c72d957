/* Variants as data: the seven presets of docs/rules.md section 3, the checks
 * that any definition must pass, and the construction of a variant's tables:
 * the topology tables (topology.c), then those that depend on the setup
 * (pawn directions, castling) and the Zobrist keys. Whether the setup is a
 * legal position is judged one layer up, in setup.c. */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>

#define STANDARD "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define LONG "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

/// A preset: its definition and the other names it answers to.
typedef struct {
    tc_variant_def def;
    const char *aliases;
} preset;

static const preset presets[] = {
    {{"chess", "Chess", "Standard FIDE chess on a flat 8x8 board.", 8, 8, TC_FILES_OPEN,
      TC_RANKS_OPEN, 0, STANDARD},
     "standard"},
    {{"cylinder", "Cylinder Chess", "Files a and h are joined: the 8x8 board is a cylinder.", 8, 8,
      TC_FILES_WRAP, TC_RANKS_OPEN, 0, STANDARD},
     "cylinder-chess"},
    {{"monteiro-cylinder", "Cylindrical Chess (Monteiro)",
      "8x14 board whose ranks 14 and 1 are joined behind the kings; 16 pawns a side.", 8, 14,
      TC_FILES_OPEN, TC_RANKS_WRAP, 0, LONG},
     "cylindrical"},
    {{"torus", "Toroidal Chess", "8x14 board with files and ranks both joined: a torus.", 8, 14,
      TC_FILES_WRAP, TC_RANKS_WRAP, 0, LONG},
     "toroidal"},
    {{"mobius", "Moebius Strip Chess",
      "8x14 ranks joined with a half-twist between ranks 11 and 12; files a and h stay apart.", 8,
      14, TC_FILES_OPEN, TC_RANKS_TWIST, 11, LONG},
     "mobius-strip,mobius-strip-chess"},
    {{"klein-bottle", "Klein Bottle Chess",
      "Moebius strip with files a and h joined too: an 8x14 Klein bottle.", 8, 14, TC_FILES_WRAP,
      TC_RANKS_TWIST, 11, LONG},
     "klein,klein-bottle-chess"},
    {{"folding", "Folding Magnetic Chess",
      "8x8 board folded in half: files wrap and each end rank is glued to itself, mirrored.", 8,
      8, TC_FILES_WRAP, TC_RANKS_FOLD, 0, STANDARD},
     "folding-magnetic,folding-magnetic-chess"},
};

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

int tc_preset_count(void) { return NPRESETS; }

const tc_variant_def *tc_preset(int i)
{
    return i >= 0 && i < NPRESETS ? &presets[i].def : NULL;
}

const char *tc_preset_aliases(int i)
{
    return i >= 0 && i < NPRESETS ? presets[i].aliases : NULL;
}

int tc_variant_def_check(const tc_variant_def *d, tc_error *err)
{
    if (d->width < 2 || d->width > TC_MAX_FILES) {
        tc_set_error(err, "cols: %d is out of range (2..%d)", d->width, TC_MAX_FILES);
        return -1;
    }
    if (d->height < 2 || d->height > TC_MAX_RANKS) {
        tc_set_error(err, "rows: %d is out of range (2..%d)", d->height, TC_MAX_RANKS);
        return -1;
    }
    if (d->files != TC_FILES_OPEN && d->files != TC_FILES_WRAP) {
        tc_set_error(err, "files: unknown file rule");
        return -1;
    }
    if (d->ranks < TC_RANKS_OPEN || d->ranks > TC_RANKS_FOLD) {
        tc_set_error(err, "ranks: unknown rank rule");
        return -1;
    }
    if (d->ranks == TC_RANKS_TWIST && (d->seam < 1 || d->seam > d->height)) {
        tc_set_error(err, "seam: %d is not a rank of the board (1..%d)", d->seam, d->height);
        return -1;
    }
    if (!memchr(d->setup, '\0', sizeof d->setup) || d->setup[0] == '\0') {
        tc_set_error(err, "setup: missing");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- construction */

/* Steps vertically from cell c in direction dy until the enemy back rank
 * (returns the step count) or own back rank, off board or a loop (-1). */
static int pawn_walk(const tc_variant *v, int colour, int c, int dy)
{
    int dir = dy > 0 ? 0 : 4, cur = c;
    for (int n = 1; n <= 2 * v->H + 2; n++) {
        int nx = v->step_to[cur][dir];
        if (nx < 0)
            return -1;
        dir = v->step_dir[cur][dir];
        cur = nx;
        int y = cur / v->W;
        if (y == v->back_rank[!colour])
            return n;
        if (y == v->back_rank[colour])
            return -1;
    }
    return -1;
}

/* How a walk from c going dy fails, for the reason of a refusal. */
static void walk_failure(const tc_variant *v, int colour, int c, int dy, char *buf, size_t n)
{
    int dir = dy > 0 ? 0 : 4, cur = c;
    for (int k = 1; k <= 2 * v->H + 2; k++) {
        int nx = v->step_to[cur][dir];
        if (nx < 0) {
            snprintf(buf, n, "leaves the board");
            return;
        }
        dir = v->step_dir[cur][dir];
        cur = nx;
        if (cur / v->W == v->back_rank[colour]) {
            snprintf(buf, n, "meets its own king's rank %d first", cur / v->W + 1);
            return;
        }
    }
    snprintf(buf, n, "never meets rank %d", v->back_rank[!colour] + 1);
}

int tc_pawn_stuck(const tc_variant *v, int colour, int cell, tc_error *err)
{
    if (v->pawn_dy[colour][cell])
        return 0;
    char north[80], south[80];
    walk_failure(v, colour, cell, 1, north, sizeof north);
    walk_failure(v, colour, cell, -1, south, sizeof south);
    tc_set_error(err, "the %s pawn on %c%d has no forward direction (going up it %s; going down it %s), "
                 "so it could never move", colour ? "black" : "white", 'a' + cell % v->W, cell / v->W + 1, north,
                 south);
    return -1;
}

static void build_pawns(tc_variant *v)
{
    for (int col = 0; col < 2; col++) {
        bits_clear(&v->promo_cells[col]);
        for (int c = 0; c < v->ncells; c++) {
            int y = c / v->W;
            v->pawn_dy[col][c] = 0;
            v->push1[col][c] = v->push2[col][c] = -1;
            v->npcap[col][c] = v->npcap_from[col][c] = 0;
            if (y == v->back_rank[!col])
                bits_set(&v->promo_cells[col], c);
        }
        for (int c = 0; c < v->ncells; c++) {
            int y = c / v->W;
            if (y == v->back_rank[0] || y == v->back_rank[1])
                continue;
            int n = pawn_walk(v, col, c, 1), s = pawn_walk(v, col, c, -1);
            int dy = 0;
            if (n > 0 && (s < 0 || n <= s))
                dy = 1;
            else if (s > 0)
                dy = -1;
            v->pawn_dy[col][c] = (int8_t)dy;
            if (!dy)
                continue;
            int f = dy > 0 ? 0 : 4;
            int c1 = v->step_to[c][f];
            v->push1[col][c] = (int16_t)c1;
            if (c1 >= 0 && ((v->double_ranks[col] >> y) & 1) && c1 / v->W != v->back_rank[!col]) {
                /* a second step that a fold sends back onto the first
                 * step's cell or the pawn's own is no two-step (docs/rules.md
                 * section 4): the one-step stands alone. Nor is one whose
                 * first step reaches the last rank: the pawn promotes
                 * there (on short wrapped boards it would go on to its own
                 * back rank). */
                int c2 = v->step_to[c1][v->step_dir[c][f]];
                v->push2[col][c] = (int16_t)(c2 == c1 || c2 == c ? -1 : c2);
            }
            for (int side = -1; side <= 1; side += 2) {
                int d = dy > 0 ? (side > 0 ? 1 : 7) : (side > 0 ? 3 : 5);
                int t = v->step_to[c][d];
                tc_cells_add_unique(v->pcap[col][c], &v->npcap[col][c], t, c);
            }
        }
        for (int c = 0; c < v->ncells; c++)
            for (int i = 0; i < v->npcap[col][c]; i++) {
                int t = v->pcap[col][c][i];
                if (v->npcap_from[col][t] < 8)
                    v->pcap_from[col][t][v->npcap_from[col][t]++] = (uint8_t)c;
            }
    }
}

/* Castling per rook (docs/rules.md section 4): each castling exists where the
 * setup has the king on file e of its back rank and the rook of that
 * castling on its own file, whatever stands on the other rook's file. */
static void build_castling(tc_variant *v, const uint8_t *board)
{
    memset(v->castle_clear, 0xff, sizeof v->castle_clear);
    for (int col = 0; col < 2; col++) {
        int y = v->back_rank[col];
        int e = y * v->W + 4, a = y * v->W, h = y * v->W + 7;
        v->castle_ok[col] = v->castle_side[col][0] = v->castle_side[col][1] = false;
        if (v->W < 8 || board[e] != TC_PIECE(col, TC_KING))
            continue;
        v->castle_side[col][0] = board[h] == TC_PIECE(col, TC_ROOK);
        v->castle_side[col][1] = board[a] == TC_PIECE(col, TC_ROOK);
        if (!v->castle_side[col][0] && !v->castle_side[col][1])
            continue;
        v->castle_ok[col] = true;
        v->castle_king[col] = e;
        v->castle_rook[col][0] = h;
        v->castle_rook[col][1] = a;
        v->castle_king_to[col][0] = e + 2;
        v->castle_rook_to[col][0] = e + 1;
        v->castle_king_to[col][1] = e - 2;
        v->castle_rook_to[col][1] = e - 1;
        for (int s = 0; s < 2; s++) {
            bits_clear(&v->castle_empty[col][s]);
            int lo = s == 0 ? e + 1 : a + 1, hi = s == 0 ? h - 1 : e - 1;
            for (int c = lo; c <= hi; c++)
                bits_set(&v->castle_empty[col][s], c);
            int step = s == 0 ? 1 : -1;
            v->castle_safe[col][s][0] = e;
            v->castle_safe[col][s][1] = e + step;
            v->castle_safe[col][s][2] = e + 2 * step;
            /* a plain king step with the same two cells keeps the short
             * coordinate form; castling is then written king-takes-rook */
            bool clash = false;
            for (int i = 0; i < v->nking[e]; i++)
                if (v->king[e][i] == e + 2 * step)
                    clash = true;
            v->castle_uci_rook[col][s] = clash;
        }
        int bit = col == 0 ? 1 : 4;
        v->castle_clear[e] &= (uint8_t)~(bit | bit << 1);
        if (v->castle_side[col][0])
            v->castle_clear[h] &= (uint8_t)~bit;
        if (v->castle_side[col][1])
            v->castle_clear[a] &= (uint8_t)~(bit << 1);
    }
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void build_zobrist(tc_variant *v)
{
    uint64_t s = 0x70c0c4e55ull;
    for (int p = 0; p < 16; p++)
        for (int c = 0; c < TC_MAX_CELLS; c++)
            v->zob_piece[p][c] = (p & 7) && (p & 7) <= 6 ? splitmix(&s) : 0;
    v->zob_castle[0] = 0;
    uint64_t single[4];
    for (int i = 0; i < 4; i++)
        single[i] = splitmix(&s);
    for (int m = 0; m < 16; m++) {
        v->zob_castle[m] = 0;
        for (int i = 0; i < 4; i++)
            if (m & (1 << i))
                v->zob_castle[m] ^= single[i];
    }
    for (int c = 0; c < TC_MAX_CELLS; c++)
        v->zob_ep[c] = splitmix(&s);
    v->zob_side = splitmix(&s);
}

tc_variant *tc_variant_build(const tc_variant_def *def, tc_error *err)
{
    if (tc_variant_def_check(def, err))
        return NULL;
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(def->width, def->height, def->setup, strlen(def->setup), board, err)) {
        tc_error_prefix(err, "setup: ");
        return NULL;
    }
    tc_variant *v = calloc(1, sizeof *v);
    if (!v) {
        tc_set_error(err, "out of memory");
        return NULL;
    }
    v->def = *def;
    v->W = def->width;
    v->H = def->height;
    v->ncells = v->W * v->H;
    bits_clear(&v->all_cells);
    for (int c = 0; c < v->ncells; c++)
        bits_set(&v->all_cells, c);

    int kings[2] = {0, 0};
    for (int c = 0; c < v->ncells; c++) {
        int pc = board[c];
        if (TC_TYPE(pc) == TC_KING) {
            kings[TC_COLOUR(pc)]++;
            v->back_rank[TC_COLOUR(pc)] = c / v->W;
        }
        if (TC_TYPE(pc) == TC_PAWN)
            v->double_ranks[TC_COLOUR(pc)] |= 1u << (c / v->W);
    }
    if (kings[0] != 1 || kings[1] != 1) {
        tc_set_error(err, "setup: needs exactly one king per side (white %d, black %d)", kings[0], kings[1]);
        free(v);
        return NULL;
    }
    if (v->back_rank[0] == v->back_rank[1]) {
        tc_set_error(err, "setup: both kings stand on rank %d; the back ranks must differ",
                     v->back_rank[0] + 1);
        free(v);
        return NULL;
    }
    for (int c = 0; c < v->ncells; c++) {
        int y = c / v->W;
        if (TC_TYPE(board[c]) == TC_PAWN && (y == v->back_rank[0] || y == v->back_rank[1])) {
            int col = TC_COLOUR(board[c]);
            tc_set_error(err, "setup: the %s pawn on %c%d stands on rank %d, the %s king's rank; a pawn may "
                         "not stand on either king's rank", col ? "black" : "white", 'a' + c % v->W, y + 1,
                         y + 1, y == v->back_rank[0] ? "white" : "black");
            free(v);
            return NULL;
        }
    }

    if (tc_topology_build(v)) {
        free(v);
        tc_set_error(err, "out of memory");
        return NULL;
    }
    build_pawns(v);
    for (int c = 0; c < v->ncells; c++)
        if (TC_TYPE(board[c]) == TC_PAWN && tc_pawn_stuck(v, TC_COLOUR(board[c]), c, err)) {
            tc_error_prefix(err, "setup: ");
            tc_variant_free(v);
            return NULL;
        }
    build_castling(v, board);
    build_zobrist(v);

    return v;
}

void tc_variant_free(tc_variant *v)
{
    if (!v)
        return;
    tc_topology_free(v);
    free(v);
}
