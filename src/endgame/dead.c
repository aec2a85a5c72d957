/* Dead positions (docs/rules.md section 6), decided per position on every
 * board, the flat one included, by the help-mate pass of helpmate.c over
 * the tables of each pawnless material of at most 4 pieces: a position is
 * dead when no sequence of legal moves by either side reaches a
 * checkmate. A material's marks are made the first time a position of it
 * (or of a material whose captures reach it) is asked about, kept for the
 * table's life, and read from and written to a cache folder when one is
 * set. Positions beyond the tables (pawns, more pieces, a table over the
 * size limit) are not dead, except the FIDE bishops on boards with open
 * files and ranks (tc_is_dead_position). */
#include "egtb.h"

#include <stdlib.h>
#ifndef TC_NO_THREADS
#include <pthread.h>
#endif

/* KK, 4 three-piece and 20 four-piece materials */
#define DEAD_MATERIALS 25

/// One board's verdicts: the materials' tables (made up front, marked on
/// first use), the size limit and the cache folder.
struct tc_dead_table {
    const tc_variant *v;
    bool flat; /* open files and ranks: FIDE's bishops beyond the tables */
    tc_egtb *set; /* every material's table; only marks change after creation */
    uint64_t max_entries;
    char dir[1024];
#ifndef TC_NO_THREADS
    pthread_mutex_t lock; /* one thread marks at a time */
#endif
};

static const char letters[] = "QRBN";

/* The 25 materials as the solver names them. */
static int material_names(char names[DEAD_MATERIALS][8])
{
    char raw[8];
    int n = 0;
    snprintf(names[n++], 8, "KK");
    for (int a = 0; a < 4; a++) {
        snprintf(raw, sizeof raw, "K%cK", letters[a]);
        tc_egtb_normalise(raw, names[n++], NULL);
    }
    for (int a = 0; a < 4; a++)
        for (int b = a; b < 4; b++) {
            snprintf(raw, sizeof raw, "K%c%cK", letters[a], letters[b]);
            tc_egtb_normalise(raw, names[n++], NULL);
            snprintf(raw, sizeof raw, "K%cK%c", letters[a], letters[b]);
            tc_egtb_normalise(raw, names[n++], NULL);
        }
    return n;
}

tc_dead_table *tc_dead_table_new(const tc_variant *v, tc_error *err)
{
    tc_dead_table *d = calloc(1, sizeof *d);
    tc_egtb *set = calloc(1, sizeof *set);
    if (!d || !set) {
        free(d);
        free(set);
        tc_set_error(err, "out of memory");
        return NULL;
    }
    d->v = v;
    d->flat = v->def.files == TC_FILES_OPEN && v->def.ranks == TC_RANKS_OPEN;
    d->max_entries = EG_MAX_ENTRIES;
    d->set = set;
    if (eg_board_init(&set->b, v, err)) {
        free(set);
        free(d);
        return NULL;
    }
    char names[DEAD_MATERIALS][8];
    int n = material_names(names);
    for (int i = 0; i < n; i++)
        if (!eg_set_add(set, names[i], err)) {
            tc_egtb_free(set);
            free(d);
            return NULL;
        }
#ifndef TC_NO_THREADS
    pthread_mutex_init(&d->lock, NULL);
#endif
    return d;
}

void tc_dead_table_free(tc_dead_table *d)
{
    if (!d)
        return;
    tc_egtb_free(d->set);
#ifndef TC_NO_THREADS
    pthread_mutex_destroy(&d->lock);
#endif
    free(d);
}

static void lock(tc_dead_table *d);
static void unlock(tc_dead_table *d);

void tc_dead_table_set_limit(tc_dead_table *d, uint64_t max_entries)
{
    lock(d);
    uint64_t before = d->max_entries;
    d->max_entries = max_entries && max_entries < EG_MAX_ENTRIES ? max_entries : EG_MAX_ENTRIES;
    /* a raised limit: the materials left without marks are asked again */
    for (int i = 0; d->max_entries > before && i < d->set->ntables; i++)
        if (atomic_load(&d->set->tables[i]->mark_state) == 2)
            atomic_store(&d->set->tables[i]->mark_state, 0);
    unlock(d);
}

