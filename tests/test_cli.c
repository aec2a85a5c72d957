#include "harness.h"

void suite_cli(void) {}
