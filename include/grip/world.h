/* grip: the world. Owns vehicles, steps them at a fixed dt, deterministically, with no heap
 * allocation inside a step. */
#ifndef GRIP_WORLD_H
#define GRIP_WORLD_H

#include <stddef.h>

#include "ground.h"
#include "types.h"
#include "vehicle.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grip_world grip_world; /* opaque */

/* Runs task(start, end, worker, task_context) over [0, item_count), possibly split across
 * workers; returns a handle passed to grip_finish_task_fn, or NULL if it ran the work inline. */
typedef void grip_task_fn(int start, int end, int worker, void *task_context);
typedef void *grip_enqueue_task_fn(grip_task_fn *task, int item_count, int min_range,
                                   void *task_context, void *user_context);
typedef void grip_finish_task_fn(void *task_handle, void *user_context);

/* grip_world_def.max_ground_slope by default: rad, acos(0.05) (87.1°). */
#define GRIP_DEFAULT_MAX_GROUND_SLOPE 1.5207754699891265

typedef struct grip_world_def {
  grip_vec3 gravity;   /* m/s², world frame; (0, 0, -9.81) */
  double air_density;  /* kg/m³; 1.29 (design notes) */
  grip_ground ground;  /* what wheels stand on; default: flat plane z = 0, dry asphalt */
  int vehicle_capacity; /* vehicles allocated up front; the world grows beyond it on create */
  /* Optional task system to step vehicles on several threads (as in Box2D v3). NULL: one
   * thread. worker_count must then be the number of workers the callback uses: the task's
   * worker index stays below it, and no two threads run with one index at once (each worker
   * keeps its own count of the walls its vehicles struck). */
  grip_enqueue_task_fn *enqueue_task;
  grip_finish_task_fn *finish_task;
  void *task_context;
  int worker_count;
  /* Collisions (docs/physics.md, "Collisions"). */
  grip_barrier barrier; /* walls; {NULL, NULL}: none */
  double restitution;   /* 0..1, normal restitution of car-wall and car-car impacts; 0.3 */
  double friction;      /* Coulomb friction coefficient of those contacts and of the body box
                           sliding on the ground, >= 0; 0.5 */
  /* The world's edges (docs/physics.md, "Solid ground"). A vehicle whose centre of mass leaves
   * the box [bounds_min, bounds_max], or that touches no ground (no wheel, no body point) and
   * finds none within void_depth straight below its centre of mass (driven off the edge of a
   * terrain), has left the world: grip_vehicle_state.out_of_world, held still, not stepped. */
  grip_vec3 bounds_min; /* m, world frame; (-inf, -inf, -inf) by default: no edge */
  grip_vec3 bounds_max; /* m, world frame; (+inf, +inf, +inf) by default */
  double void_depth;    /* m, > 0; 1000 */
  /* rad, the steepest slope that is still ground: a surface whose normal leans further than this
   * from up (for a wheel: from the vehicle's up; for the body box: from world z) is a wall, which
   * no wheel stands on and the body box does not rest on (walls are the barrier's business).
   * 0 < max_ground_slope <= π/2; acos(0.05) ≈ 1.521 (87.1°, the limit grip always had), so
   * that only near-vertical faces are walls; a world whose cliffs are steep slopes (a 35° rock
   * face a car should not climb) sets it lower, ~0.6 (34°). */
  double max_ground_slope;
  /* true: the ground's raycast reports its velocity and body (grip_ground_hit.velocity, .body:
   * a moving platform, a ferry, a game's rigid bodies to push back on). false (the default):
   * the ground stands still and has no bodies, and grip skips that work in every wheel's step
   * (grip's own grounds report none). */
  bool moving_ground;
} grip_world_def;

GRIP_API grip_world_def grip_default_world_def(void);

/* NULL on invalid definition or out of memory. */
GRIP_API grip_world *grip_create_world(const grip_world_def *def);
GRIP_API void grip_destroy_world(grip_world *world);

