/* Replays files through a fuzz harness without libFuzzer: every file named on the command
 * line, and every regular file of every directory named, is passed to LLVMFuzzerTestOneInput
 * once. The ctest suite runs each harness over its seed corpus this way, so inputs that once
 * crashed a loader stay regression tests with any compiler (docs/fuzzing.md). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) abort();
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (len < cap) break;
    cap *= 2;
    buf = realloc(buf, cap);
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  int files = 0, failed = 0;
  for (int i = 1; i < argc; ++i) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      failed |= replay_file(argv[i]);
      ++files;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) return 1;
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      names = realloc(names, (count + 1) * sizeof *names);
      if (!names) abort();
      size_t n = strlen(argv[i]) + strlen(e->d_name) + 2;
      names[count] = malloc(n);
      if (!names[count]) abort();
      snprintf(names[count], n, "%s/%s", argv[i], e->d_name);
      ++count;
    }
    closedir(d);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t k = 0; k < count; ++k) {
      if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
        failed |= replay_file(names[k]);
        ++files;
      }
      free(names[k]);
    }
    free(names);
  }
  printf("replayed %d inputs\n", files);
  if (files == 0) {
    fprintf(stderr, "replay: no inputs found\n");
    return 1;
  }
  return failed;
}
