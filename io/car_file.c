/* grip car files (INI, parsed with inih): see car_file.h and docs/car-format.md. */
#define _XOPEN_SOURCE 700
#include "car_file.h"

#include "ini_text.h"
#include "read_file.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tir.h"

#define CAR_MAX_BYTES (1u << 20)
#define CAR_MAX_DEPTH 8
#define PI_ 3.14159265358979323846

/* --- the key table ------------------------------------------------------------------------- */

typedef enum sec_kind {
  S_NONE = -1,
  S_CAR = 0,
  S_BODY,
  S_ENGINE,
  S_CLUTCH,
  S_GEARBOX,
  S_DRIVETRAIN,
  S_DIFF,
  S_BRAKES,
  S_STEERING,
  S_INPUT,
  S_AXLE,
  S_TYRE,
  S_AERO,
  S_WING,
  S_FUEL,
  S_ASSISTS,
  S_SOUND,
  S_VISUAL, /* grip_car.visual, not the definition */
  S_SYSTEMS,
  S_TYRE_STATE,
  S_COUPLING, /* grip_car.coupling */
  S_TRAILER,  /* grip_car.trailer */
  S_COUNT
} sec_kind;

/* Most instances of a section: [diff.front], [diff.rear], [diff.centre], then [diff.1] ..
 * [diff.15] (a driveline tree's differentials). */
#define MAX_INSTANCES (3 + GRIP_MAX_DIFFS)

typedef struct section_desc {
  const char *name;       /* "axle" for "axle.front" */
  int instances;          /* 1, or the number of named instances */
  const char *inst[MAX_INSTANCES]; /* instance suffixes */
} section_desc;

/* The axle sections: [axle.1] .. [axle.8] front to back, [axle.front] and [axle.rear] the
 * shorthands for [axle.1] and [axle.2] (likewise [tyre.N]). The tree's differentials:
 * [diff.1] (the root, driven by the gearbox) .. [diff.15], instances 3.. of the diff section. */
#define AXLE_NAMES {"front", "rear", "3", "4", "5", "6", "7", "8"}
#define TREE_DIFF_FIRST 3

static const section_desc sections[S_COUNT] = {
    [S_CAR] = {"car", 1, {NULL}},
    [S_BODY] = {"body", 1, {NULL}},
    [S_ENGINE] = {"engine", 1, {NULL}},
    [S_CLUTCH] = {"clutch", 1, {NULL}},
    [S_GEARBOX] = {"gearbox", 1, {NULL}},
    [S_DRIVETRAIN] = {"drivetrain", 1, {NULL}},
    [S_DIFF] = {"diff", MAX_INSTANCES, {"front", "rear", "centre", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                        "11", "12", "13", "14", "15"}},
    [S_BRAKES] = {"brakes", 1, {NULL}},
    [S_STEERING] = {"steering", 1, {NULL}},
    [S_INPUT] = {"input_filter", 1, {NULL}},
    [S_AXLE] = {"axle", GRIP_MAX_AXLES, AXLE_NAMES},
    [S_TYRE] = {"tyre", GRIP_MAX_AXLES, AXLE_NAMES},
    [S_AERO] = {"aero", 1, {NULL}},
    [S_WING] = {"wing", 4, {"1", "2", "3", "4"}},
    [S_FUEL] = {"fuel", 1, {NULL}},
    [S_ASSISTS] = {"assists", 1, {NULL}},
    [S_SOUND] = {"sound", 1, {NULL}},
    [S_VISUAL] = {"visual", 1, {NULL}},
    [S_SYSTEMS] = {"systems", 1, {NULL}},
    [S_TYRE_STATE] = {"tyre_state", 1, {NULL}},
    [S_COUPLING] = {"coupling", 1, {NULL}},
    [S_TRAILER] = {"trailer", 1, {NULL}},
};

typedef enum key_type {
  K_DOUBLE,
  K_BOOL,
  K_NAME,
  K_BASE,
  K_TORQUE,  /* rpm:Nm list */
  K_RATIOS,  /* number list */
  K_CURVE,   /* parametric curve parameter (parser state), offset = index 0..4 */
  K_LAYOUT,
  K_DIFF_TYPE,
  K_TIR,
  K_WINGS,
  K_MODEL,   /* a model file path, relative to the car file */
  K_LAMPS,   /* "x y z radius" groups, comma-separated */
  K_STEERED, /* yes/no shorthand for an axle's steer_ratio 1/0 (written as steer_ratio) */
  K_INPUTS,  /* a tree differential's two inputs: diff.N, axle.N.left/right, axle.N */
  K_HITCH,   /* ball | fifth_wheel */
  K_TRAILER, /* the trailer's car file, relative to this one */
  K_AXLES,   /* the number of axles, 1..8 (applied at the end of the file) */
} key_type;

typedef struct key_desc {
  sec_kind sec;
  const char *key;
  key_type type;
  size_t offset;        /* of the value within the section's struct */
  double scale;         /* file unit -> SI */
  const char *unit;     /* file unit ("" for plain numbers) */
  const char *si_unit;  /* SI unit, also accepted as a suffix when it differs */
  double min, max;      /* allowed range, file unit */
  const char *vfield;   /* field name grip_vehicle_def_validate reports */
} key_desc;

#define DEG (PI_ / 180.0)
#define GKWH (1e-3 / 3.6e6)

#define D(sec, key, type_, off, unit, lo, hi, vf) {sec, key, K_DOUBLE, offsetof(type_, off), 1.0, unit, unit, lo, hi, vf}
#define DS(sec, key, type_, off, scale, unit, si, lo, hi, vf) {sec, key, K_DOUBLE, offsetof(type_, off), scale, unit, si, lo, hi, vf}
#define B(sec, key, type_, off) {sec, key, K_BOOL, offsetof(type_, off), 1.0, "", "", 0, 1, NULL}
#define X(sec, key, kt, off, unit, lo, hi) {sec, key, kt, off, 1.0, unit, unit, lo, hi, NULL}