/* Replaces the ground (the pointed-to context must outlive its use). */
GRIP_API void grip_world_set_ground(grip_world *world, grip_ground ground);
GRIP_API grip_ground grip_world_get_ground(const grip_world *world);

/* Replaces the walls (the pointed-to context must outlive its use); {NULL, NULL} removes them. */
GRIP_API void grip_world_set_barrier(grip_world *world, grip_barrier barrier);

/* Advances every vehicle by dt seconds (1e-4 .. 0.02; 0.001 – 0.01 is the tested range).
 * Returns GRIP_INVALID_ARGUMENT (and does nothing) for a dt outside that range. */
GRIP_API grip_result grip_world_step(grip_world *world, double dt);

/* Creates a vehicle; GRIP_NULL_VEHICLE if the definition is invalid (see
 * grip_vehicle_def_validate) or memory runs out. */
GRIP_API grip_vehicle_id grip_create_vehicle(grip_world *world, const grip_vehicle_def *def);
GRIP_API void grip_destroy_vehicle(grip_world *world, grip_vehicle_id id);
GRIP_API bool grip_vehicle_is_valid(const grip_world *world, grip_vehicle_id id);
GRIP_API int grip_world_vehicle_count(const grip_world *world);

/* Sets the driver's inputs, applied from the next step. Rejects NaN/inf and values outside
 * their ranges with GRIP_INVALID_ARGUMENT, keeping the previous input. */
GRIP_API grip_result grip_vehicle_set_input(grip_world *world, grip_vehicle_id id,
                                   const grip_vehicle_input *input);
GRIP_API grip_vehicle_input grip_vehicle_get_input(const grip_world *world, grip_vehicle_id id);

GRIP_API grip_result grip_vehicle_get_state(const grip_world *world, grip_vehicle_id id,
                                   grip_vehicle_state *state);

/* The vehicle's pose and velocities only (grip_vehicle_motion): its wheels, drivetrain and
 * systems are not gathered, which makes this ~3.5× cheaper than grip_vehicle_get_state for a
 * car. */
GRIP_API grip_result grip_vehicle_get_motion(const grip_world *world, grip_vehicle_id id,
                                             grip_vehicle_motion *motion);

/* Every wheel's state, in wheel order (axle by axle from the front, left before right; see
 * grip/vehicle.h): fills min(count, capacity) entries of wheels (may be NULL with capacity 0)
 * and returns the vehicle's wheel count, 1..GRIP_MAX_WHEELS (4 for a car; 0 for an invalid
 * id). The count is not fixed in the ABI: ask with capacity 0, or pass GRIP_MAX_WHEELS. */
GRIP_API int grip_vehicle_get_wheels(const grip_world *world, grip_vehicle_id id, grip_wheel_state *wheels,
                                     int capacity);

/* Teleports the vehicle: design frame to pose, velocities to zero, wheels stopped, tyres and
 * drivetrain at rest. */
GRIP_API grip_result grip_vehicle_set_pose(grip_world *world, grip_vehicle_id id, grip_pose pose);

/* Places the vehicle on the ground at (x, y) with the given heading (rad, about world z), at its
 * static ride height, at rest. Returns GRIP_INVALID_ARGUMENT when no ground is found there. */
GRIP_API grip_result grip_vehicle_place(grip_world *world, grip_vehicle_id id, double x, double y,
                               double heading);

/* Sets the linear velocity (m/s, world frame), the wheels' spin to match it (free rolling), and
 * the drivetrain: in automatic drive the gear the automatic would hold at that speed, and the
 * engine turning with the driveline through a closed clutch. */
GRIP_API grip_result grip_vehicle_set_velocity(grip_world *world, grip_vehicle_id id, grip_vec3 velocity);

/* Sets the fuel in the tank (kg, 0 .. the definition's fuel.capacity; a pit stop's refuelling).
 * The car's mass follows from the next step. GRIP_INVALID_ARGUMENT (nothing changed) for a
 * value outside that range or non-finite. */
GRIP_API grip_result grip_vehicle_set_fuel(grip_world *world, grip_vehicle_id id, double fuel_mass);

