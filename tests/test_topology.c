#include "harness.h"

void suite_topology(void) {}