static const key_desc keys[] = {
    X(S_CAR, "name", K_NAME, 0, "", 0, 0),
    X(S_CAR, "base", K_BASE, 0, "", 0, 0),
    X(S_CAR, "axles", K_AXLES, 0, "", 1, GRIP_MAX_AXLES),

    D(S_BODY, "mass", grip_body_def, mass, "kg", 1, 1e6, "body.mass"),
    D(S_BODY, "cg_x", grip_body_def, center_of_mass.x, "m", -50, 50, "body.center_of_mass.x"),
    D(S_BODY, "cg_y", grip_body_def, center_of_mass.y, "m", -50, 50, "body.center_of_mass.y"),
    D(S_BODY, "cg_z", grip_body_def, center_of_mass.z, "m", -5, 10, "body.center_of_mass.z"),
    D(S_BODY, "inertia_roll", grip_body_def, inertia.x, "kg*m^2", 0, 1e8, "body.inertia.x"),
    D(S_BODY, "inertia_pitch", grip_body_def, inertia.y, "kg*m^2", 0, 1e8, "body.inertia.y"),
    D(S_BODY, "inertia_yaw", grip_body_def, inertia.z, "kg*m^2", 0, 1e8, "body.inertia.z"),
    D(S_BODY, "length", grip_body_def, dimensions.x, "m", 0.1, 100, "body.dimensions.x"),
    D(S_BODY, "width", grip_body_def, dimensions.y, "m", 0.1, 100, "body.dimensions.y"),
    D(S_BODY, "height", grip_body_def, dimensions.z, "m", 0.1, 100, "body.dimensions.z"),
    D(S_BODY, "box_x", grip_body_def, box_center.x, "m", -50, 50, NULL),
    D(S_BODY, "box_y", grip_body_def, box_center.y, "m", -50, 50, NULL),
    D(S_BODY, "box_z", grip_body_def, box_center.z, "m", -50, 50, NULL),

    X(S_ENGINE, "torque", K_TORQUE, 0, "rpm:N*m", 0, 0),
    X(S_ENGINE, "peak_torque", K_CURVE, 0, "N*m", 1, 1e5),
    X(S_ENGINE, "peak_rpm", K_CURVE, 1, "rpm", 1, 30000),
    X(S_ENGINE, "width_low", K_CURVE, 2, "rpm", 1, 30000),
    X(S_ENGINE, "width_high", K_CURVE, 3, "rpm", 1, 30000),
    X(S_ENGINE, "curve_points", K_CURVE, 4, "", 2, GRIP_MAX_CURVE_POINTS),
    D(S_ENGINE, "idle_rpm", grip_engine_def, idle_rpm, "rpm", 100, 10000, "engine.idle_rpm"),
    D(S_ENGINE, "limiter_rpm", grip_engine_def, rev_limit_rpm, "rpm", 500, 30000, "engine.rev_limit_rpm"),
    D(S_ENGINE, "inertia", grip_engine_def, inertia, "kg*m^2", 0.01, 100, "engine.inertia"),
    D(S_ENGINE, "brake_torque", grip_engine_def, brake_torque, "N*m", 0, 1e4, "engine.brake_torque"),
    D(S_ENGINE, "brake_torque_per_rpm", grip_engine_def, brake_torque_per_rpm, "N*m/rpm", 0, 10,
      "engine.brake_torque_per_rpm"),
    DS(S_ENGINE, "bsfc", grip_engine_def, fuel_per_joule, GKWH, "g/kWh", "kg/J", 0, 36000, "engine.fuel_per_joule"),

    D(S_CLUTCH, "max_torque", grip_clutch_def, max_torque, "N*m", 0, 1e5, "clutch.max_torque"),
    D(S_CLUTCH, "engage_rpm", grip_clutch_def, engage_rpm, "rpm", 0, 30000, "clutch.engage_rpm"),

    X(S_GEARBOX, "ratios", K_RATIOS, 0, "", 0.05, 50),
    D(S_GEARBOX, "reverse", grip_gearbox_def, reverse_ratio, "", 0.05, 50, "gearbox.reverse_ratio"),
    D(S_GEARBOX, "final_drive", grip_gearbox_def, final_drive, "", 0.1, 50, "gearbox.final_drive"),
    D(S_GEARBOX, "efficiency", grip_gearbox_def, efficiency, "", 0.1, 1, "gearbox.efficiency"),
    D(S_GEARBOX, "shift_time", grip_gearbox_def, shift_time, "s", 0, 5, "gearbox.shift_time"),
    D(S_GEARBOX, "upshift_rpm", grip_gearbox_def, upshift_rpm, "rpm", 0, 30000, "gearbox.upshift_rpm"),
    D(S_GEARBOX, "downshift_rpm", grip_gearbox_def, downshift_rpm, "rpm", 0, 30000, "gearbox.downshift_rpm"),
    B(S_GEARBOX, "automatic", grip_gearbox_def, automatic),

    X(S_DRIVETRAIN, "layout", K_LAYOUT, offsetof(grip_drivetrain_def, layout), "", 0, 0),

    X(S_DIFF, "type", K_DIFF_TYPE, offsetof(grip_diff_def, type), "", 0, 0),
    D(S_DIFF, "preload", grip_diff_def, preload, "N*m", 0, 1e5, "drivetrain"),
    D(S_DIFF, "locking", grip_diff_def, locking_coefficient, "", 0, 1, "drivetrain"),
    D(S_DIFF, "viscous", grip_diff_def, viscous_coefficient, "N*m*s/rad", 0, 1e5, "drivetrain"),
    D(S_DIFF, "front_split", grip_diff_def, front_split, "", 0, 1, "drivetrain"),
    {S_DIFF, "inputs", K_INPUTS, 0, 1.0, "", "", 0, 0, "drivetrain.diffs.inputs"},

    D(S_BRAKES, "max_torque", grip_brake_def, max_torque, "N*m", 0, 1e6, "brakes.max_torque"),
    D(S_BRAKES, "front_bias", grip_brake_def, front_bias, "", 0, 1, "brakes.front_bias"),
    D(S_BRAKES, "handbrake_torque", grip_brake_def, handbrake_torque, "N*m", 0, 1e6, "brakes.handbrake_torque"),

    D(S_STEERING, "ratio", grip_steering_def, ratio, "", 0.5, 100, "steering.ratio"),
    DS(S_STEERING, "lock", grip_steering_def, max_wheel_angle, DEG, "deg", "rad", 0, 2864, "steering.max_wheel_angle"),
    D(S_STEERING, "ackermann", grip_steering_def, ackermann, "", 0, 1.5, "steering.ackermann"),
    D(S_STEERING, "speed_reduction_speed", grip_steering_def, speed_reduction_speed, "m/s", 0, 1000,
      "steering.speed_reduction_speed"),
    D(S_STEERING, "trail", grip_steering_def, mechanical_trail, "m", -0.2, 0.2, "steering.mechanical_trail"),
    D(S_STEERING, "column_friction", grip_steering_def, column_friction, "N*m", 0, 100, "steering.column_friction"),
    D(S_STEERING, "column_damping", grip_steering_def, column_damping, "N*m*s/rad", 0, 100,
      "steering.column_damping"),

    D(S_INPUT, "throttle_rate", grip_input_filter_def, throttle_rate, "1/s", 0, 1e6, "input_filter.throttle_rate"),
    D(S_INPUT, "brake_rate", grip_input_filter_def, brake_rate, "1/s", 0, 1e6, "input_filter.brake_rate"),
    D(S_INPUT, "steer_rate", grip_input_filter_def, steer_rate, "1/s", 0, 1e6, "input_filter.steer_rate"),

    D(S_AXLE, "x", grip_axle_def, x, "m", -50, 50, "axle.x"),
    D(S_AXLE, "half_track", grip_axle_def, half_track, "m", 0, 10, "axle.half_track"),
    D(S_AXLE, "wheel_radius", grip_axle_def, wheel_radius, "m", 0.05, 3, "axle.wheel_radius"),
    D(S_AXLE, "wheel_width", grip_axle_def, wheel_width, "m", 0.01, 3, "axle.wheel_width"),
    D(S_AXLE, "wheel_inertia", grip_axle_def, wheel_inertia, "kg*m^2", 0.01, 1000, "axle.wheel_inertia"),
    X(S_AXLE, "steered", K_STEERED, offsetof(grip_axle_def, steer_ratio), "", 0, 1),
    D(S_AXLE, "steer_ratio", grip_axle_def, steer_ratio, "", -2, 2, "axle.steer_ratio"),
    D(S_AXLE, "brake_share", grip_axle_def, brake_share, "", 0, 1, "axle.brake_share"),
    B(S_AXLE, "handbrake", grip_axle_def, handbrake),
    D(S_AXLE, "spring_rate", grip_axle_def, suspension.spring_rate, "N/m", 100, 1e8, "suspension.spring_rate"),
    D(S_AXLE, "bump_damping", grip_axle_def, suspension.bump_damping, "N*s/m", 0, 1e7, "suspension.bump_damping"),
    D(S_AXLE, "rebound_damping", grip_axle_def, suspension.rebound_damping, "N*s/m", 0, 1e7,
      "suspension.rebound_damping"),
    D(S_AXLE, "bump_travel", grip_axle_def, suspension.bump_travel, "m", 0.001, 2, "suspension.bump_travel"),
    D(S_AXLE, "droop_travel", grip_axle_def, suspension.droop_travel, "m", 0.001, 2, "suspension.droop_travel"),
    D(S_AXLE, "bump_stop_rate", grip_axle_def, suspension.bump_stop_rate, "N/m", 0, 1e9, "suspension.bump_stop_rate"),
    D(S_AXLE, "max_force", grip_axle_def, suspension.max_force, "N", 1, 1e8, "suspension.max_force"),
    D(S_AXLE, "anti_roll_rate", grip_axle_def, suspension.anti_roll_rate, "N/m", 0, 1e8, "suspension.anti_roll_rate"),
    D(S_AXLE, "levelling_time", grip_axle_def, suspension.levelling_time, "s", 0, 1000, "suspension.levelling_time"),

    X(S_TYRE, "tir", K_TIR, 0, "", 0, 0),
    D(S_TYRE, "long_b", grip_tyre_def, simple.longitudinal.b, "", 0.01, 1000, "tyre.simple.b"),
    D(S_TYRE, "long_c", grip_tyre_def, simple.longitudinal.c, "", 0.1, 5, "tyre.simple.c"),
    D(S_TYRE, "long_mu", grip_tyre_def, simple.longitudinal.mu, "", 0.05, 10, "tyre.simple.mu"),
    D(S_TYRE, "long_e", grip_tyre_def, simple.longitudinal.e, "", -10, 1, "tyre.simple.e"),
    D(S_TYRE, "long_slide_gain", grip_tyre_def, simple.longitudinal.slide_gain, "", 0, 2, "tyre.simple.slide_gain"),
    D(S_TYRE, "lat_b", grip_tyre_def, simple.lateral.b, "1/rad", 0.01, 1000, "tyre.simple.b"),
    D(S_TYRE, "lat_c", grip_tyre_def, simple.lateral.c, "", 0.1, 5, "tyre.simple.c"),
    D(S_TYRE, "lat_mu", grip_tyre_def, simple.lateral.mu, "", 0.05, 10, "tyre.simple.mu"),
    D(S_TYRE, "lat_e", grip_tyre_def, simple.lateral.e, "", -10, 1, "tyre.simple.e"),
    D(S_TYRE, "lat_slide_gain", grip_tyre_def, simple.lateral.slide_gain, "1/rad", 0, 2, "tyre.simple.slide_gain"),
    D(S_TYRE, "nominal_load", grip_tyre_def, simple.nominal_load, "N", 10, 1e6, "tyre.simple.nominal_load"),
    D(S_TYRE, "load_sensitivity", grip_tyre_def, simple.load_sensitivity, "", 0, 5, "tyre.simple.load_sensitivity"),
    D(S_TYRE, "pneumatic_trail", grip_tyre_def, simple.pneumatic_trail, "m", 0, 1, "tyre.simple.pneumatic_trail"),
    D(S_TYRE, "relaxation_x", grip_tyre_def, relaxation_length_x, "m", 0.005, 10, "tyre.relaxation_length_x"),
    D(S_TYRE, "relaxation_y", grip_tyre_def, relaxation_length_y, "m", 0.005, 10, "tyre.relaxation_length_y"),
    D(S_TYRE, "low_speed_damping", grip_tyre_def, low_speed_damping, "N*s/m", 0, 1e6, "tyre.low_speed_damping"),
    D(S_TYRE, "low_speed", grip_tyre_def, low_speed, "m/s", 0.01, 100, "tyre.low_speed"),
    D(S_TYRE, "rolling_resistance", grip_tyre_def, rolling_resistance, "", 0, 100, "tyre.rolling_resistance"),

    D(S_AERO, "cd", grip_aero_def, drag_coefficient, "", 0, 10, "aero.drag_coefficient"),
    D(S_AERO, "frontal_area", grip_aero_def, frontal_area, "m^2", 0, 100, "aero.frontal_area"),
    D(S_AERO, "cl_front", grip_aero_def, lift_coefficient_front, "", -20, 20, "aero.lift_coefficient_front"),
    D(S_AERO, "cl_rear", grip_aero_def, lift_coefficient_rear, "", -20, 20, "aero.lift_coefficient_rear"),
    D(S_AERO, "cp_z", grip_aero_def, center_of_pressure_z, "m", -5, 10, "aero.center_of_pressure_z"),
    D(S_AERO, "ground_effect_gain", grip_aero_def, ground_effect_gain, "", 0, 10, "aero.ground_effect_gain"),
    D(S_AERO, "ground_effect_height", grip_aero_def, ground_effect_height, "m", 0, 10, "aero.ground_effect_height"),
    D(S_AERO, "ride_height", grip_aero_def, ride_height, "m", 0, 2, "aero.ride_height"),
    X(S_AERO, "wings", K_WINGS, 0, "", 0, GRIP_MAX_WINGS),

    D(S_WING, "area", grip_wing_def, area, "m^2", 0, 100, "aero.wings.area"),
    DS(S_WING, "angle", grip_wing_def, angle, DEG, "deg", "rad", -85.9, 85.9, "aero.wings.angle"),
    D(S_WING, "x", grip_wing_def, x, "m", -50, 50, NULL),
    D(S_WING, "z", grip_wing_def, z, "m", -50, 50, NULL),

    D(S_FUEL, "capacity", grip_fuel_def, capacity, "kg", 0, 1e5, "fuel.capacity"),
    D(S_FUEL, "mass", grip_fuel_def, mass, "kg", 0, 1e5, "fuel.mass"),
    D(S_FUEL, "x", grip_fuel_def, position.x, "m", -50, 50, NULL),
    D(S_FUEL, "y", grip_fuel_def, position.y, "m", -50, 50, NULL),
    D(S_FUEL, "z", grip_fuel_def, position.z, "m", -50, 50, NULL),

    D(S_ASSISTS, "grip_multiplier", grip_assist_def, grip_multiplier, "", 0.1, 10, "assists.grip_multiplier"),
    D(S_ASSISTS, "yaw_damping", grip_assist_def, yaw_damping, "N*m*s/rad", 0, 1e7, "assists.yaw_damping"),
    DS(S_ASSISTS, "max_roll", grip_assist_def, max_roll, DEG, "deg", "rad", 0, 183, "assists.max_roll"),
    DS(S_ASSISTS, "max_pitch", grip_assist_def, max_pitch, DEG, "deg", "rad", 0, 183, "assists.max_pitch"),
    D(S_ASSISTS, "steering_assist", grip_assist_def, steering_assist, "", 0, 1, "assists.steering_assist"),

    D(S_SOUND, "cylinders", grip_car_sound, cylinders, "", 1, 16, NULL),
    D(S_SOUND, "strokes", grip_car_sound, strokes, "", 2, 4, NULL),
    D(S_SOUND, "character", grip_car_sound, character, "", 0, 1, NULL),
    D(S_SOUND, "volume", grip_car_sound, volume, "", 0, 1, NULL),
    D(S_COUPLING, "x", grip_coupling_def, point.x, "m", -50, 50, "coupling.point.x"),
    D(S_COUPLING, "y", grip_coupling_def, point.y, "m", -50, 50, "coupling.point.y"),
    D(S_COUPLING, "z", grip_coupling_def, point.z, "m", -5, 10, "coupling.point.z"),
    X(S_COUPLING, "hitch", K_HITCH, 0, "", 0, 0),
    X(S_TRAILER, "file", K_TRAILER, 0, "", 0, 0),
    D(S_TRAILER, "x", grip_car_trailer, tow_point.x, "m", -50, 50, NULL),
    D(S_TRAILER, "y", grip_car_trailer, tow_point.y, "m", -50, 50, NULL),
    D(S_TRAILER, "z", grip_car_trailer, tow_point.z, "m", -50, 50, NULL),
    X(S_VISUAL, "model", K_MODEL, 0, "", 0, 0),
    D(S_VISUAL, "scale", grip_car_visual, scale, "m", 1e-4, 1e4, NULL),
    D(S_VISUAL, "x", grip_car_visual, offset.x, "m", -50, 50, NULL),
    D(S_VISUAL, "y", grip_car_visual, offset.y, "m", -50, 50, NULL),
    D(S_VISUAL, "z", grip_car_visual, offset.z, "m", -50, 50, NULL),
    DS(S_VISUAL, "yaw", grip_car_visual, yaw, DEG, "deg", "rad", -360, 360, NULL),
    DS(S_VISUAL, "pitch", grip_car_visual, pitch, DEG, "deg", "rad", -360, 360, NULL),
    DS(S_VISUAL, "roll", grip_car_visual, roll, DEG, "deg", "rad", -360, 360, NULL),
    B(S_VISUAL, "y_up", grip_car_visual, y_up),
    X(S_VISUAL, "brake_lamps", K_LAMPS, 0, "", 0.001, 5),
    B(S_SYSTEMS, "abs", grip_systems_def, abs.enabled),
    D(S_SYSTEMS, "abs_target_slip", grip_systems_def, abs.target_slip, "", 0.02, 0.5, "systems.abs.target_slip"),
    D(S_SYSTEMS, "abs_slip_band", grip_systems_def, abs.slip_band, "", 0.005, 0.3, "systems.abs.slip_band"),
    D(S_SYSTEMS, "abs_rate", grip_systems_def, abs.modulation_rate, "1/s", 1, 1000, "systems.abs.modulation_rate"),
    D(S_SYSTEMS, "abs_min_speed", grip_systems_def, abs.min_speed, "m/s", 0, 30, "systems.abs.min_speed"),
    B(S_SYSTEMS, "tc", grip_systems_def, tc.enabled),
    D(S_SYSTEMS, "tc_target_slip", grip_systems_def, tc.target_slip, "", 0.02, 1, "systems.tc.target_slip"),
    D(S_SYSTEMS, "tc_slip_band", grip_systems_def, tc.slip_band, "", 0.005, 0.5, "systems.tc.slip_band"),
    D(S_SYSTEMS, "tc_rate", grip_systems_def, tc.torque_rate, "1/s", 0.1, 1000, "systems.tc.torque_rate"),
    D(S_SYSTEMS, "tc_brake_gain", grip_systems_def, tc.brake_gain, "N*m", 0, 1e6, "systems.tc.brake_gain"),
    D(S_SYSTEMS, "tc_min_speed", grip_systems_def, tc.min_speed, "m/s", 0.5, 30, "systems.tc.min_speed"),
    B(S_SYSTEMS, "esc", grip_systems_def, esc.enabled),
    DS(S_SYSTEMS, "esc_understeer_gradient", grip_systems_def, esc.understeer_gradient, DEG / 9.81, "deg/g",
       "rad*s^2/m", 0, 0.1 * 9.81 / DEG, "systems.esc.understeer_gradient"),
    D(S_SYSTEMS, "esc_friction", grip_systems_def, esc.friction, "", 0.1, 3, "systems.esc.friction"),
    D(S_SYSTEMS, "esc_deadband", grip_systems_def, esc.deadband, "rad/s", 0, 2, "systems.esc.deadband"),
    D(S_SYSTEMS, "esc_gain", grip_systems_def, esc.gain, "N*m*s/rad", 0, 1e7, "systems.esc.gain"),
    D(S_SYSTEMS, "esc_max_torque", grip_systems_def, esc.max_torque, "N*m", 0, 1e6, "systems.esc.max_torque"),
    D(S_SYSTEMS, "esc_min_speed", grip_systems_def, esc.min_speed, "m/s", 0, 50, "systems.esc.min_speed"),
    B(S_TYRE_STATE, "enabled", grip_tyre_state_def, enabled),
    D(S_TYRE_STATE, "initial_temperature", grip_tyre_state_def, initial_temperature, "K", 200, 500, "tyre_state.initial_temperature"),
    D(S_TYRE_STATE, "air_temperature", grip_tyre_state_def, air_temperature, "K", 200, 400, "tyre_state.air_temperature"),
    D(S_TYRE_STATE, "road_temperature", grip_tyre_state_def, road_temperature, "K", 200, 400, "tyre_state.road_temperature"),
    D(S_TYRE_STATE, "surface_heat_capacity", grip_tyre_state_def, surface_heat_capacity, "J/K", 1, 1e7, "tyre_state.surface_heat_capacity"),
    D(S_TYRE_STATE, "carcass_heat_capacity", grip_tyre_state_def, carcass_heat_capacity, "J/K", 1, 1e7, "tyre_state.carcass_heat_capacity"),
    D(S_TYRE_STATE, "gas_heat_capacity", grip_tyre_state_def, gas_heat_capacity, "J/K", 0.1, 1e6, "tyre_state.gas_heat_capacity"),
    D(S_TYRE_STATE, "surface_carcass_conductance", grip_tyre_state_def, surface_carcass_conductance, "W/K", 0, 1e5, "tyre_state.surface_carcass_conductance"),
    D(S_TYRE_STATE, "carcass_gas_conductance", grip_tyre_state_def, carcass_gas_conductance, "W/K", 0, 1e5, "tyre_state.carcass_gas_conductance"),
    D(S_TYRE_STATE, "road_conductance", grip_tyre_state_def, road_conductance, "W/K", 0, 1e5, "tyre_state.road_conductance"),
    D(S_TYRE_STATE, "convection_area", grip_tyre_state_def, convection_area, "m^2", 0, 100, "tyre_state.convection_area"),
    D(S_TYRE_STATE, "convection_h0", grip_tyre_state_def, convection_h0, "W/(m^2*K)", 0, 1e4, "tyre_state.convection_h0"),
    D(S_TYRE_STATE, "convection_h1", grip_tyre_state_def, convection_h1, "W/(m^2*K)", 0, 1e4, "tyre_state.convection_h1"),
    D(S_TYRE_STATE, "convection_exponent", grip_tyre_state_def, convection_exponent, "", 0, 2, "tyre_state.convection_exponent"),
    D(S_TYRE_STATE, "rolling_loss_to_surface", grip_tyre_state_def, rolling_loss_to_surface, "", 0, 1, "tyre_state.rolling_loss_to_surface"),
    D(S_TYRE_STATE, "optimum_temperature", grip_tyre_state_def, optimum_temperature, "K", 200, 600, "tyre_state.optimum_temperature"),
    D(S_TYRE_STATE, "window_width", grip_tyre_state_def, window_width, "K", 1, 1000, "tyre_state.window_width"),
    D(S_TYRE_STATE, "window_floor", grip_tyre_state_def, window_floor, "", 0.05, 1, "tyre_state.window_floor"),
    DS(S_TYRE_STATE, "pressure", grip_tyre_state_def, pressure, 1e3, "kPa", "Pa", 0, 1e4, "tyre_state.pressure"),
    D(S_TYRE_STATE, "pressure_temperature", grip_tyre_state_def, pressure_temperature, "K", 200, 500, "tyre_state.pressure_temperature"),
    DS(S_TYRE_STATE, "tread_depth", grip_tyre_state_def, tread_depth, 1e-3, "mm", "m", 0.1, 100, "tyre_state.tread_depth"),
    DS(S_TYRE_STATE, "wear_rate", grip_tyre_state_def, wear_rate, 1e-9, "mm^3/J", "m^3/J", 0, 1000, "tyre_state.wear_rate"),
    D(S_TYRE_STATE, "wear_grip_loss", grip_tyre_state_def, wear_grip_loss, "", 0, 0.9, "tyre_state.wear_grip_loss"),
};
enum { KEY_COUNT = (int)(sizeof keys / sizeof keys[0]) };

