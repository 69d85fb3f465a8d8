/* grip: vehicle definition, inputs and state.
 *
 * A vehicle is a 6-DOF sprung body on 1..GRIP_MAX_AXLES axles of one wheel (on the centre line)
 * or two wheels each. Every position is given in
 * the vehicle's design frame (ISO 8855: x forward, y left, z up). Its origin is any reference
 * point the author chooses; the built-in cars use the ground point midway between the axles at
 * design ride height. Fill a definition from grip_default_vehicle_def() (the built-in Corvette
 * C5) and change what differs. */
#ifndef GRIP_VEHICLE_H
#define GRIP_VEHICLE_H

#include "tyre.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRIP_MAX_CURVE_POINTS 32
#define GRIP_MAX_GEARS 16
#define GRIP_MAX_AXLES 8
#define GRIP_MAX_WHEELS (2 * GRIP_MAX_AXLES)
/* Wheels in the fixed-size arrays grip_vehicle_state.wheels and grip_chassis_forces.wheels:
 * a vehicle's first four (all of a two-axle car's). A vehicle's own count: wheel_count there. */
#define GRIP_WHEEL_COUNT 4
#define GRIP_MAX_WINGS 4

/* Wheels are numbered axle by axle from the first axle of the definition, left before right on
 * a two-wheel axle (a one-wheel axle has one). For the usual two-axle car (front axle first):
 * front left 0, front right 1, rear left 2, rear right 3. */
enum { GRIP_AXLE_FRONT = 0, GRIP_AXLE_REAR = 1 };
enum { GRIP_WHEEL_FL = 0, GRIP_WHEEL_FR = 1, GRIP_WHEEL_RL = 2, GRIP_WHEEL_RR = 3 };

/* Rigid body of the car (sprung and unsprung masses together). */
typedef struct grip_body_def {
  double mass;                 /* kg, without fuel; Corvette C5 1439 */
  grip_vec3 center_of_mass;    /* m, design frame; z is the CG height above the ground */
  /* kg·m², principal moments about the CG (roll, pitch, yaw). Zero: derived from mass and
   * dimensions as a uniform box. */
  grip_vec3 inertia;
  grip_vec3 dimensions;        /* m, length, width, height of the body box (collisions, inertia) */
  grip_vec3 box_center;        /* m, design frame, centre of that box */
} grip_body_def;

/* Engine: a full-throttle torque curve, engine braking, idle governor and rev limiter. */
typedef struct grip_engine_def {
  int curve_points;                           /* number of (rpm, torque) points, 2..32 */
  double curve_rpm[GRIP_MAX_CURVE_POINTS];    /* rpm, increasing */
  double curve_torque[GRIP_MAX_CURVE_POINTS]; /* N·m at full throttle, linear between points */
  double idle_rpm;        /* rpm the idle governor holds; 800 */
  double rev_limit_rpm;   /* rpm at which fuel is cut; 6000 */
  double inertia;         /* kg·m², crank, flywheel and clutch disc; 0.25 */
  /* Engine braking at zero throttle: torque = -(brake_torque + brake_torque_per_rpm·rpm). */
  double brake_torque;         /* N·m, friction at zero speed; 20 */
  double brake_torque_per_rpm; /* N·m/rpm; 0.01 */
  /* Fuel: brake-specific fuel consumption, kg per joule of positive crank work (250 g/kWh =
   * 6.9e-8). 0 disables fuel burn. */
  double fuel_per_joule;
} grip_engine_def;

/* Parametric torque curve: T(rpm) = peak_torque·(1 − ((rpm − peak_rpm)/width)²), width taken
 * from the low or high side, clamped at zero. */
typedef struct grip_torque_curve_params {
  double peak_torque; /* N·m */
  double peak_rpm;    /* rpm */
  double width_low;   /* rpm below peak_rpm at which torque would fall to zero */
  double width_high;  /* rpm above peak_rpm at which torque would fall to zero */
  double min_rpm;     /* rpm of the first sample (e.g. idle) */
  double max_rpm;     /* rpm of the last sample (e.g. the rev limit) */
} grip_torque_curve_params;

