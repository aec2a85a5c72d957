/* Dead positions from the solved endings (RULES.md section 6): on a board
 * with a join, a pawnless position is dead when neither its material nor
 * any material its captures reach has a single checkmate position in its
 * tables. Whether a material's tables hold a checkmate is found by the
 * solver's own tests (eg_king_attacked, eg_mated) over every legal
 * placement, without solving: the mated king on each orbit of the board's
 * symmetries, the other pieces everywhere, and a placement given up as
 * soon as no piece can check or too many flight cells stay free. The
 * answer for each material is kept, so each is decided once per table. */
#include "egtb.h"

#include <stdlib.h>

/* KK, 4 three-piece and 20 four-piece materials */
#define DEAD_MATERIALS 25

/// Answers per material on one board: 0 not known yet, 1 dead, 2 not.
/// Written once by whichever thread decides first (both write the same).
struct tc_dead_table {
    const tc_variant *v;
    bool flat; /* open files and ranks: the FIDE cases of tc_is_dead_position */
    eg_board b;
    bool board_ready;
    int n;
    char name[DEAD_MATERIALS][8];
    _Atomic signed char state[DEAD_MATERIALS];
};

enum { UNKNOWN = 0, DEAD = 1, ALIVE = 2 };

static const char letters[] = "QRBN";

tc_dead_table *tc_dead_table_new(const tc_variant *v, tc_error *err)
{
    tc_dead_table *d = calloc(1, sizeof *d);
    if (!d) {
        tc_set_error(err, "out of memory");
        return NULL;
    }
    d->v = v;
    d->flat = v->def.files == TC_FILES_OPEN && v->def.ranks == TC_RANKS_OPEN;
    if (!d->flat) {
        if (eg_board_init(&d->b, v, err)) {
            free(d);
            return NULL;
        }
        d->board_ready = true;
    }
    /* every material of 2..4 pieces, named as the solver names them */
    char raw[8];
    snprintf(d->name[d->n++], 8, "KK");
    for (int a = 0; a < 4; a++) {
        snprintf(raw, sizeof raw, "K%cK", letters[a]);
        tc_egtb_normalise(raw, d->name[d->n++], NULL);
    }
    for (int a = 0; a < 4; a++)
        for (int b = a; b < 4; b++) {
            snprintf(raw, sizeof raw, "K%c%cK", letters[a], letters[b]);
            tc_egtb_normalise(raw, d->name[d->n++], NULL);
            snprintf(raw, sizeof raw, "K%cK%c", letters[a], letters[b]);
            tc_egtb_normalise(raw, d->name[d->n++], NULL);
        }
    for (int i = 0; i < d->n; i++)
        atomic_init(&d->state[i], UNKNOWN);
    return d;
}

void tc_dead_table_free(tc_dead_table *d)
{
    if (!d)
        return;
    if (d->board_ready)
        eg_board_free(&d->b);
    free(d);
}

static int find(const tc_dead_table *d, const char *norm)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->name[i], norm))
            return i;
    return -1;
}

/* ---------------------------------------------------------------- the scan */

/// A placement in progress: the order pieces are placed in (the mated king
/// first, then the other side's men, the checkers before their king), and
/// how many of the mated side's men are still to come.
typedef struct {
    const eg_board *b;
    const eg_table *t;
    int mated;
    int order[EG_MAXP];
    int ncheckers; /* order[1 .. ncheckers]: the mating side's pieces other than its king */
    uint8_t sq[EG_MAXP];
} scan;

/* Could a piece of `type` on f reach t on an empty board? */
static bool reaches(const eg_board *b, int type, int f, int t)
{
    if (type == TC_KING)
        return b->leap[f][t] & 1;
    if (type == TC_KNIGHT)
        return b->leap[f][t] & 2;
    unsigned mask = type == TC_ROOK ? 0x55u : type == TC_BISHOP ? 0xaau : 0xffu;
    return b->raydir[f][t] & mask;
}

/* The flight cells of the mated king that no placed man of the mating
 * side reaches on an empty board: each needs a man of the mated side. */
static int free_flights(const scan *s, int placed)
{
    const tc_variant *v = s->b->v;
    int k = s->sq[s->mated], n = 0;
    for (int i = 0; i < v->nking[k]; i++) {
        int f = v->king[k][i];
        bool covered = false;
        for (int j = 1; j < placed && !covered; j++) {
            int q = s->order[j];
            covered = s->t->colour[q] != s->mated && s->sq[q] != f && reaches(s->b, s->t->type[q], s->sq[q], f);
        }
        n += !covered;
    }
    return n;
}

static bool place(scan *s, int placed)
{
    const eg_board *b = s->b;
    const eg_table *t = s->t;
    if (placed == t->k) {
        /* a legal position (the mating side, not to move, is not in
         * check) whose side to move is mated */
        return !eg_king_attacked(b, t, s->sq, !s->mated, -1) && eg_mated(b, t, s->sq, s->mated);
    }
    int q = s->order[placed];
    for (int c = 0; c < b->n; c++) {
        bool taken = false;
        for (int j = 0; j < placed && !taken; j++)
            taken = s->sq[s->order[j]] == c;
        if (taken)
            continue;
        s->sq[q] = (uint8_t)c;
        if (placed == s->ncheckers) {
            /* every checker placed: one must reach the king at all */
            bool check = false;
            for (int j = 1; j <= s->ncheckers && !check; j++) {
                int r = s->order[j];
                check = reaches(b, t->type[r], s->sq[r], s->sq[s->mated]);
            }
            if (!check)
                continue;
        }
        if (placed == s->ncheckers + 1) {
            /* the mating king too: flight cells left free need blockers */
            int blockers = 0;
            for (int j = 2; j < t->k; j++)
                blockers += t->colour[j] == s->mated;
            if (b->leap[c][s->sq[s->mated]] & 1)
                continue; /* kings may not touch */
            if (free_flights(s, placed + 1) > blockers)
                continue;
        }
        if (place(s, placed + 1))
            return true;
    }
    return false;
}

