#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *grip_open_problem(const char *path, int errnum) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
  return strerror(errnum);
}

bool grip_is_directory(const char *path, grip_load_error *err) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  grip_load_error_set(err, path, 0, NULL, "is a directory (a file is expected)");
  return true;
}

char *grip_read_file(const char *path, size_t max_bytes, size_t *size, grip_load_error *err) {
  if (grip_is_directory(path, err)) return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    grip_load_error_set(err, path, 0, NULL, "cannot open: %s", strerror(errno));
    return NULL;
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap + 1);
  const char *problem = buf ? NULL : "out of memory";
  while (!problem) {
    if (len == cap) {
      if (cap >= max_bytes) {
        problem = "file too large";
        break;
      }
      char *bigger = realloc(buf, 2 * cap + 1);
      if (!bigger) {
        problem = "out of memory";
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) {
      if (ferror(f)) problem = "read error";
      break;
    }
  }
  fclose(f);
  if (problem || len > max_bytes) {
    if (!problem) problem = "file too large";
    if (strcmp(problem, "file too large") == 0)
      grip_load_error_set(err, path, 0, NULL, "file too large (over %zu bytes)", max_bytes);
    else
      grip_load_error_set(err, path, 0, NULL, "%s", problem);
    free(buf);
    return NULL;
  }
  buf[len] = '\0';
  if (size) *size = len;
  return buf;
}