/* Fills engine->curve_* with `points` samples of the parametric curve. */
GRIP_API grip_result grip_engine_curve_from_params(grip_engine_def *engine,
                                          const grip_torque_curve_params *params, int points);

/* Full-throttle torque at an engine speed (rpm), interpolated, constant beyond the ends. */
GRIP_API double grip_engine_curve_torque(const grip_engine_def *engine, double rpm);

typedef struct grip_clutch_def {
  double max_torque;  /* N·m the fully engaged clutch transmits before slipping; ~1.5 × peak */
  /* Automatic clutch: engagement rises from 0 at idle to 1 at engage_rpm (a launch rpm);
   * gear changes open it for the shift time. Used unless the input's clutch pedal is pressed. */
  double engage_rpm;  /* rpm; 2500 */
} grip_clutch_def;

typedef struct grip_gearbox_def {
  int forward_gears;                 /* 1..10 */
  double ratios[GRIP_MAX_GEARS];     /* forward ratios, first gear first; Corvette 2.66 … 0.50 */
  double reverse_ratio;              /* positive number, applied backwards; 2.90 */
  double final_drive;                /* differential ratio; 3.42 */
  double efficiency;                 /* torque fraction reaching the wheels, 0..1; 0.7 */
  double shift_time;                 /* s, torque interrupted during a change; 0.2 */
  double upshift_rpm;                /* rpm, automatic mode; 0 = the rpm of peak wheel force */
  double downshift_rpm;              /* rpm, automatic mode; 0 = chosen so the next gear lands
                                        below upshift_rpm with margin */
  bool automatic;                    /* start in automatic mode */
} grip_gearbox_def;

/* The automatic's shift points per forward gear (index 0 = first gear), rpm, as a vehicle
 * derives them at creation: the gearbox's upshift_rpm/downshift_rpm when set, else upshift
 * where the next gear gives at least as much wheel force at the same road speed (above the
 * torque peak; 97 % of the rev limit when it never does, and always in top gear), and
 * downshift so that the engine lands at 85 % of the lower gear's upshift (at least 1.2 × idle;
 * 0 in first gear). Entries beyond forward_gears are 0. */
GRIP_API void grip_gearbox_shift_rpm(const grip_gearbox_def *gearbox, const grip_engine_def *engine,
                            double upshift_rpm[GRIP_MAX_GEARS], double downshift_rpm[GRIP_MAX_GEARS]);

typedef enum grip_diff_type {
  GRIP_DIFF_OPEN = 0,   /* equal torque to both sides */
  GRIP_DIFF_LOCKED,     /* spool: both sides at one speed */
  GRIP_DIFF_LIMITED_SLIP, /* clutch-pack LSD: locked until the transfer torque exceeds
                             preload + locking_coefficient·|input torque| */
  GRIP_DIFF_VISCOUS,    /* transfer torque = viscous_coefficient·speed difference */
} grip_diff_type;

/* One input of a differential in a driveline tree: a wheel or another differential. */
typedef enum grip_drive_input_kind {
  GRIP_DRIVE_INPUT_WHEEL = 0, /* index: a wheel (0..wheel count − 1, grip_vehicle_state order) */
  GRIP_DRIVE_INPUT_DIFF = 1,  /* index: a differential of the tree, later in diffs[] than this one */
} grip_drive_input_kind;

typedef struct grip_drive_input {
  grip_drive_input_kind kind;
  int index;
} grip_drive_input;

typedef struct grip_diff_def {
  grip_diff_type type;
  double preload;             /* N·m, LSD breakaway torque at zero input; 100 */
  double locking_coefficient; /* LSD transfer limit per N·m of input torque, 0..1; 0.3 */
  double viscous_coefficient; /* N·m·s/rad, viscous coupling; 50 */
  /* Share of the input torque sent to inputs[0], 0..1: a tree's differentials (0.5 for an axle
   * differential, an inter-axle one of a truck ~0.5) and the AWD layout's centre differential
   * (front share; 0.4); the layouts' axle differentials split evenly whatever it says. */
  double front_split;
  grip_drive_input inputs[2]; /* GRIP_DRIVE_TREE only: what the differential drives */
} grip_diff_def;

