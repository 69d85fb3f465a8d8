/* Internal state of a vehicle and the per-subsystem functions the step calls. Not public. */
#ifndef GRIP_VEHICLE_INTERNAL_H
#define GRIP_VEHICLE_INTERNAL_H

#include <stddef.h>

#include "grip/grip.h"
#include "grip/mf_tyre.h"
#include "ground_flat.h"

/* --- tyre ------------------------------------------------------------------------------ */

/* Largest transient slip ratio the carcass deflection may represent (a locked wheel is −1). */
#define MAX_TRANSIENT_KAPPA 1.0
/* Largest transient slip angle, rad: beyond it the contact patch slides. */
#define MAX_TRANSIENT_ALPHA 1.2

/* The body box's points tested against the ground (ground_contact.c): 8 corners and the middles
 * of the 4 long edges. */
#define GRIP_BOX_POINTS 12

/* The simple MF's curves as functions of the normalised slip rho (see tyre_simple.c),
 * tabulated for speed: G(rho) and dG/drho at nodes MF_TABLE_SPACING apart, read back by cubic
 * Hermite interpolation (error ~1e-7 of the peak force), stored per interval as the cubic's
 * coefficients in powers of the local coordinate s in [0, 1): G = ((a·s + b)·s + c)·s + d.
 * The table reaches the largest rho the transient slips can give (MAX_TRANSIENT_*), at least
 * MF_TABLE_MIN_RHO and at most MF_TABLE_MAX_INTERVALS intervals; beyond it, and in the public
 * evaluators, the curve is evaluated directly. */
#define MF_TABLE_SPACING 0.0625
#define MF_TABLE_MIN_RHO 8.0
#define MF_TABLE_MAX_INTERVALS 4096

/* Precomputed per tyre: peak slips, their reciprocals and the two tables. */
typedef struct simple_mf_cache {
  double kappa_peak;     /* slip ratio at the longitudinal peak */
  double tan_alpha_peak; /* tan of the slip angle at the lateral peak */
  double inv_kappa_peak, inv_tan_alpha_peak, inv_nominal_load;
  double rho_max;        /* the tables cover 0 <= rho < rho_max */
  int intervals;
  double (*x)[4], (*y)[4]; /* intervals × (a, b, c, d), one allocation (x) */
} simple_mf_cache;

/* A simple-MF curve's peak friction coefficient mu at load fz (N), with the tyre's load
 * sensitivity; never below 10 % of mu. */
static inline double grip_simple_mf_loaded_mu(const grip_simple_mf_def *def, double mu, double fz) {
  double dfz = (fz - def->nominal_load) / def->nominal_load;
  double f = 1.0 - def->load_sensitivity * dfz;
  return mu * (0.1 > f ? 0.1 : f); /* maxd(0.1, f), as it was in tyre_simple.c */
}

/* Fills the cache (allocates its tables); false when out of memory. */
bool grip_simple_mf_cache_init(simple_mf_cache *cache, const grip_simple_mf_def *def);
void grip_simple_mf_cache_free(simple_mf_cache *cache);

/* Simple MF taking tan(alpha) directly (the relaxation state gives it without a trigonometric
 * round trip); cache may be NULL (direct evaluation, slower). */
void grip_simple_mf_evaluate_tan(const grip_simple_mf_def *def, const simple_mf_cache *cache, double fz,
                                 double kappa, double tan_alpha, double friction_scale, grip_tyre_output *out);

/* The simple MF's inputs for a batch of tyres (tyre k at [k]): the step lays them out two
 * wheels at a time in lanes. One pointer for all of them keeps the batch's arguments in
 * registers (its entry point then passes them on to its copy for the CPU without a copy of its
 * own). */