/* Does any legal position of the material have its side to move mated? */
static bool mate_exists(const eg_board *b, const char *name)
{
    eg_table t;
    if (eg_material(name, &t, NULL))
        return true; /* cannot happen for the names made above; never call it dead */
    for (int mated = 0; mated < 2; mated++) {
        scan s = {.b = b, .t = &t, .mated = mated};
        int n = 0;
        s.order[n++] = mated;
        for (int j = 2; j < t.k; j++)
            if (t.colour[j] != mated)
                s.order[n++] = j;
        s.ncheckers = n - 1;
        if (!s.ncheckers)
            continue; /* a bare king gives no check */
        s.order[n++] = !mated;
        for (int j = 2; j < t.k; j++)
            if (t.colour[j] == mated)
                s.order[n++] = j;
        /* the mated king on each orbit stands for its whole orbit */
        for (int r = 0; r < b->nrep; r++) {
            s.sq[mated] = b->reps[r];
            if (place(&s, 1))
                return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------- answers */

static bool has_tables(const tc_dead_table *d, const char *name)
{
    uint64_t size = 2 * (uint64_t)d->b.nrep;
    for (size_t j = 1; j < strlen(name); j++)
        size *= (uint64_t)d->b.n;
    return size <= EG_MAX_ENTRIES;
}

static int decide(tc_dead_table *d, int i)
{
    int known = atomic_load(&d->state[i]);
    if (known != UNKNOWN)
        return known == DEAD;
    const char *name = d->name[i];
    bool dead = true;
    /* every material one capture away first: smaller ones decide fastest */
    size_t len = strlen(name);
    for (size_t j = 1; j < len && dead; j++) {
        if (name[j] == 'K')
            continue;
        char sub[8], norm[8];
        size_t n = 0;
        for (size_t q = 0; q < len; q++)
            if (q != j)
                sub[n++] = name[q];
        sub[n] = '\0';
        if (tc_egtb_normalise(sub, norm, NULL) == 0) {
            int k = find(d, norm);
            dead = k >= 0 && decide(d, k);
        }
    }
    if (dead && strcmp(name, "KK") != 0)
        dead = has_tables(d, name) && !mate_exists(&d->b, name);
    atomic_store(&d->state[i], (signed char)(dead ? DEAD : ALIVE));
    return dead;
}

int tc_dead_material(tc_dead_table *d, const char *material, tc_error *err)
{
    char norm[8];
    if (tc_egtb_normalise(material, norm, err))
        return -1;
    int i = find(d, norm);
    if (i < 0) {
        tc_set_error(err, "material '%s': not a pawnless material of 2..4 pieces", material);
        return -1;
    }
    if (d->flat) {
        tc_set_error(err, "material '%s': on a board without joins the FIDE cases decide (RULES.md section 6)",
                     material);
        return -1;
    }
    return decide(d, i);
}

static int position_index(const tc_dead_table *d, const tc_position *p)
{
    char name[16], norm[8];
    if (p->v != d->v || !tc_egtb_material_of(p, name) || tc_egtb_normalise(name, norm, NULL))
        return -1;
    return find(d, norm);
}

int tc_dead_position(tc_dead_table *d, const tc_position *p)
{
    if (!d || d->flat)
        return tc_is_dead_position(p);
    int i = position_index(d, p);
    return i >= 0 && decide(d, i);
}

int tc_dead_position_known(const tc_dead_table *d, const tc_position *p)
{
    if (!d || d->flat)
        return tc_is_dead_position(p);
    int i = position_index(d, p);
    return i >= 0 && atomic_load(&d->state[i]) == DEAD;
}

void tc_dead_table_prepare(tc_dead_table *d, const tc_position *p)
{
    if (!d || d->flat)
        return;
    /* the pawnless materials of at most 4 pieces that captures from p reach:
     * p's own and those with fewer pieces of each type */
    int have[2][5] = {{0}};
    static const int types[] = {TC_QUEEN, TC_ROOK, TC_BISHOP, TC_KNIGHT};
    bool pawns = bits_any(&p->pieces[TC_PIECE(0, TC_PAWN)]) || bits_any(&p->pieces[TC_PIECE(1, TC_PAWN)]);
    if (pawns)
        return; /* promotions could make any material: decided when met */
    for (int col = 0; col < 2; col++)
        for (int i = 0; i < 4; i++)
            have[col][i] = bits_count(&p->pieces[TC_PIECE(col, types[i])]);
    for (int i = 0; i < d->n; i++) {
        eg_table t;
        if (eg_material(d->name[i], &t, NULL))
            continue;
        int need[2][5] = {{0}};
        for (int j = 2; j < t.k; j++)
            need[t.colour[j]][strchr(letters, "  NBRQ"[t.type[j]]) - letters]++;
        /* either colouring of the material */
        for (int swap = 0; swap < 2; swap++) {
            bool fits = true;
            for (int col = 0; col < 2 && fits; col++)
                for (int k = 0; k < 4 && fits; k++)
                    fits = need[col ^ swap][k] <= have[col][k];
            if (fits) {
                decide(d, i);
                break;
            }
        }
    }
}

tc_status tc_game_status(tc_dead_table *d, const tc_position *p)
{
    tc_status st = tc_position_status(p);
    if (st == TC_ONGOING && tc_dead_position(d, p))
        st = TC_DRAW_DEAD;
    return st;
}
