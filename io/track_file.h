/* Track files: grip's native line-oriented format (docs/tracks.md), the built-in default
 * track, and one entry point that opens any TRACK argument (native path, TORCS XML path,
 * torcs:NAME, default). */
#ifndef GRIP_TRACK_FILE_H
#define GRIP_TRACK_FILE_H

#include <stddef.h>

#include "grip/track.h"
#include "load_error.h"

/* A parsed track: its name and the definition to build. */
typedef struct grip_track_file {
  char name[128];                   /* display name, "Grip Park" */
  grip_track_segment_def *segments; /* owned, segment_count entries */
  int segment_count;
  grip_track_def def;               /* def.segments points at segments */
  int *lines;                       /* owned: source line of each segment (0 = unknown) */
} grip_track_file;

/* What a loaded track must satisfy before it is built or raced (docs/tracks.md, "Limits").
 * Every segment: plan length 0 < L <= GRIP_TRACK_MAX_SEGMENT; arc radius
 * GRIP_TRACK_MIN_RADIUS..GRIP_TRACK_MAX_RADIUS and larger than half the road width (the inner
 * road edge must not cross the turn's centre); road width GRIP_TRACK_MIN_WIDTH..MAX_WIDTH;
 * |height| <= GRIP_TRACK_MAX_ABS_Z; |grade| <= GRIP_TRACK_MAX_SLOPE; banking under 60 degrees;
 * kerb and run-off 0..GRIP_TRACK_MAX_STRIP; barriers 0..GRIP_TRACK_MAX_BARRIER; surfaces
 * friction 0..10, rolling resistance 0..1, roughness 0..1 m, wavelength 0.01..1000 m.
 * The whole track: length GRIP_TRACK_MIN_LENGTH..GRIP_TRACK_MAX_LENGTH, and closed: the end of
 * its last segment at most grip_track_max_closure(length) from its start. */
#define GRIP_TRACK_MIN_LENGTH 100.0   /* m, whole track */
#define GRIP_TRACK_MAX_LENGTH 1.0e6   /* m, whole track (1000 km) */
#define GRIP_TRACK_MAX_SEGMENT 1.0e5  /* m, one segment (100 km) */
#define GRIP_TRACK_MIN_RADIUS 5.0     /* m, centre-line radius of an arc */
#define GRIP_TRACK_MAX_RADIUS 1.0e5   /* m */
#define GRIP_TRACK_MIN_WIDTH 1.0      /* m, road width */
#define GRIP_TRACK_MAX_WIDTH 200.0    /* m */
#define GRIP_TRACK_MAX_ABS_Z 1.0e4    /* m, centre-line height (and start position z) */
#define GRIP_TRACK_MAX_SLOPE 1.0      /* 1 (dz/ds), 100 % grade */
#define GRIP_TRACK_MAX_STRIP 1000.0   /* m, kerb and run-off widths */
#define GRIP_TRACK_MAX_BARRIER 100.0  /* m, barrier height */
#define GRIP_TRACK_MAX_ABS_XY 1.0e7   /* m, start position x and y */
#define GRIP_TRACK_CLOSURE_ABS 5.0    /* m */
#define GRIP_TRACK_CLOSURE_REL 0.01   /* of the length */

/* m, largest closure error a track of this length may have: the smaller of 5 m and 1 % of the
 * length (a gap above either is refused). */
double grip_track_max_closure(double length);

/* Checks every segment's magnitudes against the limits above. file names the source in
 * messages ("file:line: key: what is wrong (allowed range)", the line of the segment). Returns
 * 0, or -1 with err set. */
int grip_track_file_check(const grip_track_file *tf, const char *file, grip_load_error *err);

/* Checks tf (grip_track_file_check), builds it, and checks the whole track (length, closure).
 * Returns 0 and *out (destroy with grip_track_destroy), or -1 with err set and *out NULL. */
int grip_track_file_build(const grip_track_file *tf, const char *file, grip_track **out,
                          grip_load_error *err);

/* Parses native track text. filename is used in error messages. Returns 0 on success; on error
 * returns -1, fills err with "file:line: key: what is wrong" and leaves *out untouched. */
int grip_track_file_parse(const char *text, const char *filename, grip_track_file *out,
                          grip_load_error *err);

/* Reads and parses a native track file. */
int grip_track_file_load(const char *path, grip_track_file *out, grip_load_error *err);

void grip_track_file_free(grip_track_file *file);

/* The built-in default track's text (data/tracks/park.track compiled in). */
const char *grip_track_default_text(void);

/* Opens TRACK: "default", "torcs:NAME", a path ending in .xml (TORCS), or a native file path,
 * and builds it with grip_track_file_build (so open tracks, tracks shorter than 100 m and
 * non-physical magnitudes are refused). Returns 0 and a built track (*out, destroy with grip_track_destroy) or -1 with err set. name
 * (may be NULL) receives the track's display name. */
int grip_track_open(const char *spec, grip_track **out, char *name, size_t name_size,
                    grip_load_error *err);

#endif
