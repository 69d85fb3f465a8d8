/* Tracks built in code for the tests (tests/support_*.c are linked into every test). */
#ifndef GRIP_SUPPORT_TRACKS_H
#define GRIP_SUPPORT_TRACKS_H

#include "grip/grip.h"
#include "grip/track.h"

/* A flat circle of centre-line radius R (four 90° left arcs, the segment defaults otherwise:
 * width 12 m), starting at the origin heading +x, so centred at (0, R). NULL if it does not
 * build. */
grip_track *support_circle_track(double radius);

/* A native track file's text (docs/tracks.md): an oval turning left, 1628.32 m (2·500 + 2·π·100),
 * 12 m road, 1 m kerbs, 15 m asphalt run-offs, its pit lane on the right (the outside) from 150 m
 * before the line to 450 m after it, boxes from 20 m to 320 m, limit 20 m/s. */
extern const char *const support_pit_oval_text;

/* The lighter queries against grip_track_locate at n points of the track, every other one in
 * order along it and the rest at random: within `reach` m of the centre line (a seventh out to
 * three times as far), five in eight from the hint a car carries along, the rest without a hint,
 * from their own segment's neighbour or from a random segment. At each point:
 * - grip_track_locate_progress must give the segment, distance and lateral in every bit;
 * - the track's ground (grip_track_ground), asked for a vertical ray from 0.5–4.5 m above the
 *   located height by a wheel or the body with the same hint, must hit the located point (the
 *   same x and y, the height within 1e-12 m), with its normal (each component within 1e-13) and
 *   surface (every field), and leave the located segment as the query's hint. */
typedef struct support_query_check {
  int progress_mismatches; /* points whose progress locate differs */
  int ray_mismatches;      /* points whose ray differs */
  double worst_height;     /* m, the largest height difference of a ray's hit */
  double worst_normal;     /* the largest difference of a normal's component */
} support_query_check;
support_query_check support_check_queries(const grip_track *t, int n, double reach);

#endif