typedef struct tyre_inputs {
  /* read by grip_simple_mf_evaluate_batch; grip_simple_mf_evaluate_set reads its set's */
  const grip_simple_mf_def *def[GRIP_MAX_WHEELS];
  const simple_mf_cache *cache[GRIP_MAX_WHEELS];
  double fz[GRIP_MAX_WHEELS];             /* N, vertical load (below 0 counts as 0) */
  double kappa[GRIP_MAX_WHEELS];          /* 1, longitudinal slip */
  double tan_alpha[GRIP_MAX_WHEELS];      /* 1, tangent of the slip angle */
  double friction_scale[GRIP_MAX_WHEELS]; /* 1, the surface's and the tyre state's factor */
} tyre_inputs;

/* The simple MF's results for a batch of tyres, a quantity at a time (tyre k at [k]): the step
 * reads them two tyres at a time in lanes, one load for both, as it lays out the batch's
 * inputs. */
typedef struct tyre_results {
  double fx[GRIP_MAX_WHEELS];         /* N */
  double fy[GRIP_MAX_WHEELS];         /* N */
  double mz[GRIP_MAX_WHEELS];         /* N·m */
  double dfx_dkappa[GRIP_MAX_WHEELS]; /* N */
  double dfy_dalpha[GRIP_MAX_WHEELS]; /* N/rad; only when the batch is asked for it (slopes_y) */
} tyre_results;

/* Tyre k's results from one tyre's evaluation. */
static inline void tyre_results_put(tyre_results *f, int k, const grip_tyre_output *o) {
  f->fx[k] = o->fx;
  f->fy[k] = o->fy;
  f->mz[k] = o->mz;
  f->dfx_dkappa[k] = o->dfx_dkappa;
  f->dfy_dalpha[k] = o->dfy_dalpha;
}

/* The cached simple MF for n <= GRIP_MAX_WHEELS tyres at once (the same results as
 * grip_simple_mf_evaluate_tan with a cache, tyre k from in's k-th entries), into out;
 * out->dfy_dalpha only with slopes_y (the vehicle step does not read it). */
void grip_simple_mf_evaluate_batch(int n, const tyre_inputs *in, bool slopes_y, tyre_results *out);

/* What the batch reads of each of n tyres' definition and cache, side by side (tyre k at [k]):
 * a car type lays it out once for all its wheels (vehicle_type.tyre_set), so that a step with
 * every wheel on the ground reads it as it is; the batch above gathers it for the wheels it is
 * given. */
typedef struct simple_mf_set {
  double inv_kappa_peak[GRIP_MAX_WHEELS], inv_tan_alpha_peak[GRIP_MAX_WHEELS]; /* 1 */
  double rho_max2[GRIP_MAX_WHEELS];         /* 1, the square of the tables' reach in rho */
  double load_sensitivity[GRIP_MAX_WHEELS]; /* 1 */
  double nominal_load[GRIP_MAX_WHEELS], inv_nominal_load[GRIP_MAX_WHEELS]; /* N; 1/N */
  double mu_x[GRIP_MAX_WHEELS], mu_y[GRIP_MAX_WHEELS]; /* 1, peak friction coefficients */
  double trail[GRIP_MAX_WHEELS];            /* m, pneumatic trail at zero slip */
  const double *table_x[GRIP_MAX_WHEELS], *table_y[GRIP_MAX_WHEELS]; /* the caches' tables */
  const grip_simple_mf_def *def[GRIP_MAX_WHEELS]; /* for a tyre beyond the tables, worked out */
  const simple_mf_cache *cache[GRIP_MAX_WHEELS];  /* directly */
} simple_mf_set;

void grip_simple_mf_set_fill(simple_mf_set *set, int n, const grip_simple_mf_def *const def[],
                             const simple_mf_cache *const cache[]);

/* The batch with the set laid out already (in->def and in->cache are not read: the set has
 * them). */
void grip_simple_mf_evaluate_set(int n, const simple_mf_set *set, const tyre_inputs *in, bool slopes_y,
                                 tyre_results *out);

/* --- drivetrain ------------------------------------------------------------------------ */

/* A shaft's response over one implicit step: omega_new = p + q·T for a torque T applied to it
 * (q >= 0, s/(kg·m²)). */
typedef struct admittance {
  double p; /* rad/s */
  double q; /* rad/(s·N·m) */
} admittance;

