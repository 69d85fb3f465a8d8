/* The track's search grid (src/track.c, build_index), checked from the tests. */
#ifndef GRIP_TRACK_SEARCH_H
#define GRIP_TRACK_SEARCH_H

struct grip_track;

/* Whether the search grid answers (x, y) as the exhaustive search does: 1 when it vouches for an
 * answer and that is the exhaustive search's (the same segment, local distance and offset, bit
 * for bit), 0 when it vouches for another, 2 when it leaves the point to the exhaustive search
 * (outside the grid, or no candidate within its reach), -1 when the track has no grid. */
int grip_track_search_check(const struct grip_track *track, double x, double y);

#endif
