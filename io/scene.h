/* grip scene files (INI, parsed with inih; docs/scene.md lists every key).
 *
 * A scene names one ground (a terrain raster, a race track or a flat plane), an optional
 * texture for a viewer, the camera, and the cars with their start positions:
 *
 *   [scene]
 *   name = Hills
 *   terrain = hills.bt          ; or: track = default | torcs:NAME | FILE ; or: ground = plane
 *   [camera]
 *   mode = chase
 *   follow = red
 *   [car red]
 *   file = ../cars/hatchback-100kw.ini
 *   x = 10
 *   y = -4
 *   heading_deg = 90
 *
 * This module reads and checks the text: numbers finite and in range, one ground, at least one
 * car, unique names, files that exist; and it loads each grip car file, so that a car whose file
 * names a trailer ([trailer], docs/car-format.md) brings it as a towed car "NAME/trailer" (a car
 * file that does not load is reported at its `file` line). What needs the ground and the cars themselves (start
 * positions on the ground and inside the terrain, cars not overlapping) is checked when the
 * world is built (sim/scene_world.h). Every problem is reported as
 * "file:line: key: what is wrong (allowed range …)"; unknown sections and keys are warnings. */
#ifndef GRIP_SCENE_H
#define GRIP_SCENE_H

#include <stdbool.h>

#include "grip/ground.h"
#include "grip/heightfield.h"
#include "load_error.h"

#define GRIP_SCENE_MAX_CARS 64
#define GRIP_SCENE_PATH_MAX 512
#define GRIP_SCENE_NAME_MAX 64
#define GRIP_SCENE_MAX_WARNINGS 16

/* Where the cars stand. */
typedef enum grip_scene_ground_kind {
  GRIP_SCENE_GROUND_TERRAIN = 0, /* a terrain raster (.bt, or any GDAL raster) */
  GRIP_SCENE_GROUND_TRACK = 1,   /* a race track (native, TORCS, or the built-in default) */
  GRIP_SCENE_GROUND_PLANE = 2,   /* an infinite flat plane */
} grip_scene_ground_kind;

typedef enum grip_scene_camera_mode {
  GRIP_SCENE_CAMERA_CHASE = 0, /* behind the followed car, at distance and height */
  GRIP_SCENE_CAMERA_FIXED = 1, /* at position, looking at target or the followed car */
  GRIP_SCENE_CAMERA_ORBIT = 2, /* circling target or the followed car at distance and height */
} grip_scene_camera_mode;

/* Who drives a car. */
typedef enum grip_scene_driver {
  GRIP_SCENE_DRIVER_NONE = 0,  /* constant inputs: the car's throttle, brake, steer keys */
  GRIP_SCENE_DRIVER_ROBOT = 1, /* the robot driver (track scenes only) */
} grip_scene_driver;

typedef struct grip_scene_camera {
  grip_scene_camera_mode mode; /* chase by default */
  bool has_position;           /* position was given */
  grip_vec3 position;          /* m, world; fixed camera's place, e.g. (0, -30, 12) */
  bool has_target;             /* target was given */
  grip_vec3 target;            /* m, world point looked at, e.g. (0, 0, 1) */
  char follow[GRIP_SCENE_NAME_MAX]; /* name of the car followed, "" = none (chase and orbit
                                       without a target follow the first car) */
  double fov_deg;              /* deg, vertical field of view, 10..150; 60 */
  double distance;             /* m, chase/orbit distance from the car, 0.5..1000; 6 */
  double height;               /* m, chase/orbit height above the car, -100..1000; 2 */
  int line;                    /* line of the [camera] header, 0 when absent */
} grip_scene_camera;