/* How a differential splits its input torque: T_left = a_left·T + b_left, likewise right. */
typedef struct torque_split {
  double a_left, b_left, a_right, b_right;
} torque_split;

typedef enum diff_mode { DIFF_MODE_LOCKED = 0, DIFF_MODE_SLIPPING = 1 } diff_mode;

typedef struct diff_runtime {
  diff_mode mode;        /* LSD: locked or slipping (decided each step) */
  double slip_sign;      /* LSD slipping: +1 transfers torque to the left/front side */
  double input_torque;   /* N·m, last solved input torque (LSD limit, efficiency sign) */
} diff_runtime;

/* Reduces a differential with split s (share of torque to the left/front side) to the
 * admittance of its input shaft; fills *split to recover the side torques. */
admittance grip_diff_reduce(const grip_diff_def *def, const diff_runtime *state, double s,
                       admittance left, admittance right, torque_split *split);

/* A differential of the driveline tree as a type holds it: the layouts' shorthands are built
 * into the same form. input[k] >= 0: wheel input[k]; < 0: differential −1 − input[k] (always
 * later in the list, so the list from the end up is children before parents). */
typedef struct drive_node {
  grip_diff_def def;
  double split; /* share of the input torque to input 0 */
  int input[2];
} drive_node;

/* --- vehicle runtime ------------------------------------------------------------------- */

/* The step's phases are inlined into a caller specialised per wheel count (a constant 4 for
 * the usual car, so its per-wheel loops compile as they did for a fixed four). */
#define STEP_INLINE static inline __attribute__((always_inline))

/* What a wheel's configuration derives to: constant for a car type, shared by its instances. */
typedef struct wheel_config {
  grip_vec3 hardpoint;   /* m, CG-relative body frame: wheel centre at the bump stop */
  double radius;         /* m */
  double inertia;        /* kg·m² */
  double max_length;     /* m, bump + droop travel */
  double ray_lift;       /* m, the suspension ray starts this far above the hardpoint: one wheel
                            radius, less where that would leave the body box (so the ray never
                            starts below the ground while the body is above it) */
  grip_vec3 ray_start;   /* m, body frame: the hardpoint raised by ray_lift, where the ray starts */
  double ray_reach;      /* m, ray_lift + radius + max_length: how far the ray looks (~0.75) */
  double spring_zero;    /* m, compression at which the spring force is zero */
  double levelling_rate; /* 1/s, 1/levelling_time; 0 = no self-levelling */
  double static_load;    /* N at design ride height */
  double brake_torque;   /* N·m at full brake (the axle's share of the brakes over its wheels) */
  double relax_x, relax_y;         /* m, the tyre's relaxation lengths */
  double inv_relax_x, inv_relax_y; /* 1/m, their reciprocals */
  double inv_low_speed;  /* s/m, 1/(tyre low_speed) */
  double rolling_resistance; /* 1, the tyre's factor on the surface's rolling resistance; ~1 (grip_tyre_def) */
  double low_speed_damping;  /* N·s/m, the tyre's carcass damping near standstill; ~3000 (grip_tyre_def) */
  double steer_ratio;    /* the axle's: road-wheel angle per unit of the steering's angle */
  double side;           /* +1 left, -1 right, 0 on the centre line */
  /* the axle's simple Magic Formula and its tables (in the type; unused with the full MF) */
  const grip_simple_mf_def *mf_def;
  const simple_mf_cache *mf_cache;
  int axle;
  int partner;           /* the other wheel of its axle, or -1 on a one-wheel axle */
  bool driven;
  bool left;
  bool handbrake;        /* the axle has the handbrake */
} wheel_config;

/* The wheel constants the tyre step reads two wheels at a time, one array per field (wheel i at
 * [i]; copies of wheel_config's), so that with every wheel on the ground a lane of two is one
 * load rather than one from each wheel's config (tyres_on_ground). */
