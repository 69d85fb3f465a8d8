/* A drive session: see session.h. */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_file.h"

session_options session_default_options(void) {
  return (session_options){.scene_file = NULL, .track = "default", .car = "builtin", .opponents = 0, .laps = 3,
                           .dt = 0.01, .autopilot = false, .watch = false, .record = NULL, .telemetry = NULL,
                           .toggles = NULL};
}

const char *const session_system_names[SESSION_SYSTEM_COUNT] = {"abs", "tc", "esc"};

/* "esc@1.5,abs@3" into the session's schedule; false (with a message) when malformed. */

/* The car's state and every wheel after a step (the last one kept for interpolation), or after
 * a placement (both the same: reset). */
static void read_car(grip_world *world, session_car *c, bool reset) {
  if (!reset) {
    c->prev = c->cur;
    memcpy(c->prev_wheels, c->cur_wheels, sizeof c->prev_wheels);
  }
  grip_vehicle_get_state(world, c->wc->id, &c->cur);
  int n = grip_vehicle_get_wheels(world, c->wc->id, c->cur_wheels, GRIP_MAX_WHEELS);
  c->wheel_count = n < GRIP_MAX_WHEELS ? n : GRIP_MAX_WHEELS;
  if (reset) {
    c->prev = c->cur;
    memcpy(c->prev_wheels, c->cur_wheels, sizeof c->prev_wheels);
  }
}
static bool parse_toggles(session *s, const char *text, const char *command) {
  const char *p = text;
  while (*p) {
    int system = -1;
    for (int j = 0; j < SESSION_SYSTEM_COUNT; ++j) {
      size_t n = strlen(session_system_names[j]);
      if (strncmp(p, session_system_names[j], n) == 0 && p[n] == '@') system = j, p += n + 1;
    }
    char *end;
    double t = system >= 0 ? strtod(p, &end) : NAN;
    if (system < 0 || end == p || !(t >= 0.0 && t <= 1e6) || (*end && *end != ',') ||
        s->toggle_count == SESSION_MAX_TOGGLES ||
        (s->toggle_count > 0 && t < s->toggle_time[s->toggle_count - 1])) {
      fprintf(stderr, "grip %s: --toggle: expected SYSTEM@SECONDS,... (abs, tc or esc; times 0 .. 1e6 s, in order, "
                      "at most %d): '%s'\n", command, SESSION_MAX_TOGGLES, text);
      return false;
    }
    s->toggle_time[s->toggle_count] = t;
    s->toggle_system[s->toggle_count++] = (session_system)system;
    p = *end ? end + 1 : end;
  }
  return true;
}

static grip_system_switch *input_switch(grip_vehicle_input *in, session_system system) {
  return system == SESSION_ABS ? &in->abs_switch : system == SESSION_TC ? &in->tc_switch : &in->esc_switch;
}

bool session_system_on(const session *s, int k, session_system system) {
  if (k < 0 || k >= s->car_count) return false;
  const grip_systems_def *d = &s->cars[k].def->systems;
  bool defined = system == SESSION_ABS ? d->abs.enabled : system == SESSION_TC ? d->tc.enabled : d->esc.enabled;
  grip_vehicle_input in = s->cars[k].input;
  grip_system_switch sw = *input_switch(&in, system);
  return sw == GRIP_SYSTEM_ON || (sw == GRIP_SYSTEM_AS_DEFINED && defined);
}

