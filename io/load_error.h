/* Loader errors: every loader reports "file:line: key: what is wrong". */
#ifndef GRIP_LOAD_ERROR_H
#define GRIP_LOAD_ERROR_H

#include <stdarg.h>

typedef struct grip_load_error {
  char message[512]; /* "file:line: key: what is wrong", empty when there is none */
  int line;          /* 1-based line of the first error, 0 when not tied to a line */
} grip_load_error;

/* Formats "file:line: key: <fmt...>" into err (line 0 omits ":line", key NULL omits "key: ").
 * Keeps the first error when called again. err may be NULL. */
void grip_load_error_set(grip_load_error *err, const char *file, int line, const char *key,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

void grip_load_error_clear(grip_load_error *err);

#endif