/* The definition the vehicle was created with (after defaults were derived). Vehicles created
 * from equal definitions (the same values apart from pose and velocity) share one copy, so its
 * pose is the identity and its velocity zero; a vehicle's own pose and velocity are in
 * grip_vehicle_get_state. Valid while a vehicle of this definition exists. */
GRIP_API const grip_vehicle_def *grip_vehicle_get_def(const grip_world *world, grip_vehicle_id id);

/* Bytes the world holds (its handle, the vehicles' state, their collision records and the car
 * types); *shared (may be NULL) receives the part held once per car type (definitions, tyre
 * tables, full MF parameters). For 100 cars of one type: ~3.2 kB per vehicle (its per-wheel state
 * sized for its wheel count included) plus ~81 kB shared (grip bench: bytes/vehicle, shared/type). */
GRIP_API size_t grip_world_memory(const grip_world *world, size_t *shared);

/* Which copy of the step's hot functions this process runs: "avx2" (the copy for x86-64 CPUs
 * with AVX2, picked when the library loads on such a CPU) or "baseline". Both give the same
 * results bit for bit; the avx2 copy takes ~9 % fewer instructions a step (docs/performance.md).
 * A library built without the copies (-DGRIP_ISA_CLONES=OFF, or a compiler or CPU family that
 * has no such copies) always says "baseline". */
GRIP_API const char *grip_step_instruction_set(void);

/* A 64-bit hash of every vehicle's complete dynamic state, for determinism tests. */
GRIP_API uint64_t grip_world_state_hash(const grip_world *world);

/* Where a step's time goes (grip_world_get_profile), for an embedder looking at its frame
 * budget. Times are wall-clock seconds from a monotonic clock; they vary from run to run and
 * are never part of the state (the state hash ignores them). */
typedef struct grip_profile {
  double step;        /* s, the last grip_world_step, whole; ~4e-5 for 100 cars on a plane */
  double vehicles;    /* s, of which stepping the vehicles (drivetrain, ground raycasts,
                         suspension, tyres, chassis, and each car against the walls), on every
                         worker; ~99 % of step on a plane */
  double collisions;  /* s, of which car-to-car contacts (broad phase, resolution) and the
                         corrections after them; ~1e-7 for 20 cars apart, more in a crowd */
  int vehicles_stepped;  /* vehicles alive in the last step */
  int wall_contacts;     /* contact points against walls in the last step */
  int vehicle_contacts;  /* contact points between vehicles in the last step (each pair's
                            points counted once per vehicle) */
  long long steps;    /* steps measured since the profile was switched on */
  double total_step;       /* s, sum of step over those steps */
  double total_vehicles;   /* s, sum of vehicles */
  double total_collisions; /* s, sum of collisions */
} grip_profile;

/* Switches the step profile on or off. Off at creation: it costs three clock reads a step
 * (about 20 ns each on Linux), which a one-car world would feel (a step there is ~0.4 µs).
 * Switching it on or off clears the totals. */
GRIP_API void grip_world_enable_profile(grip_world *world, bool enabled);

/* The profile of the last step and the totals since it was switched on; all zeros while off. */
GRIP_API grip_profile grip_world_get_profile(const grip_world *world);

/* --- forces mode (GRIP_CHASSIS_EXTERNAL; docs/embedding.md, "Forces mode") ------------- */

/* One wheel's force on the chassis in the last step. */
typedef struct grip_wheel_force {
  grip_vec3 force;  /* N, world frame: suspension load along the contact normal plus the tyre's
                       longitudinal and lateral forces; ~3500 N of load on a parked car's wheel.
                       The ground under the wheel receives -force at point. Zero off the ground. */
  grip_vec3 point;  /* m, world frame, the contact point where force acts */
  double aligning_torque; /* N·m, about the contact normal (the tyre's Mz); ~±50 */
  bool in_contact;
  /* The ground's handle for what the wheel stands on (grip_ground_hit.body): the body the game
   * applies -force at point to. NULL off the ground or on grip's own grounds. */
  void *ground_body;
} grip_wheel_force;