bool session_toggle_system(session *s, session_system system) {
  if (s->human < 0 || s->replay || system < 0 || system >= SESSION_SYSTEM_COUNT) return false;
  const grip_systems_def *d = &s->cars[s->human].def->systems;
  bool defined = system == SESSION_ABS ? d->abs.enabled : system == SESSION_TC ? d->tc.enabled : d->esc.enabled;
  grip_system_switch sw = s->human_switch[system];
  bool on = sw == GRIP_SYSTEM_ON || (sw == GRIP_SYSTEM_AS_DEFINED && defined);
  s->human_switch[system] = on ? GRIP_SYSTEM_OFF : GRIP_SYSTEM_ON;
  return true;
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* The scene `--track T --car C --opponents N` stands for: the person's car first, then the robots,
 * on the track's grid. */
static char *generated_scene(const session_options *o) {
  size_t cap = 512 + (size_t)(o->opponents + 1) * (64 + strlen(o->car)) + strlen(o->track);
  char *t = malloc(cap);
  if (!t) return NULL;
  size_t n = (size_t)snprintf(t, cap, "[scene]\nname = drive\ntrack = %s\n\n[camera]\nmode = chase\nfollow = car-1\n",
                              o->track);
  for (int k = 0; k <= o->opponents && n < cap; ++k)
    n += (size_t)snprintf(t + n, cap - n, "\n[car car-%d]\nfile = %s\n%s", k + 1, o->car,
                          (k > 0 || o->watch) ? "driver = robot\n" : "");
  return t;
}

static double yaw_of(grip_quat q) {
  return atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
}

static void locate_car(session *s, session_car *c) {
  const grip_track *track = s->sw->track;
  if (!track) return;
  grip_track_location loc = grip_track_locate(track, c->cur.pose.position.x, c->cur.pose.position.y, c->track_hint);
  c->track_hint = loc.segment;
  double L = grip_track_length(track);
  double d = loc.distance - c->last_s;
  if (d > 0.5 * L) d -= L;
  if (d < -0.5 * L) d += L;
  double before = c->progress;
  c->progress += d;
  c->last_s = loc.distance;
  c->lateral = loc.lateral;
  c->half_width = 0.5 * grip_track_point_at(track, loc.distance).width;
  c->off_track = loc.zone >= GRIP_TRACK_ZONE_RUNOFF;
  if (c->finished || !(c->progress > before)) return;
  /* Delta profile: the time at each SESSION_DELTA_STEP m mark of the lap passed in this step,
   * interpolated in the step as the lap's crossing is. */
  double lap_base = c->laps_done * L;
  for (int i = (int)fmax(0.0, floor((before - lap_base) / SESSION_DELTA_STEP) + 1.0); i < c->profile_count; ++i) {
    double mark = lap_base + i * SESSION_DELTA_STEP;
    if (mark > c->progress || mark >= lap_base + L) break;
    c->profile[i] = s->time - s->dt + s->dt * (mark - before) / (c->progress - before) - c->lap_start;
  }
  /* Sector j of lap k ends when the progress passes (k + (j+1)/n)·L; the last one ends the lap. */
  while (!c->finished) {
    int j = c->last_sector + 1;
    double mark = (c->laps_done + (double)(j + 1) / SESSION_SECTORS) * L;
    if (j == SESSION_SECTORS - 1) mark = (c->laps_done + 1) * L;
    if (c->progress < mark) break;
    double tc = s->time - s->dt + s->dt * (mark - before) / (c->progress - before);
    c->split[j] = tc - c->lap_start;
    c->last_sector = j;
    c->last_sector_time = tc;
    if (j < SESSION_SECTORS - 1) continue;
    /* The lap ends. */
    c->last_lap = tc - c->lap_start;
    memcpy(c->last_split, c->split, sizeof c->split);
    if (isnan(c->best_lap) || c->last_lap < c->best_lap) {
      c->best_lap = c->last_lap;
      memcpy(c->best_split, c->split, sizeof c->split);
      if (c->profile) memcpy(c->best_profile, c->profile, (size_t)c->profile_count * sizeof *c->profile);
    }
    for (int m = 0; m < SESSION_SECTORS; ++m) c->split[m] = NAN;
    for (int m = 0; m < c->profile_count; ++m) c->profile[m] = NAN;
    if (c->profile_count > 0) c->profile[0] = 0.0; /* the lap starts at its line */
    c->last_sector = -1;
    c->lap_start = tc;
    c->laps_done++;
    if (c->pit.lane) pit_car_lap(&c->pit, c->cur.fuel_mass);
    if (c->laps_done >= s->laps) c->finished = true;
  }
}

double session_delta_to_best(const session *s, int k) {
  const session_car *c = &s->cars[k];
  if (!s->sw->track || !c->best_profile || isnan(c->best_lap) || c->finished) return NAN;
  double x = c->progress - c->laps_done * grip_track_length(s->sw->track);
  if (!(x >= 0.0)) return NAN;
  int i = (int)floor(x / SESSION_DELTA_STEP);
  if (i + 1 >= c->profile_count) return NAN;
  double a = c->best_profile[i], b = c->best_profile[i + 1];
  if (isnan(a) || isnan(b)) return NAN;
  double f = (x - i * SESSION_DELTA_STEP) / SESSION_DELTA_STEP;
  return (s->time - c->lap_start) - (a + f * (b - a));
}

static void start_timing(session *s, session_car *c) {
  c->track_hint = -1;
  c->lap_start = 0.0;
  c->last_lap = c->best_lap = NAN;
  c->laps_done = 0;
  for (int j = 0; j < SESSION_SECTORS; ++j) c->split[j] = c->last_split[j] = c->best_split[j] = NAN;
  c->last_sector = -1;
  c->last_sector_time = -1.0;
  if (s->sw->track && !c->profile) {
    c->profile_count = (int)ceil(grip_track_length(s->sw->track) / SESSION_DELTA_STEP) + 1;
    c->profile = malloc((size_t)c->profile_count * sizeof *c->profile);
    c->best_profile = malloc((size_t)c->profile_count * sizeof *c->best_profile);
    if (!c->profile || !c->best_profile) {
      free(c->profile), free(c->best_profile);
      c->profile = c->best_profile = NULL;
      c->profile_count = 0;
    }
  }
  for (int m = 0; m < c->profile_count; ++m) c->profile[m] = c->best_profile[m] = NAN;
  c->finished = false;
  c->contact_time = -1.0;
  if (!s->sw->track) return;
  double L = grip_track_length(s->sw->track);
  grip_track_location loc =
      grip_track_locate(s->sw->track, c->cur.pose.position.x, c->cur.pose.position.y, -1);
  c->track_hint = loc.segment;
  c->last_s = loc.distance;
  c->progress = loc.distance > 0.5 * L ? loc.distance - L : loc.distance;
}

/* Race positions by progress, among the cars that race: a trailer has none (0). */
static void update_positions(session *s) {
  s->racing_cars = 0;
  for (int k = 0; k < s->car_count; ++k) {
    s->cars[k].position = 0;
    if (s->cars[k].wc->spec->tow_index >= 0) continue;
    s->racing_cars++;
    int ahead = 0;
    for (int j = 0; j < s->car_count; ++j)
      if (j != k && s->cars[j].wc->spec->tow_index < 0 && s->cars[j].progress > s->cars[k].progress) ++ahead;
    s->cars[k].position = ahead + 1;
  }
}

/* Car k's pit stops, when a robot drives it on a track with a pit lane: the same strategy, box
 * (k), routes and stops as grip race (docs/driver.md, "Pit stops and fuel"). */
static void setup_pit(session *s, int k) {
  session_car *c = &s->cars[k];
  pit_car_free(&c->pit);
  memset(&c->pit, 0, sizeof c->pit);
  c->held = false;
  if (!c->bot || !s->sw->has_pit_lane) return;
  if (pit_car_init_robot(&c->pit, &s->sw->pit, k, c->def, c->bot, s->laps) != 0) {
    pit_car_free(&c->pit);
    memset(&c->pit, 0, sizeof c->pit);
    return;
  }
  c->pit.start_fuel = c->cur.fuel_mass;
}

static session *session_new(char *scene_text, const char *scene_dir, const char *scene_name, double dt, int laps,
                            int flags, const char *command) {
  session *s = calloc(1, sizeof *s);
  if (!s) {
    free(scene_text);
    fprintf(stderr, "grip %s: out of memory\n", command);
    return NULL;
  }
  s->scene_text = scene_text;
  snprintf(s->scene_dir, sizeof s->scene_dir, "%s", scene_dir);
  s->dt = dt;
  s->laps = laps;
  s->human = -1;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_scene_parse(scene_text, scene_name, scene_dir, &s->scene, &err) != 0 ||
      scene_world_create(&s->scene, flags, &s->sw, &err) != 0) {
    fprintf(stderr, "grip %s: %s\n", command, err.message);
    session_close(s);
    return NULL;
  }
  s->car_count = s->sw->car_count;
  s->cars = calloc((size_t)s->car_count, sizeof *s->cars);
  s->recorded = calloc((size_t)s->car_count, sizeof *s->recorded);
  s->recorded_valid = calloc((size_t)s->car_count, sizeof *s->recorded_valid);
  if (!s->cars || !s->recorded || !s->recorded_valid) {
    fprintf(stderr, "grip %s: out of memory\n", command);
    session_close(s);
    return NULL;
  }
  for (int k = 0; k < s->car_count; ++k) {
    session_car *c = &s->cars[k];
    c->wc = &s->sw->cars[k];
    c->def = grip_vehicle_get_def(s->sw->world, c->wc->id);
    c->bot = c->wc->bot;
    read_car(s->sw->world, c, true);
    c->input = grip_vehicle_get_input(s->sw->world, c->wc->id);
    start_timing(s, c);
    setup_pit(s, k);
  }
  update_positions(s);
  return s;
}