/* Most differentials of a tree: one fewer than the most wheels it can join. */
#define GRIP_MAX_DIFFS (GRIP_MAX_WHEELS - 1)

typedef enum grip_drive_layout {
  GRIP_DRIVE_RWD = 0, /* the last axle through drivetrain.rear */
  GRIP_DRIVE_FWD,     /* the first axle through drivetrain.front */
  GRIP_DRIVE_AWD,     /* centre differential splits between the first and the last axle's */
  /* drivetrain.diffs: a tree of differentials, diffs[0] driven by the gearbox, each joining two
   * inputs (a wheel or a differential further down the list), every differential but the root
   * named by exactly one other, every wheel at most once. 4x2, 4x4, 6x4 with an inter-axle
   * differential, 8x8: all trees (docs/physics.md, "Driveline tree"). */
  GRIP_DRIVE_TREE,
  /* No engine and no driveline: every wheel rolls free (a trailer, docs/physics.md §14). The
   * engine, clutch, gearbox, fuel and differential fields are neither used nor checked;
   * throttle, clutch and gear inputs do nothing; brakes, handbrake, ABS and ESC work. The state
   * reports gear 0 and engine speed 0. */
  GRIP_DRIVE_NONE,
} grip_drive_layout;

typedef struct grip_drivetrain_def {
  grip_drive_layout layout;
  /* The two-axle layouts (shorthands for the trees they build): */
  grip_diff_def front; /* used when the front axle is driven */
  grip_diff_def rear;  /* used when the rear axle is driven */
  grip_diff_def centre; /* AWD only */
  /* GRIP_DRIVE_TREE: */
  int diff_count;                      /* 1..GRIP_MAX_DIFFS */
  grip_diff_def diffs[GRIP_MAX_DIFFS]; /* [0] the root, driven by the gearbox */
} grip_drivetrain_def;

typedef struct grip_brake_def {
  double max_torque;       /* N·m, total at full pedal over all wheels; 8000 */
  /* Two-axle shorthand: when every axle's brake_share is 0, the first axle gets this share of
   * max_torque and the last axle the rest, 0..1; 0.65. */
  double front_bias;
  double handbrake_torque; /* N·m per wheel on the axles with a handbrake, at full lever; 2000 */
} grip_brake_def;

typedef struct grip_steering_def {
  double ratio;          /* steering-wheel angle / road-wheel angle; 15 */
  double max_wheel_angle; /* rad, steering-wheel angle at full lock (input ±1); 7.85 (450°) */
  /* 0 = parallel steer, 1 = full Ackermann (inner wheel on the turn's common centre). */
  double ackermann;
  /* Speed-sensitive reduction for games: at speed v the input is scaled by
   * 1/(1 + (v/speed_reduction_speed)²). 0 disables. */
  double speed_reduction_speed; /* m/s */
  /* Force feedback (grip_vehicle_state.steering_torque, docs/physics.md §2). Mechanical trail:
   * how far the steering axis meets the ground ahead of the contact patch centre (caster
   * trail), m; road cars 0.015..0.03, the Corvette 0.02. */
  double mechanical_trail;
  double column_friction; /* N·m at the steering wheel, Coulomb friction of column and rack; 0.5 */
  double column_damping;  /* N·m·s/rad at the steering wheel, viscous damping; 0.1 */
} grip_steering_def;

/* Input filter: how fast the controls may move, like a game's car controller. Rates in full
 * range per second; 0 = unfiltered. */
typedef struct grip_input_filter_def {
  double throttle_rate; /* 1/s; e.g. 6 */
  double brake_rate;    /* 1/s */
  double steer_rate;    /* 1/s, of the -1..1 steering input; e.g. 3 */
} grip_input_filter_def;

