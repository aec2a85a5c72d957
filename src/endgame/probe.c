/* Endgame sets: solving a set (an ending and the endings its captures lead
 * to), probing it from a tc_position, the best move by the tables,
 * statistics counted as real positions, and files. */
#include "egtb.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static tc_egtb *set_new(const tc_variant *v, const char *ending, uint64_t max, tc_error *err)
{
    tc_egtb *set = calloc(1, sizeof *set);
    if (!set) {
        tc_set_error(err, "out of memory");
        return NULL;
    }
    if (eg_board_init(&set->b, v, err)) {
        free(set);
        return NULL;
    }
    set->main = eg_set_add(set, ending, err);
    if (!set->main) {
        tc_egtb_free(set);
        return NULL;
    }
    uint64_t size = 2 * (uint64_t)set->b.nrep;
    for (int j = 1; j < set->main->k; j++)
        size *= (uint64_t)set->b.n;
    if (!max || max > EG_MAX_ENTRIES)
        max = EG_MAX_ENTRIES;
    if (size > max) {
        tc_set_error(err, "%s on %dx%d: %llu positions after %d symmetries, more than the %llu allowed",
                     set->main->name, v->W, v->H, (unsigned long long)size, set->b.nsym,
                     (unsigned long long)max);
        tc_egtb_free(set);
        return NULL;
    }
    return set;
}

tc_egtb *tc_egtb_solve(const tc_variant *v, const char *ending, const tc_egtb_options *opt, tc_error *err)
{
    double t0 = now_s();
    tc_egtb *set = set_new(v, ending, opt ? opt->max_entries : 0, err);
    if (!set)
        return NULL;
    for (int i = 0; i < set->ntables; i++)
        if (eg_solve_table(set, set->tables[i], opt, err)) {
            tc_egtb_free(set);
            return NULL;
        }
    set->seconds = now_s() - t0;
    return set;
}

void tc_egtb_free(tc_egtb *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ntables; i++) {
        free((void *)t->tables[i]->val);
        free(t->tables[i]->mark);
        free(t->tables[i]->mated[0]);
        free(t->tables[i]->mated[1]);
        free(t->tables[i]);
    }
    eg_board_free(&t->b);
    free(t);
}

const char *tc_egtb_name(const tc_egtb *t) { return t->main->name; }
const tc_variant *tc_egtb_variant(const tc_egtb *t) { return t->b.v; }
int tc_egtb_symmetries(const tc_egtb *t) { return t->b.nsym; }

/* ---------------------------------------------------------------- probing */

/* Finds the table of the position's material and its cells in the table's
 * order; *swap says White and Black are exchanged. */
const eg_table *eg_match(const tc_egtb *set, const tc_position *p, uint8_t *sq, int *swap)
{
    if (p->v != set->b.v)
        return NULL;
    char side[2][8];
    int ns[2] = {1, 1}, count = 0;
    side[0][0] = side[1][0] = 'K';
    static const char order[] = "QRBN";
    for (int o = 0; o < 4; o++)
        for (int c = 0; c < p->v->ncells; c++) {
            int pc = p->board[c];
            if (!pc)
                continue;
            if (o == 0)
                count++;
            if (TC_TYPE(pc) == TC_PAWN || count > EG_MAXP)
                return NULL;
            if ("  NBRQ"[TC_TYPE(pc)] == order[o]) {
                if (ns[TC_COLOUR(pc)] >= 7)
                    return NULL;
                side[TC_COLOUR(pc)][ns[TC_COLOUR(pc)]++] = order[o];
            }
        }
    side[0][ns[0]] = side[1][ns[1]] = '\0';
    char name[16], norm[8];
    snprintf(name, sizeof name, "%s%s", side[0], side[1]);
    if (tc_egtb_normalise(name, norm, NULL))
        return NULL;
    const eg_table *t = NULL;
    for (int i = 0; i < set->ntables && !t; i++)
        if (!strcmp(set->tables[i]->name, norm))
            t = set->tables[i];
    if (!t)
        return NULL;
    *swap = strcmp(name, norm) != 0;
    bool used[TC_MAX_CELLS] = {false};
    for (int i = 0; i < t->k; i++) {
        int want = TC_PIECE(t->colour[i] ^ *swap, t->type[i]);
        int found = -1;
        for (int c = 0; c < p->v->ncells && found < 0; c++)
            if (p->board[c] == want && !used[c])
                found = c;
        if (found < 0)
            return NULL;
        used[found] = true;
        sq[i] = (uint8_t)found;
    }
    return t;
}

