/* A world built from a scene file (io/scene.h): the ground (terrain heightfield, track with its
 * barriers, or plane), the cars loaded and placed at their starts, robots for the cars that have
 * one. Shared by the grip command (grip scene, grip race --scene) and any front end (a viewer)
 * that wants the same world from the same file.
 *
 * Building checks what needs the ground and the cars: every start inside the terrain grid and
 * on the ground (tracks: inside the barriers), no two cars' body boxes overlapping in plan (a
 * car and its trailer excepted), an explicit z not below the placed height. A towed car starts
 * straight behind its tow with the hitch points together in plan and the tow's speed. Errors name the scene file and line of the car. */
#ifndef GRIP_SCENE_WORLD_H
#define GRIP_SCENE_WORLD_H

#include "car_file.h"
#include "grip/grip.h"
#include "pit.h"
#include "robot.h"
#include "scene.h"

/* Building options. */
enum {
  SCENE_WORLD_NO_ROBOTS = 1, /* do not create the robots (a caller that drives the cars itself) */
};

typedef struct scene_world_car {
  const grip_scene_car *spec; /* the scene's entry */
  grip_car car;               /* the loaded car; owns def's pointers (never copy the struct) */
  grip_vehicle_id id;         /* in world */
  robot *bot;                 /* the robot driving it, or NULL */
  grip_vehicle_input input;   /* the constant input of a car without a robot */
  int grid_slot;              /* 0-based grid slot of a track car placed by the grid, else -1 */
  grip_pose start;            /* pose after placement (design frame), m and unit quaternion */
  double start_heading;       /* rad, start heading from +x counter-clockwise */
  double ground_z;            /* m, ground height under the start (x, y); e.g. 12.4 */
  int track_hint;             /* track scenes: last segment the car was found on (-1 none) */
  grip_hitch_id hitch;        /* a towed car: its hitch to spec->tow; GRIP_NULL_HITCH otherwise */
  /* A robot car's wheels, all of them, read before each of its steps (robot_set_wheels). */
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  int wheel_count;
} scene_world_car;

typedef struct scene_world {
  const grip_scene *scene;    /* the scene it was built from (caller owns; must outlive) */
  grip_world *world;
  /* Ground. */
  grip_heightfield *heightfield; /* terrain scenes */
  grip_heightfield_info terrain; /* terrain scenes: grid figures */
  /* Terrain scenes: from local metres back to the terrain file's own coordinates (easting and
   * northing in its units, or longitude and latitude in degrees), which are linear in x and y
   * (io/terrain.h): X = geo_x0 + geo_x_per_m·x, Y = geo_y0 + geo_y_per_m·y. A texture georeferenced
   * in the same coordinate system is draped with it. */
  double geo_x0, geo_x_per_m, geo_y0, geo_y_per_m;
  grip_track *track;             /* track scenes */
  char track_name[128];          /* track scenes: display name, e.g. "Grip Park" */
  grip_track_ground_context track_ground; /* track scenes: raycast and barrier context */
  bool has_pit_lane;             /* track scenes whose track has a pit lane */
  pit_lane pit;                  /* its lane (pit limiter of a driven car, sim/pit.h) */
  grip_plane plane;              /* plane scenes */
  double air_density;            /* kg/m³, the world's; 1.29 */
  int car_count;
  scene_world_car *cars;         /* car_count entries, in the scene's order */
  robot_car_view *views;         /* scratch for the robots (car_count entries) */
  robot_car_view *others;
} scene_world;

/* Builds the world. Returns 0 and *out, or -1 with err set ("scene.ini:12: ...") and *out NULL. */
int scene_world_create(const grip_scene *scene, int flags, scene_world **out, grip_load_error *err);
void scene_world_destroy(scene_world *sw);

/* Puts car k at rest on the ground at (x, y) turned to heading (grip_vehicle_place) and the
 * cars it tows, and theirs, straight behind it with their couplings over its hitch points (a
 * click-to-place in a viewer, a replay's placement). False when there is no ground under one of
 * them (those placed stay placed). */
bool scene_world_place(scene_world *sw, int k, double x, double y, double heading);

/* Ground height (m) under (x, y) by a vertical ray from high above; false where there is none. */
bool scene_world_ground_height(const scene_world *sw, double x, double y, double *z);

/* Trailer brakes: every towed car with no engine (GRIP_DRIVE_NONE) takes its tow's brake
 * pedal, as a trailer's brakes are worked from the towing vehicle (electric or overrun brakes).
 * Call after the inputs are set and before the step; scene_world_step does. */
void scene_world_pass_trailer_brakes(scene_world *sw);

/* Sets every car's input (robots drive, the others keep their constant input; trailers brake
 * with their tows), then steps the world by dt. Allocation-free. Returns grip_world_step's
 * result. */
grip_result scene_world_step(scene_world *sw, double dt);

#endif