/* What grip asks the caller's rigid body to feel, from the last step. */
typedef struct grip_chassis_forces {
  grip_vec3 force;  /* N, world frame, total at the centre of mass: wheels and aerodynamics,
                       gravity NOT included (the caller's engine applies it); ~14 kN up at rest */
  grip_vec3 torque; /* N·m, world frame, about the centre of mass (wheel forces' moments, the
                       tyres' aligning torques, aerodynamic moments, arcade aids) */
  grip_vec3 center_of_mass; /* m, world frame, where force acts: the given pose's
                               body.center_of_mass */
  double mass;      /* kg, body.mass + fuel now (fuel burns: re-read it each step); 1439 */
  grip_vec3 inertia; /* kg·m², principal, about the centre of mass along the design axes
                        (body.inertia); (500, 2200, 2400) */
  /* the first GRIP_WHEEL_COUNT wheels, in wheel order; every wheel of any vehicle:
   * grip_vehicle_get_wheel_forces */
  grip_wheel_force wheels[GRIP_WHEEL_COUNT];
} grip_chassis_forces;

/* Forces mode: sets the chassis state the next grip_world_step works from. pose is that of the
 * design frame (as grip_vehicle_state.pose), linear_velocity (m/s, world frame) that of the centre
 * of mass, angular_velocity (rad/s, world frame). Call it before every step with the state of the
 * caller's body. GRIP_INVALID_ARGUMENT (nothing changed) for a vehicle in GRIP_CHASSIS_OWN mode or
 * a non-finite value or zero quaternion; the quaternion is normalised. */
GRIP_API grip_result grip_vehicle_set_chassis_state(grip_world *world, grip_vehicle_id id, grip_pose pose,
                                                    grip_vec3 linear_velocity, grip_vec3 angular_velocity);

/* Forces mode: the force and torque of the last step for the caller to apply to its body over
 * the next interval of dt (zero before the first step). GRIP_INVALID_ARGUMENT for a vehicle in
 * GRIP_CHASSIS_OWN mode. Values are always finite. */
GRIP_API grip_result grip_vehicle_get_chassis_forces(const grip_world *world, grip_vehicle_id id,
                                                     grip_chassis_forces *forces);

/* Forces mode: every wheel's force of the last step, in wheel order (grip_vehicle.h: axle by
 * axle, left before right). Fills min(count, capacity) entries of wheels and returns the
 * vehicle's wheel count (0 for an invalid id or a vehicle in GRIP_CHASSIS_OWN mode). */
GRIP_API int grip_vehicle_get_wheel_forces(const grip_world *world, grip_vehicle_id id, grip_wheel_force *wheels,
                                           int capacity);

/* --- hitches: a trailer on its towing vehicle (docs/physics.md §9, "Hitches") ----------- */

/* An opaque generational handle to a hitch; a destroyed hitch's id stays invalid. */
typedef struct grip_hitch_id {
  uint32_t index;      /* slot + 1; 0 means null */
  uint32_t generation; /* bumped each time the slot is reused */
} grip_hitch_id;

#define GRIP_NULL_HITCH ((grip_hitch_id){0, 0})

/* What a hitch lets the trailer do. */
typedef enum grip_hitch_kind {
  GRIP_HITCH_BALL = 0,    /* a tow ball and coupling: the points stay together, the trailer turns
                             freely about them (yaw, pitch and roll) */
  GRIP_HITCH_FIFTH_WHEEL  /* a fifth wheel and kingpin: as the ball, but the trailer only yaws
                             about its own z axis and pitches about the tow's y axis; its roll
                             follows the tow's (a semi-trailer's front has no axle to hold it) */
} grip_hitch_kind;

