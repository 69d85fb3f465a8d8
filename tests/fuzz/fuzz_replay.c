/* Fuzz harness: replay files (io/replay.h, docs/replay.md), parsed from memory. A refused input
 * must come with a "name:line: ..." message; an accepted one must hold only values in their
 * documented ranges, events in step order, system switches only in version 2 and 3 files, fuel
 * lines only in version 3 files, and write back (grip_replay_write_*, as version 3) to text that
 * parses to the same replay, bit for bit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "replay.h"

#define REQUIRE FUZZ_REQUIRE

static bool unit(double v, double lo) { return isfinite(v) && v >= lo && v <= 1.0; }

static bool same_event(const grip_replay_event *a, const grip_replay_event *b) {
  if (a->kind != b->kind || a->step != b->step || a->car != b->car) return false;
  if (a->kind == GRIP_REPLAY_PLACE) return a->x == b->x && a->y == b->y && a->heading == b->heading;
  if (a->kind == GRIP_REPLAY_FUEL) return a->fuel == b->fuel;
  if (a->kind == GRIP_REPLAY_SYSTEMS)
    return a->input.abs_switch == b->input.abs_switch && a->input.tc_switch == b->input.tc_switch &&
           a->input.esc_switch == b->input.esc_switch;
  const grip_vehicle_input *p = &a->input, *q = &b->input;
  return p->throttle == q->throttle && p->brake == q->brake && p->steering == q->steering &&
         p->handbrake == q->handbrake && p->clutch == q->clutch && p->gear == q->gear && p->automatic == q->automatic;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) abort();
  if (size) memcpy(text, data, size);
  text[size] = '\0';
  grip_replay r;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_replay_parse(text, size, "fuzz.replay", &r, &err) != 0) {
    REQUIRE(strncmp(err.message, "fuzz.replay:", 12) == 0);
    REQUIRE(r.events == NULL && r.scene_text == NULL);
    free(text);
    return 0;
  }
  REQUIRE(r.dt >= 1e-4 && r.dt <= 0.02);
  REQUIRE(r.cars >= 1 && r.cars <= GRIP_REPLAY_MAX_CARS && r.human >= -1 && r.human < r.cars);
  REQUIRE(r.laps >= 1 && r.scene_text && r.scene_dir);
  long long last = 0;
  for (int i = 0; i < r.event_count; ++i) {
    const grip_replay_event *e = &r.events[i];
    REQUIRE(e->step >= last && e->step <= r.steps && e->car >= 0 && e->car < r.cars);
    last = e->step;
    if (e->kind == GRIP_REPLAY_INPUT) {
      REQUIRE(unit(e->input.throttle, 0) && unit(e->input.brake, 0) && unit(e->input.steering, -1));
      REQUIRE(unit(e->input.handbrake, 0) && unit(e->input.clutch, 0));
      REQUIRE(e->input.gear >= -1 && e->input.gear <= GRIP_MAX_GEARS);
    } else if (e->kind == GRIP_REPLAY_SYSTEMS) {
      REQUIRE(r.version >= 2);
      const grip_system_switch sw[3] = {e->input.abs_switch, e->input.tc_switch, e->input.esc_switch};
      for (int j = 0; j < 3; ++j) REQUIRE(sw[j] >= GRIP_SYSTEM_AS_DEFINED && sw[j] <= GRIP_SYSTEM_OFF);
    } else if (e->kind == GRIP_REPLAY_FUEL) {
      REQUIRE(r.version >= 3 && e->fuel >= 0.0 && e->fuel <= 1e5);
    } else {
      REQUIRE(isfinite(e->x) && isfinite(e->y) && isfinite(e->heading));
    }
  }
  /* Written back and read again: the same replay. A scene line holding "\r" before its "\n" is
   * written as read but read back without it, so the scene text is compared without "\r". */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  REQUIRE(f != NULL);
  grip_replay_write_header(f, r.dt, r.cars, r.human, r.laps, r.scene_dir, r.scene_text);
  for (int i = 0; i < r.event_count; ++i) {
    const grip_replay_event *e = &r.events[i];
    if (e->kind == GRIP_REPLAY_INPUT) grip_replay_write_input(f, e->step, e->car, &e->input);
    else if (e->kind == GRIP_REPLAY_SYSTEMS) grip_replay_write_systems(f, e->step, e->car, &e->input);
    else if (e->kind == GRIP_REPLAY_FUEL) grip_replay_write_fuel(f, e->step, e->car, e->fuel);
    else grip_replay_write_place(f, e->step, e->car, e->x, e->y, e->heading);
  }
  grip_replay_write_end(f, r.steps, r.hash);
  REQUIRE(fclose(f) == 0);
  grip_replay back;
  grip_load_error_clear(&err);
  if (grip_replay_parse(buf, len, "fuzz.replay", &back, &err) != 0) {
    fprintf(stderr, "written back, refused: %s\n", err.message);
    abort();
  }
  REQUIRE(back.dt == r.dt && back.cars == r.cars && back.human == r.human && back.laps == r.laps);
  REQUIRE(back.steps == r.steps && back.hash == r.hash && back.event_count == r.event_count);
  REQUIRE(strcmp(back.scene_dir, r.scene_dir) == 0);
  for (int i = 0; i < r.event_count; ++i) REQUIRE(same_event(&back.events[i], &r.events[i]));
  grip_replay_free(&back);
  free(buf);
  grip_replay_free(&r);
  free(text);
  return 0;
}