typedef struct grip_suspension_def {
  double spring_rate;     /* N/m at the wheel; ~40000 for a sports car */
  double bump_damping;    /* N·s/m, compressing; ~3500 */
  double rebound_damping; /* N·s/m, extending; ~4500 */
  double bump_travel;     /* m, compression from design ride height to the bump stop; 0.08 */
  double droop_travel;    /* m, extension from design ride height to full droop; 0.10 */
  double bump_stop_rate;  /* N/m, beyond bump_travel; ~10 × spring_rate */
  double max_force;       /* N, clamp on the total suspension force; 60000 */
  double anti_roll_rate;  /* N/m, anti-roll bar: force per metre of left-right travel
                             difference, shared by the axle; ~20000 */
  /* s, self-levelling air suspension: the axle's springs' preload follows the load the axle
   * carries, bringing it back to design ride height with this time constant (a levelling valve
   * per axle; both springs alike, so roll is untouched); 0 = off (steel springs, the default);
   * a truck's drive axles ~3 (docs/physics.md §14, "Trailers in grip") */
  double levelling_time;
} grip_suspension_def;

typedef struct grip_axle_def {
  double x;            /* m, design frame: wheel centres' x */
  /* m, wheel centre y = ±half_track; 0 = one wheel on the centre line (a tricycle's front
   * wheel); else 0.05..10. A Corvette 0.78 */
  double half_track;
  double wheel_radius; /* m, loaded rolling radius; 0.34 */
  double wheel_width;  /* m; 0.275 */
  double wheel_inertia; /* kg·m² per wheel with tyre, hub, disc and half-shaft; ~1.2 */
  /* Road-wheel angle per unit of the steering's angle (steering input × max_wheel_angle /
   * steering.ratio): 1 for a normal front axle, 0 = not steered, < 0 steers against it (rear
   * steer), a second steered axle of a truck ~0.6; -2..2 */
  double steer_ratio;
  /* Share of brakes.max_torque on this axle (split evenly between its wheels), 0..1; 0 on every
   * axle = the two-axle front_bias shorthand. A truck's three axles ~0.4, 0.3, 0.3 */
  double brake_share;
  bool handbrake;      /* the handbrake acts on this axle's wheels (the rear axle of a car) */
  grip_suspension_def suspension; /* anti_roll_rate: the axle's bar (none on a one-wheel axle) */
  grip_tyre_def tyre;
} grip_axle_def;

/* Aerodynamics. Forces grow with the square of the air speed (still air). */
typedef struct grip_wing_def {
  double area;  /* m² */
  double angle; /* rad, angle of attack */
  double x, z;  /* m, design frame, where the wing's force acts */
} grip_wing_def;

typedef struct grip_aero_def {
  double drag_coefficient; /* Cd; 0.3 */
  double frontal_area;     /* m², reference area for Cd and the lift coefficients; 2.2 */
  double lift_coefficient_front; /* CL on the front axle, negative = downforce; 0 */
  double lift_coefficient_rear;  /* CL on the rear axle; 0 */
  double center_of_pressure_z;   /* m, design frame height where drag acts; ~0.5 */
  /* Ground effect on the body lift (the design notes' model, TORCS's): both lift coefficients
   * are multiplied by gain·exp(−(h/ground_effect_height)⁴), h the underbody clearance, the mean
   * over the four wheels of ride_height + droop_travel − compression. The multiplier rises
   * towards gain as the car is pressed down and vanishes when it is lifted off the road.
   * gain 0 = no ground effect (the coefficients apply at every height). */
  double ground_effect_gain;   /* multiplier at zero clearance; 0 (off); TORCS cars 2 */
  double ground_effect_height; /* m, clearance scale of the fall-off; TORCS cars 0.1266 */
  double ride_height;          /* m, underbody clearance at design ride height; ~0.1 */
  int wing_count;
  /* Wings (TORCS model): downforce = ½ρv²·(4·area·sin(angle))… see docs/physics.md. */
  grip_wing_def wings[GRIP_MAX_WINGS];
} grip_aero_def;

typedef struct grip_fuel_def {
  double capacity; /* kg; 60 */
  double mass;     /* kg at creation, burns with engine work; 30 */
  grip_vec3 position; /* m, design frame, tank centre */
} grip_fuel_def;

