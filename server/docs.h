/* The manual: the Markdown pages of docs/ served at /docs (an index of every page) and
 * /docs/<page> (one page, rendered with the variant pages' Markdown
 * renderer, raw HTML off), with the pictures the pages show. */
#ifndef SRV_DOCS_H
#define SRV_DOCS_H

#include "route.h"

/* Answers path when it is /docs or under /docs/ (returns 1), else returns 0
 * and leaves r alone. The folder is read on every request, so a page edited
 * or added shows at once: it is $TC_DOCS_DIR when set (topochess serve
 * --docs DIR sets it), else docs/ beside the running binary (a clone), else
 * ../share/topochess/docs beside it (an installed layout). */
int srv_docs_route(const char *path, const srv_request *rq, srv_response *r);

#endif
