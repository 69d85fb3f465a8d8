/* A drive session: the world the viewer shows, without any graphics. It is built from a scene
 * (sim/scene_world.h; `--track/--car/--opponents` become a generated scene), steps at a fixed dt,
 * lets a person (or the robot, as autopilot) drive one car while robots drive the others, keeps
 * race timing, records replays and re-simulates them (io/replay.h). Windowed, headless and replay
 * runs all go through session_step, so rendering cannot change the physics. */
#ifndef GRIP_VIEWER_SESSION_H
#define GRIP_VIEWER_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "replay.h"
#include "scene_world.h"

typedef struct session_options {
  const char *scene_file; /* a scene file, or NULL to build one from the fields below */
  const char *track;      /* track spec (default, torcs:NAME, FILE); "default" */
  const char *car;        /* car spec for every car; "builtin" */
  int opponents;          /* robot cars besides the person's; 0 */
  int laps;               /* race timing laps; 3 */
  double dt;              /* s; 0.01 */
  bool autopilot;         /* the robot drives the person's car too */
  bool watch;             /* nobody drives: every track car gets a robot (grip watch) */
  const char *record;     /* replay file to write, or NULL */
  FILE *telemetry;        /* CSV rows, 10 per s per car, or NULL */
  /* Scheduled presses of the person's system keys (tests, like --click): "esc@1.5,abs@3"
   * toggles ESC at 1.5 s and ABS at 3 s of simulated time; NULL for none. */
  const char *toggles;
} session_options;

/* Car systems the person switches (grip_vehicle_input's abs_switch, tc_switch, esc_switch). */
typedef enum session_system { SESSION_ABS = 0, SESSION_TC, SESSION_ESC, SESSION_SYSTEM_COUNT } session_system;
extern const char *const session_system_names[SESSION_SYSTEM_COUNT]; /* "abs", "tc", "esc" */
#define SESSION_MAX_TOGGLES 64

session_options session_default_options(void);

#define SESSION_SECTORS 3
#define SESSION_DELTA_STEP 10.0 /* m */

typedef struct session_car {
  scene_world_car *wc;         /* the scene world's car */
  const grip_vehicle_def *def; /* as created (defaults derived) */
  grip_vehicle_state prev, cur; /* states after the last two steps (interpolation) */
  int wheel_count;              /* every wheel of the car (grip_vehicle_get_wheels), the last two steps */
  grip_wheel_state prev_wheels[GRIP_MAX_WHEELS], cur_wheels[GRIP_MAX_WHEELS];
  grip_vehicle_input input;    /* input of the last step */
  robot *bot;                  /* the robot driving it, or NULL */
  bool own_bot;                /* bot created by the session (freed by it) */
  /* Race timing (track scenes). */
  double progress;   /* m from the start line, unwrapped; negative on the grid */
  double last_s;     /* m, wrapped distance at the previous step */
  int track_hint;
  double lateral;    /* m, + left */
  double half_width; /* m, half road width at the car */
  int laps_done;
  double lap_start, last_lap, best_lap; /* s; NAN when none */
  /* Sectors: the lap in SESSION_SECTORS equal lengths. Splits are times from the lap's start
   * to each sector's end (the last one is the lap time); NAN when not reached. */
  double split[SESSION_SECTORS];      /* s, this lap so far */
  double last_split[SESSION_SECTORS]; /* s, the last complete lap */
  double best_split[SESSION_SECTORS]; /* s, the best lap */
  int last_sector;                    /* sector (0-based) whose end was passed last, -1 none */
  double last_sector_time;            /* s, session time when it was passed */
  /* Delta to the best lap: the time from the lap's start at every SESSION_DELTA_STEP m of this
   * lap and of the best one (profile_count entries each; NAN where not reached). */
  double *profile, *best_profile;
  int profile_count;
  bool finished;
  int position;      /* 1-based race position by progress; 0 for a trailer */
  /* Short-message state. */
  int impacts_seen;
  double contact_time;   /* s (session time) of the latest impact, -1 none */
  bool off_track;
  bool out_of_fuel;
  bool retired;          /* left the world */
  /* A robot's pit stops and fuel strategy on a track with a pit lane (sim/pit.h), as in grip
   * race: pit.lane is NULL without them (no lane, no robot, or a replay). */
  pit_car pit;
  bool held;             /* standing in its box, being served */
  long long system_active_steps[SESSION_SYSTEM_COUNT]; /* steps in which ABS, TC, ESC acted */
} session_car;

