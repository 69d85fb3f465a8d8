/* Replay files (docs/replay.md): the initial conditions of a drive (the scene it was built from,
 * the fixed step, the number of cars) and every car's inputs per step, written as they change,
 * plus the places where a car was put by hand, its car systems switched on or off (version 2),
 * the fuel a pit stop put in its tank (version 3), and the final world state hash. A text file,
 * versioned by its first line ("grip-replay 3"; versions 1 and 2, without fuel lines, and
 * version 1, without system switches, are read too). Numbers are written with 17 significant digits
 * so that every double reads back bit-identical.
 *
 * The reader checks everything and reports the first problem as "file:line: what is wrong";
 * it never reads past the end of its input. */
#ifndef GRIP_REPLAY_H
#define GRIP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grip/vehicle.h"
#include "load_error.h"

#define GRIP_REPLAY_VERSION 3     /* written */
#define GRIP_REPLAY_MIN_VERSION 1 /* oldest read */
#define GRIP_REPLAY_MAX_CARS 64
#define GRIP_REPLAY_MAX_SCENE_BYTES (1 << 20)

typedef enum grip_replay_event_kind {
  GRIP_REPLAY_INPUT = 0, /* the car's input from this step on */
  GRIP_REPLAY_PLACE = 1, /* the car placed by hand (grip_vehicle_place) before this step */
  /* The car's system switches from this step on (input.abs_switch, tc_switch, esc_switch; the
   * other input fields are left as the last GRIP_REPLAY_INPUT set them). Version 2. */
  GRIP_REPLAY_SYSTEMS = 2,
  /* The car's fuel set (grip_vehicle_set_fuel) before this step: a robot's pit stop refuelled
   * it. Version 3. */
  GRIP_REPLAY_FUEL = 3,
} grip_replay_event_kind;

typedef struct grip_replay_event {
  grip_replay_event_kind kind;
  long long step;             /* 0-based index of the step it applies before */
  int car;                    /* 0-based index in the scene's car order */
  grip_vehicle_input input;   /* GRIP_REPLAY_INPUT; GRIP_REPLAY_SYSTEMS: its three switches */
  double x, y, heading;       /* GRIP_REPLAY_PLACE: m, m, rad */
  double fuel;                /* GRIP_REPLAY_FUEL: kg in the tank from this step on; e.g. 30.5 */
} grip_replay_event;

typedef struct grip_replay {
  int version;        /* format version of the file read, 1..GRIP_REPLAY_VERSION */
  double dt;          /* s, fixed step; 0.01 */
  int cars;           /* 1..64 */
  int human;          /* 0-based car the person drove, -1 for none (a watched race) */
  int laps;           /* laps of the race timing, 1..1000 */
  char *scene_dir;    /* directory relative paths in the scene resolve against ("." ) */
  char *scene_text;   /* the scene file's text (docs/scene.md) */
  long long steps;    /* steps simulated */
  uint64_t hash;      /* grip_world_state_hash after the last step */
  int event_count;
  int event_capacity;
  grip_replay_event *events; /* in step order */
} grip_replay;

/* Parses replay text (NUL-terminated, size bytes). name is used in messages. Returns 0 with *out
 * filled (free with grip_replay_free), or -1 with err "name:line: what is wrong" and *out
 * zeroed. */
int grip_replay_parse(const char *text, size_t size, const char *name, grip_replay *out,
                      grip_load_error *err);
int grip_replay_load(const char *path, grip_replay *out, grip_load_error *err);
void grip_replay_free(grip_replay *r);

/* Writer: header first, then events in step order, then the end line. */
void grip_replay_write_header(FILE *f, double dt, int cars, int human, int laps, const char *scene_dir,
                              const char *scene_text);
void grip_replay_write_input(FILE *f, long long step, int car, const grip_vehicle_input *in);
void grip_replay_write_place(FILE *f, long long step, int car, double x, double y, double heading);
/* The car's system switches (in's abs_switch, tc_switch, esc_switch) from this step on. */
void grip_replay_write_systems(FILE *f, long long step, int car, const grip_vehicle_input *in);
/* The car's fuel (kg) set before this step (a pit stop's refuelling). */
void grip_replay_write_fuel(FILE *f, long long step, int car, double fuel);
void grip_replay_write_end(FILE *f, long long steps, uint64_t hash);

#endif