session *session_open(const session_options *o, const char *command) {
  char *text = NULL;
  char dir[GRIP_SCENE_PATH_MAX] = ".";
  const char *name = "drive";
  if (o->scene_file) {
    grip_load_error err;
    grip_load_error_clear(&err);
    text = grip_read_file(o->scene_file, GRIP_REPLAY_MAX_SCENE_BYTES, NULL, &err);
    if (!text) {
      fprintf(stderr, "grip %s: %s\n", command, err.message);
      return NULL;
    }
    name = o->scene_file;
    const char *slash = strrchr(o->scene_file, '/');
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - o->scene_file), o->scene_file);
  } else {
    text = generated_scene(o);
    if (!text) {
      fprintf(stderr, "grip %s: out of memory\n", command);
      return NULL;
    }
  }
  /* Relative paths in the scene resolve against an absolute directory, so a replay can be played
   * from anywhere. */
  char abs_dir[GRIP_SCENE_PATH_MAX];
  if (dir[0] != '/') {
    char cwd[GRIP_SCENE_PATH_MAX / 2];
    if (!getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, ".");
    if (strcmp(dir, ".") == 0) snprintf(abs_dir, sizeof abs_dir, "%s", cwd);
    else snprintf(abs_dir, sizeof abs_dir, "%s/%.*s", cwd, (int)(sizeof abs_dir / 2 - 2), dir);
  } else {
    snprintf(abs_dir, sizeof abs_dir, "%s", dir);
  }
  session *s = session_new(text, abs_dir, name, o->dt, o->laps, 0, command);
  if (!s) return NULL;
  s->autopilot = o->autopilot;
  s->telemetry = o->telemetry;
  if (!o->watch) {
    int follow = s->scene.camera.follow[0] ? grip_scene_find_car(&s->scene, s->scene.camera.follow) : 0;
    s->human = follow >= 0 ? follow : 0;
    session_car *h = &s->cars[s->human];
    if (!o->autopilot) {
      h->bot = NULL; /* the scene's robot (if any) stays owned by the scene world, unused */
    } else if (!h->bot && s->sw->track) {
      robot_params p = robot_default_params();
      h->bot = robot_create(s->sw->track, h->def, &p, s->sw->air_density);
      h->own_bot = h->bot != NULL;
    }
    setup_pit(s, s->human); /* the person's car stops only with the autopilot on */
    s->human_input = grip_default_vehicle_input();
    s->human_input.automatic = true;
  }
  if (o->toggles && !parse_toggles(s, o->toggles, command)) {
    session_close(s);
    return NULL;
  }
  if (o->record) {
    s->record = fopen(o->record, "w");
    if (!s->record) {
      fprintf(stderr, "grip %s: %s: cannot write\n", command, o->record);
      session_close(s);
      return NULL;
    }
    grip_replay_write_header(s->record, s->dt, s->car_count, s->human, s->laps, s->scene_dir, s->scene_text);
  }
  if (s->telemetry)
    fputs("time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,throttle,brake,steering,gear,rpm,lat_g,long_g\n",
          s->telemetry);
  return s;
}