/* A trailer's coupling: where it hangs on its towing vehicle (the coupling head of a caravan's
 * drawbar, a semi-trailer's kingpin). Static loads only: with it enabled, the springs are
 * preloaded for the trailer standing hitched, its nose carried at the coupling as a rigid
 * support (grip_vehicle_static_axle_loads; docs/physics.md §14). The joint itself is a
 * grip_create_hitch; unhitched, the nose rests on nothing. */
typedef struct grip_coupling_def {
  bool enabled;    /* false for a vehicle that is not a trailer (the default) */
  grip_vec3 point; /* m, design frame; a caravan's coupling head ~ (3.7, 0, 0.45) */
} grip_coupling_def;

/* Arcade aids for games. All off by default; a simulation leaves them off. */
typedef struct grip_assist_def {
  double grip_multiplier;  /* multiplies every tyre's friction; 1 = off, arcade ~1.3 */
  double yaw_damping;      /* N·m·s/rad, extra torque −c·yaw_rate about the body's z; 0 = off,
                              ~3000 calms a twitchy car */
  double max_roll;         /* rad, anti-flip: beyond it a restoring torque grows with the
                              excess; 0 = off, e.g. 0.35 */
  double max_pitch;        /* rad, the same about the pitch axis; 0 = off */
  /* Steering assist, 0..1: adds that fraction of the rear axle's slip angle to the road-wheel
   * angle, i.e. counter-steer when the rear slides out (catches slides); 0 = off. */
  double steering_assist;
} grip_assist_def;

/* Car systems: anti-lock brakes, traction control and stability control, acting through the
 * brakes and the engine torque inside the vehicle step (control laws in docs/physics.md §12).
 * All off by default; a car with them off drives exactly as one without them. The slip ratio
 * the systems see is the wheel's, kappa = (omega·r − vx)/max(|vx|, min_speed), from the wheel
 * speed and the contact patch's ground speed (a real system estimates the latter). */
typedef struct grip_abs_def {
  bool enabled;           /* car file [systems] abs */
  double target_slip;     /* |kappa| held under braking, 0.02..0.5; 0.12 (near the tyre's peak) */
  double slip_band;       /* slip error that gives the full modulation rate, 0.005..0.3; 0.05 */
  double modulation_rate; /* 1/s, fastest change of the brake-pressure factor (0..1), 1..1000; 40 */
  double min_speed;       /* m/s, below it the brakes act unmodulated, 0..30; 2 */
} grip_abs_def;

typedef struct grip_tc_def {
  bool enabled;           /* car file [systems] tc */
  /* driven-wheel kappa allowed, 0.02..1; 0 (the default) = the lowest longitudinal peak slip
   * of the driven tyres at their static load, found once when the car type is built (0.18 for
   * the built-in tyre) */
  double target_slip;
  double slip_band;       /* slip error that gives the full torque-cut rate, 0.005..0.5; 0.05 */
  double torque_rate;     /* 1/s, fastest change of the engine-torque factor (0..1), 0.1..1000; 20 */
  /* N·m of brake on a driven wheel per unit of slip above the target (0 = engine cut only),
   * 0..1e6; 5000 */
  double brake_gain;
  double min_speed;       /* m/s, slip denominator floor (a standing start), 0.5..30; 3 */
} grip_tc_def;

typedef struct grip_esc_def {
  bool enabled;           /* car file [systems] esc */
  /* rad/(m/s²), understeer gradient K of the single-track reference yaw rate
   * r_ref = v·delta/(L + K·v²), 0..0.1; 0.0027 (1.5 deg/g, the built-in car's) */
  double understeer_gradient;
  double friction;        /* mu of the bound |r_ref| <= mu·(surface friction)·g/v, 0.1..3; 0.9 */
  double deadband;        /* rad/s of yaw-rate error left alone, 0..2; 0.05 */
  double gain;            /* N·m of wheel brake per rad/s of error beyond the deadband, 0..1e7; 20000 */
  double max_torque;      /* N·m, most brake torque ESC puts on one wheel, 0..1e6; 3000 */
  double min_speed;       /* m/s, below it ESC does nothing, 0..50; 5 */
} grip_esc_def;

