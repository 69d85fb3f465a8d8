/* The built-in default track: data/tracks/park.track, embedded at build time by CMake (the
 * file stays the one source of truth). */
#include "track_file.h"

static const char default_track_text[] = {
#include "default_track.inc"
    0};

const char *grip_track_default_text(void) { return default_track_text; }
