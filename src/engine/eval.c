/* Evaluation. Every positional term is read from the variant's own tables,
 * so a wrapped file, a twisted seam or a folded edge changes the values the
 * way it changes the moves: no 8x8 piece-square table is written by hand.
 *
 * Terms (tapered between middlegame and endgame by the pieces left):
 * material; piece-cell values from empty-board reach; mobility; pawn
 * progress along the pawn's own path; passed, doubled and defended pawns;
 * king-zone attacks and pawn shield; bishop pair; tempo. 100 = one pawn. */
#include "eval.h"

#include <stdlib.h>

const int eval_piece_value[7] = {0, 100, 320, 330, 500, 950, 0};

static const int phase_weight[7] = {0, 0, 1, 1, 2, 4, 0};
#define PHASE_MAX 24

/* Mobility: reachable cells above a typical count earn the mobility weight. */
static const int mob_base[7] = {0, 0, 4, 6, 7, 13, 0};

#define W(name) (t->w.v[EP_##name])

/* Cells within two king steps of c (c excluded). */
static int king_reach2(const tc_variant *v, int c)
{
    tc_bits seen;
    bits_clear(&seen);
    for (int i = 0; i < v->nking[c]; i++) {
        int a = v->king[c][i];
        bits_set(&seen, a);
        for (int j = 0; j < v->nking[a]; j++)
            bits_set(&seen, v->king[a][j]);
    }
    bits_reset(&seen, c);
    return bits_count(&seen);
}

/* Fills one piece type's values from a per-cell reach count, centred on
 * the board's mean so that only differences between cells matter. */
static void fill_pst(eval_table *t, int type, const int *reach, int scale_mg, int scale_eg)
{
    const tc_variant *v = t->v;
    long sum = 0;
    for (int c = 0; c < v->ncells; c++)
        sum += reach[c];
    for (int c = 0; c < v->ncells; c++) {
        /* tenths, to keep the mean's fraction */
        long diff = (long)reach[c] * 10 * v->ncells - sum * 10;
        t->pst_mg[type][c] = (int16_t)(diff * scale_mg / (10L * v->ncells));
        t->pst_eg[type][c] = (int16_t)(diff * scale_eg / (10L * v->ncells));
    }
}

static int chain(const tc_variant *v, int colour, int c, int *out)
{
    int n = 0;
    for (int t = v->push1[colour][c]; t >= 0 && n < 2 * TC_MAX_RANKS + 2; t = v->push1[colour][t]) {
        out[n++] = t;
        if (bits_has(&v->promo_cells[colour], t))
            break;
    }
    return n;
}

/* The cells of `target`, and those from which a pawn of colour col walks
 * into target (chains: each cell's pushes, from chain()). */
static tc_bits pawns_into(const tc_variant *v, int col, const tc_bits *target, int (*chains)[2 * TC_MAX_RANKS + 2],
                          const int *lens)
{
    tc_bits r = *target;
    for (int y = 0; y < v->ncells; y++) {
        if (bits_has(&r, y) || !v->pawn_dy[col][y])
            continue;
        const int *ch = chains[col * TC_MAX_CELLS + y];
        for (int i = 0; i < lens[col * TC_MAX_CELLS + y]; i++)
            if (bits_has(target, ch[i])) {
                bits_set(&r, y);
                break;
            }
    }
    return r;
}