int tc_egtb_has(const tc_egtb *t, const tc_position *p)
{
    uint8_t sq[EG_MAXP];
    int swap;
    return eg_match(t, p, sq, &swap) != NULL;
}

int tc_egtb_probe(const tc_egtb *set, const tc_position *p, tc_egtb_result *r)
{
    uint8_t sq[EG_MAXP];
    int swap;
    const eg_table *t = eg_match(set, p, sq, &swap);
    if (!t)
        return -1;
    int v = eg_lookup(&set->b, t, p->side ^ swap, sq);
    r->wdl = eg_is_win(v) ? 1 : eg_is_loss(v) ? -1 : 0;
    r->plies = r->wdl ? v - 1 : 0;
    return 0;
}

/* Orders results for the side choosing: quick wins, draws, slow losses. */
static int result_rank(tc_egtb_result r)
{
    return r.wdl > 0 ? 1000 - r.plies : r.wdl == 0 ? 0 : -1000 + r.plies;
}

tc_move tc_egtb_best_move(const tc_egtb *set, tc_position *p, tc_egtb_result *out)
{
    tc_egtb_result here;
    if (tc_egtb_probe(set, p, &here))
        return 0;
    tc_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    int n = tc_generate_legal(p, list);
    tc_move best = 0;
    tc_egtb_result best_r = {0, 0};
    int best_rank = -100000;
    for (int i = 0; i < n; i++) {
        tc_make_move(p, list->moves[i]);
        tc_egtb_result cr;
        int ok = tc_egtb_probe(set, p, &cr);
        tc_unmake_move(p);
        if (ok)
            continue;
        tc_egtb_result mine = {-cr.wdl, cr.wdl ? cr.plies + 1 : 0};
        int rank = result_rank(mine);
        if (rank > best_rank) {
            best_rank = rank;
            best = list->moves[i];
            best_r = mine;
        }
    }
    free(list);
    if (out)
        *out = best ? best_r : here;
    return best;
}

/* ---------------------------------------------------------------- statistics */

void eg_table_fen(const tc_egtb *set, const eg_table *t, int stm, const uint8_t *sq, char *buf, size_t size)
{
    const tc_variant *v = set->b.v;
    int board[TC_MAX_CELLS] = {0};
    for (int i = 0; i < t->k; i++)
        board[sq[i]] = TC_PIECE(t->colour[i], t->type[i]);
    size_t k = 0;
    for (int y = v->H - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < v->W; x++) {
            int pc = board[y * v->W + x];
            if (!pc) {
                run++;
                continue;
            }
            if (run)
                k += (size_t)snprintf(buf + k, size - k, "%d", run);
            run = 0;
            char ch = " PNBRQK"[TC_TYPE(pc)];
            buf[k++] = TC_COLOUR(pc) ? (char)(ch - 'A' + 'a') : ch;
        }
        if (run)
            k += (size_t)snprintf(buf + k, size - k, "%d", run);
        if (y)
            buf[k++] = '/';
    }
    snprintf(buf + k, size - k, " %c - - 0 1", stm ? 'b' : 'w');
}

uint64_t eg_class_size(const eg_board *b, const eg_table *t, uint64_t idx)
{
    uint8_t sq[EG_MAXP];
    int stm;
    eg_decode(b, t, idx, &stm, sq);
    /* the class holds nsym / |symmetries fixing the position| positions */
    int r = b->rep_index[sq[0]], fixed = 0;
    for (int i = 0; i < b->stab_len[r]; i++) {
        const uint8_t *g = b->sym[b->stab[b->stab_off[r] + i]];
        uint8_t c[EG_MAXP] = {0};
        for (int j = 0; j < t->k; j++)
            c[j] = g[sq[j]];
        if (t->twin && c[3] < c[2]) {
            uint8_t x = c[2];
            c[2] = c[3];
            c[3] = x;
        }
        fixed += eg_index_raw(b, t, stm, c) == idx;
    }
    return (uint64_t)(b->nsym / (fixed ? fixed : 1));
}

