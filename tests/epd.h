/* The perft EPD files of th_perft_dir(), read once for every suite that
 * walks them (perft, FEN and SAN round trips, differential games).
 *
 * A line reads `variant ; FEN ; D1 n ; D2 n ...`; blank lines and lines
 * starting with '#' are skipped. */
#ifndef TC_TESTS_EPD_H
#define TC_TESTS_EPD_H

#include <stdint.h>

#define TH_EPD_MAX_DEPTH 8
#define TH_EPD_MAX_FILES 64

/// One position of a perft EPD file: the preset it is played on, its FEN
/// and the published node count per depth, plus where it was read (so a
/// failure can name the file and line).
typedef struct th_epd {
    char variant[64];
    char fen[1024];
    uint64_t count[TH_EPD_MAX_DEPTH + 1]; /* 0 where the line gives none */
    char file[64];                        /* name inside th_perft_dir() */
    int line;
} th_epd;

/* The *.epd file names of th_perft_dir(), sorted; at most max. An unreadable
 * directory is a failed check. */
int th_epd_files(char (*names)[64], int max);
/* The positions of one file of th_perft_dir(), in file order; *out is
 * released with th_epd_free. Returns the count, or -1 (and a failed check)
 * if the file cannot be read; a malformed line is a failed check naming
 * the file and line, and is left out. */
int th_epd_read(const char *file, th_epd **out);
/* Every position of every file, files sorted by name; a missing file or
 * directory counts as no positions. */
int th_epd_load(th_epd **out);
void th_epd_free(th_epd *lines);

#endif
