/* The robot driver: follows a racing line computed for the track and the car, plans its speed
 * from the car's grip, power, brakes and downforce, and drives through grip's public API only
 * (state in, inputs out). No globals; the same inputs give bit-identical outputs.
 * Algorithms and parameters: docs/driver.md. */
#ifndef GRIP_ROBOT_H
#define GRIP_ROBOT_H

#include <stdbool.h>

#include "grip/grip.h"
#include "grip/track.h"
#include "load_error.h"

typedef struct robot_params {
  double mu_factor;      /* safety factor on the tyre's peak mu × surface friction; 0.85 */
  double aggressiveness; /* scales the planned corner speed squared (1 = the formula); 1.0 */
  double brake_margin;   /* fraction of the deceleration capacity the plan brakes with; 0.8 */
  double accel_margin;   /* fraction of the estimated acceleration the forward pass uses; 0.9 */
  double edge_margin;    /* m, racing line's clearance from the road edge to the car's centre at low speed
                            (half the car's width is added); 1.2 */
  double line_step;      /* m, spacing of the line samples; 3 */
  int racing_line;       /* 1: minimum-curvature line, 0: the centre line; 1 */
  double lookahead_min;  /* m, pure-pursuit look-ahead at standstill; 6 */
  double lookahead_time; /* s, look-ahead growth with speed (L = min + time·v); 0.175 */
  double speed_kp;       /* pedal per m/s of speed error; 0.5 */
  double speed_ki;       /* pedal per m of integrated speed error; 0.5 */
  double tc_slip;        /* driven-wheel slip ratio, as a fraction of the tyre's peak slip, above
                            which throttle is cut (gone at twice it); 0.6 */
  double abs_slip;       /* braking slip ratio magnitude, fraction of the peak slip, above which
                            the brake is released (gone at 1.5 times it); 0.6 */
  double oversteer_slip; /* rad: rear slip angle beyond the front's by more than this eases both
                            pedals (released at twice it); 0.02 */
  double speed_preview;  /* s: the target speed is the plan's at v·preview m ahead (the controller's
                            lag; the braking pass already brakes in time); 0.1 */
  double lateral_ki;     /* road-wheel rad per m·s of integrated lateral error; 0.02 */
  double lateral_ki_limit; /* rad, bound on that integral's steering; 0.05 */
  double yaw_gain;       /* s, road-wheel rad per rad/s of yaw rate beyond the pursuit arc's; 0.3 */
  double stuck_time;     /* s below 1 m/s with throttle before reversing; 2 */
  double reverse_time;   /* s of reversing with opposite lock; 2 */
  double follow_time;    /* s, time gap kept to a car ahead when not overtaking; 0.6 */
  double look_cars;      /* m, how far ahead other cars are considered; 60 */
  double car_gap;        /* m, lateral clearance kept to other cars (beyond the widths); 0.8 */
  int auto_gearbox;      /* 1: the car's automatic gearbox; 0: the robot shifts; 0 */
  int plan_banking;      /* 1: corner speeds use the road's banking; 0: the flat-road formula
                            (as TORCS's robot tutorial); 1 */
  double wide_margin;    /* m: running wide in a turn, the throttle lifts once the car's outer
                            side is this close to the road edge (none left at the edge); 0.5 */
  double edge_margin_speed; /* m per m/s: the line's clearance from the edge grows by this per
                            m/s of the speed planned there above 30 m/s; 0.02 */
  double downshift_gap;  /* s: the robot's manual box drops one gear at a time, at most once per
                            this interval (plus the box's shift time); 0.15 */
  double crest_base;     /* m: half the base over which a sharp crest's vertical curvature is
                            measured for the lift-off speed cap (0 = no cap); 3 */
  double crest_load;     /* fraction of the static wheel load the cap keeps over a sharp crest
                            (0: the speed at which the car would leave the ground); 0 */
  double crest_radius;   /* m: the cap applies only where the line bends tighter than this
                            within crest_reach after the crest (0: everywhere); 150 */
  double crest_reach;    /* m: how far after a crest a bend makes the cap apply; 60 */
  double flat_out_speed; /* × the top-speed estimate: where the plan is flat out, the line is
                            shortened as long as it still allows this speed (0 = off); 1.02 */
  double downshift_hold; /* s: no downshift into a gear the plan's speed would take past its
                            upshift point within this time (0 = off); 1.5 */
  double axle_balance;   /* × an axle's μ: a two-axle car's corner speed is at most each axle's
                            own, that axle carrying its static share of the cornering force on
                            its own load and downforce with this × its μ (0 = off); 1.03 */
  double control_rate;   /* Hz: how often the robot decides. Between two decisions robot_drive
                            returns the last one's inputs and reads nothing; a decision
                            integrates its controllers over the time since the one before.
                            TORCS calls its robots at 50 Hz. 0: every call; 0 */
} robot_params;