typedef struct session {
  grip_scene scene;
  scene_world *sw;
  char *scene_text; /* the scene's text (recorded) */
  char scene_dir[GRIP_SCENE_PATH_MAX];
  double dt;
  int laps;
  long long step;   /* steps done */
  double time;      /* s simulated */
  int car_count;
  int racing_cars;   /* cars with a race position: all but the towed ones */
  session_car *cars;
  int human;        /* car index driven by the person, -1 for none */
  grip_vehicle_input human_input;
  /* The person's system switches, applied to the person's car whoever drives it (the robot in
   * autopilot too): GRIP_SYSTEM_AS_DEFINED until a system's key is pressed. */
  grip_system_switch human_switch[SESSION_SYSTEM_COUNT];
  int toggle_count, toggle_next; /* scheduled presses (session_options.toggles) */
  double toggle_time[SESSION_MAX_TOGGLES];
  session_system toggle_system[SESSION_MAX_TOGGLES];
  bool autopilot;
  FILE *record;
  grip_vehicle_input *recorded; /* last input written per car */
  bool *recorded_valid;
  FILE *telemetry;
  /* Replay playback: events consumed so far. */
  const grip_replay *replay;
  int replay_next;
} session;

/* Builds the session. Returns NULL after printing "grip CMD: what is wrong" to stderr. */
session *session_open(const session_options *opt, const char *command);
/* Builds the session a replay describes (no robots: every input comes from the file). */
session *session_open_replay(const grip_replay *replay, const char *command);
/* Finishes the recording (end line with the state hash) and frees everything. */
void session_close(session *s);

/* One physics step: robots and the person's input (or the replay's events), then the world. */
void session_step(session *s);

/* The person presses system k's key: it goes off if it is on for the person's car now (by the
 * car's definition or an earlier press), else on. false when nobody drives or in a replay. */
bool session_toggle_system(session *s, session_system system);
/* Whether system k is on for car k now (its definition and its input's switch). */
bool session_system_on(const session *s, int k, session_system system);

/* Places car k at (x, y) facing heading (rad) at rest; recorded. false when there is no ground. */
bool session_place(session *s, int k, double x, double y, double heading);
/* Puts car k back on the track at the nearest centre-line point, facing the direction of travel
 * (on a terrain or plane: where it is, upright, same heading). */
bool session_reset(session *s, int k);

/* Frame time of the fixed-frame mode (--frames): 1/60 s of simulated time per frame. */
#define SESSION_FIXED_FRAME_S (1.0 / 60.0)

/* Most simulated time one frame may catch up: beyond it, time is dropped, never owed (no spiral
 * of death when frames are slow). */
#define SESSION_MAX_CATCH_UP_S 0.25

/* The fixed-step clock: adds frame_s seconds (already scaled for slow motion, 0 when paused) to
 * *accumulator and takes whole steps, at most SESSION_MAX_CATCH_UP_S worth. Returns the steps
 * taken; *accumulator / dt (in [0, 1)) is the interpolation factor for rendering. */
int session_advance(session *s, double *accumulator, double frame_s);

uint64_t session_hash(const session *s);
/* Car k's time against its best lap at the same distance (s; negative = ahead of it), NAN
 * before a best lap exists or off the track's lap. */
double session_delta_to_best(const session *s, int k);

/* Interpolated pose of car k between the last two steps: alpha 0 = prev, 1 = cur. */
grip_pose session_pose(const session *s, int k, double alpha);

#endif