/* Fills the tables that depend on the weights. */
static void build_weighted(eval_table *t)
{
    const tc_variant *v = t->v;
    int n = v->ncells;
    int reach[TC_MAX_CELLS] = {0};

    for (int c = 0; c < n; c++)
        reach[c] = v->nknight[c];
    fill_pst(t, TC_KNIGHT, reach, W(PST_N_MG), W(PST_N_EG));
    for (int c = 0; c < n; c++)
        reach[c] = bits_count(&v->diag_reach[c]);
    fill_pst(t, TC_BISHOP, reach, W(PST_B_MG), W(PST_B_EG));
    for (int c = 0; c < n; c++)
        reach[c] = bits_count(&v->orth_reach[c]);
    fill_pst(t, TC_ROOK, reach, W(PST_R_MG), W(PST_R_EG));
    for (int c = 0; c < n; c++) {
        tc_bits q = v->orth_reach[c];
        bits_or(&q, &v->diag_reach[c]);
        reach[c] = bits_count(&q);
    }
    fill_pst(t, TC_QUEEN, reach, W(PST_Q_MG), W(PST_Q_EG));
    /* pawns: central cells, those with the widest reach, are worth more */
    fill_pst(t, TC_PAWN, reach, W(PST_P_MG), W(PST_P_EG));
    /* the king hides where few cells surround it, and walks out to where
     * many do once the queens are gone */
    for (int c = 0; c < n; c++)
        reach[c] = king_reach2(v, c);
    fill_pst(t, TC_KING, reach, W(PST_K_MG), W(PST_K_EG));
    for (int col = 0; col < 2; col++)
        for (int c = 0; c < n; c++) {
            int d = t->promo_dist[col][c];
            int prog = d < 0 ? 0 : t->start_dist - d;
            if (prog < 0)
                prog = 0;
            t->pawn_mg[col][c] = (int16_t)(prog * prog * W(PAWN_PROG_MG) / 2);
            t->pawn_eg[col][c] = (int16_t)(prog * prog * W(PAWN_PROG_EG) / 2);
        }
}

void eval_table_set_params(eval_table *t, const eval_params *w)
{
    t->w = *w;
    build_weighted(t);
}

eval_table *eval_table_new(const tc_variant *v)
{
    eval_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->v = v;
    t->w = eval_default_params;
    int n = v->ncells;

    for (int c = 0; c < n; c++) {
        bits_clear(&t->zone[c]);
        bits_set(&t->zone[c], c);
        for (int i = 0; i < v->nking[c]; i++)
            bits_set(&t->zone[c], v->king[c][i]);
    }

    /* pawn paths, pawns' starting distance, progress values */
    int buf[2 * TC_MAX_RANKS + 2];
    for (int col = 0; col < 2; col++)
        for (int c = 0; c < n; c++) {
            bits_clear(&t->path[col][c]);
            t->promo_dist[col][c] = -1;
            if (!v->pawn_dy[col][c] || bits_has(&v->promo_cells[col], c))
                continue;
            int k = chain(v, col, c, buf);
            for (int i = 0; i < k; i++)
                bits_set(&t->path[col][c], buf[i]);
            if (k > 0 && bits_has(&v->promo_cells[col], buf[k - 1]))
                t->promo_dist[col][c] = (int8_t)k;
        }
    t->start_dist = 6;
    tc_position *start = tc_position_new(v);
    if (start) {
        int maxd = 0;
        BITS_FOREACH(c, start->pieces[TC_PIECE(TC_WHITE, TC_PAWN)], {
            if (t->promo_dist[0][c] > maxd)
                maxd = t->promo_dist[0][c];
        })
        if (maxd > 1)
            t->start_dist = (int8_t)maxd;
        tc_position_free(start);
    }
    build_weighted(t);

    /* lines ("files"): the cell with its north and south rays, which follow
     * the joins; the cells beside a line are its king steps off it */
    for (int c = 0; c < n; c++) {
        bits_clear(&t->line[c]);
        bits_set(&t->line[c], c);
        for (int d = 0; d < 8; d += 4) {
            const uint8_t *r = v->ray_pool + v->ray_off[c][d];
            for (int i = 0; i < v->ray_len[c][d]; i++)
                bits_set(&t->line[c], r[i]);
        }
    }
    for (int c = 0; c < n; c++) {
        bits_clear(&t->beside[c]);
        BITS_FOREACH(x, t->line[c], {
            for (int i = 0; i < v->nking[x]; i++)
                if (!bits_has(&t->line[c], v->king[x][i]))
                    bits_set(&t->beside[c], v->king[x][i]);
        })
    }
    /* king distances, breadth first from every cell over the king's steps */
    t->kdist = malloc(sizeof *t->kdist * TC_MAX_CELLS);
    if (!t->kdist) {
        free(t);
        return NULL;
    }
    for (int c = 0; c < n; c++) {
        int queue[TC_MAX_CELLS], head = 0, tail = 0;
        memset(t->kdist[c], 0xff, sizeof t->kdist[c]);
        t->kdist[c][c] = 0;
        queue[tail++] = c;
        while (head < tail) {
            int x = queue[head++];
            for (int i = 0; i < v->nking[x]; i++) {
                int y = v->king[x][i];
                if (t->kdist[c][y] == 0xff) {
                    t->kdist[c][y] = (uint8_t)(t->kdist[c][x] + 1);
                    queue[tail++] = y;
                }
            }
        }
    }

    /* stop masks: the pawn's path, the cells from which an enemy pawn
     * captures onto it, and every cell whose enemy pawn walks into those */
    int(*enemy_chain)[2 * TC_MAX_RANKS + 2] = malloc(sizeof *enemy_chain * 2 * TC_MAX_CELLS);
    int *enemy_len = malloc(sizeof(int) * 2 * TC_MAX_CELLS);
    if (!enemy_chain || !enemy_len) {
        free(enemy_chain);
        free(enemy_len);
        free(t->kdist);
        free(t);
        return NULL;
    }
    for (int col = 0; col < 2; col++)
        for (int c = 0; c < n; c++)
            enemy_len[col * TC_MAX_CELLS + c] =
                v->pawn_dy[col][c] ? chain(v, col, c, enemy_chain[col * TC_MAX_CELLS + c]) : 0;
    for (int col = 0; col < 2; col++) {
        int them = !col;
        for (int c = 0; c < n; c++) {
            tc_bits s = t->path[col][c];
            BITS_FOREACH(x, t->path[col][c], {
                for (int i = 0; i < v->npcap_from[them][x]; i++)
                    bits_set(&s, v->pcap_from[them][x][i]);
            })
            tc_bits m = pawns_into(v, them, &s, enemy_chain, enemy_len);
            bits_reset(&m, c);
            t->stop_mask[col][c] = m;
            /* outposts: enemy pawns that stand on, or walk into, a cell
             * from which they capture onto c */
            tc_bits from;
            bits_clear(&from);
            for (int i = 0; i < v->npcap_from[them][c]; i++)
                bits_set(&from, v->pcap_from[them][c][i]);
            t->reach_mask[col][c] = pawns_into(v, them, &from, enemy_chain, enemy_len);
        }
    }
    free(enemy_chain);
    free(enemy_len);
    return t;
}

