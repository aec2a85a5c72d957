/* The site the server shows: every variant page of a folder, read once at
 * start and rendered ahead (HTML, JSON, a picture of the start position),
 * then only read, so that any number of threads may serve it. */
#ifndef SRV_SITE_H
#define SRV_SITE_H

#include "site_data.h"

/* Reads every *.md page of pages_dir. Fails (NULL, err) only when the
 * folder cannot be read or memory runs out; a bad page becomes an entry
 * with ok == 0. static_dir may be missing (pages then load no script). */
srv_site *srv_site_load(const char *pages_dir, const char *static_dir, tc_error *err);
/* The same from pages held in memory (the database's published pages):
 * names[i] (shown where a file name would be), texts[i] and authors[i]
 * (the account that wrote the page; "" or authors NULL: the front
 * matter's `author:`, if any), n of them; label stands for the folder. */
srv_site *srv_site_from_texts(const char *label, const char *static_dir, int n, const char *const *names,
                              const char *const *texts, const char *const *authors, tc_error *err);
void srv_site_free(srv_site *s);
/* The variant page a person means by `name`, or NULL: its slug, else any
 * name, alias or title of a preset that the command line accepts
 * (tc_preset_lookup: "moebius", "klein", "standard", "Klein Bottle"), else
 * a page's title in any case. */
const srv_page *srv_site_find(const srv_site *s, const char *name);

/* The home page (the hub's list) with extra HTML under its links (heap,
 * *len; NULL when memory runs out): the lobby's summary, rendered per
 * request where the plain hub page is rendered once. */
char *srv_site_home(const srv_site *s, const char *extra, size_t *len);
/* Writes "did you mean 'SLUG'? " naming the page closest to `name`
 * (tc_closest_name over the slugs and titles), or "" when none is close,
 * then "known: slug, slug, ..." (cut to fit). */
void srv_site_suggest(const srv_site *s, const char *name, char *out, size_t size);

/* Splits a page into its front matter (text[0..*fm_len), '---' lines
 * included) and Markdown body (the rest). Returns -1 when the page does not
 * begin with a front matter. */
int srv_split_page(const char *text, size_t len, size_t *fm_len);

#endif
