/* Small text helpers shared by the INI loaders (car files, scene files): strict numbers, paths
 * relative to a file's directory, and an inih line reader over text in memory that counts
 * lines (Debian's inih does not pass line numbers to the handler). */
#ifndef GRIP_INI_TEXT_H
#define GRIP_INI_TEXT_H

#include <stddef.h>

#include "load_error.h"

/* Strict decimal number at text (leading blanks skipped): optional sign, digits, point,
 * exponent. Returns 0 with *v set and *rest (may be NULL) after the number; -1 when there is no
 * number; -2 when it overflows or is not finite. Whatever follows (a unit suffix, junk) is left
 * for the caller to judge. */
int grip_scan_number(const char *text, double *v, const char **rest);

/* A whole value that must be one number within [min, max] (blanks after it allowed, nothing
 * else). Returns 1 with *out set, or 0 with the reason in why ("'x' is not a number",
 * "5 is out of range (allowed 0 .. 1 m)", …); unit ("" for none) is named in the range. */
int grip_ini_number_in_range(const char *value, double min, double max, const char *unit, double *out,
                             char *why, size_t why_size);

/* Directory part of path ("." when none, "/" for a file in the root) into dir (size n). */
void grip_dir_of(const char *path, char *dir, size_t n);

/* dir + "/" + rel into out (size n); an absolute rel (or dir NULL) is kept as is. Returns 0, or
 * -1 when the result does not fit. */
int grip_join_path(const char *dir, const char *rel, char *out, size_t n);

/* Text handed to inih line by line (ini_parse_stream(grip_ini_lines_read, &lines, ...)). Each
 * line's leading blanks are dropped (so inih never joins indented lines as continuations), a
 * line longer than inih's buffer is replaced by an empty one and remembered in long_line. */
typedef struct grip_ini_lines {
  const char *text;  /* NUL-terminated text */
  size_t pos;        /* bytes consumed */
  int line;          /* 1-based number of the line last handed out */
  int long_line;     /* first line that did not fit, 0 when none */
  int section_line;  /* line of the last "[section]" header */
} grip_ini_lines;

/* An ini_reader: stream is a grip_ini_lines. */
char *grip_ini_lines_read(char *str, int num, void *stream);

/* The error of one inih pass over file `name`: rc is ini_parse_stream's result over lines,
 * handler_err the handler's own first error (empty message when none). Out of memory first;
 * else the earliest of a line too long, a syntax error and the handler's error. Fills err and
 * returns -1, or returns 0 when the pass went through. */
int grip_ini_outcome(int rc, const grip_ini_lines *lines, const grip_load_error *handler_err, const char *name,
                     grip_load_error *err);

/* The start of a loader that parses into a scratch copy of its result, so that a failed load
 * changes nothing the caller holds: refuses a missing text or output ("no text"), allocates the
 * scratch result (result_size bytes, not initialised) and the parser's state (parser_size bytes,
 * zeroed). 0, or -1 with err set (name names the file). */
int grip_ini_begin(const char *text, const void *out, const char *name, size_t result_size, void **result,
                   size_t parser_size, void **parser, grip_load_error *err);

/* The end: when result is 0 the scratch copy goes to out; scratch and parser are freed.
 * Returns result. */
int grip_ini_end(int result, void *out, void *scratch, size_t size, void *parser);

#endif