typedef struct wheel_constants {
  double radius[GRIP_MAX_WHEELS];                                    /* m */
  double relax_x[GRIP_MAX_WHEELS], relax_y[GRIP_MAX_WHEELS];         /* m */
  double inv_relax_x[GRIP_MAX_WHEELS], inv_relax_y[GRIP_MAX_WHEELS]; /* 1/m */
  double inv_low_speed[GRIP_MAX_WHEELS];                             /* s/m */
  double rolling_resistance[GRIP_MAX_WHEELS];                        /* 1 */
  double low_speed_damping[GRIP_MAX_WHEELS];                         /* N·s/m */
} wheel_constants;

/* A car type: everything derived from a vehicle definition that does not change while the car
 * drives, held once per world for all the vehicles created from an equal definition (the same
 * bytes apart from pose and velocity). Read-only during a step. */
typedef struct vehicle_type {
  grip_vehicle_def def;   /* pose and velocity zero: those are each vehicle's own */
  grip_vec3 com_design;   /* m, CG in the design frame */
  /* m, the body box's 8 corners and the middles of its 4 long edges, CG-relative, body frame:
   * bottom (even indices) and top (odd) in turn (ground_contact.c, grip_ground_box_points) */
  grip_vec3 box_points[GRIP_BOX_POINTS];
  grip_vec3 box_half;     /* m, the box's half extents */
  grip_vec3 box_offset;   /* m, the box's centre relative to the CG, body frame */
  /* m: every bottom point of the box lies within this (3D, body frame) of some wheel's contact
   * point, wherever along its ray the wheel touches; and no contact point lies further than
   * contact_reach from the CG (ground_contact.c, grip_ground_wheel_reach) */
  double box_wheel_reach, contact_reach;
  double box_reach;       /* m, no point of the body box lies further from the CG: |box centre − CG|
                             + half the box's diagonal (collision.c) */
  grip_vec3 inertia;      /* kg·m², principal, body */
  grip_vec3 inv_inertia;  /* 1/(kg·m²), its reciprocals */
  double body_mass;       /* kg, without fuel */
  bool any_system;        /* def.systems has ABS, TC or ESC on (read every step, kept near the top) */
  bool tyre_state_on;     /* def.tyre_state.enabled */
  double tc_target_slip;  /* traction control's target slip: def's, or the driven tyres' peak slip
                             when def's is 0 (grip_systems_type_init) */
  int axle_count;         /* def.axle_count */
  int wheel_count;        /* 1 or 2 per axle */
  bool two_by_two;        /* the usual car: two axles of two wheels (the step's specialisation) */
  int axle_first_wheel[GRIP_MAX_AXLES]; /* index of each axle's first (left or only) wheel */
  int axle_wheels[GRIP_MAX_AXLES];      /* 1 or 2 */
  /* Steering geometry (vehicle.c, steer_wheels): the turn centre lies on the line x =
   * steer_reference_x (the mean x of the unsteered axles; the CG's x when every axle steers),
   * and steer_length (m) is the first steered axle's distance ahead of it: the wheelbase of a
   * two-axle car, the effective wheelbase of a truck with a tandem. */
  double steer_reference_x;
  double steer_length;
  int first_steered_axle; /* -1 when none steers */
  /* The driveline tree (drivetrain.c): drive[0] is driven by the gearbox. */
  int diff_count;
  drive_node drive[GRIP_MAX_DIFFS];
  bool any_lsd;              /* some differential is a limited-slip one */
  bool root_input_is_clutch; /* the AWD layout's centre LSD locks on the clutch torque */
  bool any_full_mf;       /* some axle has a full MF tyre */
  wheel_config wheels[GRIP_MAX_WHEELS];
  double upshift_rpm[GRIP_MAX_GEARS];   /* derived per gear */
  /* 1, the gearbox's overall ratio (with the final drive) of gear g at [g + 1], g = −1 (reverse),
   * 0 (neutral: 0) .. GRIP_MAX_GEARS; ~3.5 in third */
  double gear_ratio[GRIP_MAX_GEARS + 2];
  double downshift_rpm[GRIP_MAX_GEARS]; /* derived per gear */
  simple_mf_cache tyre_cache[GRIP_MAX_AXLES];
  simple_mf_set tyre_set; /* of the wheels in order, with the simple MF on every axle (!any_full_mf) */
  wheel_constants wheel_set; /* of the wheels in order */
  /* Tyre state (tyre_state.c), per axle: the tread area 2π·r·width (m²) the wear spreads over
   * and the gauge pressure (Pa) set at def.tyre_state.pressure_temperature. */
  double tread_area[GRIP_MAX_AXLES];
  double set_pressure[GRIP_MAX_AXLES];
  /* Full MF parameters per axle (NULL for the simple model); def's tyre.mf points here. */
  const grip_mf_params *mf[GRIP_MAX_AXLES];
  grip_mf_params mf_params[GRIP_MAX_AXLES];
  /* sin and cos of each wing's angle (def.aero.wings), for its force every step */
  double wing_sin[GRIP_MAX_WINGS], wing_cos[GRIP_MAX_WINGS];
  /* registry bookkeeping (vehicle_type.c) */
  uint64_t key_hash;
  int refs;
} vehicle_type;

