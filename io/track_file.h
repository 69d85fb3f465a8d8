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
} grip_track_file;

/* Parses native track text. filename is used in error messages. Returns 0 on success; on error
 * returns -1, fills err with "file:line: key: what is wrong" and leaves *out untouched. */
int grip_track_file_parse(const char *text, const char *filename, grip_track_file *out,
                          grip_load_error *err);

/* Reads and parses a native track file. */
int grip_track_file_load(const char *path, grip_track_file *out, grip_load_error *err);

void grip_track_file_free(grip_track_file *file);

/* The built-in default track's text (data/tracks/park.track compiled in). */
const char *grip_track_default_text(void);

/* Opens TRACK: "default", "torcs:NAME", a path ending in .xml (TORCS), or a native file path.
 * Returns 0 and a built track (*out, destroy with grip_track_destroy) or -1 with err set. name
 * (may be NULL) receives the track's display name. */
int grip_track_open(const char *spec, grip_track **out, char *name, size_t name_size,
                    grip_load_error *err);

#endif