int grip_car_key_info(int index, const char **section, const char **key, const char **unit) {
  if (index < 0 || index >= KEY_COUNT) return -1;
  static const char *const first_names[S_COUNT] = {
      [S_CAR] = "car", [S_BODY] = "body", [S_ENGINE] = "engine", [S_CLUTCH] = "clutch",
      [S_GEARBOX] = "gearbox", [S_DRIVETRAIN] = "drivetrain", [S_DIFF] = "diff.front",
      [S_BRAKES] = "brakes", [S_STEERING] = "steering", [S_INPUT] = "input_filter",
      [S_AXLE] = "axle.front", [S_TYRE] = "tyre.front", [S_AERO] = "aero", [S_WING] = "wing.1",
      [S_FUEL] = "fuel", [S_ASSISTS] = "assists", [S_SOUND] = "sound", [S_VISUAL] = "visual",
      [S_SYSTEMS] = "systems", [S_TYRE_STATE] = "tyre_state", [S_COUPLING] = "coupling", [S_TRAILER] = "trailer"};
  if (section) *section = first_names[keys[index].sec];
  if (key) *key = keys[index].key;
  if (unit) *unit = keys[index].unit;
  return 0;
}

/* Address of section instance inst within a definition. */
static void *section_base(grip_vehicle_def *d, sec_kind s, int inst) {
  switch (s) {
    case S_BODY: return &d->body;
    case S_ENGINE: return &d->engine;
    case S_CLUTCH: return &d->clutch;
    case S_GEARBOX: return &d->gearbox;
    case S_DRIVETRAIN: return &d->drivetrain;
    case S_DIFF:
      return inst == 0   ? &d->drivetrain.front
             : inst == 1 ? &d->drivetrain.rear
             : inst == 2 ? &d->drivetrain.centre
                         : &d->drivetrain.diffs[inst - TREE_DIFF_FIRST];
    case S_BRAKES: return &d->brakes;
    case S_STEERING: return &d->steering;
    case S_INPUT: return &d->input_filter;
    case S_AXLE: return &d->axles[inst];
    case S_TYRE: return &d->axles[inst].tyre;
    case S_AERO: return &d->aero;
    case S_WING: return &d->aero.wings[inst];
    case S_FUEL: return &d->fuel;
    case S_ASSISTS: return &d->assists;
    case S_SYSTEMS: return &d->systems;
    case S_TYRE_STATE: return &d->tyre_state;
    case S_COUPLING: return &d->coupling;
    default: return NULL;
  }
}