session *session_open_replay(const grip_replay *r, const char *command) {
  char *text = dup_string(r->scene_text);
  if (!text) return NULL;
  session *s = session_new(text, r->scene_dir, "replay scene", r->dt, r->laps, SCENE_WORLD_NO_ROBOTS, command);
  if (!s) return NULL;
  if (s->car_count != r->cars) {
    fprintf(stderr, "grip %s: the replay has %d cars but its scene builds %d\n", command, r->cars, s->car_count);
    session_close(s);
    return NULL;
  }
  s->human = r->human;
  s->replay = r;
  return s;
}

void session_close(session *s) {
  if (!s) return;
  if (s->record) {
    grip_replay_write_end(s->record, s->step, session_hash(s));
    fclose(s->record);
  }
  if (s->cars)
    for (int k = 0; k < s->car_count; ++k) {
      if (s->cars[k].own_bot) robot_destroy(s->cars[k].bot);
      pit_car_free(&s->cars[k].pit);
      free(s->cars[k].profile);
      free(s->cars[k].best_profile);
    }
  scene_world_destroy(s->sw);
  free(s->cars);
  free(s->recorded);
  free(s->recorded_valid);
  free(s->scene_text);
  free(s);
}

static bool same_input(const grip_vehicle_input *a, const grip_vehicle_input *b) {
  return a->throttle == b->throttle && a->brake == b->brake && a->steering == b->steering &&
         a->handbrake == b->handbrake && a->clutch == b->clutch && a->gear == b->gear && a->automatic == b->automatic;
}

