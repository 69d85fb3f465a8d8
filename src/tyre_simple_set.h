/* grip — the simple Magic Formula over a set of tyres whose constants lie side by side
 * (simple_mf_set), inline: tyre_simple.c's grip_simple_mf_evaluate_set is this, and the vehicle
 * step runs it in its own code for the usual car's four tyres. Not public. */
#ifndef GRIP_TYRE_SIMPLE_SET_H
#define GRIP_TYRE_SIMPLE_SET_H

#include <math.h>
#include <stdbool.h>

#include "gmath.h"
#include "vehicle_internal.h"

/* One tyre by the equations themselves, without the tables (the set's fallback beyond them). */
void grip_simple_mf_evaluate_direct(const grip_simple_mf_def *def, double kappa_peak, double tan_alpha_peak, double fz,
                                    double kappa, double tan_alpha, double friction_scale, grip_tyre_output *out);

/* An interval's cubic a·s³ + b·s² + c·s + d at s (0 <= s < 1 across the interval), and its
 * slope per unit of rho (inv_h: intervals per unit of rho). */
static inline double grip_simple_mf_table_cubic(double a, double b, double c, double d, double s, double inv_h,
                                                double *slope) {
  *slope = ((3.0 * a * s + 2.0 * b) * s + c) * inv_h;
  return ((a * s + b) * s + c) * s + d;
}

/* The set's n tyres (n a constant where it is inlined for the usual car); slopes_y: also the
 * lateral slopes dFy/dalpha. */
static inline __attribute__((always_inline)) void grip_simple_mf_evaluate_set_n(int n, const simple_mf_set *set,
                                                                                const tyre_inputs *in, bool slopes_y,
                                                                                tyre_results *out) {
  /* grip_simple_mf_evaluate_tan's cached path a phase at a time, each phase a loop over the
   * wheels through arrays of their own (structure of arrays): the compiler runs such a loop on
   * all the wheels at once in vector registers, and the wheels' square roots and divisions
   * overlap. Every wheel takes the same operations in the same order as one evaluated alone, so
   * the results are the same bit for bit. A wheel outside the tables reads their first interval
   * (so no lane reads past them) and is evaluated directly afterwards. */
  enum { N = GRIP_MAX_WHEELS };
  const grip_simple_mf_def *const *def = set->def;
  const simple_mf_cache *const *cache = set->cache;
  const double *fz = in->fz, *kappa = in->kappa, *tan_alpha = in->tan_alpha, *friction_scale = in->friction_scale;
  const double *inv_kappa_peak = set->inv_kappa_peak, *inv_tan_alpha_peak = set->inv_tan_alpha_peak;
  const double *rho_max2 = set->rho_max2, *load_sensitivity = set->load_sensitivity;
  const double *nominal_load = set->nominal_load, *inv_nominal_load = set->inv_nominal_load;
  const double *mu_x = set->mu_x, *mu_y = set->mu_y, *trail0 = set->trail;
  const double *const *table_x = set->table_x, *const *table_y = set->table_y;
  double sx[N], sy[N], rho2[N], rho[N], inv_rho[N];
  for (int k = 0; k < n; ++k) {
    sx[k] = kappa[k] * inv_kappa_peak[k];
    sy[k] = tan_alpha[k] * inv_tan_alpha_peak[k];
    rho2[k] = sx[k] * sx[k] + sy[k] * sy[k];
  }
  /* Whether wheel k is within the tables, asked where it is needed: a comparison of doubles,
   * where an array of flags (or && between the two) kept GCC from vectorising the loops. */
#define TABLED(k) ((rho2[k] >= 1e-18) & (rho2[k] < rho_max2[k]))
  for (int k = 0; k < n; ++k) rho[k] = TABLED(k) ? rho2[k] : 1.0;
  /* 1/rho as rho·(1/rho²): the square root and the division run side by side. */
  for (int k = 0; k < n; ++k) {
    double square = rho[k];
    rho[k] = sqrt(square);
    inv_rho[k] = rho[k] * (1.0 / square);
  }
  /* table_lookup's interval and position in it, for every wheel, then its cubic's coefficients. */
  const double inv_h = 1.0 / MF_TABLE_SPACING;
  double s[N], kx[4][N], ky[4][N];
  int interval[N];
  for (int k = 0; k < n; ++k) {
    double u = rho[k] * (TABLED(k) ? inv_h : 0.0); /* 0 outside the tables, where rho is 1 */
    interval[k] = (int)u;
    s[k] = u - interval[k];
  }
  for (int k = 0; k < n; ++k) {
    const double *ax = table_x[k] + 4 * interval[k], *ay = table_y[k] + 4 * interval[k];
    for (int m = 0; m < 4; ++m) {
      kx[m][k] = ax[m];
      ky[m][k] = ay[m];
    }
  }
  /* (out may overlap the inputs as far as the compiler knows: its results are written after the
   * inputs are read) */
  double fx[N], fy[N], mz[N], dfx_dkappa[N], dfy_dalpha[N];
  for (int k = 0; k < n; ++k) {
    double load = fz[k] > 0.0 ? fz[k] : 0.0;
    double load_factor = maxd(0.1, 1.0 - load_sensitivity[k] * ((load - nominal_load[k]) * inv_nominal_load[k]));
    double scale = friction_scale[k] * load;
    double dx = mu_x[k] * load_factor * scale;
    double dy = mu_y[k] * load_factor * scale;
    double dgx, dgy;
    double gx = grip_simple_mf_table_cubic(kx[0][k], kx[1][k], kx[2][k], kx[3][k], s[k], inv_h, &dgx);
    double gy = grip_simple_mf_table_cubic(ky[0][k], ky[1][k], ky[2][k], ky[3][k], s[k], inv_h, &dgy);
    double ux = sx[k] * inv_rho[k], uy = sy[k] * inv_rho[k];
    fx[k] = dx * gx * ux;
    fy[k] = -dy * gy * uy;
    dfx_dkappa[k] = dx * (dgx * ux * ux + gx * inv_rho[k] * (1.0 - ux * ux)) * inv_kappa_peak[k];
    double dsy_dalpha = (1.0 + tan_alpha[k] * tan_alpha[k]) * inv_tan_alpha_peak[k];
    dfy_dalpha[k] = -dy * (dgy * uy * uy + gy * inv_rho[k] * (1.0 - uy * uy)) * dsy_dalpha;
    double trail = trail0[k] * maxd(0.0, 1.0 - rho[k]);
    mz[k] = -trail * fy[k];
  }
  /* a slopes_y known false where this is inlined leaves dfy_dalpha unread, and the compiler
   * leaves out its sums */
  if (slopes_y)
    for (int k = 0; k < n; ++k) out->dfy_dalpha[k] = dfy_dalpha[k];
  for (int k = 0; k < n; ++k) {
    out->fx[k] = fx[k];
    out->fy[k] = fy[k];
    out->mz[k] = mz[k];
    out->dfx_dkappa[k] = dfx_dkappa[k];
  }
  for (int k = 0; k < n; ++k)
    if (!TABLED(k)) {
      grip_tyre_output direct;
      grip_simple_mf_evaluate_direct(def[k], cache[k]->kappa_peak, cache[k]->tan_alpha_peak, fz[k], kappa[k],
                                     tan_alpha[k], friction_scale[k], &direct);
      tyre_results_put(out, k, &direct);
    }
#undef TABLED
}

#endif