void tc_dead_table_set_dir(tc_dead_table *d, const char *dir)
{
    snprintf(d->dir, sizeof d->dir, "%s", dir ? dir : "");
}

static uint64_t table_size(const tc_dead_table *d, const eg_table *t)
{
    uint64_t size = 2 * (uint64_t)d->set->b.nrep;
    for (int j = 1; j < t->k; j++)
        size *= (uint64_t)d->set->b.n;
    return size;
}

static eg_table *find(const tc_dead_table *d, const char *norm)
{
    for (int i = 0; i < d->set->ntables; i++)
        if (!strcmp(d->set->tables[i]->name, norm))
            return d->set->tables[i];
    return NULL;
}

/* ---------------------------------------------------------------- marking */

static void lock(tc_dead_table *d)
{
#ifndef TC_NO_THREADS
    pthread_mutex_lock(&d->lock);
#else
    (void)d;
#endif
}

static void unlock(tc_dead_table *d)
{
#ifndef TC_NO_THREADS
    pthread_mutex_unlock(&d->lock);
#else
    (void)d;
#endif
}

/* Marks t and, first, every table its captures reach (lock held). */
static int mark_locked(tc_dead_table *d, eg_table *t)
{
    int state = atomic_load(&t->mark_state);
    if (state)
        return state;
    for (int j = 2; j < t->k; j++)
        if (mark_locked(d, t->sub[j]) != 1) {
            atomic_store(&t->mark_state, 2); /* a capture leads where no table is */
            return 2;
        }
    if (t->k > 2 && table_size(d, t) > d->max_entries) {
        atomic_store(&t->mark_state, 2);
        return 2;
    }
    if (d->dir[0] && eg_dead_load(&d->set->b, t, d->dir) == 0)
        return 1;
    if (eg_helpmate(&d->set->b, t, NULL))
        return 2;
    if (d->dir[0])
        eg_dead_save(&d->set->b, t, d->dir); /* a cache: a folder not writable costs only time */
    return atomic_load(&t->mark_state);
}

/* 1 when t's marks are ready, 2 when t has no tables. */
static int mark(tc_dead_table *d, eg_table *t)
{
    int state = atomic_load(&t->mark_state);
    if (state)
        return state;
    lock(d);
    state = mark_locked(d, t);
    unlock(d);
    return state;
}

/* ---------------------------------------------------------------- answers */

int tc_dead_material_count(tc_dead_table *d, const char *material, tc_dead_count *c, tc_error *err)
{
    char norm[8];
    memset(c, 0, sizeof *c);
    if (tc_egtb_normalise(material, norm, err))
        return -1;
    eg_table *t = find(d, norm);
    if (!t) {
        tc_set_error(err, "material '%s': not a pawnless material of 2..4 pieces", material);
        return -1;
    }
    c->entries = table_size(d, t);
    if (mark(d, t) != 1)
        return 0;
    c->tables = 1;
    const eg_board *b = &d->set->b;
    for (uint64_t idx = 0; idx < t->size; idx++) {
        uint8_t sq[EG_MAXP];
        int stm;
        eg_decode(b, t, idx, &stm, sq);
        bool overlap = false;
        for (int i = 0; i < t->k; i++)
            for (int j = i + 1; j < t->k; j++)
                overlap |= sq[i] == sq[j];
        if (overlap || eg_canon(b, t, stm, sq) != idx || eg_king_attacked(b, t, sq, !stm, -1))
            continue;
        uint64_t w = eg_class_size(b, t, idx);
        c->total += w;
        if (!eg_marked(t, idx))
            c->dead += w;
    }
    return 0;
}

int tc_dead_material(tc_dead_table *d, const char *material, tc_error *err)
{
    tc_dead_count c;
    if (tc_dead_material_count(d, material, &c, err))
        return -1;
    return c.tables && c.dead == c.total;
}

/// What decides one position.
typedef enum {
    BEYOND, /* no tables: pawns, more than 4 pieces, or too large */
    MARKED, /* a checkmate is reachable */
    UNMARKED,
    NOT_KNOWN /* not marked yet (tc_dead_position_known) */
} verdict;

