/* Server commands that act on the database directly, for whoever runs
 * the server (`topochess admin ...`, docs/variant-pages.md): no HTTP, no
 * session; access to the database is the authority. */
#ifndef SRV_ADMIN_H
#define SRV_ADMIN_H

#include <stddef.h>

/* Grants (grant = 1) or revokes (0) the editor role of the user NAME in
 * the database db (a file or postgresql:// URL; the schema is brought up
 * to date first). 0 with what was done in msg, else 1 with the reason. */
int srv_admin_editor(const char *db, const char *name, int grant, char *msg, size_t n);

#define SRV_ADMIN_IMPORT_MAX_BYTES (64u << 20) /* one import's JSON at most */

/* Imports puzzles (the JSON of `topochess puzzles --json`, puzzle_import.h)
 * from text into the database db: 0 with the counts in msg (refused
 * puzzles named), else 1 with the reason. */
int srv_admin_puzzles_import(const char *db, const char *text, size_t len, char *msg, size_t n);

#endif
