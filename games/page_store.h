/* Variant pages in the hosted games' database (docs/variant-pages.md):
 * each page (by slug, unique without regard to case) with its revisions
 * (author, time, text), its state (draft, in review, published) and the
 * revision the site shows; editors (a role granted by `topochess admin
 * editor NAME`); a counter that every publish and unpublish raises, so
 * that each server process notices a change made by another. Rows only:
 * the rules (who may do what, which page is valid) are the server's
 * (server/pages_flow.c). Every function returns -1 with err on a database
 * fault.
 *
 * A stale edit cannot be lost: a revision is written as (slug, base + 1)
 * under the primary key (slug, rev), so of two edits from one base the
 * second is refused by the database itself. */
#ifndef TP_PAGE_STORE_H
#define TP_PAGE_STORE_H

#include "account_store.h"

#define TP_SLUG_MAX 63

typedef enum tp_page_state { TP_PAGE_DRAFT, TP_PAGE_REVIEW, TP_PAGE_PUBLISHED } tp_page_state;

/// A page's row: who wrote it first, where it stands, which revision is
/// the newest (head) and which one the site shows (0: none).
typedef struct tp_page {
    char slug[TP_SLUG_MAX + 1];
    char author_id[TP_ID_LEN + 1]; /* "" for the shipped pages */
    tp_page_state state;
    int head_rev, published_rev;
    int64_t created_ms, updated_ms;
} tp_page;

/// A revision's row; text is heap (tp_revision_free).
typedef struct tp_revision {
    int rev;
    char author_id[TP_ID_LEN + 1];
    char author_name[TP_NAME_MAX + 1];
    int64_t at_ms;
    char *text;
} tp_revision;

const char *tp_page_state_name(tp_page_state s);

/* A new page with its first revision. 0; TP_EUNIQUE when the slug is
 * taken (in any case); -1. */
int tp_page_create(tp_db *d, const char *slug, const char *author_id, const char *author_name, const char *text,
                   tp_page_state state, int64_t now_ms, tc_error *err);
/* A new revision base + 1, only if base is still the head. 0; TP_EUNIQUE
 * when another revision came first (a stale edit); -1. The page goes back
 * to draft unless keep_state. */
int tp_page_revise(tp_db *d, const char *slug, int base, const char *author_id, const char *author_name,
                   const char *text, int keep_state, int64_t now_ms, tc_error *err);
/* The page of a slug (any case): 1, 0 none, -1. */
int tp_page_get(tp_db *d, const char *slug, tp_page *out, tc_error *err);
/* A revision (rev 0: the head): 1 with out (free its text), 0 none, -1. */
int tp_revision_get(tp_db *d, const char *slug, int rev, tp_revision *out, tc_error *err);
void tp_revision_free(tp_revision *r);
/* The revisions, newest first, without their texts: the count (at most
 * max), -1. */
int tp_revisions_list(tp_db *d, const char *slug, tp_revision *out, int max, tc_error *err);
/* Sets the state; for TP_PAGE_PUBLISHED, rev becomes the one shown; for
 * the others, published_rev becomes rev (0: unpublished). Raises the
 * pages' version when what the site shows changes. 1 done, 0 no such
 * page, -1. */
int tp_page_set_state(tp_db *d, const char *slug, tp_page_state state, int published_rev, int64_t now_ms,
                      tc_error *err);

/* The published pages' texts (slug, text and the page's author: the name
 * that wrote its first revision, "" for a shipped page), in slug order:
 * the count, -1. */
typedef void (*tp_published_fn)(void *ctx, const char *slug, const char *text, const char *author);
int tp_pages_published(tp_db *d, tp_published_fn fn, void *ctx, tc_error *err);
/* The pages of one state (or of one author when author_id is not NULL),
 * newest change first: the count (at most max), -1. */
int tp_pages_list(tp_db *d, int state, const char *author_id, tp_page *out, int max, tc_error *err);
/* How many pages there are at all. */
int tp_pages_count(tp_db *d, tc_error *err);
/* The counter raised by every change of what is published. -1 on a fault. */
int64_t tp_pages_version(tp_db *d, tc_error *err);

/* Editors: grant (idempotent), revoke, ask. 0/1 or -1. */
int tp_editor_grant(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err);
int tp_editor_revoke(tp_db *d, const char *user_id, tc_error *err);
int tp_is_editor(tp_db *d, const char *user_id, tc_error *err);

/* Revisions written by a user since a time (the submission rate limit). */
int tp_revisions_since(tp_db *d, const char *author_id, int64_t since_ms, tc_error *err);

#endif
