/* topochess: variant pages as text, before they are read as variants.
 *
 * Pages scraped from the web often lose their line breaks: the front matter
 * AND the Markdown body sit on one line, so that the body renders as one
 * heading. tc_page_reflow gives such a page its lines back. Pages with no
 * front matter at all (an inventor's old HTML page saved as text) get a
 * suggested front matter from tc_page_guess: what a board diagram shows
 * (size, setup), with the joins left to a person. Every place where a page
 * enters the hub (the pages folder, import, the editor) uses these. */
#ifndef TOPOCHESS_PAGE_H
#define TOPOCHESS_PAGE_H

#include "topochess.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the page lost its line breaks: a one-line front matter, or a body
 * of more than 80 characters on a single line. */
int tc_page_is_flat(const char *text, size_t len);

/* The page with its lines back: a one-line front matter becomes indented
 * YAML between '---' lines; a one-line body gets back its headings (`##`),
 * paragraphs (a bold lead-in after a full stop opens one), lists (`- ` after
 * a colon), and its fenced board diagram one row per rank, split at the
 * `NN|` rank labels and re-aligned. Emphasis and inline code are kept as
 * they are. A page that has its lines comes back unchanged, except that a
 * board diagram drawn as plain text rows (`14| P | P |...`, no fence, as
 * in old HTML pages saved as text) gets a fence, so that Markdown keeps
 * its rows. Returns a heap
 * text (NUL-terminated, length in *out_len if not NULL), or NULL with err
 * when memory runs out or the front matter cannot be split into keys. */
char *tc_page_reflow(const char *text, size_t len, size_t *out_len, tc_error *err);

/// What a page without front matter shows about its variant. Only what the
/// page's board diagram shows is filled in; the joins (files and ranks
/// rules, seam) are never guessed: a person chooses them.
typedef struct tc_page_guess {
    char title[96];            /* the page's first short line, or "" */
    int width, height;         /* files and ranks of the diagram; 0 if unknown */
    char setup[TC_SETUP_MAX];  /* FEN board field of the diagram, or "" */
    int diagram_line;          /* 1-based line of the diagram's top rank, 0 if none */
    char note[200];            /* what was found, or why nothing was */
} tc_page_guess;

/* Reads the page's board diagram: rows such as `14| P | P |   | ...` (with
 * or without `+---+` borders), rank numbers counting down to 1, the same
 * number of cells in every row. 0 always (a page with no diagram gives
 * width 0 and a note); -1 with err only for a NULL text. */
int tc_page_guess_read(const char *text, size_t len, tc_page_guess *out, tc_error *err);

/* Writes the suggested front matter (block YAML between '---' lines): what
 * was found, `wrap: ~` with a comment listing the choices, unknown sizes
 * and setup as `~` with a comment, and `published: false`. It is meant to
 * be completed by a person: until the joins are chosen it does not load. */
void tc_page_guess_write(const tc_page_guess *g, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