static const char *const layout_names[] = {"rwd", "fwd", "awd", "tree", "none"};
static const char *const diff_names[] = {"open", "locked", "lsd", "viscous"};

/* --- small helpers -------------------------------------------------------------------------- */

static int same_text(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static void copy_text(char *dst, size_t n, const char *src) {
  if (n == 0) return;
  size_t k = strlen(src);
  if (k >= n) k = n - 1;
  memcpy(dst, src, k);
  dst[k] = '\0';
}

/* Reads a whole file (at most CAR_MAX_BYTES) into a NUL-terminated heap buffer. */
static char *read_file(const char *path, grip_load_error *err) {
  return grip_read_file(path, CAR_MAX_BYTES, NULL, err);
}

/* --- parser state ---------------------------------------------------------------------------- */

typedef struct parser {
  grip_car *car;
  const char *name;  /* file name for messages */
  const char *dir;   /* directory for relative paths, NULL = cwd */
  int depth;
  grip_load_error err; /* first handler error */
  grip_ini_lines src; /* line reader: src.line is the line being handled */
  /* per-file bookkeeping */
  int key_line[KEY_COUNT][MAX_INSTANCES];
  char inputs[GRIP_MAX_DIFFS][2][24]; /* [diff.N] inputs as written, resolved at the end */
  int inputs_line[GRIP_MAX_DIFFS];
  int any_key;
  char warned_section[64];
  int cont_key, cont_inst; /* list key whose last line ended with ',' (-1 none) */
  int torque_count, ratio_count;
  int torque_line, ratio_line;
  double curve[5];
  int curve_line[5];
  int wings_key, wings_line, wing_seen;
  int name_given;
  bool as_trailer;        /* this file is read as another one's [trailer] */
  int axles, axles_line;  /* [car] axles, 0 = not given */
  int highest_axle;       /* highest [axle.N]/[tyre.N] this file names, 1-based */
  int trailer_given;      /* line of the first [trailer] key, 0 = none */
  int trailer_file_line;  /* line of trailer.file */
} parser;

static void warn(parser *ps, const char *fmt, const char *a, const char *b) {
  grip_car *c = ps->car;
  if (c->warning_count >= GRIP_CAR_MAX_WARNINGS) {
    c->warnings_dropped++;
    return;
  }
  char what[400];
  if (snprintf(what, sizeof what, fmt, a, b) < 0) what[0] = '\0';
  char *dst = c->warnings[c->warning_count++];
  if (snprintf(dst, sizeof c->warnings[0], "%s:%d: %s", ps->name, ps->src.line, what) < 0) dst[0] = '\0';
}

/* inih reader: one physical line per call, leading blanks removed (so indentation never turns
 * into inih's multi-line continuation), lines longer than inih's buffer flagged. */
static char *reader(char *str, int num, void *stream) {
  parser *ps = stream;
  return grip_ini_lines_read(str, num, &ps->src);
}

/* A file named relative to the car file's folder (a model, a trailer): it must exist and be a
   regular file; `out` gets its absolute path so the car can be used from any working folder.
   Returns 0 with the error set on failure. */
static int resolve_existing_file(parser *ps, const char *key, const char *value, char *out, size_t out_size) {
  char path[GRIP_CAR_PATH_MAX];
  struct stat st;
  char resolved[PATH_MAX];
  if (!value[0] || grip_join_path(ps->dir, value, path, sizeof path)) {
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key, "bad path '%s'", value);
    return 0;
  }
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key, "'%s': no such file", path);
    return 0;
  }
  if (!realpath(path, resolved)) copy_text(resolved, sizeof resolved, path);
  if (strlen(resolved) >= out_size) {
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key, "path too long");
    return 0;
  }
  copy_text(out, out_size, resolved);
  return 1;
}

#define FAIL(key_, ...)                                                            \
  do {                                                                             \
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key_, __VA_ARGS__);          \
    return 0;                                                                      \
  } while (0)

static int find_section(const char *section, int *inst) {
  for (int s = 0; s < S_COUNT; ++s) {
    const section_desc *d = &sections[s];
    size_t n = strlen(d->name);
    if (d->instances == 1) {
      if (same_text(section, d->name)) {
        *inst = 0;
        return s;
      }
      continue;
    }
    if (strncmp(section, d->name, n) != 0 || section[n] != '.') continue;
    for (int i = 0; i < d->instances; ++i)
      if (same_text(section + n + 1, d->inst[i]) ||
          (s == S_DIFF && i == 2 && same_text(section + n + 1, "center")) ||
          ((s == S_AXLE || s == S_TYRE) && i < 2 && same_text(section + n + 1, i == 0 ? "1" : "2"))) {
        *inst = i;
        return s;
      }
  }
  return S_NONE;
}

static int load_into(const char *text, const char *name, const char *dir, grip_car *car, int depth,
                     bool as_trailer, grip_load_error *err);
static int car_load(const char *path, grip_car *out, bool as_trailer, grip_load_error *err);

/* Parses a number for key k into *si (SI units), checking the range. */
static int parse_key_number(parser *ps, const key_desc *k, const char *full, const char *value, double *si) {
  double v;
  const char *rest = NULL;
  int rc = grip_scan_number(value, &v, &rest);
  if (rc == -2) FAIL(full, "'%s' is out of range (allowed %g .. %g%s%s)", value, k->min, k->max, *k->unit ? " " : "", k->unit);
  if (rc) FAIL(full, "'%s' is not a number", value);
  while (*rest == ' ' || *rest == '\t') ++rest;
  double scale = k->scale;
  if (*rest) {
    if (*k->unit && strcmp(rest, k->unit) == 0) {
      /* file unit */
    } else if (*k->si_unit && strcmp(rest, k->si_unit) == 0) {
      scale = 1.0;
    } else {
      FAIL(full, "'%s' is not a number%s%s", value, *k->unit ? " in " : "", k->unit);
    }
  }
  double file_value = scale == 1.0 ? v / k->scale : v;
  if (!(file_value >= k->min && file_value <= k->max))
    FAIL(full, "%g is out of range (allowed %g .. %g%s%s)", file_value, k->min, k->max, *k->unit ? " " : "",
         k->unit);
  *si = v * scale;
  return 1;
}

/* A whole number lo..hi and nothing after it. */
static bool whole_number(const char *value, int lo, int hi, int *out) {
  double v;
  const char *rest;
  if (grip_scan_number(value, &v, &rest) || *rest || v != floor(v) || v < lo || v > hi) return false;
  *out = (int)v;
  return true;
}

static int parse_bool(const char *v, bool *out) {
  if (same_text(v, "yes") || same_text(v, "true") || same_text(v, "on") || strcmp(v, "1") == 0) {
    *out = true;
    return 1;
  }
  if (same_text(v, "no") || same_text(v, "false") || same_text(v, "off") || strcmp(v, "0") == 0) {
    *out = false;
    return 1;
  }
  return 0;
}

