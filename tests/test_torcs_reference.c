/* TORCS tracks against TORCS's own trackgen figures (reference/torcs/tracks-trackgen.txt):
 * centre-line length within 0.05 %, the same number of segments, the same width, and a
 * closure error of the same (millimetre) order. Needs Debian's torcs-data; skips without it. */
#include <stdio.h>
#include <string.h>

#include "grip/track.h"
#include "test.h"
#include "torcs_track.h"
#include "track_file.h"

#define REFERENCE GRIP_SOURCE_DIR "/tests/data/torcs-reference/tracks-trackgen.txt"

int main(void) {
  FILE *f = fopen(REFERENCE, "r");
  if (!f) TEST_SKIP("no reference file " REFERENCE);
  char probe[512];
  if (grip_torcs_find_track("e-track-4", probe, sizeof probe) != 0) {
    fclose(f);
    TEST_SKIP("TORCS tracks not installed under " GRIP_TORCS_TRACK_DIR
              " (apt-get install torcs-data)");
  }
  char line[1024];
  int tracks = 0;
  while (fgets(line, sizeof line, f)) {
    char category[64], name[64];
    int nseg;
    double length, width, dx, dy, dz;
    const char *p;
    if (sscanf(line, "%63s %63s nseg=%d length=%lf width=%lf", category, name, &nseg, &length,
               &width) != 5)
      continue;
    if (!(p = strstr(line, "DeltaX=")) || sscanf(p, "DeltaX=%lf DeltaY=%lf DeltaZ=%lf", &dx, &dy,
                                                  &dz) != 3)
      continue;
    char spec[96];
    snprintf(spec, sizeof spec, "torcs:%s", name);
    grip_track *t = NULL;
    grip_load_error err;
    grip_load_error_clear(&err);
    int rc = grip_track_open(spec, &t, NULL, 0, &err);
    CHECK(rc == 0);
    if (rc) {
      fprintf(stderr, "%s: %s\n", spec, err.message);
      continue;
    }
    grip_track_stats st = grip_track_get_stats(t);
    double torcs_closure = sqrt(dx * dx + dy * dy + dz * dz);
    printf("%-10s length %.4f (TORCS %.4f, %+.2e rel)  segments %d (%d)  width %.2f (%.2f)  "
           "closure %.4f m (TORCS %.4f)\n",
           name, st.length, length, (st.length - length) / length, st.segments, nseg, st.width,
           width, st.closure_error, torcs_closure);
    CHECK_REL(st.length, length, 5e-4);
    CHECK(st.segments == nseg);
    CHECK_NEAR(st.width, width, 1e-6);
    /* TORCS builds in single precision; both closures are a few millimetres */
    CHECK_NEAR(st.closure_error, 0.0, 0.02);
    CHECK_NEAR(st.heading_closure, 0.0, 1e-4);
    grip_track_destroy(t);
    tracks++;
  }
  fclose(f);
  CHECK(tracks == 4);
  return TEST_RESULT();
}
