/* The person's devices in a drive: see input_drive.h. */
#include "input_drive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input_sdl.h"
#include "sound_sdl.h"

struct drive_io {
  input_devices *devices;
  input_controller controller;
  sound_output *sound;
  int sound_car;               /* car whose engine is heard, -1 none */
  grip_vehicle_state previous; /* of the followed car at the last feedback */
  grip_wheel_state previous_wheels[GRIP_MAX_WHEELS]; /* its every wheel then */
  int previous_car;                                  /* whose they are */
  bool have_previous;
};

drive_io *drive_io_open(const session *s, const char *input_file, bool mute, int follow, const char *command) {
  grip_input_config cfg;
  grip_load_error err;
  if (input_file) {
    if (grip_input_config_load(input_file, &cfg, &err) != 0) {
      fprintf(stderr, "grip %s: %s\n", command, err.message);
      return NULL;
    }
  } else {
    grip_input_config_default(&cfg);
  }
  drive_io *io = calloc(1, sizeof *io);
  if (!io) return NULL;
  io->devices = input_devices_open(&cfg, &err);
  if (!io->devices) {
    fprintf(stderr, "grip %s: %s\n", command, err.message);
    free(io);
    return NULL;
  }
  input_controller_init(&io->controller, input_devices_config(io->devices), true);
  io->sound_car = s->human >= 0 ? s->human : follow;
  if (!mute && io->sound_car >= 0 && io->sound_car < s->car_count) {
    const grip_car_sound *cs = &s->cars[io->sound_car].wc->car.sound;
    sound_def def = {.cylinders = (int)cs->cylinders, .strokes = (int)cs->strokes, .character = cs->character,
                     .volume = cs->volume};
    char why[256];
    io->sound = sound_output_open(&def, why, sizeof why);
    if (!io->sound) fprintf(stderr, "grip %s: no sound (%s)\n", command, why);
  }
  return io;
}

void drive_io_close(drive_io *io) {
  if (!io) return;
  sound_output_close(io->sound);
  input_devices_close(io->devices);
  free(io);
}

void drive_io_event(drive_io *io, const SDL_Event *e) {
  if (io) input_devices_event(io->devices, e);
}

input_actions drive_io_update(drive_io *io, session *s, double frame_dt) {
  input_actions act;
  memset(&act, 0, sizeof act);
  if (!io) return act;
  int k = s->human >= 0 ? s->human : 0;
  const grip_vehicle_def *def = s->cars[k].def;
  input_car_info car = {.speed = s->cars[k].cur.speed, .lock_rad = def->steering.max_wheel_angle,
                        .forward_gears = def->gearbox.forward_gears, .gear = s->cars[k].cur.gear};
  grip_vehicle_input in = input_controller_update(&io->controller, input_devices_read, io->devices, &car, frame_dt, &act);
  if (s->human >= 0) s->human_input = in;
  return act;
}

void drive_io_feedback(drive_io *io, const session *s, int follow, double frame_dt) {
  if (!io || frame_dt <= 0.0) return;
  int k = s->human >= 0 ? s->human : follow;
  if (k < 0 || k >= s->car_count) return;
  const session_car *c = &s->cars[k];
  /* The input the car was last given (the person's, its robot's or the scene's). */
  grip_vehicle_input input = s->recorded && s->recorded_valid && s->recorded_valid[k] ? s->recorded[k]
                             : s->human >= 0                                           ? s->human_input
                                                                                       : c->wc->input;
  /* every wheel (a truck's six); a change of car has no previous wheels to compare */
  bool same = io->have_previous && k == io->previous_car;
  sound_params p = sound_params_from_wheels(c->def, &input, &c->cur, c->cur_wheels, c->wheel_count,
                                            same ? io->previous_wheels : NULL, frame_dt);
  if (io->sound && k == io->sound_car) sound_output_set(io->sound, &p);
  /* The wheel's force only for the person's own car; the pad rumbles from slip and bumps. */
  input_devices_feedback(io->devices, s->human >= 0 ? c->cur.steering_torque : 0.0, p.slip, p.impact);
  io->previous = c->cur;
  memcpy(io->previous_wheels, c->cur_wheels, sizeof io->previous_wheels);
  io->previous_car = k;
  io->have_previous = true;
}

bool drive_io_automatic(const drive_io *io) { return io && io->controller.automatic; }
