/* grip: tyre models. A tyre turns load, slips, camber and speed into forces. The model is
 * swappable per axle: the simple Magic Formula here, or the full MF 5.2/6.1/6.2 model read from a
 * .tir file (grip/mf_tyre.h).
 *
 * Sign convention: ISO 8855 (see types.h). kappa > 0 driving -> Fx > 0; alpha > 0 -> Fy < 0;
 * Mz is the aligning moment about the tyre's z axis (positive turns the wheel to the left). */
#ifndef GRIP_TYRE_H
#define GRIP_TYRE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One direction of the simple Magic Formula F = D·sin(C·atan(B·x − E·(B·x − atan(B·x)))),
 * D = mu·Fz. x is the slip ratio (longitudinal) or the slip angle in rad (lateral). */
typedef struct grip_simple_mf_curve {
  double b;  /* stiffness factor, dry tarmac ~10 */
  double c;  /* shape factor, dry tarmac ~1.9 */
  double mu; /* peak friction coefficient D/Fz at the nominal load, road tyre ~1.0 */
  double e;  /* curvature factor, dry tarmac ~0.97 */
  /* 1 per unit slip: the force is the Magic Formula's times 1 + slide_gain·min(|x|,
   * GRIP_SLIDE_GAIN_MAX_SLIP), so that a sliding tyre keeps more of its force (TORCS's skill-level
   * skid factor: 0.3 for its robots, see docs/car-format.md); 0 for a real tyre. The peak slip
   * (grip_magic_formula_peak_slip) stays the Magic Formula's own. */
  double slide_gain;
} grip_simple_mf_curve;

/* Slip (slip ratio, or slip angle in rad) beyond which slide_gain adds no more (TORCS's cap on
 * its combined slip). */
#define GRIP_SLIDE_GAIN_MAX_SLIP 1.5

/* The simple Magic-Formula tyre (design notes §4), with load sensitivity and combined slip. */
typedef struct grip_simple_mf_def {
  grip_simple_mf_curve longitudinal; /* x = slip ratio kappa */
  grip_simple_mf_curve lateral;      /* x = slip angle alpha, rad */
  double nominal_load;      /* N, Fz at which mu applies; ~4000 for a road car tyre */
  /* Load sensitivity: mu(Fz) = mu·(1 − load_sensitivity·(Fz − nominal_load)/nominal_load),
   * so the peak force grows sub-linearly with load. 0 = none, road tyres ~0.1. */
  double load_sensitivity;
  /* Pneumatic trail at zero slip angle, m (aligning torque Mz = −trail·Fy, fading to zero at
   * the peak slip angle). ~0.03 for a road tyre. */
  double pneumatic_trail;
} grip_simple_mf_def;

/* Dry tarmac set of the design notes: B 10, C 1.9, mu 1, E 0.97 both ways, nominal load 4000 N,
 * no load sensitivity, trail 0.03 m. */
GRIP_API grip_simple_mf_def grip_default_simple_mf_def(void);

typedef enum grip_tyre_model {
  GRIP_TYRE_SIMPLE_MF = 0, /* grip_simple_mf_def */
  GRIP_TYRE_FULL_MF = 1,   /* grip_mf_params from a .tir file (grip/mf_tyre.h) */
} grip_tyre_model;

struct grip_mf_params; /* grip/mf_tyre.h */

typedef struct grip_tyre_def {
  grip_tyre_model model;
  grip_simple_mf_def simple;          /* used when model == GRIP_TYRE_SIMPLE_MF */
  const struct grip_mf_params *mf;    /* used when model == GRIP_TYRE_FULL_MF; copied at creation */
  /* Relaxation lengths, m: the slips lag the contact-patch motion over this distance rolled
   * (Pacejka's first-order transient model). This is also what holds a parked car without creep:
   * at standstill the carcass deflection acts as a spring. Road tyres: ~0.3 longitudinal, ~0.6
   * lateral. */
  double relaxation_length_x;
  double relaxation_length_y;
  /* Carcass damping used near standstill, N·s/m per tyre (fades out above low_speed). Damps
   * the tyre-spring oscillation of a parked car. ~3000. */
  double low_speed_damping;
  double low_speed;         /* m/s, below which low_speed_damping acts fully; ~2 */
  double rolling_resistance; /* coefficient f, F = f·Fz, multiplied by the surface's own; ~1 */
} grip_tyre_def;

GRIP_API grip_tyre_def grip_default_tyre_def(void);

/* Tyre temperature, pressure and wear (docs/physics.md §13): a lumped thermal network per tyre
 * (tread surface, carcass, inflation gas) heated by the sliding power and the rolling loss,
 * cooled by convection to the air and conduction to the road; the surface temperature sets a
 * grip window, the gas temperature the pressure (ideal gas, constant volume), the sliding
 * energy wears the tread. One set for all four tyres of a car (car file [tyre_state]). Off by
 * default: a car with it off drives exactly as one without it. Temperatures are absolute (K). */
