/* Tracks built in code for the tests (tests/support_*.c are linked into every test). */
#ifndef GRIP_SUPPORT_TRACKS_H
#define GRIP_SUPPORT_TRACKS_H

#include "grip/grip.h"
#include "grip/track.h"

/* A flat circle of centre-line radius R (four 90° left arcs, the segment defaults otherwise:
 * width 12 m), starting at the origin heading +x, so centred at (0, R). NULL if it does not
 * build. */
grip_track *support_circle_track(double radius);

#endif