static verdict decide(tc_dead_table *d, const tc_position *p, bool compute, const eg_table **tab)
{
    uint8_t sq[EG_MAXP];
    int swap;
    char name[16];
    *tab = NULL;
    if (tc_position_variant(p) != d->v || !tc_egtb_material_of(p, name))
        return BEYOND;
    const eg_table *t = eg_match(d->set, p, sq, &swap);
    if (!t)
        return BEYOND;
    *tab = t;
    int state = compute ? mark(d, (eg_table *)t) : atomic_load(&t->mark_state);
    if (state == 0)
        return NOT_KNOWN;
    if (state != 1)
        return BEYOND;
    uint64_t idx = eg_canon(&d->set->b, t, tc_side_to_move(p) ^ swap, sq);
    return eg_marked(t, idx) ? MARKED : UNMARKED;
}

static int beyond(const tc_dead_table *d, const tc_position *p)
{
    return d->flat && tc_is_dead_position(p);
}

int tc_dead_position(tc_dead_table *d, const tc_position *p)
{
    if (!d)
        return tc_is_dead_position(p);
    const eg_table *t;
    verdict v = decide(d, p, true, &t);
    return v == UNMARKED || (v == BEYOND && beyond(d, p));
}

int tc_dead_position_known(const tc_dead_table *d, const tc_position *p)
{
    if (!d)
        return tc_is_dead_position(p);
    const eg_table *t;
    verdict v = decide((tc_dead_table *)d, p, false, &t);
    return v == UNMARKED || (v == BEYOND && beyond(d, p));
}

int tc_dead_position_ready(const tc_dead_table *d, const tc_position *p)
{
    const eg_table *t;
    return !d || decide((tc_dead_table *)d, p, false, &t) != NOT_KNOWN;
}

/* ---------------------------------------------------------------- who can mate */

/* Marks t's one-sided pass for the checkmates of colour c and, first,
 * those of every table its captures reach (in their colours); lock held.
 * 1 ready, 2 no tables. */
static int mark_side_locked(tc_dead_table *d, eg_table *t, int c)
{
    int state = atomic_load(&t->mated_state[c]);
    if (state)
        return state;
    for (int j = 2; j < t->k; j++)
        if (mark_side_locked(d, t->sub[j], c ^ (t->sub_swap[j] ? 1 : 0)) != 1) {
            atomic_store(&t->mated_state[c], 2);
            return 2;
        }
    if (t->k > 2 && table_size(d, t) > d->max_entries) {
        atomic_store(&t->mated_state[c], 2);
        return 2;
    }
    eg_helpmate_side(&d->set->b, t, c, NULL);
    return atomic_load(&t->mated_state[c]);
}

int tc_dead_can_mate(tc_dead_table *d, const tc_position *p, int side)
{
    uint8_t sq[EG_MAXP];
    int swap;
    char name[16];
    if (!d || (side != TC_WHITE && side != TC_BLACK))
        return -1;
    /* a king alone never gives check, on any board */
    bool alone = true;
    for (int c = 0; c < tc_variant_cells(d->v) && alone; c++) {
        int pc = tc_piece_at(p, c);
        alone = !pc || TC_COLOUR(pc) != side || TC_TYPE(pc) == TC_KING;
    }
    if (alone)
        return 0;
    if (tc_position_variant(p) != d->v || !tc_egtb_material_of(p, name))
        return -1;
    const eg_table *t = eg_match(d->set, p, sq, &swap);
    if (!t)
        return -1;
    int victim = !side ^ swap; /* the colour of the side to be mated, in the table's colours */
    int state = atomic_load(&t->mated_state[victim]);
    if (!state) {
        lock(d);
        state = mark_side_locked(d, (eg_table *)t, victim);
        unlock(d);
    }
    if (state != 1)
        return -1;
    uint64_t idx = eg_canon(&d->set->b, t, tc_side_to_move(p) ^ swap, sq);
    return (int)((t->mated[victim][idx >> 6] >> (idx & 63)) & 1);
}

/* "K+Q v K+R" from "KQKR". */
static void material_words(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *s = name; *s && k + 4 < n; s++) {
        if (*s == 'K' && s != name)
            k += (size_t)snprintf(buf + k, n - k, " v ");
        else if (*s != 'K')
            buf[k++] = '+';
        buf[k++] = *s;
    }
    buf[k] = '\0';
}

