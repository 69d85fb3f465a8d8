/* The car–trailer combination as a linear single-track model with three degrees of freedom
 * (towing car's lateral velocity and yaw rate, the articulation angle), at a constant forward
 * speed: its modes and the critical speed above which a trailer's sway grows instead of
 * decaying. The derivation is in docs/physics.md, §14 "Car and trailer: sway".
 *
 * Sign conventions (ISO 8855): x forward, y left, yaw positive to the left. The articulation
 * angle φ is the trailer's heading minus the car's. Cornering stiffnesses are per axle (both
 * tyres), positive, in N/rad: an axle's lateral force is −C · slip angle. */
#ifndef GRIP_TRAILER_SWAY_H
#define GRIP_TRAILER_SWAY_H

#include <complex.h>
#include <stdbool.h>

typedef struct trailer_sway_params {
  /* towing car */
  double car_mass;              /* kg, with driver and the hitch's tongue load not included; 1500 */
  double car_yaw_inertia;       /* kg·m², about its centre of mass; 2500 */
  double car_cg_to_front_axle;  /* m, a > 0; 1.2 */
  double car_cg_to_rear_axle;   /* m, b > 0; 1.5 */
  double car_cg_to_hitch;       /* m, c > 0, the hitch ball behind the centre of mass; 2.5 */
  double front_cornering_stiffness; /* N/rad, front axle; 80000 */
  double rear_cornering_stiffness;  /* N/rad, rear axle; 90000 */
  /* trailer */
  double trailer_mass;          /* kg; 1200 */
  double trailer_yaw_inertia;   /* kg·m², about its own centre of mass; 4000 (a 6 m caravan) */
  double hitch_to_trailer_cg;   /* m, e > 0, the trailer's centre of mass behind the hitch; 3.6 */
  double hitch_to_trailer_axle; /* m, f > e (positive tongue load), axle behind the hitch; 4.0 */
  double trailer_cornering_stiffness; /* N/rad, the trailer's axle; 60000 */
} trailer_sway_params;

/* The model's state is x = (v, r, φ, φ̇): the car's lateral velocity (m/s), yaw rate (rad/s),
 * the articulation angle (rad) and its rate (rad/s). Fills a with the matrix of ẋ = A·x at
 * forward speed u (m/s, > 0; steering held straight). Returns false when the parameters are
 * not physical (a non-positive mass, inertia, length or stiffness, or f ≤ e). */
bool trailer_sway_matrix(const trailer_sway_params *p, double u, double a[4][4]);

/* The characteristic polynomial det(sI − A) = s⁴ + c[3]s³ + c[2]s² + c[1]s + c[0]. */
bool trailer_sway_polynomial(const trailer_sway_params *p, double u, double c[4]);

/* The four eigenvalues (1/s) at speed u, in no particular order. */
bool trailer_sway_modes(const trailer_sway_params *p, double u, double complex roots[4]);

/* Hurwitz's criterion on the polynomial: true when every mode decays at speed u. */
bool trailer_sway_stable(const trailer_sway_params *p, double u);

/* The lowest speed (m/s) in (u_min, u_max] at which the combination loses stability, found by
 * bisection to 1e-6 m/s; *oscillatory (may be NULL) tells whether it is the sway (a complex
 * pair crossing into the right half-plane: Hurwitz's third determinant turns negative) or a
 * divergence (c[0] turns negative: an oversteering car). Returns 0 when stable all the way to
 * u_max, -1 when the parameters are not physical or it is already unstable at u_min. */
double trailer_sway_critical_speed(const trailer_sway_params *p, double u_min, double u_max, bool *oscillatory);

/* Kinematic off-tracking at low speed on a circle: the car's rear axle centre on radius
 * rear_axle_radius (m), the hitch hitch_behind_rear_axle (m) behind it, the trailer's axle
 * hitch_to_trailer_axle (m) behind the hitch. The trailer's axle centre runs on
 * sqrt(R² + h² − f²); returns R minus that (m, > 0 when the trailer cuts inside). */
double trailer_offtracking(double rear_axle_radius, double hitch_behind_rear_axle, double hitch_to_trailer_axle);

#endif
