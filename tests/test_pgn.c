#include "harness.h"

void suite_pgn(void) {}
