/* grip race --scene FILE: see race_scene.h. */
#include "race_scene.h"

#include <stdio.h>
#include <stdlib.h>

race_scene *race_scene_open(const char *file) {
  race_scene *rs = calloc(1, sizeof *rs);
  if (!rs) {
    fprintf(stderr, "grip race: out of memory\n");
    return NULL;
  }
  grip_load_error err;
  if (grip_scene_load(file, &rs->scene, &err) != 0) {
    fprintf(stderr, "grip race: %s\n", err.message);
    free(rs);
    return NULL;
  }
  const grip_scene *sc = &rs->scene;
  for (int i = 0; i < sc->warning_count; ++i) fprintf(stderr, "grip race: warning: %s\n", sc->warnings[i]);
  if (sc->ground != GRIP_SCENE_GROUND_TRACK) {
    fprintf(stderr, "grip race: %s:%d: %s: a race needs a track scene (track = ...)\n", sc->path, sc->ground_line,
            grip_scene_ground_name(sc->ground));
    free(rs);
    return NULL;
  }
  for (int k = 0; k < sc->car_count; ++k)
    if (sc->cars[k].tow_index >= 0) {
      fprintf(stderr, "grip race: %s:%d: tow: car '%s' is towed; races have no trailers (use grip scene run or grip drive)\n",
              sc->path, sc->cars[k].tow_line, sc->cars[k].name);
      free(rs);
      return NULL;
    }
  if (scene_world_create(sc, SCENE_WORLD_NO_ROBOTS, &rs->world, &err) != 0) {
    fprintf(stderr, "grip race: %s\n", err.message);
    free(rs);
    return NULL;
  }
  for (int k = 0; k < rs->world->car_count; ++k) {
    const scene_world_car *wc = &rs->world->cars[k];
    const grip_scene_car *c = wc->spec;
    if (c->driver != GRIP_SCENE_DRIVER_ROBOT)
      fprintf(stderr, "grip race: note: %s:%d: car '%s' is driven by the robot in a race (driver = none ignored)\n",
              sc->path, c->line, c->name);
    if (c->speed > 0.0 || c->has_z)
      fprintf(stderr, "grip race: note: %s:%d: car '%s' starts at rest on the ground in a race (speed_kmh, z ignored)\n",
              sc->path, c->line, c->name);
    rs->entries[k] = (race_entry){.car = &wc->car.def, .name = c->name, .car_name = wc->car.name,
                                  .x = wc->start.position.x, .y = wc->start.position.y, .heading = wc->start_heading};
  }
  return rs;
}

void race_scene_close(race_scene *rs) {
  if (!rs) return;
  scene_world_destroy(rs->world);
  free(rs);
}
