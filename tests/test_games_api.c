/* The hosted-games API's request checks without sockets or a store
 * (server/games_api.c, srv_games_check_body): each body gets the status the
 * API would answer. tests/server/games.sh drives the same API over HTTP,
 * store and all. Runs under the sanitizers with the rest of the suite. */
#include "harness.h"

#include "games_api.h"

#include <string.h>

static void expect(const char *action, const char *body, int status)
{
    int got = srv_games_check_body(action, body, strlen(body));
    CHECK(got == status, "%s %s: status %d, expected %d", action ? action : "create", body, got, status);
}

void suite_games_api(void)
{
    th_case("create requests: good ones pass");
    expect(NULL, "{\"variant\":\"klein-bottle\"}", 200);
    expect(NULL, "{\"variant\":\"torus\",\"clock\":{\"kind\":\"fischer\",\"initial_ms\":60000,\"increment_ms\":0}}", 200);
    expect(NULL, "{\"variant\":\"mobius\",\"clock\":{\"kind\":\"correspondence\",\"days\":3},\"engine\":\"white\",\"level\":20}", 200);
    expect(NULL, "{\"variant\":\"chess\",\"clock\":null,\"engine\":null,\"fen\":\"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"}", 200);
    expect(NULL,
           "{\"page\":\"---\\ntitle: Six\\nslug: six\\nengine:\\n  topology: {type: grid, rows: 6, cols: 6, wrap: cylinder}\\n"
           "  setup: \\\"rnbkqr/pppppp/6/6/PPPPPP/RNBKQR\\\"\\n---\\n\"}",
           200);

    th_case("create requests: bad JSON and bad fields are 400");
    const char *bad[] = {
        "", "{", "[]", "null", "\"x\"", "{\"variant\":\"torus\",}", "{\"variant\":\"torus\",\"variant\":\"chess\"}",
        "{\"variant\":5}", "{\"variant\":\"torus\",\"colour\":\"white\"}", "{}", "{\"variant\":\"torus\",\"page\":\"---\\n---\\n\"}",
        "{\"variant\":\"torus\",\"engine\":\"both\"}", "{\"variant\":\"torus\",\"engine\":\"white\",\"level\":0}",
        "{\"variant\":\"torus\",\"level\":21}", "{\"variant\":\"torus\",\"level\":1.5}", "{\"variant\":\"torus\",\"clock\":3}",
        "{\"variant\":\"torus\",\"clock\":{\"kind\":\"blitz\"}}", "{\"variant\":\"torus\",\"clock\":{\"kind\":\"fischer\",\"initial_ms\":10}}",
        "{\"variant\":\"torus\",\"clock\":{\"kind\":\"fischer\",\"initial_ms\":60000,\"extra\":1}}",
        "{\"variant\":\"torus\",\"clock\":{\"kind\":\"correspondence\",\"days\":0}}",
        "{\"variant\":\"torus\",\"clock\":{\"kind\":\"fischer\",\"initial_ms\":-1}}", "{\"variant\":\"torus\",\"fen\":\"8/8 w\"}",
        "{\"variant\":\"torus\",\"fen\":\"a\\u0000b\"}", "{\"page\":\"not a page\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect(NULL, bad[i], 400);

    th_case("create requests: an unknown variant is 404");
    expect(NULL, "{\"variant\":\"no-such-board\"}", 404);

    th_case("actions: fields checked, unknown actions 404");
    expect("move", "{\"token\":\"x\",\"move\":\"e4\"}", 200);
    expect("move", "{\"token\":\"x\"}", 400);
    expect("move", "{\"token\":\"x\",\"move\":4}", 400);
    expect("move", "{\"token\":\"x\",\"move\":\"e4\",\"promote\":\"q\"}", 400);
    expect("move", "{\"token\":\"x\",\"move\":\"012345678901234567890123456789012\"}", 400);
    expect("draw", "{\"token\":\"x\",\"action\":\"offer\"}", 200);
    expect("draw", "{\"token\":\"x\"}", 400);
    expect("takeback", "{\"token\":\"x\",\"action\":\"request\"}", 200);
    expect("takeback", "{\"token\":[]}", 400);
    expect("resign", "{\"token\":\"x\"}", 200);
    expect("resign", "{\"token\":\"x\"", 400);
    expect("rematch", "{}", 200);
    expect("fly", "{\"token\":\"x\"}", 404);

    th_case("routes the module answers");
    CHECK(srv_games_owns("/api/games") && srv_games_owns("/api/games?variant=torus") &&
              srv_games_owns("/api/games/0123456789abcdef/move") && srv_games_owns("/game/0123456789abcdef") &&
              srv_games_owns("/games") && srv_games_owns("/games?variant=x"),
          "a games route not owned");
    CHECK(!srv_games_owns("/api/gamesx") && !srv_games_owns("/gamesx") && !srv_games_owns("/api/variants") &&
              !srv_games_owns("/"),
          "a route of the site owned");
}
