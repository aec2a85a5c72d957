/* The nets built into the binary: the build writes build/gen/nnue_nets.c
 * from nets/<preset>.tcnn (tools/embed-nets); with no such files the table
 * is empty. Constant data, no state. */
#ifndef TC_NNUE_BUILTIN_H
#define TC_NNUE_BUILTIN_H

#include <stddef.h>

/// One built-in net: the preset it was trained for and the file's bytes.
typedef struct nnue_builtin {
    const char *preset;
    const unsigned char *data;
    size_t len;
} nnue_builtin;

extern const nnue_builtin nnue_builtins[];
extern const int nnue_builtin_count;

#endif
