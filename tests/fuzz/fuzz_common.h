/* Shared helpers for the libFuzzer harnesses (docs/fuzzing.md).
 *
 * Each tests/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput. Built with clang and
 * -DGRIP_FUZZ=ON they link libFuzzer; built by any compiler they link replay_main.c instead,
 * which feeds every file of the seed corpus to the same function (a regression test).
 *
 * Loaders that take a path (the .bt reader, the TORCS XML readers) get the input through a
 * temporary file; the others parse it from memory. The verdict on an input is: no crash, no
 * sanitizer report, and no abort() from a harness's own checks (FUZZ_REQUIRE). A refused
 * input is fine; an accepted one must satisfy what the loader promises. */
#ifndef GRIP_FUZZ_COMMON_H
#define GRIP_FUZZ_COMMON_H

#define _XOPEN_SOURCE 700
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts (a finding for the fuzzer, a failure for the replay test) when cond is false. */
#define FUZZ_REQUIRE(cond)                                                                   \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "%s:%d: harness check failed: %s\n", __FILE__, __LINE__, #cond);       \
      abort();                                                                               \
    }                                                                                        \
  } while (0)

/* The input as a NUL-terminated heap string (the caller frees it). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) abort();
  if (size) memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

/* Writes the input to a per-process temporary file named "<dir>/input<suffix>" in a private
 * directory under $TMPDIR (or /tmp), made once; returns its path (static storage). */
static inline const char *fuzz_temp_file(const uint8_t *data, size_t size, const char *suffix) {
  static char dir[256];
  static char path[320];
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/grip-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) abort();
  }
  snprintf(path, sizeof path, "%s/input%s", dir, suffix);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  return path;
}

#endif
