/* TORCS tracks against TORCS's own trackgen figures (tests/data/torcs-reference/
 * tracks-trackgen.txt, made by scripts/torcs_trackgen_table.sh): every track Debian's
 * torcs-data installs (both track versions) is in the table, and each has its centre-line
 * length within 0.05 %, the same number of segments, the same width, and a closure error of
 * the same (millimetre) order. Needs Debian's torcs-data; skips without it. */
#include <dirent.h>
#include <math.h>
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
    double length, width, dx, dy, dz, dang;
    const char *p;
    if (sscanf(line, "%63s %63s nseg=%d length=%lf width=%lf", category, name, &nseg, &length,
               &width) != 5)
      continue;
    if (!(p = strstr(line, "DeltaX=")) ||
        sscanf(p, "DeltaX=%lf DeltaY=%lf DeltaZ=%lf DeltaAng=%lf", &dx, &dy, &dz, &dang) != 4)
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
    /* TORCS builds in single precision (its own closure drifts by about 1e-6 of the length);
     * a track that does not quite close in its file (wheel-2: 0.26 m) misses by as much in both */
    CHECK_NEAR(st.closure_error, torcs_closure, 0.01 + 1e-6 * length);
    CHECK_NEAR(fabs(st.heading_closure), fabs(dang), 5e-5); /* TORCS: float heading sums */
    grip_track_destroy(t);
    tracks++;
  }
  fclose(f);
  /* every installed track has a row (the table covers all of them) */
  int installed = 0;
  DIR *root = opendir(GRIP_TORCS_TRACK_DIR);
  struct dirent *c;
  while (root && (c = readdir(root)) != NULL) {
    if (c->d_name[0] == '.') continue;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", GRIP_TORCS_TRACK_DIR, c->d_name);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char xml[1400];
      snprintf(xml, sizeof xml, "%s/%s/%s.xml", dir, e->d_name, e->d_name);
      FILE *x = fopen(xml, "r");
      if (x) {
        ++installed;
        fclose(x);
      }
    }
    if (d) closedir(d);
  }
  if (root) closedir(root);
  printf("%d tracks compared, %d installed\n", tracks, installed);
  CHECK(tracks == 38);
  CHECK(installed == tracks);
  return TEST_RESULT();
}
