#include "harness.h"

void suite_fen(void) {}
