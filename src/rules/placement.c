/* Piece letters and the board field of FEN (a setup is one): the text of a
 * placement read into cells. Used by variant construction and by FEN. */
#include "internal.h"

#include <ctype.h>

static const char piece_chars[] = " PNBRQK  pnbrqk";

int tc_piece_from_char(char ch)
{
    for (int i = 0; i < 16; i++)
        if (piece_chars[i] == ch && ch != ' ')
            return i;
    return 0;
}

int tc_board_parse(int W, int H, const char *text, size_t len, uint8_t *board, tc_error *err)
{
    memset(board, 0, TC_MAX_CELLS);
    if (len == 0) {
        tc_set_error(err, "empty board field");
        return -1;
    }
    int nranks = 1;
    for (size_t i = 0; i < len; i++)
        nranks += text[i] == '/';
    if (nranks != H) {
        tc_set_error(err, "board has %d ranks, the variant has %d", nranks, H);
        return -1;
    }
    int y = H - 1, x = 0;
    for (size_t i = 0; i <= len; i++) {
        char ch = i < len ? text[i] : '/';
        int rank = y + 1;
        if (ch == '/') {
            if (x != W) {
                tc_set_error(err, "rank %d has %d cells, the variant has %d files", rank, x, W);
                return -1;
            }
            y--;
            x = 0;
        } else if (ch >= '0' && ch <= '9') {
            int n = 0;
            while (i < len && text[i] >= '0' && text[i] <= '9') {
                n = n * 10 + (text[i] - '0');
                if (n > W)
                    break;
                i++;
            }
            i--;
            if (n == 0 || x + n > W) {
                tc_set_error(err, "rank %d has more than %d cells", rank, W);
                return -1;
            }
            x += n;
        } else {
            int pc = tc_piece_from_char(ch);
            if (!pc) {
                tc_set_error(err, "unexpected character '%c' in rank %d", isprint((unsigned char)ch) ? ch : '?',
                             rank);
                return -1;
            }
            if (x >= W) {
                tc_set_error(err, "rank %d has more than %d cells", rank, W);
                return -1;
            }
            board[y * W + x++] = (uint8_t)pc;
        }
    }
    return 0;
}

char tc_piece_char(int piece)
{
    return piece > 0 && piece < 16 && piece_chars[piece] != ' ' ? piece_chars[piece] : '?';
}

int tc_board_write(int W, int H, const uint8_t *board, char *buf)
{
    int k = 0;
    for (int y = H - 1; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < W; x++) {
            int pc = board[y * W + x];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                k += sprintf(buf + k, "%d", empty);
            empty = 0;
            buf[k++] = tc_piece_char(pc);
        }
        if (empty)
            k += sprintf(buf + k, "%d", empty);
        if (y)
            buf[k++] = '/';
    }
    buf[k] = 0;
    return k;
}