void eval_table_free(eval_table *t)
{
    if (t)
        free(t->kdist);
    free(t);
}

/// Running totals of one evaluation, per colour.
typedef struct {
    int mg[2], eg[2];
    int phase;
    int danger[2], attackers[2]; /* against that colour's king */
    tc_bits pawn_att[2];
    tc_bits att[2];       /* every cell a colour attacks */
    tc_bits typed[2][7];  /* cells each piece type of a colour attacks */
    tc_bits occupied;
} eval_acc;

static inline void add(eval_acc *a, int col, int mg, int eg)
{
    a->mg[col] += mg;
    a->eg[col] += eg;
}

static void eval_pawns(const eval_table *t, const tc_position *p, eval_acc *a, int col)
{
    const tc_variant *v = p->v;
    int them = !col;
    const tc_bits *own = &p->pieces[TC_PIECE(col, TC_PAWN)];
    const tc_bits *enemy = &p->pieces[TC_PIECE(them, TC_PAWN)];
    BITS_FOREACH(s, *own, {
        add(a, col, W(PAWN_MG) + t->pawn_mg[col][s] + t->pst_mg[TC_PAWN][s],
            W(PAWN_EG) + t->pawn_eg[col][s] + t->pst_eg[TC_PAWN][s]);
        int d = t->promo_dist[col][s];
        if (d > 0 && !bits_meet(enemy, &t->stop_mask[col][s])) {
            int k = d < 8 ? d : 7;
            int mg = t->w.v[EP_PASSED_MG + k - 1], eg = t->w.v[EP_PASSED_EG + k - 1];
            int next = v->push1[col][s];
            if (next >= 0 && p->board[next]) {
                mg /= 2;
                eg /= 2;
            }
            /* the closer to promotion, the more the kings' distances to the
             * cell ahead and a clear path count */
            int prog = t->start_dist - d + 1;
            if (prog > 1 && next >= 0) {
                int own_k = t->kdist[p->king[col]][next], their_k = t->kdist[p->king[them]][next];
                own_k = own_k < 5 ? own_k : 5;
                their_k = their_k < 5 ? their_k : 5;
                eg += (prog - 1) * (their_k * W(PASSER_KING_THEM) - own_k * W(PASSER_KING_OWN));
                if (!bits_meet(&a->occupied, &t->path[col][s]))
                    eg += prog * W(PASSER_FREE) / 4;
            }
            add(a, col, mg, eg);
        }
        if (!bits_meet(own, &t->beside[s]))
            add(a, col, -W(ISOLATED_MG), -W(ISOLATED_EG));
        for (int dir = 2; dir < 8; dir += 4) {
            int x = v->step_to[s][dir];
            if (x >= 0 && p->board[x] == TC_PIECE(col, TC_PAWN)) {
                add(a, col, W(PHALANX_MG), W(PHALANX_EG));
                break;
            }
        }
        if (bits_meet(own, &t->path[col][s]))
            add(a, col, -W(DOUBLED_MG), -W(DOUBLED_EG));
        for (int i = 0; i < v->npcap_from[col][s]; i++)
            if (p->board[v->pcap_from[col][s][i]] == TC_PIECE(col, TC_PAWN)) {
                add(a, col, W(DEFENDED_MG), W(DEFENDED_EG));
                break;
            }
    })
}

