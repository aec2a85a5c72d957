/* libFuzzer target: any body given to the hosted-games API (a create
 * request, or a move, draw, takeback, resign or rematch) is read by
 * jansson and checked field by field; a create request's variant, page
 * and FEN go through the library and the game is made. The answer must be
 * a status of the API's set, never a crash, a leak or a hang. The first
 * byte picks the route. */
#include "games_api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const actions[] = {NULL, "move", "draw", "takeback", "resign", "rematch", "fly", NULL};
    const char *action = actions[size ? data[0] & 7 : 0];
    size_t n = size ? size - 1 : 0;
    char *body = malloc(n + 1);
    if (!body)
        return 0;
    if (n)
        memcpy(body, data + 1, n);
    body[n] = '\0';
    int st = srv_games_check_body(action, body, n);
    if (st != 200 && st != 400 && st != 404)
        abort();
    free(body);
    return 0;
}
