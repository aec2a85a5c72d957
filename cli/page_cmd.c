/* topochess page reflow FILE | page guess FILE: variant pages as text
 * (topochess_page.h), for pages about to be imported. */
#include "cli.h"

#include "topochess_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_page(cli_ctx *c)
{
    const char *what = c->argv[0], *path = c->argv[1];
    if (strcmp(what, "reflow") && strcmp(what, "guess")) {
        fprintf(stderr, "topochess: page: unknown action '%s' (expected reflow or guess)\n", what);
        return 1;
    }
    size_t len = 0;
    char *text = cli_read_file(path, &len);
    if (!text)
        return 1;
    tc_error err;
    int status = 0;
    if (!strcmp(what, "reflow")) {
        size_t n = 0;
        char *page = tc_page_reflow(text, len, &n, &err);
        if (page)
            fwrite(page, 1, n, stdout);
        else {
            fprintf(stderr, "topochess: %s: %s\n", path, err.msg);
            status = 1;
        }
        free(page);
    } else {
        tc_page_guess g;
        tc_variant_def def;
        if (tc_frontmatter_parse(text, len, &def, &err) == 0) {
            fprintf(stderr, "topochess: %s already has a front matter (variant '%s'): nothing to guess\n", path,
                    def.name);
            status = 1;
        } else if (tc_page_guess_read(text, len, &g, &err)) {
            fprintf(stderr, "topochess: %s: %s\n", path, err.msg);
            status = 1;
        } else {
            tc_page_guess_write(&g, stdout);
        }
    }
    free(text);
    return status;
}