static void eval_pieces(const eval_table *t, const tc_position *p, eval_acc *a, int col)
{
    const tc_variant *v = p->v;
    int them = !col;
    const tc_bits *zone = &t->zone[p->king[them]];
    const tc_bits *own = &p->occ[col];
    const tc_bits *patt = &a->pawn_att[them];
    const tc_bits *own_pawns = &p->pieces[TC_PIECE(col, TC_PAWN)];
    const tc_bits *their_pawns = &p->pieces[TC_PIECE(them, TC_PAWN)];
    tc_bits *att = &a->att[col];
    for (int type = TC_KNIGHT; type <= TC_QUEEN; type++) {
        tc_bits *mine = &a->typed[col][type];
        BITS_FOREACH(s, p->pieces[TC_PIECE(col, type)], {
            add(a, col, t->w.v[EP_KNIGHT_MG + 2 * (type - TC_KNIGHT)] + t->pst_mg[type][s],
                t->w.v[EP_KNIGHT_EG + 2 * (type - TC_KNIGHT)] + t->pst_eg[type][s]);
            a->phase += phase_weight[type];
            /* the cells this piece attacks (own pieces it defends too) */
            tc_bits pa;
            bits_clear(&pa);
            if (type == TC_KNIGHT) {
                for (int i = 0; i < v->nknight[s]; i++)
                    bits_set(&pa, v->knight[s][i]);
            } else {
                int d0 = type == TC_BISHOP ? 1 : 0, dstep = type == TC_QUEEN ? 1 : 2;
                for (int d = d0; d < 8; d += dstep) {
                    const uint8_t *r = v->ray_pool + v->ray_off[s][d];
                    int len = v->ray_len[s][d];
                    for (int i = 0; i < len; i++) {
                        bits_set(&pa, r[i]);
                        if (p->board[r[i]])
                            break;
                    }
                }
                if (type == TC_ROOK && !bits_meet(own_pawns, &t->line[s])) {
                    if (bits_meet(their_pawns, &t->line[s]))
                        add(a, col, W(ROOK_SEMI_MG), W(ROOK_SEMI_EG));
                    else
                        add(a, col, W(ROOK_OPEN_MG), W(ROOK_OPEN_EG));
                }
            }
            bits_or(att, &pa);
            bits_or(mine, &pa);
            tc_bits z = pa;
            bits_and(&z, zone);
            int hits = bits_count(&z), mob = 0;
            for (int w = 0; w < 4; w++)
                mob += __builtin_popcountll(pa.w[w] & ~own->w[w] & ~patt->w[w]);
            if (type <= TC_BISHOP && bits_has(&a->pawn_att[col], s) &&
                !bits_meet(their_pawns, &t->reach_mask[col][s]))
                add(a, col, t->w.v[EP_OUTPOST_N + type - TC_KNIGHT], 0);
            add(a, col, (mob - mob_base[type]) * t->w.v[EP_MOB_N_MG + 2 * (type - TC_KNIGHT)],
                (mob - mob_base[type]) * t->w.v[EP_MOB_N_EG + 2 * (type - TC_KNIGHT)]);
            if (hits) {
                a->danger[them] += t->w.v[EP_DANGER_N + type - TC_KNIGHT] * hits;
                a->attackers[them]++;
            }
        })
    }
    int k = p->king[col];
    add(a, col, t->pst_mg[TC_KING][k], t->pst_eg[TC_KING][k]);
    for (int i = 0; i < v->nking[k]; i++)
        bits_set(att, v->king[k][i]);
    if (bits_count(&p->pieces[TC_PIECE(col, TC_BISHOP)]) >= 2)
        add(a, col, W(BISHOP_PAIR_MG), W(BISHOP_PAIR_EG));
}

