/* The manual: the Markdown pages of docs/ served at /docs (an index of every page) and
 * /docs/<page> (one page, rendered with the variant pages' Markdown
 * renderer, raw HTML off), with the pictures the pages show. */
#ifndef SRV_DOCS_H
#define SRV_DOCS_H

#include <stddef.h>

/// The answer to a request under /docs, for the router to send.
typedef struct srv_docs_answer {
    int status;        /* 200, or 404 with message */
    char *body;        /* 200: a whole HTML document or a picture's bytes (heap, the caller frees) */
    size_t len;
    const char *name;  /* 200: the file served (its extension gives the type) */
    int page;          /* 200: body is an HTML document */
    char message[200]; /* 404: what was not found */
} srv_docs_answer;

/* Answers path (decoded) when it is /docs or under /docs/: returns 1 and
 * fills a, else returns 0. The folder is read on every request, so a page
 * edited or added shows at once: it is $TC_DOCS_DIR when set (topochess
 * serve --docs DIR sets it), else docs/ beside the running binary (a
 * clone), else ../share/topochess/docs beside it (an installed layout). */
int srv_docs_get(const char *path, srv_docs_answer *a);

#endif