typedef struct wheel_runtime {
  /* dynamic state */
  double spin;          /* rad/s */
  double rotation;      /* rad */
  double deflection_x;  /* m, longitudinal carcass deflection (relaxation state) */
  double deflection_y;  /* m, lateral carcass deflection */
  double compression;   /* m from full droop, this step */
  double prev_compression;
  double levelling;     /* m, self-levelling: the spring's zero lowered by it (0 without) */
  bool was_in_contact;
  bool hit_known;       /* contact_point and contact_normal are a ground hit from the last step
                           (grip_ground_query.has_last_hit); false once the vehicle is placed */

  /* per-step values (outputs and state getters) */
  bool in_contact;
  int surface_id;       /* the id of the surface under the wheel (grip_surface.id), last contact */
  grip_vec3 contact_point;
  grip_vec3 contact_normal;
  ground_flat_ref flat; /* where to look up what the ground vouches for around contact_point */
  /* What the step reads of the surface under the wheel, last contact (its grip_surface's
   * friction, ~1, and rolling resistance, ~0.012; the roughness is the ground's to apply) */
  double surface_friction, surface_rolling_resistance;
  double load;          /* N, the strut's force along the body's up, which is the tyre's load */
  double steer;         /* rad, road-wheel angle */
  double steer_sin, steer_cos; /* of steer */
  double kappa;         /* 1, transient slip ratio u/sigma_x; ~0.05 driving hard */
  double tan_alpha;     /* 1, tan of the transient slip angle, v/sigma_y; ~0.1 cornering (the angle
                           itself is worked out when read: grip_vehicle_fill_wheel) */
  double fx, fy, mz;
  double drive_torque;
  double applied_friction; /* actually applied, signed */
  double abs_pressure;     /* 0..1, ABS's brake-pressure factor (systems.c); 1 while it is off */
} wheel_runtime;

/* Every step of every car reads and writes all of its wheels' wheel_runtime: 4 cache lines a
 * wheel at most, so that a big world streams no more of them than it must. What a step does not
 * read every step goes to the cold part of the per-wheel allocation (the structs below). */
_Static_assert(sizeof(wheel_runtime) <= 256, "a wheel's hot state outgrew 4 cache lines: keep cold fields apart");

/* A wheel's ground motion, written and read only in a world whose ground moves
 * (grip_world_def.moving_ground): apart from wheel_runtime, in the cold part of the per-wheel
 * allocation, like the tyre state below. */
typedef struct wheel_ground_motion {
  grip_vec3 velocity; /* m/s, world, of the ground at the contact point (grip_ground_hit); 0 */
  void *body;         /* the ground's handle for what the wheel stands on, or NULL */
} wheel_ground_motion;

/* A wheel's tyre state (tyre_state.c), for a car with it on only: apart from wheel_runtime, in
 * the cold part of the per-wheel allocation. With it, a moving ground's motion and the surface's
 * unread fields in wheel_runtime, every car's wheel spanned 360 bytes, all of which the step
 * touched (docs/performance.md, "Thirty-second session"). */
