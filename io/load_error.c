#include "load_error.h"

#include <stdio.h>

void grip_load_error_clear(grip_load_error *err) {
  if (!err) return;
  err->message[0] = '\0';
  err->line = 0;
}

void grip_load_error_set(grip_load_error *err, const char *file, int line, const char *key,
                         const char *fmt, ...) {
  if (!err || err->message[0] != '\0') return;
  int n;
  size_t size = sizeof err->message;
  if (line > 0)
    n = snprintf(err->message, size, "%s:%d: ", file ? file : "?", line);
  else
    n = snprintf(err->message, size, "%s: ", file ? file : "?");
  if (n < 0 || (size_t)n >= size) return;
  if (key) {
    int k = snprintf(err->message + n, size - (size_t)n, "%s: ", key);
    if (k < 0 || (size_t)(n + k) >= size) return;
    n += k;
  }
  va_list args;
  va_start(args, fmt);
  vsnprintf(err->message + n, size - (size_t)n, fmt, args);
  va_end(args);
  err->line = line;
}