static bool same_switches(const grip_vehicle_input *a, const grip_vehicle_input *b) {
  return a->abs_switch == b->abs_switch && a->tc_switch == b->tc_switch && a->esc_switch == b->esc_switch;
}

static void telemetry_rows(session *s) {
  long long every = llround(0.1 / s->dt);
  if (every < 1) every = 1;
  if (s->step % every != 0) return;
  for (int k = 0; k < s->car_count; ++k) {
    const session_car *c = &s->cars[k];
    const grip_vehicle_state *st = &c->cur;
    fprintf(s->telemetry, "%.3f,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%d,%.1f,%.4f,%.4f\n", s->time,
            k + 1, c->laps_done + 1, c->last_s, c->lateral, st->pose.position.x, st->pose.position.y,
            st->pose.position.z, 3.6 * st->speed, c->input.throttle, c->input.brake, c->input.steering, st->gear,
            st->engine_rpm, st->local_acceleration.y / 9.81, st->local_acceleration.x / 9.81);
  }
}

/* After car k was placed (scene_world_place): its state and the trailers' it pulls, with no
 * interpolation from where they were. */
static void refresh_placed(session *s, int k) {
  session_car *c = &s->cars[k];
  read_car(s->sw->world, c, true);
  for (int j = 0; j < s->car_count; ++j)
    if (s->cars[j].wc->spec->tow_index == k) refresh_placed(s, j);
}