typedef struct tyre_runtime {
  double temp_surface, temp_carcass, temp_gas; /* K; ~350 warm */
  double tread_depth;    /* m; ~0.008 new */
  double pressure;       /* Pa, gauge; ~180e3 */
  double tyre_grip;      /* 1, friction multiplier for the next step (temperature window × wear) */
  double sliding_power;  /* W, last step */
} tyre_runtime;

/* What one step passes from the tyres to the drivetrain and the chassis; on the stack of
 * grip_vehicle_step, not in the vehicle. One array per field, wheel i at [i], so that the lanes of
 * two wheels side by side (lanes.h) are one load or store. */
typedef struct wheel_scratch {
  /* the tyre frame on the ground (unit vectors, world frame): longitudinal and lateral */
  double long_x[GRIP_MAX_WHEELS], long_y[GRIP_MAX_WHEELS], long_z[GRIP_MAX_WHEELS];
  double lat_x[GRIP_MAX_WHEELS], lat_y[GRIP_MAX_WHEELS], lat_z[GRIP_MAX_WHEELS];
  double vx[GRIP_MAX_WHEELS], vy[GRIP_MAX_WHEELS]; /* m/s contact-patch velocity in the tyre frame */
  double friction_torque[GRIP_MAX_WHEELS]; /* N·m, capacity of brake + handbrake + rolling resistance */
  /* linearised ground response: Fx(omega') = fx0 + k·(omega' − spin) */
  double fx0[GRIP_MAX_WHEELS]; /* N */
  double k[GRIP_MAX_WHEELS];   /* N·s/rad */
  double inv_denom_x[GRIP_MAX_WHEELS]; /* 1/(1 + dt|vx|/sigma_x) */
} wheel_scratch;

/* What a vehicle keeps that a step in grip's own chassis mode never reads: in an array of the
 * world's of its own, one per slot, apart from the vehicles and their wheels, which the step
 * runs through (docs/performance.md, "Thirty-second session"). */
typedef struct vehicle_cold {
  /* where grip_vehicle_set_pose / the safety net put the car back */
  grip_pose spawn_pose;     /* of the design frame */
  grip_vec3 spawn_velocity; /* m/s, world */
  /* forces mode (GRIP_CHASSIS_EXTERNAL) only: the last step's result */
  grip_vec3 chassis_force;  /* N, world, at the CG, without gravity */
  grip_vec3 chassis_torque; /* N·m, world, about the CG */
} vehicle_cold;

