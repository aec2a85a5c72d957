#include "harness.h"

void suite_frontmatter(void) {}
