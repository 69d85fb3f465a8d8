/* grip: the full Magic Formula tyre model (MF 5.2, 6.1 and 6.2), steady state.
 *
 * The coefficients come from a TNO/ADAMS .tir property file (io/tir.h loads one). The equations
 * follow Pacejka, "Tire and Vehicle Dynamics" (3rd ed., 2012, appendix 3) with the corrections
 * the reference implementation MFeval 4.0 makes to match TNO's own solver, evaluated the way
 * MFeval's use mode 111 does: combined slip, limit checks on, no "alpha star" (alpha and gamma
 * are used as given), turn slip off.
 *
 * Sign convention. The .tir standard and MFeval use ISO-W (TYDEX W): x forward, y left, z up;
 * kappa > 0 (driving) gives Fx > 0; alpha > 0 gives Fy < 0 and an aligning moment Mz > 0;
 * My < 0 when rolling forward. grip's ISO 8855 convention (grip/types.h, grip/tyre.h) has the
 * same axes and the same slip definitions, so every force and moment maps one to one: no sign
 * change anywhere (Mz > 0 turns the wheel to the left, towards the velocity when alpha > 0).
 *
 * Pure functions: no allocation, no I/O, no globals. */
#ifndef GRIP_MF_TYRE_H
#define GRIP_MF_TYRE_H

#include "tyre.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Physical dimension of a coefficient, used by the loader to convert a file written in non-SI
 * units (see mf_params.def). */
typedef enum grip_mf_dimension {
  GRIP_MF_DIM_NONE = 0,
  GRIP_MF_DIM_LENGTH,       /* m */
  GRIP_MF_DIM_INV_LENGTH,   /* 1/m */
  GRIP_MF_DIM_INV_LENGTH2,  /* 1/m^2 */
  GRIP_MF_DIM_FORCE,        /* N */
  GRIP_MF_DIM_FORCE_LENGTH, /* N*m */
  GRIP_MF_DIM_PRESSURE,     /* Pa */
  GRIP_MF_DIM_SPEED,        /* m/s */
  GRIP_MF_DIM_ACCEL,        /* m/s^2 */
  GRIP_MF_DIM_STIFFNESS,    /* N/m */
  GRIP_MF_DIM_DAMPING,      /* N*s/m */
  GRIP_MF_DIM_MASS,         /* kg */
  GRIP_MF_DIM_INERTIA,      /* kg*m^2 */
  GRIP_MF_DIM_TIME,         /* s */
  GRIP_MF_DIM_FREQUENCY,    /* Hz */
  GRIP_MF_DIM_ANGLE,        /* rad (only radian files are accepted) */
} grip_mf_dimension;

/* Which equations apply. */
typedef enum grip_mf_version {
  GRIP_MF_52 = 52, /* MF 5.2 / PAC2002: FITTYP 6 or 21, or no FITTYP at all */
  GRIP_MF_61 = 61, /* MF 6.1: FITTYP 61 */
  GRIP_MF_62 = 62, /* MF 6.2: FITTYP 62 (same force and moment equations as 6.1 in MFeval) */
} grip_mf_version;

/* All coefficients, named as in the .tir standard, SI units. The list with each coefficient's
 * unit, meaning, typical value and default is grip/mf_params.def. */
typedef struct grip_mf_params {
  grip_mf_version version; /* equations to use; GRIP_MF_61 for a typical modern file */
  int fittyp;              /* FITTYP as read: 6, 21, 61 or 62; 0 when the file has none */
  int tyreside_right;      /* 1 when TYRESIDE is 'RIGHT', else 0 (informative: never mirrored) */
#define GRIP_MF_PARAM(name, def, dim, doc) double name; /* doc */
#include "mf_params.def"
#undef GRIP_MF_PARAM
} grip_mf_params;

/* Fills *p with the defaults of every coefficient (mf_params.def) and version GRIP_MF_61. The
 * defaults alone describe a generic tyre (Fz0 4000 N, R0 0.3135 m) that gives sane forces. */
GRIP_API void grip_mf_default_params(grip_mf_params *p);

/* Every output of one steady-state evaluation, ISO-W (= grip's ISO 8855) convention. */
typedef struct grip_mf_output {
  double fx;    /* N, longitudinal force; ~ +-mu*Fz at the peak, > 0 driving */
  double fy;    /* N, lateral force; < 0 for alpha > 0 */
  double mz;    /* N*m, aligning moment; > 0 for small alpha > 0, ~ +-100 for a car tyre */
  double mx;    /* N*m, overturning moment; ~ +-50 */
  double my;    /* N*m, rolling resistance moment; < 0 rolling forward, ~ -0.01*Fz*R0 */
  double re;    /* m, effective rolling radius; slightly below R0, ~0.30 */
  double omega; /* rad/s, wheel spin speed implied by vx, kappa and re: (1+kappa)*vx/re */
  double mux;   /* -, longitudinal peak friction coefficient at this load; ~1.1 */
  double muy;   /* -, lateral peak friction coefficient at this load (>= 0); ~1.0 */
  double kxk;   /* N, longitudinal slip stiffness dFx0/dkappa at zero slip; ~20*Fz */
  double kya;   /* N/rad, cornering stiffness dFy0/dalpha at zero slip; < 0, ~ -15*Fz0 */
  double t;     /* m, pneumatic trail; ~0.03 */
  double mzr;   /* N*m, residual aligning moment; ~ +-5 */
} grip_mf_output;

/* Full evaluation. fz N (negative is taken as 0), kappa slip ratio, alpha rad, gamma rad
 * (inclination), vx m/s (wheel centre forward speed; |vx| < VXLOW engages the low-speed model),
 * pressure Pa (0 = INFLPRES). Limits: alpha, gamma, kappa, pressure and Fz <= FZMAX are
 * saturated to the file's ranges first (like MFeval's limit checks). */
GRIP_API void grip_mf_evaluate_full(const grip_mf_params *p, double fz, double kappa, double alpha,
                           double gamma, double vx, double pressure, grip_mf_output *out);

/* Same, with the peak friction scaled by friction_scale (it multiplies LMUX and LMUY, as a
 * different road surface does; values <= 0 are treated as 1e-6). */
GRIP_API void grip_mf_evaluate_scaled(const grip_mf_params *p, double fz, double kappa, double alpha,
                             double gamma, double vx, double pressure, double friction_scale,
                             grip_mf_output *out);

/* The grip tyre interface (grip/tyre.h): fills fx, fy, mz and the slopes dfx_dkappa,
 * dfy_dalpha (central differences of the combined-slip forces, step 1e-5). Pressure is INFLPRES;
 * in->friction_scale multiplies LMUX and LMUY. */
GRIP_API void grip_mf_evaluate(const grip_mf_params *p, const grip_tyre_input *in, grip_tyre_output *out);

#ifdef __cplusplus
}
#endif
#endif