typedef struct vehicle {
  const vehicle_type *type;    /* shared, read-only */
  const grip_vehicle_def *def; /* &type->def */
  uint32_t generation;
  bool alive;
  bool out_of_world;        /* left the world: held still, not stepped (grip_vehicle_state) */
  bool clutch_locked;       /* last step the clutch did not slip */

  /* body */
  grip_vec3 position;       /* m, CG, world */
  grip_quat rotation;
  grip_vec3 velocity;       /* m/s, CG, world */
  grip_vec3 angular_velocity; /* rad/s, world */
  grip_vec3 acceleration;
  grip_vec3 com_design;     /* m, CG in the design frame (copy of the type's: read every step) */
  grip_vec3 inertia;        /* kg·m², principal, body (likewise) */
  double body_mass;         /* kg, without fuel (likewise) */
  double fuel_mass;         /* kg */
  double time;
  int ground_points;        /* body-box points touching the ground in the last step */
  double ground_impulse;    /* N·s, their normal impulse in the last step */
  double ground_min_up;     /* cos(world max_ground_slope): a ground normal whose component along
                               up is below this is a wall (set when the vehicle is created) */
  int wheel_count;          /* the type's (read every step, kept with the hot data) */
  /* Per wheel, in one allocation sized for wheel_count (grip_vehicle_alloc_wheels): the wheels'
   * state, the differentials and the ground hints, then the arrays only some cars have. */
  wheel_runtime *wheels;
  tyre_runtime *tyres;      /* wheel_count, in the per-wheel allocation's cold part; NULL
                               without the tyre state (type->tyre_state_on) */
  wheel_ground_motion *ground_motion; /* wheel_count, likewise; NULL unless the world's ground
                                         moves (grip_world_def.moving_ground) */
  int *ground_hint;         /* wheel_count + 1: the ground's memory per wheel, then the chassis
                               (grip_ground_query.hint); -1 when placed */

  /* controls */
  double steer_delta;          /* rad, bicycle-model angle the wheels' steer was derived from */
  grip_vehicle_input input;    /* as set by the caller */
  grip_vehicle_input filtered; /* after the rate limits */
  double steering_torque;      /* N·m at the steering wheel, last step (steering_torque.h) */

  /* engine and drivetrain */
  double engine_omega;      /* rad/s */
  double engine_torque;     /* N·m last step */
  int engine_curve_piece;   /* the torque curve's piece of the last look-up, where the next starts
                               (1..curve_points − 1; any value is safe: engine.c) */
  int gear;                 /* engaged gear, -1..n (0 while shifting) */
  int target_gear;          /* gear being shifted into */
  double shift_timer;       /* s left of the current shift, 0 when not shifting */
  double shift_cooldown;    /* s before the automatic may shift again */
  double clutch_engagement; /* 0..1 */
  double clutch_torque;     /* N·m last step */
  diff_runtime *diffs;      /* the type's diff_count, in the per-wheel allocation */

  /* car systems (systems.c); untouched while they are off */
  double tc_torque_factor;  /* 0..1, engine torque left by traction control */
  double esc_reference;     /* rad/s, last bounded reference yaw rate */
  bool abs_active, tc_active, esc_active;

  vehicle_cold *cold;       /* the world's, for this vehicle's slot (grip_world) */
  grip_vec3 *wheel_force;   /* wheel_count, forces mode only (else NULL): N, world, at each wheel's
                               contact point */
  size_t wheel_bytes;       /* of the per-wheel allocation */
} vehicle;

/* The per-wheel allocation of a vehicle of `type` (wheels zeroed); false when out of memory.
 * Made when the vehicle is created, never during a step. */
bool grip_vehicle_alloc_wheels(vehicle *v, const vehicle_type *type, bool moving_ground);
void grip_vehicle_free_wheels(vehicle *v);

/* The registry of car types of one world (vehicle_type.c): an open-addressing table keyed by a
 * hash of the definition. Creating a vehicle is the only time it allocates. */
typedef struct vehicle_type_registry {
  vehicle_type **slots;
  int capacity; /* power of two, or 0 */
  int count;    /* live types */
  int deleted;  /* tombstones */
} vehicle_type_registry;

/* The shared type for def (created on first use, derived for gravity); NULL when out of memory. */
const vehicle_type *grip_vehicle_type_acquire(vehicle_type_registry *r, const grip_vehicle_def *def, grip_vec3 gravity);
/* Drops one vehicle's reference; the type is freed with its last vehicle. */
void grip_vehicle_type_release(vehicle_type_registry *r, const vehicle_type *type);
void grip_vehicle_type_registry_free(vehicle_type_registry *r);
/* Heap bytes held by the registry and its types. */
size_t grip_vehicle_type_registry_bytes(const vehicle_type_registry *r);

/* Static axle loads as shares of the weight, axle_count of them (vehicle_def.c). */
void grip_static_axle_shares(const grip_vehicle_def *def, double share[GRIP_MAX_AXLES]);

/* Derives a type's constants from its definition (type->def, mf already set up); false when
 * out of memory (nothing left allocated). vehicle_type_free releases what it allocated. */
