#include "harness.h"

void suite_rules(void) {}