/* Appends the comma-separated items of value to the torque curve or the ratio list. */
static int parse_list(parser *ps, const key_desc *k, const char *full, const char *value) {
  grip_vehicle_def *d = &ps->car->def;
  char buf[256];
  copy_text(buf, sizeof buf, value);
  size_t n = strlen(buf);
  int continues = n > 0 && buf[n - 1] == ',';
  if (continues) buf[--n] = '\0';
  char *save = NULL;
  int items = 0;
  for (char *item = buf;; item = NULL) {
    char *tok = item ? item : save;
    if (!tok) break;
    char *comma = strchr(tok, ',');
    if (comma) {
      *comma = '\0';
      save = comma + 1;
    } else {
      save = NULL;
    }
    while (*tok == ' ' || *tok == '\t') ++tok;
    char *end = tok + strlen(tok);
    while (end > tok && (end[-1] == ' ' || end[-1] == '\t')) *--end = '\0';
    if (!*tok) FAIL(full, "empty list item");
    ++items;
    if (k->type == K_RATIOS) {
      double r;
      const char *rest;
      int rc = grip_scan_number(tok, &r, &rest);
      if (rc || *rest) FAIL(full, "'%s' is not a number", tok);
      if (!(r >= k->min && r <= k->max)) FAIL(full, "gear ratio %g is out of range (allowed %g .. %g)", r, k->min, k->max);
      if (ps->ratio_count >= GRIP_MAX_GEARS) FAIL(full, "more than %d forward gears", GRIP_MAX_GEARS);
      d->gearbox.ratios[ps->ratio_count++] = r;
    } else if (k->type == K_LAMPS) {
      double v[4];
      const char *rest = tok;
      for (int j = 0; j < 4; ++j)
        if (grip_scan_number(rest, &v[j], &rest)) FAIL(full, "'%s' is not a lamp 'x y z radius' (model units)", tok);
      while (*rest == ' ' || *rest == '\t') ++rest;
      if (*rest) FAIL(full, "'%s' is not a lamp 'x y z radius' (model units)", tok);
      for (int j = 0; j < 3; ++j)
        if (!(fabs(v[j]) <= 50.0)) FAIL(full, "lamp position %g is out of range (allowed -50 .. 50)", v[j]);
      if (!(v[3] >= k->min && v[3] <= k->max))
        FAIL(full, "lamp radius %g is out of range (allowed %g .. %g)", v[3], k->min, k->max);
      grip_car_visual *vis = &ps->car->visual;
      if (vis->brake_lamp_count >= GRIP_CAR_MAX_LIGHTS) FAIL(full, "more than %d lamps", GRIP_CAR_MAX_LIGHTS);
      vis->brake_lamps[vis->brake_lamp_count++] = (grip_car_lamp){{v[0], v[1], v[2]}, v[3]};
    } else {
      double rpm, tq;
      const char *rest;
      int rc = grip_scan_number(tok, &rpm, &rest);
      while (rc == 0 && (*rest == ' ' || *rest == '\t')) ++rest;
      if (rc || *rest != ':') FAIL(full, "'%s' is not an rpm:N*m pair", tok);
      rc = grip_scan_number(rest + 1, &tq, &rest);
      while (rc == 0 && (*rest == ' ' || *rest == '\t')) ++rest;
      if (rc || *rest) FAIL(full, "'%s' is not an rpm:N*m pair", tok);
      if (!(rpm >= 0 && rpm <= 30000)) FAIL(full, "rpm %g is out of range (allowed 0 .. 30000 rpm)", rpm);
      if (!(tq >= 0 && tq <= 1e5)) FAIL(full, "torque %g is out of range (allowed 0 .. 100000 N*m)", tq);
      if (ps->torque_count >= GRIP_MAX_CURVE_POINTS) FAIL(full, "more than %d points", GRIP_MAX_CURVE_POINTS);
      if (ps->torque_count > 0 && !(rpm > d->engine.curve_rpm[ps->torque_count - 1]))
        FAIL(full, "rpm %g does not increase (previous point %g rpm)", rpm, d->engine.curve_rpm[ps->torque_count - 1]);
      d->engine.curve_rpm[ps->torque_count] = rpm;
      d->engine.curve_torque[ps->torque_count] = tq;
      ps->torque_count++;
    }
  }
  if (k->type == K_LAMPS && continues) FAIL(full, "the lamps stay on one line (no ',' at its end)");
  if (!items && !continues) FAIL(full, "empty list");
  ps->cont_key = continues ? (int)(k - keys) : -1;
  return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  parser *ps = user;
  grip_vehicle_def *d = &ps->car->def;
  if (ps->err.message[0]) return 0; /* keep the first error only */
  int inst = 0;
  int s = find_section(section, &inst);
  char full[160];
  snprintf(full, sizeof full, "%s.%s", section, name);

  /* Continuation of a torque list whose previous line ended with ','. inih splits the line
   * "2000:410, 2500:430" at its first ':' into name "2000" and value "410, 2500:430". */
  if (ps->cont_key >= 0) {
    const key_desc *k = &keys[ps->cont_key];
    char joined[256];
    snprintf(joined, sizeof joined, "%s:%s", name, value);
    snprintf(full, sizeof full, "%s.%s", section, k->key);
    if (s == (int)k->sec && isdigit((unsigned char)name[0])) return parse_list(ps, k, full, joined);
    FAIL(full, "list ends with ',' but the next line does not continue it");
  }

  if (!section[0]) FAIL(name, "key outside any [section]");
  if (s == S_NONE) {
    if (strcmp(ps->warned_section, section) != 0) {
      copy_text(ps->warned_section, sizeof ps->warned_section, section);
      int line = ps->src.line;
      ps->src.line = ps->src.section_line ? ps->src.section_line : line;
      warn(ps, "[%s]: unknown section, ignored%s", section, "");
      ps->src.line = line;
    }
    return 1;
  }
  int ki = -1;
  for (int i = 0; i < KEY_COUNT; ++i)
    if ((int)keys[i].sec == s && strcmp(keys[i].key, name) == 0) {
      ki = i;
      break;
    }
  if (ki < 0) {
    warn(ps, "%s: unknown key, ignored", full, "");
    return 1;
  }
  const key_desc *k = &keys[ki];
  if ((s == S_AXLE || s == S_TYRE) && inst + 1 > ps->highest_axle) ps->highest_axle = inst + 1;
  if ((s == S_AXLE || s == S_TYRE) && inst >= d->axle_count) {
    /* A new axle starts as a copy of the one before it (give its x). */
    for (int a = d->axle_count; a <= inst; ++a) {
      d->axles[a] = d->axles[a - 1];
      ps->car->tyre_params[a] = ps->car->tyre_params[a - 1];
      copy_text(ps->car->tir_path[a], sizeof ps->car->tir_path[a], ps->car->tir_path[a - 1]);
      grip_tyre_def *t = &d->axles[a].tyre;
      t->mf = t->model == GRIP_TYRE_FULL_MF ? &ps->car->tyre_params[a] : NULL;
    }
    d->axle_count = inst + 1;
  }
  if (s == S_DIFF && inst >= TREE_DIFF_FIRST && inst - TREE_DIFF_FIRST >= d->drivetrain.diff_count) {
    /* A new tree differential starts open with an even split. */
    for (int k2 = d->drivetrain.diff_count; k2 <= inst - TREE_DIFF_FIRST; ++k2) {
      grip_diff_def *x = &d->drivetrain.diffs[k2];
      *x = d->drivetrain.rear;
      x->type = GRIP_DIFF_OPEN;
      x->front_split = 0.5;
      x->inputs[0] = x->inputs[1] = (grip_drive_input){GRIP_DRIVE_INPUT_DIFF, -1};
    }
    d->drivetrain.diff_count = inst - TREE_DIFF_FIRST + 1;
  }
  if (ps->key_line[ki][inst]) FAIL(full, "given twice (first on line %d)", ps->key_line[ki][inst]);
  ps->key_line[ki][inst] = ps->src.line;
  if (k->type == K_BASE) {
    if (ps->any_key) FAIL(full, "must be the first key of the file");
  }
  ps->any_key = 1;
  void *base = s == S_SOUND      ? (void *)&ps->car->sound
               : s == S_VISUAL   ? (void *)&ps->car->visual
               : s == S_TRAILER  ? (void *)&ps->car->trailer
                                 : section_base(d, (sec_kind)s, inst);
  if (s == S_COUPLING) d->coupling.enabled = true;
  if (s == S_TRAILER) ps->trailer_given = ps->trailer_given ? ps->trailer_given : ps->src.line;
  switch (k->type) {
    case K_DOUBLE: {
      double v;
      if (!parse_key_number(ps, k, full, value, &v)) return 0;
      if (s == S_SOUND && k->offset != offsetof(grip_car_sound, character) &&
          k->offset != offsetof(grip_car_sound, volume) && v != floor(v))
        FAIL(full, "%g is not a whole number", v);
      if (s == S_SOUND && k->offset == offsetof(grip_car_sound, strokes) && v != 2.0 && v != 4.0)
        FAIL(full, "%g strokes (allowed: 2 or 4)", v);
      *(double *)((char *)base + k->offset) = v;
      return 1;
    }
    case K_BOOL: {
      bool b;
      if (!parse_bool(value, &b)) FAIL(full, "'%s' is not yes or no", value);
      *(bool *)((char *)base + k->offset) = b;
      return 1;
    }
    case K_INPUTS: {
      if (inst < TREE_DIFF_FIRST) FAIL(full, "only a tree's differentials ([diff.1] .. [diff.15]) name inputs");
      const char *comma = strchr(value, ',');
      int di = inst - TREE_DIFF_FIRST;
      for (int j = 0; j < 2; ++j) {
        const char *from = j == 0 ? value : (comma ? comma + 1 : "");
        size_t len = j == 0 ? (comma ? (size_t)(comma - value) : strlen(value)) : strlen(from);
        while (len && isspace((unsigned char)*from)) ++from, --len;
        while (len && isspace((unsigned char)from[len - 1])) --len;
        if (!comma || !len || len >= sizeof ps->inputs[0][0] || (j == 1 && strchr(from, ',')))
          FAIL(full, "'%s' is not two inputs (diff.N, axle.N.left, axle.N.right or axle.N, comma-separated)", value);
        memcpy(ps->inputs[di][j], from, len);
        ps->inputs[di][j][len] = '\0';
      }
      ps->inputs_line[di] = ps->src.line;
      return 1;
    }
    case K_STEERED: {
      bool b;
      if (!parse_bool(value, &b)) FAIL(full, "'%s' is not yes or no", value);
      *(double *)((char *)base + k->offset) = b ? 1.0 : 0.0;
      return 1;
    }
    case K_NAME:
      if (!value[0]) FAIL(full, "empty name");
      if (strlen(value) >= sizeof ps->car->name) FAIL(full, "longer than %d characters", (int)sizeof ps->car->name - 1);
      copy_text(ps->car->name, sizeof ps->car->name, value);
      ps->name_given = 1;
      return 1;
    case K_BASE: {
      if (ps->depth >= CAR_MAX_DEPTH) FAIL(full, "bases nested deeper than %d (a cycle?)", CAR_MAX_DEPTH);
      char path[GRIP_CAR_PATH_MAX];
      if (!value[0] || grip_join_path(ps->dir, value, path, sizeof path)) FAIL(full, "bad path '%s'", value);
      grip_load_error sub;
      grip_load_error_clear(&sub);
      char *text = read_file(path, &sub);
      if (!text) FAIL(full, "%s", sub.message);
      char subdir[GRIP_CAR_PATH_MAX];
      grip_dir_of(path, subdir, sizeof subdir);
      int rc = load_into(text, path, subdir, ps->car, ps->depth + 1, ps->as_trailer, &sub);
      free(text);
      if (rc) FAIL(full, "in base: %s", sub.message);
      return 1;
    }
    case K_TORQUE:
      ps->torque_count = 0;
      ps->torque_line = ps->src.line;
      return parse_list(ps, k, full, value);
    case K_RATIOS:
      ps->ratio_count = 0;
      ps->ratio_line = ps->src.line;
      return parse_list(ps, k, full, value);
    case K_CURVE: {
      double v;
      const char *rest;
      int rc = grip_scan_number(value, &v, &rest);
      while (rc == 0 && (*rest == ' ' || *rest == '\t')) ++rest;
      if (rc || *rest) FAIL(full, "'%s' is not a number", value);
      if (!(v >= k->min && v <= k->max)) FAIL(full, "%g is out of range (allowed %g .. %g%s%s)", v, k->min, k->max, *k->unit ? " " : "", k->unit);
      if (k->offset == 4 && v != floor(v)) FAIL(full, "'%s' is not a whole number", value);
      ps->curve[k->offset] = v;
      ps->curve_line[k->offset] = ps->src.line;
      return 1;
    }
    case K_LAYOUT:
      for (int i = 0; i < 5; ++i)
        if (same_text(value, layout_names[i]) || (i == 2 && same_text(value, "4wd"))) {
          d->drivetrain.layout = (grip_drive_layout)i;
          return 1;
        }
      FAIL(full, "'%s' is not rwd, fwd, awd, tree or none", value);
    case K_DIFF_TYPE:
      for (int i = 0; i < 4; ++i)
        if (same_text(value, diff_names[i])) {
          ((grip_diff_def *)base)->type = (grip_diff_type)i;
          return 1;
        }
      FAIL(full, "'%s' is not open, locked, lsd or viscous", value);
    case K_TIR: {
      grip_tyre_def *t = base;
      if (!value[0]) {
        t->model = GRIP_TYRE_SIMPLE_MF;
        t->mf = NULL;
        ps->car->tir_path[inst][0] = '\0';
        return 1;
      }
      char path[GRIP_CAR_PATH_MAX];
      if (grip_join_path(ps->dir, value, path, sizeof path)) FAIL(full, "path too long");
      grip_load_error sub;
      grip_load_error_clear(&sub);
      grip_mf_params params;
      if (grip_tir_load(path, &params, &sub)) FAIL(full, "%s", sub.message);
      ps->car->tyre_params[inst] = params;
      char resolved[PATH_MAX];
      if (realpath(path, resolved)) copy_text(ps->car->tir_path[inst], sizeof ps->car->tir_path[inst], resolved);
      else copy_text(ps->car->tir_path[inst], sizeof ps->car->tir_path[inst], path);
      t->model = GRIP_TYRE_FULL_MF;
      t->mf = &ps->car->tyre_params[inst];
      return 1;
    }
    case K_LAMPS:
      ps->car->visual.brake_lamp_count = 0;
      if (!value[0]) return 1;
      return parse_list(ps, k, full, value);
    case K_MODEL: {
      if (!value[0]) {
        ps->car->visual.model[0] = '\0';
        return 1;
      }
      if (!resolve_existing_file(ps, full, value, ps->car->visual.model, sizeof ps->car->visual.model)) return 0;
      return 1;
    }
    case K_HITCH:
      if (same_text(value, "ball")) ps->car->coupling_fifth_wheel = false;
      else if (same_text(value, "fifth_wheel")) ps->car->coupling_fifth_wheel = true;
      else FAIL(full, "'%s' is not a hitch (allowed: ball, fifth_wheel)", value);
      return 1;
    case K_TRAILER: {
      if (ps->as_trailer) FAIL(full, "a trailer cannot tow another here (chain trailers in a scene with tow =)");
      if (!resolve_existing_file(ps, full, value, ps->car->trailer.file, sizeof ps->car->trailer.file)) return 0;
      ps->trailer_file_line = ps->src.line;
      return 1;
    }
    case K_AXLES: {
      int count;
      if (!whole_number(value, 1, GRIP_MAX_AXLES, &count))
        FAIL(full, "'%s' is not a whole number within 1 .. %d", value, GRIP_MAX_AXLES);
      if (ps->highest_axle) FAIL(full, "give it before any [axle.N] or [tyre.N] section");
      ps->axles = count;
      ps->axles_line = ps->src.line;
      /* The axle list restarts from the base's first axle: each [axle.N] named after it starts as
       * a copy of the one before it (the rest are added as copies at the end of the file). */
      d->axle_count = 1;
      return 1;
    }
    case K_WINGS: {
      int count;
      if (!whole_number(value, 0, GRIP_MAX_WINGS, &count))
        FAIL(full, "'%s' is not a whole number within 0 .. %d", value, GRIP_MAX_WINGS);
      ps->wings_key = count;
      ps->wings_line = ps->src.line;
      return 1;
    }
  }
  return 1;
}