/* Threats by col on the other side's pieces: pieces its pawns attack,
 * majors its minors attack, a queen its rooks attack, and pieces and
 * pawns it attacks that nothing defends. */
static void eval_threats(const eval_table *t, const tc_position *p, eval_acc *a, int col)
{
    int them = !col;
    for (int type = TC_KNIGHT; type <= TC_QUEEN; type++) {
        const tc_bits *set = &p->pieces[TC_PIECE(them, type)];
        BITS_FOREACH(s, *set, {
            if (bits_has(&a->pawn_att[col], s))
                add(a, col, W(THREAT_PAWN_MG), W(THREAT_PAWN_EG));
            else if (type >= TC_ROOK &&
                     (bits_has(&a->typed[col][TC_KNIGHT], s) || bits_has(&a->typed[col][TC_BISHOP], s)))
                add(a, col, W(THREAT_MINOR_MG), W(THREAT_MINOR_EG));
            else if (type == TC_QUEEN && bits_has(&a->typed[col][TC_ROOK], s))
                add(a, col, W(THREAT_ROOK_MG), W(THREAT_ROOK_EG));
            else if (bits_has(&a->att[col], s) && !bits_has(&a->att[them], s))
                add(a, col, W(HANGING_MG), W(HANGING_EG));
        })
    }
    /* pawns attacked and not defended */
    tc_bits weak = p->pieces[TC_PIECE(them, TC_PAWN)];
    bits_and(&weak, &a->att[col]);
    for (int w = 0; w < 4; w++)
        weak.w[w] &= ~a->att[them].w[w];
    int n = bits_count(&weak);
    add(a, col, n * W(WEAK_PAWN_MG), n * W(WEAK_PAWN_EG));
}

/* Danger to col's king from safe checks (cells the other side's knights,
 * bishops, rooks or queens attack from which they would check, that col
 * does not defend) and from lines at the king with no pawn of col's. */