robot_params robot_default_params(void);

/* Sets one parameter by name ("mu_factor" …); returns 0, or -1 for an unknown key or a bad
 * value. */
int robot_params_set(robot_params *p, const char *key, const char *value);

/* Reads key=value lines (# comments, blank lines allowed) over *p. Returns 0 or -1 with err
 * "file:line: key: what is wrong". */
int robot_params_load(const char *path, robot_params *p, grip_load_error *err);

/* What a robot knows about another car (from the race: the previous step's positions). */
typedef struct robot_car_view {
  double distance; /* m along the track, [0, length) */
  double lateral;  /* m, + left */
  double speed;    /* m/s, forward */
  double length, width; /* m, body box */
} robot_car_view;

/* The robot's reading of its own car after robot_drive. */
typedef struct robot_status {
  double distance;      /* m along the track, [0, length) */
  double lateral;       /* m, + left */
  double half_width;    /* m, half road width there */
  double target_speed;  /* m/s, the speed the controller follows here (the plan a controller's
                           lag ahead, less for traffic or a slippery surface) */
  double predicted_speed; /* m/s, the plan's predicted speed here: what its flying lap
                             (plan_lap_s) counts on at this point, e.g. 45 */
  double target_lateral; /* m, lateral target (racing line + avoidance shift) */
  bool reversing;       /* recovery manoeuvre active */
  int segment;
} robot_status;

typedef struct robot robot;

/* Precomputes the racing line and speed plan. air_density as in the world (1.29). NULL on
 * out-of-memory or an invalid track. */
robot *robot_create(const grip_track *track, const grip_vehicle_def *car, const robot_params *params,
                    double air_density);
void robot_destroy(robot *r);
/* A second robot for the same track, car and parameters, as robot_create would make it (its line
 * and speed plan copied, not computed again: ~0.5 s saved per car on a 7 km TORCS track; what
 * robot_drive reads of the line's geometry is shared, read-only, and freed with the last robot
 * that uses it, on any thread). Call it before the original has driven (its control state is
 * copied too). NULL without memory. */
robot *robot_clone(const robot *original);

/* How far along the track another car may be and still change what robot_drive does, for the
 * robot's car at forward speed `speed` (m/s) with other cars up to max_length (m) long: a car
 * whose distance lies more than *ahead in front or more than *behind back (both m, along the
 * track, wrapped to half a lap) is ignored by robot_drive, so a caller may leave it out of
 * `others` with the same result bit for bit; the order of `others` does not matter either. */
void robot_view_window(const robot *r, double speed, double max_length, double *ahead, double *behind);

/* A route that takes over from the racing line on a stretch of track (the pit road,
 * sim/pit.c): samples every `step` m of centre-line distance from `start`. At each sample the
 * lateral target is line + weight·(lateral − line) (weight 0: the racing line, 1: lateral
 * alone, which may lie beyond the road edge), and the target speed is at most `speed`. On a
 * route with weight > 0 the robot drops the road-edge bound, the running-wide lift and the grip
 * learning: the route is where it must drive (the off-road slow-down stays: a pit lane on
 * grass is driven at grass speeds). */
typedef struct robot_route {
  double start;          /* m along the centre line of sample 0, [0, track length) */
  double step;           /* m between samples, > 0 */
  int count;             /* samples, >= 2 */
  const double *lateral; /* m, + left (caller owns; must outlive the route's use) */
  const double *weight;  /* 0..1 */
  const double *speed;   /* m/s, the speed cap */
} robot_route;