/* A tree differential's input as a file names it: diff.N (1-based), axle.N.left, axle.N.right
 * (an axle of two wheels) or axle.N (an axle of one wheel). */
static bool resolve_input(const grip_vehicle_def *d, const char *text, grip_drive_input *out) {
  int n = 0, used = 0;
  if (sscanf(text, "diff.%d%n", &n, &used) == 1 && text[used] == '\0') {
    if (n < 1 || n > GRIP_MAX_DIFFS) return false;
    *out = (grip_drive_input){GRIP_DRIVE_INPUT_DIFF, n - 1};
    return true;
  }
  if (sscanf(text, "axle.%d%n", &n, &used) != 1 || n < 1 || n > d->axle_count) return false;
  int first = 0;
  for (int a = 0; a < n - 1; ++a) first += d->axles[a].half_track > 0.0 ? 2 : 1;
  bool pair = d->axles[n - 1].half_track > 0.0;
  const char *side = text + used;
  if (pair && same_text(side, ".left")) *out = (grip_drive_input){GRIP_DRIVE_INPUT_WHEEL, first};
  else if (pair && same_text(side, ".right")) *out = (grip_drive_input){GRIP_DRIVE_INPUT_WHEEL, first + 1};
  else if (!pair && side[0] == '\0') *out = (grip_drive_input){GRIP_DRIVE_INPUT_WHEEL, first};
  else return false;
  return true;
}

/* Line where a validate field was set in this file (0 if none), and its key name. */
static int line_of_field(const parser *ps, const char *field, char *full, size_t n) {
  int best = 0;
  for (int i = 0; i < KEY_COUNT; ++i) {
    if (!keys[i].vfield || strcmp(keys[i].vfield, field) != 0) continue;
    const section_desc *sd = &sections[keys[i].sec];
    for (int j = 0; j < sd->instances; ++j)
      if (ps->key_line[i][j] > best) {
        best = ps->key_line[i][j];
        if (sd->instances == 1) snprintf(full, n, "%s.%s", sd->name, keys[i].key);
        else snprintf(full, n, "%s.%s.%s", sd->name, sd->inst[j], keys[i].key);
      }
  }
  return best;
}

/* Parses text on top of car->def; depth 0 is the file asked for. */
static int load_into(const char *text, const char *name, const char *dir, grip_car *car, int depth,
                     bool as_trailer, grip_load_error *err) {
  parser *ps = calloc(1, sizeof *ps);
  if (!ps) {
    grip_load_error_set(err, name, 0, NULL, "out of memory");
    return -1;
  }
  ps->car = car;
  ps->name = name;
  ps->dir = dir;
  ps->depth = depth;
  ps->as_trailer = as_trailer;
  ps->src.text = text;
  ps->cont_key = -1;
  ps->wings_key = -1;
  for (int i = 0; i < 5; ++i) ps->curve[i] = NAN;
  int rc = ini_parse_stream(reader, ps, handler, ps);
  grip_vehicle_def *d = &car->def;
  int result = -1;
  char full[160];
  if (grip_ini_outcome(rc, &ps->src, &ps->err, name, err)) {
    /* err is set */
  } else if (ps->cont_key >= 0) {
    grip_load_error_set(err, name, ps->src.line, keys[ps->cont_key].key, "list ends with ',' at the end of the file");
  } else {
    result = 0;
  }
  /* Whole-file checks that need every key. */
  if (result == 0 && ps->torque_line && ps->torque_count < 2) {
    grip_load_error_set(err, name, ps->torque_line, "engine.torque", "needs at least 2 rpm:N*m points");
    result = -1;
  }
  if (result == 0 && ps->torque_line) d->engine.curve_points = ps->torque_count;
  if (result == 0 && ps->ratio_line) d->gearbox.forward_gears = ps->ratio_count;
  /* [car] axles: the axles this file did not name are copies of the last one it did. */
  if (result == 0 && ps->axles_line) {
    if (ps->highest_axle > ps->axles) {
      grip_load_error_set(err, name, ps->axles_line, "car.axles", "%d, but [axle.%d] or [tyre.%d] is given", ps->axles,
                          ps->highest_axle, ps->highest_axle);
      result = -1;
    } else {
      for (int a = d->axle_count; a < ps->axles; ++a) {
        d->axles[a] = d->axles[a - 1];
        car->tyre_params[a] = car->tyre_params[a - 1];
        copy_text(car->tir_path[a], sizeof car->tir_path[a], car->tir_path[a - 1]);
      }
      d->axle_count = ps->axles;
      grip_car_fix_pointers(car);
    }
  }
  /* The tree's inputs, now that the axles (and so the wheels) are known. */
  for (int k = 0; result == 0 && k < GRIP_MAX_DIFFS; ++k) {
    if (!ps->inputs_line[k]) continue;
    char key[40];
    snprintf(key, sizeof key, "diff.%d.inputs", k + 1);
    for (int j = 0; result == 0 && j < 2; ++j)
      if (!resolve_input(d, ps->inputs[k][j], &d->drivetrain.diffs[k].inputs[j])) {
        grip_load_error_set(err, name, ps->inputs_line[k], key,
                            "'%s' is not diff.N (N 1..%d), axle.N.left/right (an axle of two wheels) or axle.N "
                            "(an axle of one wheel), N within the car's %d axles",
                            ps->inputs[k][j], GRIP_MAX_DIFFS, d->axle_count);
        result = -1;
      }
  }
  int curve_given = 0, first_curve = 0;
  for (int i = 0; i < 5; ++i)
    if (ps->curve_line[i]) {
      curve_given++;
      if (!first_curve || ps->curve_line[i] < first_curve) first_curve = ps->curve_line[i];
    }
  if (result == 0 && curve_given) {
    if (ps->torque_line) {
      grip_load_error_set(err, name, first_curve, "engine.peak_torque",
                          "give either torque = rpm:N*m pairs or the parametric curve, not both");
      result = -1;
    } else if (!ps->curve_line[0] || !ps->curve_line[1] || !ps->curve_line[2] || !ps->curve_line[3]) {
      grip_load_error_set(err, name, first_curve, "engine.peak_torque",
                          "the parametric curve needs peak_torque, peak_rpm, width_low and width_high");
      result = -1;
    } else {
      grip_torque_curve_params p = {.peak_torque = ps->curve[0], .peak_rpm = ps->curve[1],
                                    .width_low = ps->curve[2], .width_high = ps->curve[3],
                                    .min_rpm = d->engine.idle_rpm, .max_rpm = d->engine.rev_limit_rpm};
      int points = ps->curve_line[4] ? (int)ps->curve[4] : 16;
      if (grip_engine_curve_from_params(&d->engine, &p, points) != GRIP_OK) {
        grip_load_error_set(err, name, first_curve, "engine.peak_torque",
                            "parametric curve rejected (needs idle_rpm < limiter_rpm)");
        result = -1;
      }
    }
  }
  if (result == 0) {
    int seen = 0;
    for (int w = 0; w < GRIP_MAX_WINGS; ++w)
      for (int i = 0; i < KEY_COUNT; ++i)
        if (keys[i].sec == S_WING && ps->key_line[i][w]) seen = w + 1;
    if (ps->wings_key >= 0) {
      if (seen > ps->wings_key) {
        grip_load_error_set(err, name, ps->wings_line, "aero.wings", "%d, but [wing.%d] is given", ps->wings_key, seen);
        result = -1;
      }
      d->aero.wing_count = ps->wings_key;
    } else if (seen > d->aero.wing_count) {
      d->aero.wing_count = seen;
    }
  }
  if (result == 0 && ps->trailer_given && !car->trailer.file[0]) { /* neither this file nor its base names it */
    grip_load_error_set(err, name, ps->trailer_given, "trailer.file", "missing: [trailer] names its car file");
    result = -1;
  }
  if (result == 0 && ps->trailer_file_line) {
    /* The trailer must load and say where it couples; it is read again where it is used. */
    grip_car *trailer = malloc(sizeof *trailer);
    grip_load_error sub;
    grip_load_error_clear(&sub);
    if (!trailer) {
      grip_load_error_set(err, name, ps->trailer_file_line, "trailer.file", "out of memory");
      result = -1;
    } else if (car_load(car->trailer.file, trailer, true, &sub) != 0) {
      grip_load_error_set(err, name, ps->trailer_file_line, "trailer.file", "in trailer: %s", sub.message);
      result = -1;
    } else if (!trailer->def.coupling.enabled) {
      grip_load_error_set(err, name, ps->trailer_file_line, "trailer.file",
                          "'%s' has no [coupling] section (where it hangs on the hitch)", car->trailer.file);
      result = -1;
    }
    free(trailer);
  }
  if (result == 0 && depth == 0) {
    if (!ps->name_given) {
      /* the file's stem */
      const char *b = strrchr(name, '/');
      b = b ? b + 1 : name;
      copy_text(car->name, sizeof car->name, b);
      char *dot = strrchr(car->name, '.');
      if (dot && dot != car->name) *dot = '\0';
    }
    grip_car_fix_pointers(car);
    char message[400];
    /* Whether the car can move first: its message names the curve or gearing line that is at
       fault, where the core's own check would only name a field. */
    if (d->drivetrain.layout != GRIP_DRIVE_NONE && !grip_car_can_drive(d, message, sizeof message)) {
      /* Blame the torque curve where this file gave it, else the line that set the gearing. */
      int line = ps->torque_line;
      const char *key = "engine.torque";
      for (int i = 0; !line && i < 4; ++i) line = ps->curve_line[i], key = "engine.peak_torque";
      if (!line) line = ps->ratio_line, key = "gearbox.ratios";
      if (!line) line = line_of_field(ps, "clutch.max_torque", full, sizeof full), key = full;
      if (!line) line = line_of_field(ps, "body.mass", full, sizeof full), key = full;
      if (!line) key = "engine.torque";
      grip_load_error_set(err, name, line, key, "%s", message);
      result = -1;
    }
    if (result == 0 && grip_vehicle_def_validate(d, message, (int)sizeof message) != GRIP_OK) {
      char field[96];
      const char *colon = strstr(message, ": ");
      size_t fl = colon ? (size_t)(colon - message) : 0;
      if (fl >= sizeof field) fl = sizeof field - 1;
      memcpy(field, message, fl);
      field[fl] = '\0';
      full[0] = '\0';
      int line = line_of_field(ps, field, full, sizeof full);
      if (line)
        grip_load_error_set(err, name, line, full, "%s", colon ? colon + 2 : message);
      else
        grip_load_error_set(err, name, 0, NULL, "%s", message);
      result = -1;
    }
  }
  free(ps);
  return result;
}

