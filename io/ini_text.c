/* Text helpers for the INI loaders: see ini_text.h. */
#include "ini_text.h"

#include <ctype.h>
#include <ini.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One number within [min, max] and nothing after it (ini_text.h). */
int grip_ini_number_in_range(const char *value, double min, double max, const char *unit, double *out,
                             char *why, size_t why_size) {
  double v;
  const char *rest = NULL;
  int rc = grip_scan_number(value, &v, &rest);
  if (rc == -2) return snprintf(why, why_size, "'%s' is not a finite number", value), 0;
  if (rc != 0) return snprintf(why, why_size, "'%s' is not a number", value), 0;
  while (*rest == ' ' || *rest == '\t') ++rest;
  if (*rest) return snprintf(why, why_size, "'%s' is not a number (junk after it)", value), 0;
  if (!(v >= min && v <= max))
    return snprintf(why, why_size, "%g is out of range (allowed %g .. %g%s%s)", v, min, max, *unit ? " " : "", unit), 0;
  *out = v;
  return 1;
}

/* Directory part of path ("." when none) into dir. */
void grip_dir_of(const char *path, char *dir, size_t n) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(dir, n, ".");
    return;
  }
  size_t k = (size_t)(slash - path);
  if (k == 0) k = 1;
  if (k >= n) k = n - 1;
  memcpy(dir, path, k);
  dir[k] = '\0';
}

/* Joins dir and a relative path (absolute paths are kept). Returns -1 when too long. */
int grip_join_path(const char *dir, const char *rel, char *out, size_t n) {
  int k = rel[0] == '/' || !dir ? snprintf(out, n, "%s", rel) : snprintf(out, n, "%s/%s", dir, rel);
  return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* Strict decimal number: optional sign, digits, point, exponent; then optional unit suffix. */
int grip_scan_number(const char *text, double *v, const char **rest) {
  const char *p = text;
  while (*p == ' ' || *p == '\t') ++p;
  const char *start = p;
  if (*p == '+' || *p == '-') ++p;
  int digits = 0;
  while (isdigit((unsigned char)*p)) ++p, ++digits;
  if (*p == '.') {
    ++p;
    while (isdigit((unsigned char)*p)) ++p, ++digits;
  }
  if (!digits) return -1;
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    if (*q == '+' || *q == '-') ++q;
    if (!isdigit((unsigned char)*q)) return -1;
    while (isdigit((unsigned char)*q)) ++q;
    p = q;
  }
  char buf[64];
  size_t k = (size_t)(p - start);
  if (k >= sizeof buf) return -1;
  memcpy(buf, start, k);
  buf[k] = '\0';
  errno = 0;
  double x = strtod(buf, NULL);
  if (errno == ERANGE && fabs(x) > 1.0) return -2; /* overflow */
  if (!isfinite(x)) return -2;
  *v = x;
  if (rest) *rest = p;
  return 0;
}

char *grip_ini_lines_read(char *str, int num, void *stream) {
  grip_ini_lines *s = stream;
  if (!s->text[s->pos] || num < 4) return NULL;
  const char *p = s->text + s->pos;
  const char *nl = strchr(p, '\n');
  size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
  s->pos += len;
  s->line++;
  const char *b = p;
  while (b < p + len && (*b == ' ' || *b == '\t')) ++b;
  size_t k = (size_t)(p + len - b);
  if (*b == '[') s->section_line = s->line;
  if (k > (size_t)num - 2) {
    if (!s->long_line) s->long_line = s->line;
    k = 1; /* hand inih an empty line */
    str[0] = '\n';
  } else {
    memcpy(str, b, k);
  }
  str[k] = '\0';
  return str;
}

int grip_ini_outcome(int rc, const grip_ini_lines *lines, const grip_load_error *handler_err, const char *name,
                     grip_load_error *err) {
  bool handler_failed = handler_err->message[0] != '\0';
  if (rc == -2) {
    grip_load_error_set(err, name, 0, NULL, "out of memory");
  } else if (lines->long_line && (!handler_failed || lines->long_line <= handler_err->line) &&
             (rc <= 0 || lines->long_line <= rc)) {
    grip_load_error_set(err, name, lines->long_line, NULL, "line too long (more than %d characters)",
                        ini_max_line - 3);
  } else if (rc > 0 && (!handler_failed || rc < handler_err->line)) {
    grip_load_error_set(err, name, rc, NULL, "syntax error: expected '[section]' or 'key = value'");
  } else if (handler_failed) {
    *err = *handler_err;
  } else {
    return 0;
  }
  return -1;
}

int grip_ini_begin(const char *text, const void *out, const char *name, size_t result_size, void **result,
                   size_t parser_size, void **parser, grip_load_error *err) {
  *result = *parser = NULL;
  if (!text || !out) {
    grip_load_error_set(err, name, 0, NULL, "no text");
    return -1;
  }
  *result = malloc(result_size);
  *parser = calloc(1, parser_size);
  if (!*result || !*parser) {
    free(*result);
    free(*parser);
    *result = *parser = NULL;
    grip_load_error_set(err, name, 0, NULL, "out of memory");
    return -1;
  }
  return 0;
}

int grip_ini_end(int result, void *out, void *scratch, size_t size, void *parser) {
  if (result == 0) memcpy(out, scratch, size);
  free(parser);
  free(scratch);
  return result;
}
