#include "internal.h"
int tc_frontmatter_parse(const char *text, size_t len, tc_variant_def *out, tc_error *err) { (void)text; (void)len; (void)out; tc_set_error(err, "not yet"); return -1; }
int tc_variant_file_load(const char *path, tc_variant_def *out, tc_error *err) { (void)path; (void)out; tc_set_error(err, "not yet"); return -1; }
void tc_variant_def_write_page(const tc_variant_def *def, FILE *out) { (void)def; (void)out; }