typedef struct grip_systems_def {
  grip_abs_def abs;
  grip_tc_def tc;
  grip_esc_def esc;
} grip_systems_def;

/* Every system off, with typical parameters (the values in the comments above). */
GRIP_API grip_systems_def grip_default_systems_def(void);

/* Who owns the chassis rigid body (docs/embedding.md, "Forces mode"). */
typedef enum grip_chassis_mode {
  /* grip integrates the chassis: gravity, wheel and aerodynamic forces, ground and wall
   * contacts. The default. */
  GRIP_CHASSIS_OWN = 0,
  /* The caller's physics engine owns the chassis ("forces mode"): before each step the caller
   * gives the pose and velocities (grip_vehicle_set_chassis_state); the step runs steering,
   * suspension raycasts, tyres and drivetrain, and the caller reads the resulting force and
   * torque (grip_vehicle_get_chassis_forces) and applies them to its own body. grip then does
   * not integrate the body, apply gravity, resolve its collisions or push it out of the ground,
   * and never marks it out of the world. The caller's body should have the mass
   * body.mass + fuel (grip_chassis_forces.mass), the principal inertia body.inertia about
   * body.center_of_mass, axes along the design frame. */
  GRIP_CHASSIS_EXTERNAL = 1
} grip_chassis_mode;

typedef struct grip_vehicle_def {
  const char *name; /* not copied; for the caller's own use */
  grip_pose pose;   /* initial pose of the design frame in the world */
  grip_vec3 velocity; /* m/s, initial linear velocity, world frame */
  grip_body_def body;
  grip_engine_def engine;
  grip_clutch_def clutch;
  grip_gearbox_def gearbox;
  grip_drivetrain_def drivetrain;
  grip_brake_def brakes;
  grip_steering_def steering;
  grip_input_filter_def input_filter;
  /* The axles, front to back (x decreasing), axle_count of them (1..GRIP_MAX_AXLES; 2 for a
   * car). The first axle is the "front" of the two-axle shorthands (front_bias, the FWD/RWD/AWD
   * layouts, lift_coefficient_front) and the last one the "rear". */
  int axle_count;
  grip_axle_def axles[GRIP_MAX_AXLES];
  grip_aero_def aero;
  grip_fuel_def fuel;
  grip_assist_def assists;
  void *user_data;
  grip_systems_def systems; /* ABS, traction and stability control; off by default */
  grip_tyre_state_def tyre_state; /* tyre temperature, pressure and wear; off by default */
  grip_chassis_mode chassis_mode; /* GRIP_CHASSIS_OWN (default) or GRIP_CHASSIS_EXTERNAL */
  grip_coupling_def coupling;     /* a trailer's coupling; off by default */
} grip_vehicle_def;

/* The built-in car: a Chevrolet Corvette C5 (values and sources in docs/corvette-c5.md). */
GRIP_API grip_vehicle_def grip_default_vehicle_def(void);

/* Aerodynamic forces per squared forward air speed, N/(m/s)² (= kg/m), of a definition at an
 * underbody clearance (m; pass def->aero.ride_height for the car at rest) and air density
 * (kg/m³; the world's, 1.29 by default). Downforce > 0 pushes down. */
typedef struct grip_aero_coefficients {
  double downforce_front; /* N/(m/s)², body lift on the front axle plus the wings' share; ~0.8 */
  double downforce_rear;  /* N/(m/s)², on the rear axle; ~1.0 */
  double drag;            /* N/(m/s)², body drag plus the wings' drag; ~0.4 */
} grip_aero_coefficients;
GRIP_API grip_aero_coefficients grip_vehicle_aero_coefficients(const grip_vehicle_def *def, double air_density,
                                                      double clearance);