static void king_checks(const eval_table *t, const tc_position *p, eval_acc *a, int col)
{
    const tc_variant *v = p->v;
    int them = !col, k = p->king[col];
    tc_bits orth, diag, kn;
    bits_clear(&orth);
    bits_clear(&diag);
    bits_clear(&kn);
    for (int d = 0; d < 8; d++) {
        const uint8_t *r = v->ray_pool + v->ray_off[k][d];
        tc_bits *into = dir_is_diag(d) ? &diag : &orth;
        for (int i = 0; i < v->ray_len[k][d]; i++) {
            bits_set(into, r[i]);
            if (p->board[r[i]])
                break;
        }
    }
    for (int i = 0; i < v->nknight[k]; i++)
        bits_set(&kn, v->knight[k][i]);
    tc_bits safe;
    for (int w = 0; w < 4; w++)
        safe.w[w] = ~(a->att[col].w[w] | p->occ[them].w[w]);
    bits_and(&kn, &safe);
    bits_and(&orth, &safe);
    bits_and(&diag, &safe);
    int danger = 0;
    if (bits_meet(&kn, &a->typed[them][TC_KNIGHT]))
        danger += W(CHECK_N);
    if (bits_meet(&diag, &a->typed[them][TC_BISHOP]))
        danger += W(CHECK_B);
    if (bits_meet(&orth, &a->typed[them][TC_ROOK]))
        danger += W(CHECK_R);
    if (bits_meet(&orth, &a->typed[them][TC_QUEEN]) || bits_meet(&diag, &a->typed[them][TC_QUEEN]))
        danger += W(CHECK_Q);
    a->danger[col] += danger;
    const tc_bits *pawns = &p->pieces[TC_PIECE(col, TC_PAWN)];
    int open = !bits_meet(pawns, &t->line[k]);
    for (int d = 2; d < 8; d += 4) {
        int x = v->step_to[k][d];
        open += x >= 0 && !bits_meet(pawns, &t->line[x]);
    }
    a->mg[col] -= open * W(KING_OPEN);
}

int eval_position(const eval_table *t, const tc_position *p)
{
    const tc_variant *v = p->v;
    eval_acc a;
    memset(&a, 0, sizeof a);
    a.occupied = p->occ[0];
    bits_or(&a.occupied, &p->occ[1]);
    for (int col = 0; col < 2; col++) {
        bits_clear(&a.pawn_att[col]);
        BITS_FOREACH(s, p->pieces[TC_PIECE(col, TC_PAWN)], {
            for (int i = 0; i < v->npcap[col][s]; i++)
                bits_set(&a.pawn_att[col], v->pcap[col][s][i]);
        })
        a.att[col] = a.pawn_att[col];
    }
    for (int col = 0; col < 2; col++) {
        eval_pawns(t, p, &a, col);
        eval_pieces(t, p, &a, col);
    }
    for (int col = 0; col < 2; col++)
        eval_threats(t, p, &a, col);
    for (int col = 0; col < 2; col++)
        king_checks(t, p, &a, col);
    for (int col = 0; col < 2; col++) {
        int them = !col;
        /* king safety counts only while the attacker keeps a queen */
        if (bits_any(&p->pieces[TC_PIECE(them, TC_QUEEN)]) && a.attackers[col] >= 2) {
            int d = a.danger[col];
            int pen = d * d / 4;
            a.mg[col] -= pen < 600 ? pen : 600;
        } else {
            a.mg[col] -= a.danger[col];
        }
        tc_bits shield = t->zone[p->king[col]];
        bits_and(&shield, &p->pieces[TC_PIECE(col, TC_PAWN)]);
        int n = bits_count(&shield);
        a.mg[col] += W(SHIELD) * (n < 3 ? n : 3);
    }
    int phase = a.phase < PHASE_MAX ? a.phase : PHASE_MAX;
    int mg = a.mg[0] - a.mg[1], eg = a.eg[0] - a.eg[1];
    int score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;

    /* a side without pawns needs more than a minor piece's worth to win */
    int strong = score > 0 ? TC_WHITE : TC_BLACK;
    if (!bits_any(&p->pieces[TC_PIECE(strong, TC_PAWN)])) {
        int mat[2] = {0, 0};
        for (int col = 0; col < 2; col++)
            for (int type = TC_KNIGHT; type <= TC_QUEEN; type++)
                mat[col] += eval_piece_value[type] * bits_count(&p->pieces[TC_PIECE(col, type)]);
        if (mat[strong] - mat[!strong] <= eval_piece_value[TC_BISHOP])
            score /= 8;
    }
    return (p->side == TC_WHITE ? score : -score) + W(TEMPO);
}

int eval_material(const tc_position *p)
{
    int score = 0;
    for (int type = TC_PAWN; type <= TC_QUEEN; type++)
        score += eval_piece_value[type] * (bits_count(&p->pieces[TC_PIECE(p->side, type)]) -
                                           bits_count(&p->pieces[TC_PIECE(!p->side, type)]));
    return score;
}
