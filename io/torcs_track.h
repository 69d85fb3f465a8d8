/* TORCS track import (track XML versions 3 and 4, as in torcs-data 1.3.x). */
#ifndef GRIP_TORCS_TRACK_H
#define GRIP_TORCS_TRACK_H

#include <stddef.h>

#include "load_error.h"
#include "track_file.h"

/* Where Debian's torcs-data puts the tracks: DIR/CATEGORY/NAME/NAME.xml. */
#define GRIP_TORCS_TRACK_DIR "/usr/share/games/torcs/tracks"

/* Finds DIR/ * /NAME/NAME.xml under dir (NULL = GRIP_TORCS_TRACK_DIR). NAME may not contain '/'
 * or start with '.'. Returns 0 and the path, or -1. */
int grip_torcs_find_track_in(const char *dir, const char *name, char *path, size_t size);
int grip_torcs_find_track(const char *name, char *path, size_t size);

/* Reads a TORCS track XML (external entities such as the shared surfaces.xml are resolved
 * relative to the file) into a track definition: one grip segment per TORCS sub-segment
 * ("profil steps"), as TORCS builds them. Returns 0, or -1 with err set. */
int grip_torcs_track_load(const char *path, grip_track_file *out, grip_load_error *err);

#endif