bool grip_vehicle_type_init(vehicle_type *t, grip_vec3 gravity);
void grip_vehicle_type_free(vehicle_type *t);
/* Sets up a vehicle of the given type and puts it at rest at pose with velocity. */
void grip_vehicle_init(vehicle *v, const vehicle_type *type, grip_pose pose, grip_vec3 velocity);
void grip_vehicle_reset_motion(vehicle *v);
void grip_vehicle_step(vehicle *v, const grip_world_def *world, double dt);
void grip_vehicle_fill_state(const vehicle *v, grip_vehicle_state *state);
/* The pose and velocities, as grip_vehicle_fill_state gives them (grip_vehicle_get_motion). */
void grip_vehicle_fill_motion(const vehicle *v, grip_vehicle_motion *motion);
/* Wheel i (0..wheel_count-1) of v as the public state gives it. */
void grip_vehicle_fill_wheel(const vehicle *v, int i, grip_wheel_state *wheel);

struct mat3;
/* Car systems: what they derive once per car type (traction control's target slip). */
void grip_systems_type_init(vehicle_type *t);
/* Car systems: true when any is on by definition or input switch, the common case (every
 * system off by definition, no switch set) from hot data only, inline in the step. */
bool grip_systems_switched_on(const vehicle *v);
static inline bool grip_systems_on(const vehicle *v) {
  const grip_vehicle_input *in = &v->input;
  if (!v->type->any_system && in->abs_switch == GRIP_SYSTEM_AS_DEFINED && in->tc_switch == GRIP_SYSTEM_AS_DEFINED &&
      in->esc_switch == GRIP_SYSTEM_AS_DEFINED)
    return false;
  return grip_systems_switched_on(v);
}
/* Adjusts this step's brake torques (scratch friction_torque) for ABS, traction control and
 * ESC; returns the factor (0..1) traction control leaves on the throttle. */
double grip_systems_step(vehicle *v, wheel_scratch *sc, const struct mat3 *rot, const grip_world_def *world,
                    double dt);

/* Tyre state (tyre_state.c): derives the type's constants; sets a new vehicle's tyres to the
 * definition's starting state; advances temperatures, pressure and wear over one step from this
 * step's final tyre forces and slip velocities. */
void grip_tyre_state_type_init(vehicle_type *t);
void grip_tyre_state_init(vehicle *v);
void grip_tyre_state_step(vehicle *v, const wheel_scratch *sc, double dt);

/* The full MF at a given gauge pressure (Pa; 0 = INFLPRES), otherwise grip_mf_evaluate. */
void grip_mf_evaluate_at_pressure(const grip_mf_params *p, const grip_tyre_input *in, double pressure,
                                  grip_tyre_output *out);

/* Drivetrain step: solves engine, clutch, gearbox, differentials and wheel spin implicitly. */
void grip_drivetrain_step(vehicle *v, const wheel_scratch *sc, double dt);
/* After a teleport to a speed: the automatic's gear for it, engine locked to the driveline. */
void grip_drivetrain_match_speed(vehicle *v);
/* Derives automatic shift points from the engine curve and gear ratios, and the driveline tree
 * (from the layout's shorthand or the definition's own tree; wheel_count and axle wheels set);
 * marks the driven wheels. */
void grip_drivetrain_type_init(vehicle_type *t);

/* The ground query for wheel 0..wheel_count-1 of v, or its chassis (GRIP_GROUND_QUERY_BODY). */
static inline grip_ground_query grip_vehicle_ground_query(vehicle *v, int wheel) {
  int n = v->wheel_count;
  int slot = wheel >= 0 && wheel < n ? wheel : n;
  grip_ground_query query = {.user_data = v->def->user_data, .wheel = slot < n ? wheel : GRIP_GROUND_QUERY_BODY,
                             .hint = &v->ground_hint[slot]};
  if (slot < n && v->wheels[slot].hit_known) {
    query.has_last_hit = true;
    query.last_point = v->wheels[slot].contact_point;
    query.last_normal = v->wheels[slot].contact_normal;
  }
  return query;
}

/* Forgets what the ground kept for v (a new vehicle, or one put elsewhere). */
static inline void grip_vehicle_forget_ground(vehicle *v) {
  for (int i = 0; i <= v->wheel_count; ++i) v->ground_hint[i] = -1;
  for (int i = 0; i < v->wheel_count; ++i) v->wheels[i].hit_known = false;
}

#endif