void tc_egtb_stats_get(const tc_egtb *set, tc_egtb_stats *s)
{
    memset(s, 0, sizeof *s);
    const eg_board *b = &set->b;
    const eg_table *t = set->main;
    s->table_entries = t->size;
    s->seconds = set->seconds;
    uint64_t longest_idx[2] = {0, 0}, mate_idx[2] = {0, 0};
    for (uint64_t idx = 0; idx < t->size; idx++) {
        int v = atomic_load_explicit(&t->val[idx], memory_order_relaxed);
        if (v == EG_ILLEGAL || v == EG_NONCANON)
            continue;
        uint8_t sq[EG_MAXP];
        int stm;
        eg_decode(b, t, idx, &stm, sq);
        uint64_t w = eg_class_size(b, t, idx);
        if (eg_is_win(v)) {
            s->win[stm] += w;
            if (v - 1 > s->longest_plies[stm]) {
                s->longest_plies[stm] = v - 1;
                longest_idx[stm] = idx;
            }
        } else if (eg_is_loss(v)) {
            s->loss[stm] += w;
            if (v == 1) {
                if (!s->mates[stm])
                    mate_idx[stm] = idx;
                s->mates[stm] += w;
            }
        } else {
            s->draw[stm] += w;
        }
    }
    for (int stm = 0; stm < 2; stm++)
        if (s->longest_plies[stm] > 0) {
            uint8_t sq[EG_MAXP];
            int st;
            eg_decode(b, t, longest_idx[stm], &st, sq);
            eg_table_fen(set, t, st, sq, s->longest_fen[stm], sizeof s->longest_fen[stm]);
        }
    for (int stm = 0; stm < 2; stm++)
        if (s->mates[stm]) {
            uint8_t sq[EG_MAXP];
            int st;
            eg_decode(b, t, mate_idx[stm], &st, sq);
            eg_table_fen(set, t, st, sq, s->mate_fen[stm], sizeof s->mate_fen[stm]);
        }
}

/* ---------------------------------------------------------------- files */

void tc_egtb_file_name(const tc_variant *v, const char *ending, char *buf, size_t n)
{
    char norm[8];
    if (tc_egtb_normalise(ending, norm, NULL))
        snprintf(norm, sizeof norm, "bad");
    char ranks[16];
    static const char *const rk[] = {"open", "wrap", "twist", "fold"};
    if (v->def.ranks == TC_RANKS_TWIST)
        snprintf(ranks, sizeof ranks, "twist%d", v->def.seam);
    else
        snprintf(ranks, sizeof ranks, "%s", rk[v->def.ranks]);
    snprintf(buf, n, "%dx%d-%s-%s-%s.egtb", v->W, v->H, v->def.files == TC_FILES_WRAP ? "wrap" : "open",
             ranks, norm);
}

/* A checksum of the step tables: a file only fits the board it was made on. */
static uint64_t board_sum(const eg_board *b)
{
    uint64_t h = 1469598103934665603ull;
    for (int c = 0; c < b->n; c++)
        for (int d = 0; d < 8; d++) {
            h = (h ^ (uint64_t)(b->v->step_to[c][d] + 1)) * 1099511628211ull;
            h = (h ^ b->v->step_dir[c][d]) * 1099511628211ull;
        }
    return h;
}