/* --- whole-car checks --------------------------------------------------------------------------- */

#define CAR_G 9.81
#define CAR_ASPHALT_ROLLING 0.012 /* rolling-resistance coefficient of dry asphalt (grip_surface) */

/* Radius of the driven wheels (the larger, for an all-wheel drive: the smaller force). */
static int last_axle(const grip_vehicle_def *d) {
  return d->axle_count >= 1 && d->axle_count <= GRIP_MAX_AXLES ? d->axle_count - 1 : 0;
}

static double driven_radius(const grip_vehicle_def *d) {
  const double rf = d->axles[0].wheel_radius, rr = d->axles[last_axle(d)].wheel_radius;
  switch (d->drivetrain.layout) {
    case GRIP_DRIVE_FWD: return rf;
    case GRIP_DRIVE_RWD: return rr;
    default: return rf > rr ? rf : rr;
  }
}

static double peak_torque(const grip_engine_def *e) {
  double peak = 0.0;
  for (int i = 0; i < e->curve_points && i < GRIP_MAX_CURVE_POINTS; ++i)
    if (e->curve_torque[i] > peak) peak = e->curve_torque[i];
  return peak;
}

bool grip_car_can_drive(const grip_vehicle_def *d, char *why, size_t why_size) {
  double torque = peak_torque(&d->engine);
  if (!(torque > 0.0)) {
    snprintf(why, why_size, "the engine's torque curve is zero everywhere: the car can never move "
             "(allowed: a peak above 0 N*m)");
    return false;
  }
  double ratio = 0.0;
  for (int i = 0; i < d->gearbox.forward_gears && i < GRIP_MAX_GEARS; ++i)
    if (d->gearbox.ratios[i] > ratio) ratio = d->gearbox.ratios[i];
  double clutch = d->clutch.max_torque;
  double through = torque < clutch ? torque : clutch;
  double force = through * ratio * d->gearbox.final_drive * d->gearbox.efficiency / driven_radius(d);
  double f_tyre = 0.5 * (d->axles[0].tyre.rolling_resistance + d->axles[last_axle(d)].tyre.rolling_resistance);
  double resistance = f_tyre * CAR_ASPHALT_ROLLING * (d->body.mass + d->fuel.mass) * CAR_G;
  if (!(force > resistance)) {
    snprintf(why, why_size, "the engine can never move the car: its peak drive force %.4g N "
             "(%.4g N*m%s x lowest gear %.4g x final drive %.4g x efficiency %.3g / wheel radius "
             "%.3g m) is not above the rolling resistance %.4g N on asphalt (allowed: above it)",
             force, through, clutch < torque ? " at the clutch" : "", ratio,
             d->gearbox.final_drive, d->gearbox.efficiency, driven_radius(d), resistance);
    return false;
  }
  return true;
}

int grip_car_misbehaviour_warnings(const grip_vehicle_def *d, char (*out)[200], int max) {
  int n = 0;
#define CAR_WARN(...)                                        \
  do {                                                       \
    if (n < max) snprintf(out[n++], 200, __VA_ARGS__);       \
  } while (0)
  const double m = d->body.mass + d->fuel.mass, W = m * CAR_G;
  const int last = last_axle(d);
  const double xf = d->axles[0].x, xr = d->axles[last].x, cgx = d->body.center_of_mass.x;
  const double wheelbase = xf - xr;
  /* A trailer stands on its coupling too (the towing vehicle carries its nose). */
  const bool coupled = d->coupling.enabled;
  const double x_front = coupled && d->coupling.point.x > xf ? d->coupling.point.x : xf;
  const double x_rear = coupled && d->coupling.point.x < xr ? d->coupling.point.x : xr;
  /* 1. The centre of mass outside the supports: one carries negative static load. */
  if (!(cgx > x_rear && cgx < x_front))
    CAR_WARN("body.cg_x: the centre of mass (x = %.3g m) is not between the %s (%.3g .. %.3g m): "
             "the car tips over or lifts an axle at rest", cgx, coupled ? "axles and the coupling" : "axles",
             x_rear, x_front);
  double front_share = wheelbase > 0.0 ? (cgx - xr) / wheelbase : 0.5;
  if (front_share < 0.0) front_share = 0.0;
  if (front_share > 1.0) front_share = 1.0;
  double coupled_load[GRIP_MAX_AXLES] = {0};
  if (coupled) grip_vehicle_static_axle_loads(d, CAR_G, coupled_load);
  for (int a = 0; a <= last; a += last > 0 ? last : 1) { /* the first and the last axle */
    const grip_axle_def *ax = &d->axles[a];
    const char *axle = a == 0 ? "front" : "rear";
    double axle_load = coupled ? coupled_load[a] : W * (a == 0 ? front_share : 1.0 - front_share);
    double wheel_load = (ax->half_track > 0.0 ? 0.5 : 1.0) * axle_load;
    /* 2. Suspension stiff enough that the corner's natural frequency approaches what a 2 ms step
     *    resolves (above 25 Hz; cars are 1-5 Hz, karts without suspension about 10-20 Hz). */
    double corner_mass = wheel_load / CAR_G;
    double hz = corner_mass > 0.0 ? sqrt(ax->suspension.spring_rate / corner_mass) / (2.0 * 3.14159265358979) : 0.0;
    if (hz > 25.0)
      CAR_WARN("axle.%s.spring_rate: the corner's natural frequency is %.3g Hz (above 25 Hz): "
               "steps above about 2 ms may be unstable", axle, hz);
    /* 3. The simple tyre used far from its nominal load (the load sensitivity extrapolates). */
    if (ax->tyre.model == GRIP_TYRE_SIMPLE_MF) {
      double ratio = wheel_load / ax->tyre.simple.nominal_load;
      if (ratio > 3.0 || ratio < 0.2)
        CAR_WARN("tyre.%s.nominal_load: the static wheel load %.4g N is %.2g times the nominal "
                 "load %.4g N (grip is extrapolated outside 0.2 .. 3 times)", axle, wheel_load,
                 ratio, ax->tyre.simple.nominal_load);
    }
  }
  /* 4. Rollover before sliding: the static stability factor below the tyres' lateral friction.
   *    Under a lateral acceleration a the car tips about the side of its support polygon (the
   *    wheels' contact points in plan) when a/g exceeds w/h, w the polygon's half-width measured
   *    sideways at the CG's x and h the CG height: half the track for two equal axles, the
   *    tracks interpolated for unequal ones, (t/2)·(a/L) for a tricycle (docs/physics.md). The
   *    side is the upper convex envelope of (x, half_track) over the axles; at x_cg it is the
   *    highest chord between axles on either side of the CG. */
  double half_width = 0.0, x_cg = d->body.center_of_mass.x;
  /* The supports in plan: (x, half-width) of each axle, and a trailer's coupling (a point). */
  double support_x[GRIP_MAX_AXLES + 1], support_w[GRIP_MAX_AXLES + 1];
  int supports = 0;
  for (int i = 0; i < d->axle_count && i < GRIP_MAX_AXLES; ++i, ++supports)
    support_x[supports] = d->axles[i].x, support_w[supports] = d->axles[i].half_track;
  if (coupled) support_x[supports] = d->coupling.point.x, support_w[supports++] = 0.0;
  for (int i = 0; i < supports; ++i)
    for (int j = 0; j < supports; ++j) {
      double xa = support_x[i], xb = support_x[j], wa = support_w[i], wb = support_w[j];
      if (xa < x_cg || xb > x_cg) continue; /* a ahead of the CG, b behind it */
      double w = xa == xb ? fmax(wa, wb) : wb + (wa - wb) * (x_cg - xb) / (xa - xb);
      half_width = fmax(half_width, w);
    }
  double cg_height = d->body.center_of_mass.z; /* above the ground (design frame) */
  double mu = 0.5 * (d->axles[0].tyre.simple.lateral.mu + d->axles[last].tyre.simple.lateral.mu);
  if (d->axles[0].tyre.model == GRIP_TYRE_SIMPLE_MF && cg_height > 0.0 && half_width / cg_height < mu)
    CAR_WARN("body.cg_z: the wheels' half-width at the CG / CG height above the ground = %.3g is below "
             "the tyres' friction %.3g: the car rolls over before it slides", half_width / cg_height, mu);
  const bool engine = d->drivetrain.layout != GRIP_DRIVE_NONE; /* a trailer has none */
  /* 5. The automatic never shifts up: the upshift speed lies above the rev limiter. */
  if (engine && d->gearbox.automatic && d->gearbox.forward_gears > 1 && d->gearbox.upshift_rpm > 0.0 &&
      d->gearbox.upshift_rpm >= d->engine.rev_limit_rpm)
    CAR_WARN("gearbox.upshift_rpm: %.5g rpm is not below the rev limiter %.5g rpm: the automatic "
             "never shifts up", d->gearbox.upshift_rpm, d->engine.rev_limit_rpm);
  /* 6. Weak brakes: full braking gives less than 0.3 g (on grippy tyres). */
  double r_brake = 0.5 * (d->axles[0].wheel_radius + d->axles[last].wheel_radius);
  double decel = m > 0.0 ? d->brakes.max_torque / r_brake / m : 0.0;
  if (decel < 0.3 * CAR_G)
    CAR_WARN("brakes.max_torque: full braking gives at most %.2g m/s^2 (%.2g g, below 0.3 g)",
             decel, decel / CAR_G);
  /* 7. The car barely climbs: first gear's drive force gives under 5 % of g (a 5 % grade stops
   *    it), though it can move on the flat. */
  double ratio = 0.0;
  for (int i = 0; i < d->gearbox.forward_gears && i < GRIP_MAX_GEARS; ++i)
    if (d->gearbox.ratios[i] > ratio) ratio = d->gearbox.ratios[i];
  double torque = peak_torque(&d->engine);
  if (d->clutch.max_torque < torque) torque = d->clutch.max_torque;
  double accel = torque * ratio * d->gearbox.final_drive * d->gearbox.efficiency / driven_radius(d) / m;
  if (engine && accel < 0.05 * CAR_G)
    CAR_WARN("engine.torque: full throttle in first gear accelerates at most %.2g m/s^2 (under "
             "0.05 g): a 5 %% grade stops the car", accel);
#undef CAR_WARN
  return n;
}

