/* Reading a whole text or data file for the loaders. */
#ifndef GRIP_READ_FILE_H
#define GRIP_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "load_error.h"

/* Reads the whole file at path into a heap buffer with a NUL byte after its end (the caller
 * frees it); *size (may be NULL) gets the length in bytes. A file that cannot be opened or read,
 * is larger than max_bytes, or does not fit in memory gives NULL and "path: what is wrong" in
 * err (may be NULL). */
char *grip_read_file(const char *path, size_t max_bytes, size_t *size, grip_load_error *err);

/* What to say when opening path failed with errnum: "is a directory" when it is one (a
 * directory given where a file is expected), else strerror(errnum). */
const char *grip_open_problem(const char *path, int errnum);

/* True, with "path: is a directory" in err (may be NULL), when path names a directory. */
bool grip_is_directory(const char *path, grip_load_error *err);

#endif