typedef struct grip_tyre_state_def {
  bool enabled;                 /* car file [tyre_state] enabled */
  double initial_temperature;   /* K, every node at creation (grip race --tyre-temp); 293.15 */
  double air_temperature;       /* K, ambient air the tyre is cooled by; 293.15 */
  double road_temperature;      /* K, road surface under the contact patch; 303.15 */
  double surface_heat_capacity; /* J/K, tread surface layer (m·c); 1200 */
  double carcass_heat_capacity; /* J/K, carcass with the rest of the tread; 14000 */
  double gas_heat_capacity;     /* J/K, inflation gas at constant volume (m·c_v); 80 */
  double surface_carcass_conductance; /* W/K, through the tread; 30 */
  double carcass_gas_conductance;     /* W/K, inner liner to the gas; 25 */
  double road_conductance;      /* W/K, surface to road while in contact; 15 */
  double convection_area;       /* m², surface cooled by the air; 0.6 */
  /* Convection coefficient h = h0 + h1·v^n, W/(m²·K), v the wheel's forward speed (m/s). */
  double convection_h0;         /* W/(m²·K), still air; 5.7 */
  double convection_h1;         /* W/(m²·K)/(m/s)^n; 7.9 */
  double convection_exponent;   /* n; 0.8 (turbulent flat plate) */
  double rolling_loss_to_surface; /* 0..1, share of the rolling loss heating the surface node
                                     (the rest heats the carcass); 0.3 */
  double optimum_temperature;   /* K, surface temperature of full grip; 353.15 (80 °C) */
  double window_width;          /* K, Gaussian half-width of the grip window; 45 */
  double window_floor;          /* 0..1, grip factor far outside the window; 0.85 */
  /* Pa, gauge inflation pressure set at pressure_temperature; 0 = the .tir's INFLPRES for a
   * full MF tyre, 220000 for the simple tyre (which has no pressure term). Default 0; road
   * tyres are set at 180000..260000. */
  double pressure;
  double pressure_temperature;  /* K, gas temperature at which pressure was set; 293.15 */
  double tread_depth;           /* m, new tread; 0.008 */
  /* m³/J, tread volume abraded per joule of sliding energy (Archard/Schallamach); 2e-11
   * (0.02 mm³/J, road tyre) */
  double wear_rate;
  double wear_grip_loss;        /* 0..1, share of the grip lost at zero tread depth; 0.15 */
} grip_tyre_state_def;

/* Off, with the typical parameters above. */
GRIP_API grip_tyre_state_def grip_default_tyre_state_def(void);

/* Grip factor of the temperature window at surface temperature T (K):
 * floor + (1 − floor)·exp(−((T − optimum)/width)²). */
GRIP_API double grip_tyre_temperature_grip(const grip_tyre_state_def *def, double surface_temperature);
/* Grip factor of wear at tread depth d (m): 1 − wear_grip_loss·(1 − d/tread_depth), d clamped to
 * [0, tread_depth]. */
GRIP_API double grip_tyre_wear_grip(const grip_tyre_state_def *def, double tread_depth);

/* One evaluation of a tyre model at a steady state (no relaxation). */
typedef struct grip_tyre_input {
  double fz;    /* N, vertical load, >= 0 */
  double kappa; /* slip ratio, -1 locked .. >0 driving */
  double alpha; /* rad, slip angle */
  double gamma; /* rad, inclination (camber) angle; the simple model ignores it */
  double vx;    /* m/s, longitudinal speed of the wheel centre */
  double friction_scale; /* surface friction multiplier, 1 = dry */
} grip_tyre_input;

typedef struct grip_tyre_output {
  double fx; /* N */
  double fy; /* N */
  double mz; /* N·m, aligning moment */
  double dfx_dkappa; /* N, slope of Fx in kappa at this point (for the implicit wheel solve) */
  double dfy_dalpha; /* N/rad, slope of Fy in alpha at this point (negative in the linear range) */
} grip_tyre_output;

/* Evaluates the simple Magic-Formula tyre with combined slip (normalised-slip method: both
 * slips are scaled by their own peak slips; the resultant is shared so the pair stays inside
 * the friction ellipse and each direction's peak falls as the other slip grows). */
GRIP_API void grip_simple_mf_evaluate(const grip_simple_mf_def *def, const grip_tyre_input *in,
                             grip_tyre_output *out);

/* Pure-slip Magic Formula F(x) = D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) with D = 1, times
 * 1 + slide_gain·min(|x|, GRIP_SLIDE_GAIN_MAX_SLIP), and its slope dF/dx. */
GRIP_API double grip_magic_formula(const grip_simple_mf_curve *curve, double x, double *slope);

/* The slip x > 0 at which the Magic Formula itself peaks (solved numerically; slide_gain left
 * out: with it a TORCS tyre's force keeps rising to the gain's cap, and the peak slip is what
 * the combined slip is normalised by and what a driver aims at). */
GRIP_API double grip_magic_formula_peak_slip(const grip_simple_mf_curve *curve);

/* F(x) of grip_magic_formula at the curve's peak slip: 1 + slide_gain·x_peak (1 without a
 * slide gain). The peak friction a tyre of this curve offers is mu times this. */
GRIP_API double grip_magic_formula_peak_value(const grip_simple_mf_curve *curve);

/* Peak friction coefficients of a tyre at load fz (N) on a dry road, upright: the simple
 * model's mu with its load sensitivity (never below 10 % of mu, as the model applies it), times
 * grip_magic_formula_peak_value where the curve has a slide gain, or
 * the full Magic Formula's mu_x and mu_y at rated pressure. Either pointer may be NULL. */
GRIP_API void grip_tyre_peak_mu(const grip_tyre_def *tyre, double fz, double *mu_x, double *mu_y);

#ifdef __cplusplus
}
#endif
#endif
