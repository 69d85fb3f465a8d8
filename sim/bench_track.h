/* grip bench --track: a race-like load on a track, for timing the whole world step. */
#ifndef GRIP_BENCH_TRACK_H
#define GRIP_BENCH_TRACK_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "grip/grip.h"
#include "grip/track.h"

typedef struct track_bench_result {
  int vehicles;
  long long steps;
  int lanes;                  /* cars side by side */
  double spacing_m;           /* m, between cars in a lane along the track; >= 8 */
  double ns_per_vehicle_step; /* ns of wall time per vehicle per step: world step (ground, walls,
                                 car-car collisions) and the line followers */
  double cpu_ns_per_vehicle_step; /* ns of process CPU time (all threads) per vehicle per step,
                                     the same loop: what other jobs on a shared machine do not
                                     inflate */
  double realtime_factor;     /* simulated s per wall s */
  double bytes_per_vehicle;   /* B, the world's memory (grip_world_memory) / vehicles; ~3,300 for
                                 100 cars of one type */
  double shared_bytes;        /* B, the part held once per car type (definition, tyre tables) */
  double mean_speed;          /* m/s, over all cars at the end */
  long long contact_steps;    /* vehicle-steps with a car or wall contact */
  uint64_t state_hash;        /* grip_world_state_hash at the end: equal for any thread count */
} track_bench_result;

#define MAX_SEPARATE_WORLDS 64

/* N cars spread evenly round the track in lanes 3.5 m apart, each following its lane with a
 * pure-pursuit steering controller and a speed plan: v = sqrt(6 m/s² / κ) in the corners (at
 * most 40 m/s), braking at 4 m/s² before them. The track's ground and walls are the world's.
 * One world stepped on a task pool of `threads`; or, `separate`, the cars split into `threads`
 * worlds (world k the k-th share of them, the first ones one car more when they do not divide
 * evenly), each stepped with its followers by its own thread, nothing shared per step but the
 * track: what `threads` threads can give on this machine at most, for the one world's thread
 * scaling to be read against (its cars in different worlds pass through each other). state_hash
 * is the first world's. Returns 0, or -1 with a message (too many cars for the track: fewer than
 * 8 m between them; separate worlds with fewer cars than threads or more than 64 threads;
 * memory; threads). */
int sim_bench_track(const grip_track *track, const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                    int threads, bool separate, track_bench_result *out, char *msg, size_t msg_size);

#endif
