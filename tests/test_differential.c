#include "harness.h"

void suite_differential(void) {}