/* --- public API ------------------------------------------------------------------------------ */

void grip_car_fix_pointers(grip_car *car) {
  car->def.name = car->name;
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) {
    grip_tyre_def *t = &car->def.axles[a].tyre;
    t->mf = t->model == GRIP_TYRE_FULL_MF ? &car->tyre_params[a] : NULL;
  }
}

void grip_car_default(grip_car *car) {
  memset(car, 0, sizeof *car);
  car->def = grip_default_vehicle_def();
  car->sound = (grip_car_sound){.cylinders = 8.0, .strokes = 4.0, .character = 0.5, .volume = 0.8};
  copy_text(car->name, sizeof car->name, car->def.name ? car->def.name : "corvette-c5");
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) grip_mf_default_params(&car->tyre_params[a]);
  car->visual.scale = 1.0;
  car->visual.y_up = true;
  grip_car_fix_pointers(car);
}

static int car_parse(const char *text, const char *name, const char *base_dir, grip_car *out, bool as_trailer,
                     grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  if (!text || !out) {
    grip_load_error_set(err, name, 0, NULL, "no text");
    return -1;
  }
  grip_car *tmp = malloc(sizeof *tmp);
  if (!tmp) {
    grip_load_error_set(err, name, 0, NULL, "out of memory");
    return -1;
  }
  grip_car_default(tmp);
  copy_text(tmp->source, sizeof tmp->source, name ? name : "");
  int rc = load_into(text, name ? name : "(text)", base_dir, tmp, 0, as_trailer, err);
  if (rc == 0) {
    memcpy(out, tmp, sizeof *out);
    grip_car_fix_pointers(out);
  }
  free(tmp);
  return rc;
}

int grip_car_parse(const char *text, const char *name, const char *base_dir, grip_car *out,
                   grip_load_error *err) {
  return car_parse(text, name, base_dir, out, false, err);
}

static int car_load(const char *path, grip_car *out, bool as_trailer, grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  char *text = read_file(path, err);
  if (!text) return -1;
  char dir[GRIP_CAR_PATH_MAX];
  grip_dir_of(path, dir, sizeof dir);
  int rc = car_parse(text, path, dir, out, as_trailer, err);
  free(text);
  return rc;
}

int grip_car_load(const char *path, grip_car *out, grip_load_error *err) { return car_load(path, out, false, err); }

/* --- writer ---------------------------------------------------------------------------------- */

/* Shortest %g form that reads back to exactly x. */
static void put_double(FILE *f, double x) {
  char buf[40];
  for (int prec = 15; prec <= 17; ++prec) {
    snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) break;
  }
  fputs(buf, f);
}

/* Writes an SI value in the key's file unit when that reads back exactly, else in SI with the
 * SI unit as suffix. */
static void write_number(FILE *f, const key_desc *k, double si) {
  if (k->scale == 1.0) {
    put_double(f, si);
    return;
  }
  double y = si / k->scale;
  double up = y, down = y;
  for (int i = 0; i < 64; ++i) {
    if (up * k->scale == si) {
      put_double(f, up);
      return;
    }
    if (down * k->scale == si) {
      put_double(f, down);
      return;
    }
    up = nextafter(up, INFINITY);
    down = nextafter(down, -INFINITY);
  }
  put_double(f, si);
  fprintf(f, " %s", k->si_unit);
}

static void write_section(FILE *f, const grip_car *car, sec_kind s, int inst) {
  const section_desc *sd = &sections[s];
  if (sd->instances == 1) fprintf(f, "\n[%s]\n", sd->name);
  else if ((s == S_AXLE || s == S_TYRE) && car->def.axle_count != 2) fprintf(f, "\n[%s.%d]\n", sd->name, inst + 1);
  else fprintf(f, "\n[%s.%s]\n", sd->name, sd->inst[inst]);
  grip_vehicle_def def = car->def; /* section_base needs a mutable pointer */
  grip_car_sound sound = car->sound;
  const grip_vehicle_def *d = &car->def;
  void *base = s == S_SOUND      ? (void *)&sound
               : s == S_VISUAL   ? (void *)&car->visual
               : s == S_TRAILER  ? (void *)&car->trailer
                                 : section_base(&def, s, inst);
  for (int i = 0; i < KEY_COUNT; ++i) {
    const key_desc *k = &keys[i];
    if (k->sec != s) continue;
    switch (k->type) {
      case K_DOUBLE:
        /* Traction control's target left at 0 means "the driven tyres' peak slip" (found when the
         * car type is built), which a file says by not setting the key. */
        if (s == S_SYSTEMS && strcmp(k->key, "tc_target_slip") == 0 &&
            *(const double *)((const char *)base + k->offset) == 0.0) {
          fprintf(f, "; tc_target_slip not set: the driven tyres' peak slip\n");
          break;
        }
        fprintf(f, "%s = ", k->key);
        write_number(f, k, *(const double *)((const char *)base + k->offset));
        fputc('\n', f);
        break;
      case K_BOOL:
        fprintf(f, "%s = %s\n", k->key, *(const bool *)((const char *)base + k->offset) ? "yes" : "no");
        break;
      case K_STEERED: break; /* steer_ratio says it */
      case K_HITCH: fprintf(f, "hitch = %s\n", car->coupling_fifth_wheel ? "fifth_wheel" : "ball"); break;
      case K_AXLES: fprintf(f, "axles = %d\n", d->axle_count); break;
      case K_TRAILER: fprintf(f, "file = %s\n", car->trailer.file); break;
      case K_INPUTS:
        if (inst >= TREE_DIFF_FIRST) {
          const grip_diff_def *x = (const grip_diff_def *)base;
          fprintf(f, "inputs = ");
          for (int j = 0; j < 2; ++j) {
            grip_drive_input in = x->inputs[j];
            if (in.kind == GRIP_DRIVE_INPUT_DIFF) {
              fprintf(f, "diff.%d", in.index + 1);
            } else {
              int a = 0, first = 0;
              while (a + 1 < d->axle_count && first + (d->axles[a].half_track > 0.0 ? 2 : 1) <= in.index)
                first += d->axles[a++].half_track > 0.0 ? 2 : 1;
              if (d->axles[a].half_track > 0.0) fprintf(f, "axle.%d.%s", a + 1, in.index == first ? "left" : "right");
              else fprintf(f, "axle.%d", a + 1);
            }
            fputs(j == 0 ? ", " : "\n", f);
          }
        }
        break;
      case K_NAME: fprintf(f, "name = %s\n", car->name); break;
      case K_TORQUE:
        fprintf(f, "torque = ");
        for (int p = 0; p < d->engine.curve_points; ++p) {
          put_double(f, d->engine.curve_rpm[p]);
          fputc(':', f);
          put_double(f, d->engine.curve_torque[p]);
          if (p + 1 < d->engine.curve_points) fprintf(f, (p % 4 == 3) ? ",\n  " : ", ");
        }
        fputc('\n', f);
        break;
      case K_RATIOS:
        fprintf(f, "ratios = ");
        for (int g = 0; g < d->gearbox.forward_gears; ++g)
        {
          if (g) fputs(", ", f);
          put_double(f, d->gearbox.ratios[g]);
        }
        fputc('\n', f);
        break;
      case K_LAYOUT: {
        int l = (int)d->drivetrain.layout;
        fprintf(f, "layout = %s\n", l >= 0 && l < 5 ? layout_names[l] : "?");
        break;
      }
      case K_DIFF_TYPE: {
        int t = (int)((const grip_diff_def *)base)->type;
        fprintf(f, "type = %s\n", t >= 0 && t < 4 ? diff_names[t] : "?");
        break;
      }
      case K_TIR:
        if (d->axles[inst].tyre.model == GRIP_TYRE_FULL_MF && car->tir_path[inst][0])
          fprintf(f, "tir = %s\n", car->tir_path[inst]);
        break;
      case K_WINGS: fprintf(f, "wings = %d\n", d->aero.wing_count); break;
      case K_MODEL: fprintf(f, "model = %s\n", car->visual.model); break;
      case K_LAMPS:
        if (!car->visual.brake_lamp_count) break;
        fprintf(f, "brake_lamps = ");
        for (int l = 0; l < car->visual.brake_lamp_count; ++l) {
          const grip_car_lamp *lamp = &car->visual.brake_lamps[l];
          if (l) fputs(", ", f);
          put_double(f, lamp->position.x), fputc(' ', f), put_double(f, lamp->position.y), fputc(' ', f);
          put_double(f, lamp->position.z), fputc(' ', f), put_double(f, lamp->radius);
        }
        fputc('\n', f);
        break;
      case K_BASE:
      case K_CURVE: break;
    }
  }
}

int grip_car_write(const grip_car *car, FILE *f, const char *comment) {
  if (comment) {
    const char *p = comment;
    while (*p) {
      const char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      fprintf(f, "; %.*s\n", (int)n, p);
      p += n + (nl ? 1 : 0);
    }
  }
  for (int s = 0; s < S_COUNT; ++s) {
    int n = sections[s].instances;
    if (s == S_WING) n = car->def.aero.wing_count;
    if (s == S_AXLE || s == S_TYRE) n = car->def.axle_count;
    if (s == S_DIFF) n = car->def.drivetrain.layout == GRIP_DRIVE_TREE ? TREE_DIFF_FIRST + car->def.drivetrain.diff_count : 3;
    if (s == S_VISUAL && !car->visual.model[0]) n = 0;
    if (s == S_COUPLING && !car->def.coupling.enabled) n = 0;
    if (s == S_TRAILER && !car->trailer.file[0]) n = 0;
    for (int i = 0; i < n; ++i) write_section(f, car, (sec_kind)s, i);
  }
  return ferror(f) ? -1 : 0;
}

int grip_car_save(const grip_car *car, const char *path, const char *comment, grip_load_error *err) {
  FILE *f = fopen(path, "w");
  if (!f) {
    grip_load_error_set(err, path, 0, NULL, "cannot write: %s", strerror(errno));
    return -1;
  }
  int rc = grip_car_write(car, f, comment);
  if (fclose(f) != 0) rc = -1;
  if (rc) grip_load_error_set(err, path, 0, NULL, "write failed");
  return rc;
}