/* Static load (N) on each axle of a definition standing on flat ground under gravity
 * (m/s², 9.81), with its fuel: the lever rule for two axles (a Corvette 7199 N front), all of it
 * on one, the springs' heave and pitch equilibrium for more (statically indeterminate;
 * docs/physics.md, "Static loads of more than two axles"). A trailer with coupling.enabled
 * stands on its coupling too: the body pivots about it against the springs, and the coupling
 * carries the rest of the weight (its nose load: weight − Σ axle loads). These are the loads the
 * springs are preloaded for. Fills axle_load[0..axle_count − 1] and returns axle_count (0 for a definition
 * with an axle_count outside 1..GRIP_MAX_AXLES). */
GRIP_API int grip_vehicle_static_axle_loads(const grip_vehicle_def *def, double gravity,
                                            double axle_load[GRIP_MAX_AXLES]);

/* Ground-effect multiplier of the body lift at an underbody clearance (m): 1 when the car has
 * no ground effect, else gain·exp(−(clearance/height)⁴) (clearance clamped at 0). */
GRIP_API double grip_aero_ground_effect(const grip_aero_def *aero, double clearance);

/* Checks a definition; returns GRIP_OK or GRIP_INVALID_ARGUMENT and, if message is not NULL,
 * writes "field: what is wrong" into it. Besides each field's range it refuses a car that can
 * never move or hold the road: an all-zero torque curve, a clutch under 1 N·m, a simple tyre
 * with μ under 0.05. grip_create_vehicle refuses what this refuses. */
GRIP_API grip_result grip_vehicle_def_validate(const grip_vehicle_def *def, char *message,
                                      int message_size);

/* Gear numbers: -1 reverse, 0 neutral, 1..n forward. */
#define GRIP_GEAR_REVERSE (-1)
#define GRIP_GEAR_NEUTRAL 0

/* Run-time switch of one car system (grip_vehicle_input): the definition's setting, or forced
 * on (with the definition's parameters) or off. */
typedef enum grip_system_switch {
  GRIP_SYSTEM_AS_DEFINED = 0,
  GRIP_SYSTEM_ON,
  GRIP_SYSTEM_OFF,
} grip_system_switch;

typedef struct grip_vehicle_input {
  double throttle;  /* 0..1 */
  double brake;     /* 0..1 */
  double steering;  /* -1..1, +1 = full lock to the left */
  double handbrake; /* 0..1 */
  double clutch;    /* 0..1 clutch pedal, 1 = fully pressed (disengaged) */
  /* Manual mode: the gear to be in (-1..n). Automatic mode: direction only: > 0 drive,
   * 0 neutral, -1 reverse. */
  int gear;
  bool automatic;   /* automatic shifting */
  grip_system_switch abs_switch; /* ABS; GRIP_SYSTEM_AS_DEFINED (0) = the car's setting */
  grip_system_switch tc_switch;  /* traction control */
  grip_system_switch esc_switch; /* stability control */
} grip_vehicle_input;

/* Throttle, brakes and steering at rest; first gear in automatic mode. */
GRIP_API grip_vehicle_input grip_default_vehicle_input(void);

typedef struct grip_wheel_state {
  bool in_contact;
  grip_vec3 contact_point;  /* m, world frame */
  grip_vec3 contact_normal; /* unit, world frame */
  double load;              /* N, Fz on the tyre */
  double slip_ratio;        /* kappa as the tyre sees it (after relaxation) */
  double slip_angle;        /* rad, alpha as the tyre sees it (after relaxation) */
  double fx, fy;            /* N, tyre forces in the wheel's ground-plane frame */
  double mz;                /* N·m, aligning moment */
  double spin;              /* rad/s, wheel angular velocity about its axle (forward > 0) */
  double rotation;          /* rad, accumulated wheel angle, wrapped to [0, 2π) */
  double steer_angle;       /* rad, road-wheel angle, positive to the left */
  double compression;       /* m, suspension compression from full droop */
  double suspension_force;  /* N, spring + damper + bump stop + anti-roll along the strut */
  double drive_torque;      /* N·m, from the drivetrain */
  double brake_torque;      /* N·m, brake + handbrake actually applied */
  int surface_id;
  /* Tyre state (grip_tyre_state_def; temperatures, pressure and depth 0 when it is off). */
  double tyre_surface_temperature; /* K, tread surface; ~300..380 */
  double tyre_carcass_temperature; /* K; ~300..360 */
  double tyre_gas_temperature;     /* K, inflation gas; ~300..350 */
  double tyre_pressure;            /* Pa, gauge (above atmospheric); ~220000 */
  double tread_depth;              /* m; 0.008 new */
  double tyre_grip;                /* friction multiplier of temperature and wear; 1 when off */
  double tyre_sliding_power;       /* W, |Fx·v_sx| + |Fy·v_sy| of the last step (0 when off) */
} grip_wheel_state;

