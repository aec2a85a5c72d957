/* The site when the hub has a database (docs/variant-pages.md): the
 * database's published pages, and the folder's pages (--pages, default
 * variants/) whose slug the database does not hold. On first start the
 * folder's pages seed the published set (after that the database decides
 * about them: an editor revises or unpublishes a shipped page); a page
 * added to the folder later is shown from the folder (read at start and
 * on SIGHUP).
 *
 * Published means playable at once, in every server process: a request
 * asks the database for the pages' version (one small SELECT) when the
 * last look is older than SRV_LIVE_RECHECK_MS, and a changed version
 * rebuilds the site (one thread rebuilds; the others serve the site they
 * have meanwhile). A replaced site is kept until srv_live_stop, since a
 * response being sent or a hosted game may still point into it (as the
 * SIGHUP reload does): publishing is rare, an editor's act. */
#ifndef SRV_SITE_LIVE_H
#define SRV_SITE_LIVE_H

#include "site.h"

#include <stdint.h>

#define SRV_LIVE_RECHECK_MS 250

typedef struct srv_live srv_live;

/* Opens its own connection to db, seeds the pages from pages_dir when the
 * database has none, and builds the first site. NULL with err. */
srv_live *srv_live_start(const char *db, const char *pages_dir, const char *static_dir, tc_error *err);
void srv_live_stop(srv_live *L);
/* The current site (rebuilt first when the database's version moved). */
const srv_site *srv_live_site(srv_live *L, int64_t now_ms);
/* The next srv_live_site reads the version whatever the time (this
 * process just published; takes a srv_live as void *). */
void srv_live_touch(void *L);
/* Rebuilds now whatever the version (SIGHUP). 0, or -1 with err. */
int srv_live_reload(srv_live *L, tc_error *err);

#endif