int tc_dead_explain(tc_dead_table *d, const tc_position *p, char *buf, size_t n)
{
    tc_movelist *list = malloc(sizeof *list);
    int moves = list ? tc_generate_legal(p, list) : 1;
    free(list);
    bool check = tc_in_check(p);
    const eg_table *t = NULL;
    verdict v = d ? decide(d, p, true, &t) : BEYOND;
    char words[32] = "";
    if (t)
        material_words(t->name, words, sizeof words);
    char name[16];
    bool small = tc_egtb_material_of(p, name);
    if (moves == 0 && check) {
        snprintf(buf, n, "not dead: checkmate (the mate is on the board)");
        return 0;
    }
    if (moves == 0) {
        snprintf(buf, n, "dead: stalemate (no legal move and not in check; the game ends drawn by stalemate)");
        return 1;
    }
    if (v == UNMARKED) {
        if (t->k == 2)
            snprintf(buf, n, "dead: king against king");
        else
            snprintf(buf, n,
                     "dead: no sequence of legal moves by either side reaches a checkmate (the help-mate "
                     "pass over the %s tables and those its captures reach)",
                     words);
        return 1;
    }
    if (v == MARKED) {
        snprintf(buf, n,
                 "not dead: a sequence of legal moves reaches a checkmate (the help-mate pass over the %s "
                 "tables)",
                 words);
        return 0;
    }
    if ((d ? beyond(d, p) : 0) || (!d && tc_is_dead_position(p))) {
        snprintf(buf, n, "dead: kings and bishops only, every bishop on one colour (FIDE; open files and ranks)");
        return 1;
    }
    if (t)
        snprintf(buf, n, "not dead: the %s tables are too large for this board (%llu entries, limit %llu)", words,
                 (unsigned long long)table_size(d, t), (unsigned long long)d->max_entries);
    else if (!small && tc_egtb_material_of(p, name) == 0) {
        bool pawns = false;
        const tc_variant *var = tc_position_variant(p);
        for (int c = 0; c < tc_variant_cells(var) && !pawns; c++)
            pawns = TC_TYPE(tc_piece_at(p, c)) == TC_PAWN;
        snprintf(buf, n, pawns ? "not dead: positions with pawns are not declared dead (docs/rules.md section 6)"
                               : "not dead: more than %d pieces, beyond the solved tables",
                 TC_EGTB_MAX_PIECES);
    } else
        snprintf(buf, n, "not dead: no tables decide it");
    return 0;
}

void tc_dead_table_prepare(tc_dead_table *d, const tc_position *p, uint64_t max_entries)
{
    if (!d)
        return;
    /* the pawnless materials of at most 4 pieces that captures from p reach:
     * p's own and those with fewer pieces of each type, within the limit */
    int have[2][5] = {{0}};
    static const int types[] = {TC_QUEEN, TC_ROOK, TC_BISHOP, TC_KNIGHT};
    for (int c = 0; c < tc_variant_cells(d->v); c++)
        if (TC_TYPE(tc_piece_at(p, c)) == TC_PAWN)
            return; /* promotions could make any material: decided when met */
    for (int col = 0; col < 2; col++)
        for (int i = 0; i < 4; i++)
            for (int c = 0; c < tc_variant_cells(d->v); c++)
                have[col][i] += tc_piece_at(p, c) == TC_PIECE(col, types[i]);
    for (int i = 0; i < d->set->ntables; i++) {
        eg_table *t = d->set->tables[i];
        int need[2][5] = {{0}};
        for (int j = 2; j < t->k; j++)
            need[t->colour[j]][strchr(letters, "  NBRQ"[t->type[j]]) - letters]++;
        /* either colouring of the material */
        for (int swap = 0; swap < 2; swap++) {
            bool fits = true;
            for (int col = 0; col < 2 && fits; col++)
                for (int k = 0; k < 4 && fits; k++)
                    fits = need[col ^ swap][k] <= have[col][k];
            if (fits && (!max_entries || t->k == 2 || table_size(d, t) <= max_entries)) {
                mark(d, t);
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
    /* tc_position_status's own dead cases are the rules' alone; the tables
     * decide the positions they hold */
    if (st == TC_DRAW_DEAD && d && !tc_dead_position(d, p))
        st = TC_ONGOING;
    return st;
}
