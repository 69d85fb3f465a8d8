/* The car controller between input devices and grip_vehicle_input (docs/input.md): analogue
 * axes through deadzone, curve, inversion and range; digital inputs through ramps (pedals) and a
 * speed-dependent steering rate with self-centring; gears (sequential, H-shifter gates,
 * automatic toggle) and the reset, camera and pause buttons as edges. No SDL here: the devices
 * are read through a callback (viewer/input_sdl.c reads SDL's; the tests read their own). */
#ifndef GRIP_INPUT_CONTROLLER_H
#define GRIP_INPUT_CONTROLLER_H

#include <stdbool.h>

#include "grip/grip.h"
#include "input_config.h"

/* Reads one source: an axis's raw value −32768..32767, a button's 0 or 1; 0 when the device or
 * control is absent. */
typedef double (*input_read_fn)(void *context, const grip_input_source *source);

/* What the controller needs to know of the car. */
typedef struct input_car_info {
  double speed;          /* m/s, forward */
  double lock_rad;       /* the car's steering-wheel angle at full lock ([steering] lock); 8.17 */
  int forward_gears;     /* 1..10 */
  int gear;              /* gear engaged now, -1..n */
} input_car_info;

/* Buttons pressed this update (edges). */
typedef struct input_actions {
  bool reset, camera, pause;
  bool automatic_toggled;
  bool toggle_abs, toggle_tc, toggle_esc; /* a car system's key was pressed (session_toggle_system) */
} input_actions;

typedef struct input_controller {
  grip_input_config cfg;
  /* Digital ramps (0..1, steering −1..1). */
  double steer_digital, throttle_digital, brake_digital, clutch_digital, handbrake_digital;
  bool automatic;      /* automatic gearbox */
  int manual_gear;     /* manual: -1..n */
  int auto_direction;  /* automatic: 1 drive, 0 neutral, -1 reverse */
  int last_gate;       /* H-shifter gate held at the last update (0 = none) */
  /* Buttons held at the last update, for edges: up, down, automatic, reset, camera, pause. */
  bool held[9];
} input_controller;

void input_controller_init(input_controller *c, const grip_input_config *cfg, bool automatic);

/* One update over dt seconds (the frame time): reads the devices, returns the car's input and
 * fills *actions (may be NULL). */
grip_vehicle_input input_controller_update(input_controller *c, input_read_fn read, void *context,
                                           const input_car_info *car, double dt, input_actions *actions);

/* A centred axis (steering, combined pedals): raw −32768..32767 → −1..1 through inversion, the
 * deadzone around the centre (rescaled so the output still reaches ±1) and the curve
 * (sign·|x|^curve). */
double input_centred_axis(const grip_input_axis *axis, double raw);

/* A pedal axis: raw → 0..1 from its released to its pressed value, then inversion, the deadzone
 * at the released end and the curve. */
double input_pedal_axis(const grip_input_axis *axis, double raw);

/* Steering input −1..1 (+ left) from a centred axis value x (−1..1, + left: the controller
 * negates SDL's axis, which grows to the right, unless the file says invert) of a device turning range_deg lock
 * to lock, for a car whose steering wheel turns lock_rad each way: 1:1 in angle, clamped. A
 * range of 0 maps x directly. */
double input_steer_from_axis(double x, double range_deg, double lock_rad);

#endif
