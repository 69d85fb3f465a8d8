/* Robots' pit stops in a drive session (grip drive and grip watch, viewer/session.c): a robot
 * short of fuel on a track with a pit lane stops as it does in grip race (sim/pit.c), checked
 * against TORCS's stop-time rule (2 s + refuel / 8 kg/s), the lane's speed limit, the fuel at
 * the finish and the same session on a full tank; and the recording replays to its hash, the
 * stop's refuelling recorded as an `f` line (docs/replay.md, version 3), without which the
 * replay ends elsewhere. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"
#include "session.h"
#include "support_tracks.h"
#include "test.h"


static char track_path[64], replay_path[80];

/* A watched session (a robot drives car 1) of 3 laps with `fuel` kg on board (a full tank when
 * < 0), run to its finish (at most 600 s); recorded to replay_path when record. NULL on failure. */
static session *run(double fuel, bool record) {
  session_options o = session_default_options();
  o.track = track_path;
  o.watch = true;
  o.laps = 3;
  o.record = record ? replay_path : NULL;
  session *s = session_open(&o, "test");
  if (!s) return NULL;
  session_car *c = &s->cars[0];
  double kg = fuel < 0.0 ? c->def->fuel.capacity : fuel;
  CHECK(grip_vehicle_set_fuel(s->sw->world, c->wc->id, kg) == GRIP_OK);
  if (s->record) grip_replay_write_fuel(s->record, 0, 0, kg); /* the start's fuel, set by hand */
  grip_vehicle_get_state(s->sw->world, c->wc->id, &c->cur);
  c->pit.start_fuel = kg;
  while (!c->finished && s->time < 600.0) session_step(s);
  return s;
}

static void robot_stops_in_a_drive(void) {
  /* reference: a full tank, no stop */
  session *full = run(-1.0, false);
  CHECK(full != NULL);
  if (!full) return;
  const session_car *f = &full->cars[0];
  CHECK(f->bot != NULL && f->pit.lane != NULL); /* the robot has its pit stops on this track */
  CHECK(f->finished && f->pit.stops == 0);
  double per_lap = (f->pit.start_fuel - f->cur.fuel_mass) / 3.0;
  double full_time = f->lap_start; /* the third lap's end */
  printf("  full tank: %.4f kg a lap, 3 laps in %.2f s\n", per_lap, full_time);
  CHECK(per_lap > 0.0);
  /* fuel for 2.5 laps: one stop */
  session *s = run(2.5 * per_lap, true);
  CHECK(s != NULL);
  if (!s) {
    session_close(full);
    return;
  }
  const session_car *c = &s->cars[0];
  const pit_car *pc = &c->pit;
  printf("  2.5 laps' fuel: %d stop(s), %.3f kg refuelled, %.3f s served, %.2f s in the pit lane, 3 laps in %.2f s, "
         "%.3f kg left, limit excess %.2f m/s\n",
         pc->stops, pc->refuelled, pc->service_time, pc->lane_time, c->lap_start, c->cur.fuel_mass, pc->limit_excess);
  CHECK(c->finished && c->laps_done == 3);
  CHECK(pc->stops == 1 && pc->refuelled > 0.0);
  CHECK_NEAR(pc->service_time, 2.0 + pc->refuelled / 8.0, 1.01 * s->dt);
  /* never dry, and not carrying much more than the strategy's reserve (0.15 lap) and margin */
  CHECK(c->cur.fuel_mass > 0.0 && c->cur.fuel_mass < 0.5 * per_lap);
  CHECK(pc->limit_excess <= 0.0);
  /* the lane is 300 m at most at 20 m/s, plus the service; the stop costs its service and at
   * most 40 s more */
  CHECK(pc->lane_time >= 300.0 / 20.0 + pc->service_time);
  double lost = c->lap_start - full_time;
  CHECK(lost > pc->service_time && lost < pc->service_time + 40.0);
  char hash[17];
  snprintf(hash, sizeof hash, "%016llx", (unsigned long long)session_hash(s));
  long long steps = s->step;
  double pc_refuelled = pc->refuelled;
  session_close(s); /* writes the end line */
  session_close(full);

  /* the recording: one fuel line, and it replays to the drive's hash */
  grip_replay r;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_replay_load(replay_path, &r, &err) == 0);
  if (err.message[0]) fprintf(stderr, "%s\n", err.message);
  int fuel_lines = 0;
  for (int i = 0; i < r.event_count; ++i) fuel_lines += r.events[i].kind == GRIP_REPLAY_FUEL;
  CHECK(r.version == 3 && fuel_lines == 2 && r.steps == steps); /* the start's and the stop's */
  session *p = session_open_replay(&r, "test");
  CHECK(p != NULL);
  if (p) {
    while (p->step < r.steps) session_step(p);
    char got[17];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)session_hash(p));
    CHECK(strcmp(got, hash) == 0);
    session_close(p);
  }
  /* with less fuel put in at the stop (its line changed) the replay does not reach the hash */
  for (int i = 0; i < r.event_count; ++i)
    if (r.events[i].kind == GRIP_REPLAY_FUEL && r.events[i].step > 0) r.events[i].fuel -= 0.5 * pc_refuelled;
  p = session_open_replay(&r, "test");
  if (p) {
    while (p->step < r.steps) session_step(p);
    CHECK(session_hash(p) != strtoull(hash, NULL, 16));
    session_close(p);
  }
  grip_replay_free(&r);
}

int main(void) {
  snprintf(track_path, sizeof track_path, "/tmp/grip-session-pit-XXXXXX");
  int fd = mkstemp(track_path);
  if (fd < 0) TEST_SKIP("no temporary file");
  close(fd);
  unlink(track_path);
  snprintf(replay_path, sizeof replay_path, "%s.replay", track_path);
  strcat(track_path, ".track");
  FILE *f = fopen(track_path, "w");
  if (!f) TEST_SKIP("cannot write the track file");
  fputs(support_pit_oval_text, f);
  fclose(f);
  RUN_TEST(robot_stops_in_a_drive);
  unlink(track_path);
  unlink(replay_path);
  return TEST_RESULT();
}