typedef struct grip_vehicle_state {
  grip_pose pose;               /* of the design frame */
  grip_vec3 center_of_mass;     /* m, world frame */
  grip_vec3 linear_velocity;    /* m/s, world frame, of the centre of mass */
  grip_vec3 angular_velocity;   /* rad/s, world frame */
  grip_vec3 acceleration;       /* m/s², world frame, of the centre of mass over the last step */
  grip_vec3 local_velocity;     /* m/s, vehicle frame */
  grip_vec3 local_acceleration; /* m/s², vehicle frame */
  double speed;                 /* m/s, forward speed (local x) */
  double engine_rpm;            /* rpm */
  double engine_torque;         /* N·m at the crank */
  double clutch_engagement;     /* 0..1 */
  int gear;                     /* -1..n */
  bool shifting;
  double fuel_mass;             /* kg */
  double mass;                  /* kg, body + fuel */
  double time;                  /* s simulated since creation */
  /* True once the vehicle has left the world (beyond the world's bounds, or with no ground under
   * it to stand on): it is then held still where it left and no longer stepped, until it is
   * placed again (grip_vehicle_place / grip_vehicle_set_pose). */
  bool out_of_world;
  int wheel_count; /* the vehicle's wheels (1..GRIP_MAX_WHEELS); 4 for a car */
  /* Its first GRIP_WHEEL_COUNT wheels (zeros beyond wheel_count); every wheel of any vehicle:
   * grip_vehicle_get_wheels. */
  grip_wheel_state wheels[GRIP_WHEEL_COUNT];
  /* N·m, torque the steering system puts on the steering wheel, positive turning it to the left
   * (like steering input +1): the front tyres' aligning moments and lateral forces about the
   * steering axes, through the ratio, plus column friction and damping (docs/physics.md §2).
   * Negative in a left turn (self-centring); a few N·m in normal cornering, 0 when parked. */
  double steering_torque;
  /* Car systems, true in a step where each changed what the driver asked for: ABS eased a
   * brake, traction control cut engine torque or braked a driven wheel, ESC braked a wheel. */
  bool abs_active;
  bool tc_active;
  bool esc_active;
  double esc_yaw_rate_reference; /* rad/s, ESC's bounded single-track reference (0 when off) */
  double tc_torque_factor;       /* 0..1, engine torque left by traction control (1 when off) */
} grip_vehicle_state;

/* Where a vehicle is and how it moves: the part of grip_vehicle_state that a loop reads of every
 * car every step (a race's timing, a camera, a robot between its decisions), 184 bytes against
 * the whole state's ~1.2 kB with its wheels (grip_vehicle_get_motion). Each field is its
 * grip_vehicle_state namesake, bit for bit. */
typedef struct grip_vehicle_motion {
  grip_pose pose;             /* of the design frame; position in m, world frame */
  grip_vec3 center_of_mass;   /* m, world frame */
  grip_vec3 linear_velocity;  /* m/s, world frame, of the centre of mass; ~50 at a race's top speed */
  grip_vec3 angular_velocity; /* rad/s, world frame; z ~0.5 in a fast corner */
  grip_vec3 local_velocity;   /* m/s, vehicle frame (x forward, y left, z up) */
  double speed;               /* m/s, forward speed (local x); ~30 */
  double fuel_mass;           /* kg; ~50 for a race car */
  double time;                /* s simulated since creation */
  bool out_of_world;          /* as in grip_vehicle_state */
} grip_vehicle_motion;

#ifdef __cplusplus
}
#endif
#endif