/* Follows route from the next robot_drive (NULL: the racing line only). The robot keeps the
 * pointer: the route's arrays must stay valid until it is replaced. */
void robot_set_route(robot *r, const robot_route *route);

/* Every wheel of the car for the next robot_drive / robot_locate calls (grip_vehicle_get_wheels:
 * a truck's six, a three-wheeler's three); the robot keeps the pointer, so the array must stay
 * valid while it is used. Without it (count 0) the robot reads the state's first
 * GRIP_WHEEL_COUNT wheels, all of a four-wheel car's. */
void robot_set_wheels(robot *r, const grip_wheel_state *wheels, int count);

/* One control step: the car's state and the other cars; returns the inputs to set. With
 * params.control_rate > 0 the robot decides on its first call and then whenever the time passed
 * since its last decision (the sum of the dt given) has reached 1/control_rate, to within half a
 * step; the calls between return the last decision's inputs unchanged. */
grip_vehicle_input robot_drive(robot *r, const grip_vehicle_state *state, const robot_car_view *others,
                               int other_count, double dt);

/* Whether the next robot_drive call, with this dt, decides (true at every call with
 * control_rate 0): a caller whose reading of the car between decisions is lighter than the full
 * state (grip_vehicle_get_motion) reads the whole state before the calls that decide. */
bool robot_decides_next(const robot *r, double dt);

robot_status robot_get_status(const robot *r);

/* Locates the car on the track (distance, lateral, half width, segment; cached for the same
 * state) and returns the status. */
robot_status robot_locate(robot *r, const grip_vehicle_state *state);

/* --- the plan, for tests and reports --------------------------------------------------- */

/* Friction the plan uses on asphalt at rest: simple-MF peak mu (lateral, at the static wheel
 * load) × mu_factor. At speed the plan takes mu at the load with the downforce of that speed. */
double robot_plan_mu(const robot *r);
/* The same at speed v, m/s: with the load of v's downforce (load-sensitive tyres lose friction
 * with it), as the plan's corner speeds count it. */
double robot_plan_mu_at(const robot *r, double v);
/* N/(m/s)², downforce per speed squared at the design ride height:
 * −½ρA(CL_f + CL_r)·ground effect + Σ 4ρ·A_w·sin(a)·cos(a) (grip_vehicle_aero_coefficients). */
double robot_plan_ca(const robot *r);
/* kg, body + fuel at creation. */
double robot_plan_mass(const robot *r);
/* m/s, the car's estimated top speed (engine force = drag + rolling resistance). */
double robot_plan_top_speed(const robot *r);
/* The corner-speed formula v = sqrt(mu·g·r / (1 − min(1, r·CA·mu/m))) (capped by top speed). */
double robot_corner_speed(const robot *r, double radius, double mu);
/* Samples of the line: count, and for sample i its centre-line distance, lateral offset,
 * signed curvature (1/m), maximum corner speed and planned speed (m/s). */
int robot_line_count(const robot *r);
void robot_line_sample(const robot *r, int i, double *distance, double *lateral, double *curvature,
                       double *corner_speed, double *plan_speed);
/* s, lap time the forward/backward plan predicts for a flying lap. */
double robot_plan_lap_time(const robot *r);
/* m/s², the deceleration the plan counts for cornering at lateral acceleration a_lat (m/s²)
 * and speed v (m/s) on a flat road of friction 1: the power the tyres' slip angles take,
 * Σ F_y·sin α / m (e.g. 0.8 m/s² for car1-trb1 at 1.8 g and 200 km/h). */
double robot_plan_cornering_drag(const robot *r, double a_lat, double v);
/* J, the crank work a flying lap of the plan needs: the sum over the line of the positive
 * m·Δ(v²)/2 + (drag·v² + rolling)·ds + m·g·Δz, divided by the gearbox efficiency (the robot's
 * estimate of a lap's fuel: × engine.fuel_per_joule). */
double robot_plan_lap_energy(const robot *r);

#endif