typedef struct grip_scene_car {
  char name[GRIP_SCENE_NAME_MAX]; /* from the section header "[car NAME]", e.g. "red" */
  char file[GRIP_SCENE_PATH_MAX]; /* car spec for grip_car_open: a path (resolved against the
                                     scene's directory), "builtin" or "torcs:NAME" */
  bool has_position;  /* x and y were given; false: a grid slot (track scenes only) */
  double x, y;        /* m, world position of the car's design-frame origin in plan; e.g. 10 */
  double heading;     /* rad, direction of the car's +x from world +x, counter-clockwise; 0 */
  bool has_z;         /* z was given; false: on the ground at static ride height */
  double z;           /* m, world z of the design-frame origin (not below the placed height) */
  double speed;       /* m/s, initial forward speed, 0..150; 0 */
  grip_scene_driver driver; /* none by default */
  double throttle;    /* 0..1, constant input when driver = none; 0 */
  double brake;       /* 0..1, constant input when driver = none; 0 */
  double steer;       /* -1..1, constant steering input when driver = none, + left; 0 */
  double handbrake;   /* 0..1, constant input when driver = none; 0 */
  int gear;           /* automatic gearbox direction when driver = none: 1 drive (default),
                         0 neutral, -1 reverse */
  int line;           /* line of the car's section header */
  int position_line;  /* line of the later of x and y (0 when not given) */
  int z_line;         /* line of z (0 when not given) */
  int file_line;      /* line of file (0 when absent: the built-in car) */
  /* Towed by another car of the scene (a trailer): "" = not towed. */
  char tow[GRIP_SCENE_NAME_MAX]; /* name of the towing car, e.g. "truck" */
  int tow_index;      /* its index in cars (set by the loader), -1 = not towed */
  bool fifth_wheel;   /* hitch = fifth_wheel (roll follows the tow) instead of ball */
  grip_vec3 tow_point; /* m, the hitch point on the towing car, its design frame; (-2.6, 0, 0.45) */
  grip_vec3 coupling;  /* m, the hitch point on this car, its design frame; (3.5, 0, 0.45) */
  int tow_line;       /* line of tow (0 when not towed) */
} grip_scene_car;

typedef struct grip_scene {
  char name[128];                  /* display name; the file name without directory by default */
  char path[GRIP_SCENE_PATH_MAX];  /* file the scene was read from (messages) */
  char dir[GRIP_SCENE_PATH_MAX];   /* its directory: relative paths are resolved against it */
  grip_scene_ground_kind ground;
  char ground_file[GRIP_SCENE_PATH_MAX]; /* terrain path, or track spec (path resolved,
                                            "default" or "torcs:NAME"); "" for a plane */
  int ground_line;                 /* line of the ground key */
  char texture[GRIP_SCENE_PATH_MAX]; /* resolved texture path, "" = none (checked to exist) */
  grip_heightfield_edge terrain_edge; /* outside the terrain grid; no_ground by default */
  bool has_surface;                /* surface was given (terrain) */
  char surface_name[32];           /* preset name of the terrain surface, e.g. "grass" */
  grip_surface surface;            /* terrain surface; dry asphalt by default */
  double plane_height;             /* m, world z of a plane ground, -1e4..1e4; 0 */
  char plane_surface_name[32];     /* preset of the plane's surface; "asphalt" */
  grip_surface plane_surface;      /* plane's surface */
  double gravity;                  /* m/s², magnitude of gravity along world -z, 0.1..100; 9.81 */
  grip_scene_camera camera;
  int car_count;                   /* 1..GRIP_SCENE_MAX_CARS */
  grip_scene_car cars[GRIP_SCENE_MAX_CARS]; /* in file order */
  int warning_count;               /* warnings kept (first 16) */
  int warnings_dropped;            /* warnings beyond the first 16 */
  char warnings[GRIP_SCENE_MAX_WARNINGS][200]; /* "file:line: what", e.g. unknown keys */
} grip_scene;

/* Reads a scene file. Returns 0 with *out filled (warnings in out->warnings), or -1 with the
 * first problem in err and *out untouched. */
int grip_scene_load(const char *path, grip_scene *out, grip_load_error *err);

/* Same from text in memory: name is used in messages, base_dir resolves relative paths (NULL =
 * the current directory). */
int grip_scene_parse(const char *text, const char *name, const char *base_dir, grip_scene *out,
                     grip_load_error *err);

/* Index of the car named name, or -1. */
int grip_scene_find_car(const grip_scene *scene, const char *name);

/* Names for messages and reports: "terrain", "track", "plane"; "chase", "fixed", "orbit";
 * "none", "robot". */
const char *grip_scene_ground_name(grip_scene_ground_kind kind);
const char *grip_scene_camera_mode_name(grip_scene_camera_mode mode);
const char *grip_scene_driver_name(grip_scene_driver driver);

#endif
