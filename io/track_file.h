/* Track files: grip's native line-oriented format (docs/tracks.md), the built-in default
 * track, and one entry point that opens any TRACK argument (native path, TORCS XML path,
 * torcs:NAME, default). */
#ifndef GRIP_TRACK_FILE_H
#define GRIP_TRACK_FILE_H

#include <stddef.h>

#include "grip/track.h"
#include "load_error.h"

/* A track's pit lane, as its file gives it (TORCS's "Main Track/Pits" section, a native `pit`
 * line; docs/tracks.md, "Pit lane"). Distances are along the centre line, in [0, length); the
 * lane may run across the start line (start > end). The boxes are box_length long, side by side
 * from `start` onwards, at the outer edge of the pit side's run-off (where TORCS puts them). */
typedef struct grip_track_pit {
  bool present;        /* false: the track has no pit lane */
  int side;            /* GRIP_TRACK_SIDE_LEFT or GRIP_TRACK_SIDE_RIGHT */
  double entry;        /* m, where the pit road leaves the track (TORCS: start of the entry segment); 6500 */
  double start;        /* m, start of the speed-limited lane and of the first box; 6890 */
  double end;          /* m, end of the speed-limited lane (after the last box); 150 */
  double exit;         /* m, where the pit road rejoins the track (TORCS: end of the exit segment); 500 */
  double box_length;   /* m, along the track; TORCS default 15 */
  double box_width;    /* m, across; TORCS default 5 */
  double speed_limit;  /* m/s in the lane from start to end; TORCS default 25 */
  int line;            /* source line of the section or statement (0: unknown) */
} grip_track_pit;

/* A parsed track: its name and the definition to build. */
typedef struct grip_track_file {
  char name[128];                   /* display name, "Grip Park" */
  grip_track_segment_def *segments; /* owned, segment_count entries */
  int segment_count;
  grip_track_def def;               /* def.segments points at segments */
  int *lines;                       /* owned: source line of each segment (0 = unknown) */
  grip_track_pit pit;               /* the pit lane (pit.present false: none) */
} grip_track_file;

/* What a loaded track must satisfy before it is built or raced (docs/tracks.md, "Limits").
 * Every segment: plan length 0 < L <= GRIP_TRACK_MAX_SEGMENT; arc radius
 * GRIP_TRACK_MIN_RADIUS..GRIP_TRACK_MAX_RADIUS and larger than half the road width (the inner
 * road edge must not cross the turn's centre); road width GRIP_TRACK_MIN_WIDTH..MAX_WIDTH;
 * |height| <= GRIP_TRACK_MAX_ABS_Z; |grade| <= GRIP_TRACK_MAX_SLOPE; banking under 60 degrees;
 * kerb and run-off 0..GRIP_TRACK_MAX_STRIP; barriers 0..GRIP_TRACK_MAX_BARRIER; surfaces
 * friction 0..10, rolling resistance 0..1, roughness 0..1 m, wavelength 0.01..1000 m.
 * The whole track: length GRIP_TRACK_MIN_LENGTH..GRIP_TRACK_MAX_LENGTH, and closed: the end of
 * its last segment at most grip_track_max_closure(length) from its start (GRIP_TRACK_CLOSURE_ABS
 * and _REL, grip/track.h). */
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

/* grip_track_open that also returns the track's pit lane (pit may be NULL; pit->present is false
 * for a track without one). */
int grip_track_open_pit(const char *spec, grip_track **out, char *name, size_t name_size, grip_track_pit *pit,
                        grip_load_error *err);

/* Checks a pit lane against its track's length: distances in [0, length), box length 1..100 m,
 * width 1..50 m, speed limit 1..150 m/s, at least one box between start and end, and the
 * entry-start-end-exit order along the track with the whole pit road shorter than 70 % of a
 * lap. Returns 0, or -1 with err set ("file:line: pit: what is wrong (allowed range)"). */
int grip_track_pit_check(const grip_track_pit *pit, double length, const char *file, grip_load_error *err);

#endif
