#include "harness.h"

void suite_perft(void) {}
