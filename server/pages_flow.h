/* The workflow of variant pages written in the browser
 * (docs/variant-pages.md): who may save, submit, publish and unpublish a
 * page, which slugs are free, which pages may be published, and the
 * refusals, each a status and a message that names the problem. Over the
 * page store (games/page_store.h); no sockets (the HTTP routes and the
 * tests call it alike).
 *
 * Limits: a page up to SRV_PF_MAX_BYTES bytes; a user writes at most
 * SRV_PF_SAVES_PER_HOUR revisions and SRV_PF_SUBMITS_PER_HOUR submissions
 * an hour (editors are not limited); slugs 2-63 characters of a-z, 0-9
 * and '-', starting with a letter, none of the reserved ones. */
#ifndef SRV_PAGES_FLOW_H
#define SRV_PAGES_FLOW_H

#include "page_store.h"
#include "textdiff.h"

#include <stddef.h>

#define SRV_PF_MAX_BYTES (64 * 1024)
#define SRV_PF_SAVES_PER_HOUR 60
#define SRV_PF_SUBMITS_PER_HOUR 10

/// Who asks: id NULL when nobody is signed in.
typedef struct srv_pf_user {
    const char *id, *name;
    int editor;
} srv_pf_user;

/// The outcome of a step: an HTTP status (200 done), a message, the
/// revision concerned, and for a stale edit the diff of what was saved
/// meanwhile (heap HTML, srv_pf_result_free).
typedef struct srv_pf_result {
    int status;
    char msg[480];
    int rev;
    char *diff_html;
} srv_pf_result;

void srv_pf_result_free(srv_pf_result *r);

/* Whether a slug is reserved (a preset's name or alias, a word of the
 * site's paths such as new, edit, api), in any case. */
int srv_pf_reserved(const char *slug);
/* Whether a slug is well formed (0) or why not (-1, msg). */
int srv_pf_slug_ok(const char *slug, char *msg, size_t n);
/* Whether a page may be published under a slug: its front matter reads,
 * its name is the slug, its topology and setup make a variant. 0, or -1
 * with the library's message (it names the field and the line). */
int srv_pf_check(const char *text, size_t len, const char *slug, char *msg, size_t n);

/* Saves text as a page: a new one when base_rev is 0 (slug must be free),
 * else a revision of slug made from base_rev (refused, with the diff, when
 * that is no longer the newest). Authors and editors only; a draft may be
 * invalid. 200 with rev, or 401, 403, 404, 400 (bad or reserved slug),
 * 409 (slug taken, stale edit), 413, 429, 500. */
void srv_pf_save(tp_db *d, const srv_pf_user *u, const char *slug, int base_rev, const char *text, size_t len,
                 int64_t now_ms, srv_pf_result *r);
/* The author sends the newest revision for review (it must be valid). */
void srv_pf_submit(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r);
/* An editor publishes the newest revision (it must be valid: 422 with the
 * reason when not), or unpublishes the page. */
void srv_pf_publish(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r);
void srv_pf_unpublish(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r);
/* The diff from revision a to b of a page (0: the newest), in diff_html. */
void srv_pf_diff(tp_db *d, const char *slug, int a, int b, srv_pf_result *r);

/* The pages shipped with the server seed the published set on first
 * start: when the store holds no page at all, every *.md page of dir
 * that passes srv_pf_check under its own name is stored as published
 * (author ""). The count stored, -1 with err. */
int srv_pf_seed(tp_db *d, const char *dir, int64_t now_ms, tc_error *err);

#endif