int tc_egtb_save(const tc_egtb *set, const char *dir, tc_error *err)
{
    char name[128], path[4200];
    tc_egtb_file_name(set->b.v, set->main->name, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        tc_set_error(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "topochess-egtb 1\n%s %d %d %llx %d\n", set->main->name, set->b.nsym, set->b.nrep,
            (unsigned long long)board_sum(&set->b), set->ntables);
    int bad = 0;
    for (int i = 0; i < set->ntables && !bad; i++) {
        const eg_table *t = set->tables[i];
        fprintf(f, "%s %llu\n", t->name, (unsigned long long)t->size);
        bad = fwrite((const void *)t->val, 1, t->size, f) != t->size;
    }
    if (fclose(f) || bad) {
        tc_set_error(err, "%s: write failed", path);
        return -1;
    }
    return 0;
}

tc_egtb *tc_egtb_load(const tc_variant *v, const char *path, tc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        tc_set_error(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char main_name[16];
    int version = 0, nsym = 0, nrep = 0, ntables = 0;
    unsigned long long sum = 0;
    tc_egtb *set = NULL;
    if (fscanf(f, "topochess-egtb %d\n%15s %d %d %llx %d\n", &version, main_name, &nsym, &nrep, &sum,
               &ntables) != 6 ||
        version != 1) {
        tc_set_error(err, "%s: not an endgame file of this version", path);
        goto fail;
    }
    set = set_new(v, main_name, 0, err);
    if (!set)
        goto fail;
    if (set->b.nsym != nsym || set->b.nrep != nrep || board_sum(&set->b) != sum ||
        ntables != set->ntables) {
        tc_set_error(err, "%s: made for another board than %s", path, v->def.name);
        goto fail;
    }
    for (int i = 0; i < ntables; i++) {
        char tname[16];
        unsigned long long size;
        if (fscanf(f, "%15s %llu", tname, &size) != 2 || fgetc(f) != '\n') {
            tc_set_error(err, "%s: table %d: bad header", path, i + 1);
            goto fail;
        }
        eg_table *t = set->tables[i];
        t->size = 2 * (uint64_t)set->b.nrep;
        for (int j = 1; j < t->k; j++)
            t->size *= (uint64_t)set->b.n;
        if (strcmp(tname, t->name) || size != t->size) {
            tc_set_error(err, "%s: table %d is %s of %llu entries, expected %s", path, i + 1, tname, size,
                         t->name);
            goto fail;
        }
        t->val = malloc(t->size);
        if (!t->val || fread((void *)t->val, 1, t->size, f) != t->size) {
            tc_set_error(err, "%s: table %s: short file or no memory", path, t->name);
            goto fail;
        }
    }
    fclose(f);
    return set;
fail:
    fclose(f);
    tc_egtb_free(set);
    return NULL;
}

/* ---------------------------------------------------------------- dead-position marks */

static void dead_path(const eg_board *b, const eg_table *t, const char *dir, char *path, size_t n)
{
    char name[128];
    tc_egtb_file_name(b->v, t->name, name, sizeof name);
    char *dot = strrchr(name, '.');
    if (dot)
        *dot = '\0';
    snprintf(path, n, "%s/%s.dead", dir, name);
}

int eg_dead_load(const eg_board *b, eg_table *t, const char *dir)
{
    char path[1200];
    dead_path(b, t, dir, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char name[16];
    unsigned long long sum = 0, size = 0;
    int version = 0, nsym = 0;
    uint64_t want = 2 * (uint64_t)b->nrep;
    for (int j = 1; j < t->k; j++)
        want *= (uint64_t)b->n;
    size_t words = (size_t)((want + 63) / 64);
    uint64_t *mark = NULL;
    if (fscanf(f, "topochess-dead %d\n%15s %d %llx %llu", &version, name, &nsym, &sum, &size) != 5 ||
        fgetc(f) != '\n' || version != 1 || strcmp(name, t->name) || nsym != b->nsym || sum != board_sum(b) ||
        size != want || !(mark = malloc(words * sizeof *mark)) || fread(mark, sizeof *mark, words, f) != words) {
        free(mark);
        fclose(f);
        return -1;
    }
    fclose(f);
    t->size = want;
    t->mark = mark;
    atomic_store(&t->mark_state, 1);
    return 0;
}

int eg_dead_save(const eg_board *b, const eg_table *t, const char *dir)
{
#ifdef TC_NO_THREADS
    /* the wasm module (no threads, no files): its WASI host has no rename */
    (void)b, (void)t, (void)dir;
    return -1;
#else
    char path[1200], tmp[1300];
    dead_path(b, t, dir, path, sizeof path);
    /* written aside and renamed, so that another process never reads half */
    snprintf(tmp, sizeof tmp, "%s.%p.%lld.tmp", path, (const void *)t, (long long)(now_s() * 1e6));
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    size_t words = (size_t)((t->size + 63) / 64);
    fprintf(f, "topochess-dead 1\n%s %d %llx %llu\n", t->name, b->nsym, (unsigned long long)board_sum(b),
            (unsigned long long)t->size);
    int bad = fwrite(t->mark, sizeof *t->mark, words, f) != words;
    if (fclose(f) || bad || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
#endif
}
