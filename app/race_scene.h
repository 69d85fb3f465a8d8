/* grip race --scene FILE: a track scene's track and cars as race entries. */
#ifndef GRIP_RACE_SCENE_H
#define GRIP_RACE_SCENE_H

#include "race.h"
#include "scene.h"
#include "scene_world.h"

typedef struct race_scene {
  grip_scene scene;
  scene_world *world;                 /* the scene built (its track and loaded cars) */
  race_entry entries[GRIP_SCENE_MAX_CARS]; /* one per scene car, start poses as placed */
} race_scene;

/* Loads FILE, which must have a track ground, and builds it. Prints problems as
 * "grip race: ..." and returns NULL on failure. */
race_scene *race_scene_open(const char *file);
void race_scene_close(race_scene *rs);

#endif
