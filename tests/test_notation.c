#include "harness.h"

void suite_notation(void) {}
