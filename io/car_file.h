/* grip car files: one INI file describes one car (docs/car-format.md lists every key).
 *
 * A car file starts from grip_default_vehicle_def() (the built-in Corvette C5), or from the car
 * named by `base = other.ini` in its [car] section, and overrides what it names. Parsing uses
 * inih; every problem is reported as "file:line: key: what is wrong (allowed range …)". */
#ifndef GRIP_CAR_FILE_H
#define GRIP_CAR_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grip/mf_tyre.h"
#include "grip/vehicle.h"
#include "load_error.h"

#define GRIP_CAR_MAX_WARNINGS 16
#define GRIP_CAR_PATH_MAX 512

/* How the car looks ([visual] in a car file; docs/car-format.md). Not used by the physics: the
 * viewer draws the model instead of a body generated from the body box. A model point p (in the
 * model's units and axes) is drawn at design-frame point
 *   offset + Rz(yaw)·Ry(pitch)·Rx(roll)·(scale·A·p)
 * where A turns y-up files (AC3D, OBJ, glTF: x forward, y up, z to the right) to z up,
 * A·(x, y, z) = (x, −z, y), and is the identity for z-up files. The wheels are not part of it:
 * they are drawn at the simulated wheel positions. */
#define GRIP_CAR_MAX_LIGHTS 8

/* A lamp on a car model: a disc facing backwards, lit with the brake. */
typedef struct grip_car_lamp {
  grip_vec3 position; /* model units, z up, x forward, y left (before scale·A): at the lamp's centre */
  double radius;      /* model units; ~0.1 m */
} grip_car_lamp;

typedef struct grip_car_visual {
  char model[GRIP_CAR_PATH_MAX]; /* resolved path of the model file; "" = none */
  double scale;                  /* m per model unit; 1 */
  grip_vec3 offset;              /* m, design frame: where the model's origin goes; 0 */
  double yaw, pitch, roll;       /* rad, rotations about z, y, x of the design frame; 0 */
  bool y_up;                     /* the file's axes are y up (AC3D: TORCS cars); yes */
  /* Brake lamps drawn over the model (a TORCS car's `Graphic Objects/Light` entries of type
   * brake/brake2). Their positions are z up whatever y_up says: design point = offset +
   * Rz·Ry·Rx·(scale·position). */
  int brake_lamp_count;
  grip_car_lamp brake_lamps[GRIP_CAR_MAX_LIGHTS];
} grip_car_visual;

/* A loaded car. It owns every string and tyre parameter set def points to: def.name points to
 * name and, for an axle whose tyre was read from a .tir file, def.axles[a].tyre.mf points to
 * tyre_params[a]. A grip_car must therefore not be moved or copied with `=`/memcpy without
 * calling grip_car_fix_pointers() on the copy. */
/* [sound]: what the engine sounds like (the viewer's synthesiser, docs/input.md). Not physics:
 * the core never sees it. */
typedef struct grip_car_sound {
  double cylinders; /* whole number 1..16; the Corvette's V8 8 */
  double strokes;   /* 2 or 4: firing frequency cylinders·rpm/(30·strokes) Hz; 4 */
  double character; /* 0 smooth .. 1 raspy; 0.5 */
  double volume;    /* 0..1; 0.8 */
} grip_car_sound;

/* [trailer]: the trailer this vehicle tows wherever it is loaded as a whole combination. */
typedef struct grip_car_trailer {
  char file[GRIP_CAR_PATH_MAX]; /* resolved path of the trailer's car file; "" = none */
  grip_vec3 tow_point;          /* m, design frame of this vehicle: the tow ball or fifth wheel */
} grip_car_trailer;

typedef struct grip_car {
  grip_vehicle_def def;
  grip_car_sound sound;
  char name[64];
  grip_mf_params tyre_params[GRIP_MAX_AXLES];
  char tir_path[GRIP_MAX_AXLES][GRIP_CAR_PATH_MAX]; /* resolved .tir path, "" for simple MF */
  char source[GRIP_CAR_PATH_MAX];                    /* file the car was read from */
  int warning_count;                                 /* warnings kept (first 16) */
  int warnings_dropped;                              /* warnings beyond the first 16 */
  char warnings[GRIP_CAR_MAX_WARNINGS][200];         /* "file:line: what", e.g. unknown keys */
  grip_car_visual visual;                            /* [visual]: the 3D model, if any */
  /* [coupling] (def.coupling holds where): the hitch a trailer takes, a fifth wheel (roll locked
   * to the tractor: a semi-trailer) or else a ball. */
  bool coupling_fifth_wheel;
  grip_car_trailer trailer;                          /* [trailer]: what it tows, if anything */
} grip_car;

/* The car can move itself: the engine's peak torque (limited by the clutch) through first gear,
 * the final drive and the gearbox efficiency, divided by the driven wheels' radius, must exceed
 * the rolling resistance on dry asphalt (f = 0.012 times the tyres' own factor, at the car's
 * weight with its fuel). Returns true, or false with "what is wrong (figures)" in why. Both the
 * car file and the TORCS import refuse such a car. */
bool grip_car_can_drive(const grip_vehicle_def *def, char *why, size_t why_size);

/* Values that load but will make the car misbehave, for `grip check` (docs/car-format.md,
 * "What grip check warns about"): appends one line per finding to out (up to max lines of
 * 200 characters) and returns how many it wrote. */
int grip_car_misbehaviour_warnings(const grip_vehicle_def *def, char (*out)[200], int max);

/* Fills car with the built-in Corvette C5 (grip_default_vehicle_def()), pointers fixed. */
void grip_car_default(grip_car *car);

/* Re-points def.name and the full-MF tyre pointers into *car (after copying a grip_car). */
void grip_car_fix_pointers(grip_car *car);

/* Loads a car file. Returns 0 on success (*out filled, pointers fixed, warnings collected in
 * out->warnings). On failure returns -1, leaves *out untouched and describes the first problem
 * in err. */
int grip_car_load(const char *path, grip_car *out, grip_load_error *err);

/* Opens CAR as the tools take it: NULL, "builtin" or "corvette-c5" is the built-in car;
 * "torcs:NAME" is a car of the installed TORCS data (with its category); a path ending in .xml
 * or a directory is a TORCS car; anything else is a grip car file. Returns 0 (*out filled,
 * warnings in out->warnings), or -1 with err set and *out untouched (io/car_open.c). */
int grip_car_open(const char *spec, grip_car *out, grip_load_error *err);

/* Same from text in memory; name is used in messages and base_dir resolves `base =` and
 * `tir =` paths (NULL = the current directory). */
int grip_car_parse(const char *text, const char *name, const char *base_dir, grip_car *out,
                   grip_load_error *err);

/* Writes every key of car to path (a file that grip_car_load reads back to the identical
 * definition). comment, if not NULL, is written as a leading comment (may hold newlines).
 * Returns 0, or -1 with err set. */
int grip_car_save(const grip_car *car, const char *path, const char *comment, grip_load_error *err);

/* Same, to an open stream. */
int grip_car_write(const grip_car *car, FILE *out, const char *comment);

/* The key table, for documentation checks: fills section (e.g. "axle.front"; instances are
 * listed once with their first name), key and unit for index 0..count-1; returns 0, or -1 past
 * the end. */
int grip_car_key_info(int index, const char **section, const char **key, const char **unit);

#endif