void session_step(session *s) {
  grip_world *world = s->sw->world;
  if (s->replay && s->step >= s->replay->steps) return; /* the recording ends here */
  if (s->replay) {
    const grip_replay *r = s->replay;
    while (s->replay_next < r->event_count && r->events[s->replay_next].step <= s->step) {
      const grip_replay_event *e = &r->events[s->replay_next++];
      session_car *c = &s->cars[e->car];
      if (e->kind == GRIP_REPLAY_PLACE) {
        scene_world_place(s->sw, e->car, e->x, e->y, e->heading);
        refresh_placed(s, e->car);
      } else if (e->kind == GRIP_REPLAY_FUEL) {
        grip_vehicle_set_fuel(world, c->wc->id, e->fuel);
        grip_vehicle_get_state(world, c->wc->id, &c->cur);
      } else {
        /* An input line leaves the switches as they are; a systems line changes only them. */
        grip_vehicle_input in = grip_vehicle_get_input(world, c->wc->id), sw = in;
        if (e->kind == GRIP_REPLAY_INPUT) in = e->input;
        else sw = e->input;
        in.abs_switch = sw.abs_switch, in.tc_switch = sw.tc_switch, in.esc_switch = sw.esc_switch;
        grip_vehicle_set_input(world, c->wc->id, &in);
      }
    }
  } else {
    while (s->toggle_next < s->toggle_count && s->toggle_time[s->toggle_next] <= s->time + 0.5 * s->dt)
      session_toggle_system(s, s->toggle_system[s->toggle_next++]);
    bool any_robot = false;
    for (int k = 0; k < s->car_count; ++k) any_robot = any_robot || s->cars[k].bot;
    if (any_robot) {
      /* What each robot sees of the others: where they were after the previous step. */
      for (int k = 0; k < s->car_count; ++k) {
        const session_car *c = &s->cars[k];
        s->sw->views[k] = (robot_car_view){.distance = c->last_s, .lateral = c->lateral, .speed = c->cur.speed,
                                           .length = c->def->body.dimensions.x, .width = c->def->body.dimensions.y};
      }
    }
    for (int k = 0; k < s->car_count; ++k) {
      session_car *c = &s->cars[k];
      grip_vehicle_input in;
      if (c->bot) {
        int n = 0;
        for (int j = 0; j < s->car_count; ++j)
          if (j != k) s->sw->others[n++] = s->sw->views[j];
        if (c->wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(c->bot, c->cur_wheels, c->wheel_count); /* a truck's six */
        in = robot_drive(c->bot, &c->cur, s->sw->others, n, s->dt);
        if (c->pit.lane) pit_car_input(&c->pit, &in, &c->cur, robot_get_status(c->bot).distance, c->held);
      } else if (k == s->human) {
        in = s->human_input;
        /* in the pit lane, the pit limiter (sim/pit.h, docs/driver.md) */
        if (s->sw->has_pit_lane) pit_lane_limiter(&s->sw->pit, &in, c->last_s, c->lateral, c->cur.speed);
      } else {
        in = c->wc->input;
      }
      if (k == s->human) {
        in.abs_switch = s->human_switch[SESSION_ABS];
        in.tc_switch = s->human_switch[SESSION_TC];
        in.esc_switch = s->human_switch[SESSION_ESC];
      }
      if (grip_vehicle_set_input(world, c->wc->id, &in) != GRIP_OK) continue;
    }
    scene_world_pass_trailer_brakes(s->sw);
  }
  for (int k = 0; k < s->car_count; ++k) {
    session_car *c = &s->cars[k];
    c->input = grip_vehicle_get_input(world, c->wc->id);
    if (!s->record) continue;
    /* recorded[] starts zeroed: every switch as defined, as a replay starts. */
    bool input_changed = !s->recorded_valid[k] || !same_input(&s->recorded[k], &c->input);
    bool switches_changed = !same_switches(&s->recorded[k], &c->input);
    if (input_changed) grip_replay_write_input(s->record, s->step, k, &c->input);
    if (switches_changed) grip_replay_write_systems(s->record, s->step, k, &c->input);
    if (input_changed || switches_changed) {
      s->recorded[k] = c->input;
      s->recorded_valid[k] = true;
    }
  }
  grip_world_step(world, s->dt);
  s->step++;
  s->time += s->dt;
  for (int k = 0; k < s->car_count; ++k) {
    session_car *c = &s->cars[k];
    read_car(world, c, false);
    double progress_before = c->progress;
    locate_car(s, c);
    if (c->bot && c->pit.lane && !s->replay) {
      /* The robot's pit stop, as grip race runs it; the fuel a stop puts in is recorded (the
       * replay runs no robots). */
      double fuel_before = c->cur.fuel_mass;
      bool lane_traffic = false;
      if (c->pit.phase == PIT_SERVICE)
        for (int j = 0; j < s->car_count && !lane_traffic; ++j)
          lane_traffic = j != k && !s->cars[j].retired &&
                         pit_car_blocks_release(&c->pit, s->cars[j].last_s, s->cars[j].lateral, s->cars[j].cur.speed);
      c->held = pit_car_update(&c->pit, c->bot, world, c->wc->id, &c->cur, progress_before, c->progress, c->last_s,
                               c->lateral, s->laps * grip_track_length(s->sw->track), lane_traffic, s->time, s->dt);
      grip_vehicle_get_state(world, c->wc->id, &c->cur);
      if (c->cur.fuel_mass != fuel_before && s->record) grip_replay_write_fuel(s->record, s->step, k, c->cur.fuel_mass);
    }
    grip_vehicle_contacts contacts;
    if (grip_vehicle_get_contacts(world, c->wc->id, &contacts) == GRIP_OK && contacts.impacts > c->impacts_seen) {
      c->impacts_seen = contacts.impacts;
      c->contact_time = s->time;
    }
    c->out_of_fuel = c->def->engine.fuel_per_joule > 0.0 && c->cur.fuel_mass <= 0.0;
    c->system_active_steps[SESSION_ABS] += c->cur.abs_active;
    c->system_active_steps[SESSION_TC] += c->cur.tc_active;
    c->system_active_steps[SESSION_ESC] += c->cur.esc_active;
    c->retired = c->cur.out_of_world;
  }
  update_positions(s);
  if (s->telemetry) telemetry_rows(s);
}

bool session_place(session *s, int k, double x, double y, double heading) {
  if (k < 0 || k >= s->car_count || s->replay) return false;
  session_car *c = &s->cars[k];
  if (!scene_world_place(s->sw, k, x, y, heading)) return false;
  if (s->record) grip_replay_write_place(s->record, s->step, k, x, y, heading);
  refresh_placed(s, k);
  if (s->sw->track) {
    grip_track_location loc = grip_track_locate(s->sw->track, x, y, -1);
    c->track_hint = loc.segment;
    c->lateral = loc.lateral;
    /* Progress continues from where it was (no lap is gained by being carried). */
    double L = grip_track_length(s->sw->track);
    double d = loc.distance - c->last_s;
    if (d > 0.5 * L) d -= L;
    if (d < -0.5 * L) d += L;
    c->progress += fmin(d, 0.0);
    c->last_s = loc.distance;
  }
  if (c->bot) {
    if (c->wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(c->bot, c->cur_wheels, c->wheel_count);
    robot_locate(c->bot, &c->cur);
  }
  return true;
}

bool session_reset(session *s, int k) {
  if (k < 0 || k >= s->car_count) return false;
  const session_car *c = &s->cars[k];
  double x = c->cur.pose.position.x, y = c->cur.pose.position.y;
  if (!s->sw->track) return session_place(s, k, x, y, yaw_of(c->cur.pose.rotation));
  const grip_track *track = s->sw->track;
  grip_track_location loc = grip_track_locate_full(track, x, y);
  grip_track_point p = grip_track_point_at(track, loc.distance);
  double limit = fmax(0.0, 0.5 * p.width - 0.5 * c->def->body.dimensions.y - 0.5);
  double lat = fmax(-limit, fmin(limit, loc.lateral));
  return session_place(s, k, p.position.x - sin(p.heading) * lat, p.position.y + cos(p.heading) * lat, p.heading);
}

int session_advance(session *s, double *accumulator, double frame_s) {
  int max_steps = (int)ceil(SESSION_MAX_CATCH_UP_S / s->dt);
  *accumulator += frame_s;
  int steps = 0;
  while (*accumulator >= s->dt && steps < max_steps) {
    session_step(s);
    *accumulator -= s->dt;
    ++steps;
  }
  if (*accumulator >= s->dt) *accumulator = fmod(*accumulator, s->dt);
  return steps;
}

uint64_t session_hash(const session *s) { return grip_world_state_hash(s->sw->world); }

grip_pose session_pose(const session *s, int k, double alpha) {
  const grip_pose *a = &s->cars[k].prev.pose, *b = &s->cars[k].cur.pose;
  grip_pose p;
  p.position.x = a->position.x + alpha * (b->position.x - a->position.x);
  p.position.y = a->position.y + alpha * (b->position.y - a->position.y);
  p.position.z = a->position.z + alpha * (b->position.z - a->position.z);
  /* Normalised linear blend of the quaternions along the shorter arc (steps are small). */
  grip_quat qa = a->rotation, qb = b->rotation;
  double dot = qa.w * qb.w + qa.x * qb.x + qa.y * qb.y + qa.z * qb.z;
  double sb = dot < 0.0 ? -alpha : alpha;
  grip_quat q = {(1.0 - alpha) * qa.w + sb * qb.w, (1.0 - alpha) * qa.x + sb * qb.x, (1.0 - alpha) * qa.y + sb * qb.y,
                 (1.0 - alpha) * qa.z + sb * qb.z};
  double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (n > 0.0) {
    q.w /= n;
    q.x /= n;
    q.y /= n;
    q.z /= n;
  } else {
    q = qb;
  }
  p.rotation = q;
  return p;
}