/* A joint between a point on the towing vehicle and one on the trailer. */
typedef struct grip_hitch_def {
  grip_hitch_kind kind;     /* GRIP_HITCH_BALL (default) or GRIP_HITCH_FIFTH_WHEEL */
  grip_vehicle_id tow;      /* the towing vehicle */
  grip_vehicle_id trailer;  /* the towed one */
  grip_vec3 tow_point;      /* m, on the towing vehicle, in its design frame (the frame of its
                               grip_vehicle_def: x forward, y left, z up); a tow ball behind a
                               car's rear bumper: (-2.6, 0, 0.45) for the built-in car */
  grip_vec3 trailer_point;  /* m, on the trailer, in its design frame; a caravan's coupling at
                               the end of its drawbar: (3.5, 0, 0.45) */
  bool collide;             /* false (default): the two bodies don't collide with each other
                               (their boxes overlap near the hitch in tight turns) */
} grip_hitch_def;

/* The defaults: null vehicles, both points at the design origin, collide false. */
GRIP_API grip_hitch_def grip_default_hitch_def(void);

/* Joins two vehicles. It does not move them: place the trailer so that the two points meet (or
 * the first steps pull them together). GRIP_NULL_HITCH when a vehicle is invalid, both are the
 * same, either is in forces mode (GRIP_CHASSIS_EXTERNAL: the caller's engine owns its joints),
 * a point is not finite, the towing vehicle already tows or the trailer is already towed, or
 * memory runs out. Destroying either vehicle destroys the hitch. */
GRIP_API grip_hitch_id grip_create_hitch(grip_world *world, const grip_hitch_def *def);
GRIP_API void grip_destroy_hitch(grip_world *world, grip_hitch_id id);
GRIP_API bool grip_hitch_is_valid(const grip_world *world, grip_hitch_id id);

/* What a hitch carried in the last step. */
typedef struct grip_hitch_state {
  grip_vec3 force;        /* N, world frame, on the trailer (the towing vehicle feels -force),
                             mean over the last step; about +300 N along the direction of travel
                             when a 1200 kg caravan is towed at a steady 80 km/h */
  grip_vec3 local_force;  /* N, the same in the towing vehicle's frame: x is the pull (positive:
                             the trailer is pulled forward), z the ball's lift on the trailer
                             (positive: the trailer's nose rests on the ball) */
  double gap;             /* m, distance between the two points after the last step; under
                             1e-3 while both vehicles are in the world */
  double roll_moment;     /* N·m, fifth wheel: the moment about the trailer's roll axis the tow
                             puts on the trailer to hold its roll, mean over the last step; ~±5000
                             for a loaded semi-trailer in a turn; 0 for a ball */
  double roll_error;      /* rad, fifth wheel: the trailer's roll relative to the tow after the
                             last step (asin of the kingpin axis · the tow's y axis); under 1e-3 */
} grip_hitch_state;

GRIP_API grip_result grip_hitch_get_state(const grip_world *world, grip_hitch_id id, grip_hitch_state *state);

/* Collision contacts of one vehicle. */
typedef struct grip_vehicle_contacts {
  int count;              /* contact points resolved in the last step (walls + vehicles) */
  int wall_count;         /* of which against walls */
  int vehicle_count;      /* of which against other vehicles */
  int ground_count;       /* body-box points touching the ground in the last step (not in count:
                             the wheels stand on the ground; this is the chassis itself) */
  double ground_impulse;  /* N·s, their normal impulse in the last step */
  double impulse;         /* N·s, sum of the normal impulses of the last step */
  int impacts;            /* impacts since creation: contacts met at an approach speed
                             >= 1 m/s (resting and sliding contacts do not count) */
  double last_impact_impulse;       /* N·s, normal impulse of the latest impact's step */
  double last_impact_speed;         /* m/s, approach speed of the latest impact */
  double last_impact_time;          /* s, vehicle time of the latest impact; -1 before any */
  grip_vehicle_id last_impact_other; /* the other vehicle, GRIP_NULL_VEHICLE for a wall */
} grip_vehicle_contacts;

GRIP_API grip_result grip_vehicle_get_contacts(const grip_world *world, grip_vehicle_id id,
                                      grip_vehicle_contacts *contacts);

/* Contact points of the vehicle in the last step (0 for an invalid id). */
GRIP_API int grip_vehicle_contact_count(const grip_world *world, grip_vehicle_id id);

#ifdef __cplusplus
}
#endif
#endif
