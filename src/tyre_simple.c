/* The simple Magic-Formula tyre: pure-slip curves (design notes §4), load sensitivity, and
 * combined slip by the normalised-slip method:
 *   s_x = kappa / kappa_peak,  s_y = tan(alpha) / tan(alpha_peak),  rho = |(s_x, s_y)|
 *   Fx = Fx_pure(rho·kappa_peak)·s_x/rho,   Fy = Fy_pure(atan(rho·tan alpha_peak))·s_y/rho
 * Each direction reaches its peak when the other slip is zero; any slip in the other direction
 * lowers it, and the pair stays inside the friction ellipse (Pacejka, "Tire and Vehicle
 * Dynamics", ch. 4.3, similarity method). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "gmath.h"
#include "grip/mf_tyre.h"
#include "grip/tyre.h"
#include "isa.h"
#include "tyre_simple_set.h"
#include "vehicle_internal.h"

grip_simple_mf_def grip_default_simple_mf_def(void) {
  grip_simple_mf_curve dry = {.b = 10.0, .c = 1.9, .mu = 1.0, .e = 0.97};
  return (grip_simple_mf_def){.longitudinal = dry, .lateral = dry, .nominal_load = 4000.0,
                              .load_sensitivity = 0.0, .pneumatic_trail = 0.03};
}

grip_tyre_def grip_default_tyre_def(void) {
  return (grip_tyre_def){.model = GRIP_TYRE_SIMPLE_MF, .simple = grip_default_simple_mf_def(),
                         .mf = 0, .relaxation_length_x = 0.3, .relaxation_length_y = 0.6,
                         .low_speed_damping = 3000.0, .low_speed = 2.0, .rolling_resistance = 1.0};
}

/* The Magic Formula alone, D = 1, and its slope. */
static double base_magic_formula(const grip_simple_mf_curve *k, double x, double *slope) {
  double bx = k->b * x;
  double atan_bx = fast_atan(bx);
  double phi = bx - k->e * (bx - atan_bx);
  double angle = k->c * fast_atan(phi);
  double s, c;
  fast_sincos(angle, &s, &c);
  if (slope) {
    /* d/dx sin(C·atan(phi)) = cos(C·atan(phi))·C/(1+phi²)·dphi/dx,
     * dphi/dx = B − E·(B − B/(1 + (Bx)²)) */
    double dphi = k->b - k->e * (k->b - k->b / (1.0 + bx * bx));
    *slope = c * k->c / (1.0 + phi * phi) * dphi;
  }
  return s;
}

double grip_magic_formula(const grip_simple_mf_curve *k, double x, double *slope) {
  double f = base_magic_formula(k, x, slope);
  if (k->slide_gain == 0.0) return f; /* bit for bit the plain Magic Formula */
  /* F·(1 + g·min(|x|, cap)); F is odd in x, so d/dx = F'·(1 + g·|x|) + F·g·sign(x) below the cap */
  double ax = fabs(x), gain = 1.0 + k->slide_gain * fmin(ax, GRIP_SLIDE_GAIN_MAX_SLIP);
  if (slope) *slope = *slope * gain + (ax < GRIP_SLIDE_GAIN_MAX_SLIP ? k->slide_gain * signd(x) * f : 0.0);
  return f * gain;
}

double grip_magic_formula_peak_slip(const grip_simple_mf_curve *k) {
  /* The slope falls through zero at the peak; bisect on its sign over (0, 10/B·...]. */
  double lo = 0.0, hi = 0.0, slope = 0.0;
  double step = 0.05 / (k->b > 1e-6 ? k->b : 1e-6);
  for (int i = 1; i < 4000; ++i) {
    hi = step * i;
    base_magic_formula(k, hi, &slope);
    if (slope <= 0.0) break;
    lo = hi;
  }
  if (slope > 0.0) return hi; /* monotonic curve (C <= 1): no interior peak */
  for (int i = 0; i < 60; ++i) {
    double mid = 0.5 * (lo + hi);
    base_magic_formula(k, mid, &slope);
    if (slope > 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

double grip_magic_formula_peak_value(const grip_simple_mf_curve *k) {
  if (k->slide_gain == 0.0) return 1.0;
  return grip_magic_formula(k, grip_magic_formula_peak_slip(k), NULL);
}

void grip_tyre_peak_mu(const grip_tyre_def *tyre, double fz, double *mu_x, double *mu_y) {
  if (tyre->model == GRIP_TYRE_FULL_MF && tyre->mf) {
    grip_mf_output o;
    grip_mf_evaluate_full(tyre->mf, maxd(fz, 1.0), 0.0, 0.0, 0.0, 20.0, 0.0, &o);
    if (mu_x) *mu_x = o.mux;
    if (mu_y) *mu_y = o.muy;
    return;
  }
  /* only what is asked for: the robot's speed plan asks for μ_y alone ~10⁶ times at start-up */
  if (mu_x)
    *mu_x = grip_simple_mf_loaded_mu(&tyre->simple, tyre->simple.longitudinal.mu, fz) *
            grip_magic_formula_peak_value(&tyre->simple.longitudinal);
  if (mu_y)
    *mu_y = grip_simple_mf_loaded_mu(&tyre->simple, tyre->simple.lateral.mu, fz) *
            grip_magic_formula_peak_value(&tyre->simple.lateral);
}

/* The curves as functions of the normalised slip rho, with their slopes dG/drho. */
static double curve_x(const grip_simple_mf_def *def, double kappa_peak, double rho, double *slope) {
  double g = grip_magic_formula(&def->longitudinal, rho * kappa_peak, slope);
  *slope *= kappa_peak;
  return g;
}

static double curve_y(const grip_simple_mf_def *def, double tan_alpha_peak, double rho, double *slope) {
  double alpha_eq = fast_atan(rho * tan_alpha_peak);
  double g = grip_magic_formula(&def->lateral, alpha_eq, slope);
  *slope *= tan_alpha_peak / (1.0 + rho * rho * tan_alpha_peak * tan_alpha_peak);
  return g;
}

bool grip_simple_mf_cache_init(simple_mf_cache *c, const grip_simple_mf_def *def) {
  c->kappa_peak = grip_magic_formula_peak_slip(&def->longitudinal);
  c->tan_alpha_peak = tan(grip_magic_formula_peak_slip(&def->lateral));
  c->inv_kappa_peak = 1.0 / c->kappa_peak;
  c->inv_tan_alpha_peak = 1.0 / c->tan_alpha_peak;
  c->inv_nominal_load = 1.0 / def->nominal_load;
  /* The largest normalised slip the step can ask for, from the transient slips' limits. */
  double sx = MAX_TRANSIENT_KAPPA * c->inv_kappa_peak, sy = tan(MAX_TRANSIENT_ALPHA) * c->inv_tan_alpha_peak;
  double reach = sqrt(sx * sx + sy * sy);
  const double h = MF_TABLE_SPACING;
  double want = ceil(maxd(reach, MF_TABLE_MIN_RHO) / h) + 1.0;
  c->intervals = want < MF_TABLE_MAX_INTERVALS ? (int)want : MF_TABLE_MAX_INTERVALS;
  c->rho_max = c->intervals * h;
  c->x = malloc((size_t)c->intervals * 2 * sizeof *c->x);
  c->y = c->x ? c->x + c->intervals : NULL;
  if (!c->x) {
    c->intervals = 0;
    return false;
  }
  /* Cubic Hermite on [rho_i, rho_i+1] with end values y0, y1 and end slopes m0, m1 (per unit s):
   * a = 2y0 + m0 − 2y1 + m1, b = −3y0 − 2m0 + 3y1 − m1, c = m0, d = y0. */
  double xv0 = 0.0, xs0 = 0.0, yv0 = 0.0, ys0 = 0.0;
  for (int i = 0; i <= c->intervals; ++i) {
    double rho = h * i, xs1, ys1;
    double xv1 = curve_x(def, c->kappa_peak, rho, &xs1);
    double yv1 = curve_y(def, c->tan_alpha_peak, rho, &ys1);
    if (i > 0) {
      double *t[2] = {c->x[i - 1], c->y[i - 1]};
      double y0[2] = {xv0, yv0}, y1[2] = {xv1, yv1}, m0[2] = {xs0 * h, ys0 * h}, m1[2] = {xs1 * h, ys1 * h};
      for (int k = 0; k < 2; ++k) {
        t[k][0] = 2.0 * y0[k] + m0[k] - 2.0 * y1[k] + m1[k];
        t[k][1] = -3.0 * y0[k] - 2.0 * m0[k] + 3.0 * y1[k] - m1[k];
        t[k][2] = m0[k];
        t[k][3] = y0[k];
      }
    }
    xv0 = xv1, xs0 = xs1, yv0 = yv1, ys0 = ys1;
  }
  return true;
}

void grip_simple_mf_cache_free(simple_mf_cache *c) {
  free(c->x);
  c->x = c->y = NULL;
  c->intervals = 0;
}

/* The cubic of the interval around rho (0 <= rho < rho_max) and its slope dG/drho. */
static double table_lookup(const double *table, double rho, double *slope) {
  const double inv_h = 1.0 / MF_TABLE_SPACING;
  double u = rho * inv_h;
  int i = (int)u;
  double s = u - i;
  const double *k = table + 4 * i;
  return grip_simple_mf_table_cubic(k[0], k[1], k[2], k[3], s, inv_h, slope);
}

/* Direct evaluation (no tables): the public entry points, and the cached path's fallback. */
void grip_simple_mf_evaluate_direct(const grip_simple_mf_def *def, double kappa_peak, double tan_alpha_peak, double fz,
                                    double kappa, double tan_alpha, double friction_scale, grip_tyre_output *out) {
  fz = fz > 0.0 ? fz : 0.0;
  double dx = grip_simple_mf_loaded_mu(def, def->longitudinal.mu, fz) * friction_scale * fz;
  double dy = grip_simple_mf_loaded_mu(def, def->lateral.mu, fz) * friction_scale * fz;
  double sx = kappa / kappa_peak;
  double sy = tan_alpha / tan_alpha_peak;
  double rho = sqrt(sx * sx + sy * sy);
  if (rho < 1e-9) {
    /* Linear region at the origin: slope of each pure curve. */
    double gx, gy;
    grip_magic_formula(&def->longitudinal, 0.0, &gx);
    grip_magic_formula(&def->lateral, 0.0, &gy);
    out->fx = dx * gx * kappa;
    out->fy = -dy * gy * tan_alpha;
    out->dfx_dkappa = dx * gx;
    out->dfy_dalpha = -dy * gy;
    out->mz = -def->pneumatic_trail * out->fy;
    return;
  }
  /* G(rho): each pure curve evaluated at the resultant normalised slip. */
  double dgx, dgy;
  double gx = curve_x(def, kappa_peak, rho, &dgx);
  double gy = curve_y(def, tan_alpha_peak, rho, &dgy);
  double ux = sx / rho, uy = sy / rho;
  out->fx = dx * gx * ux;
  out->fy = -dy * gy * uy;
  /* Slopes at fixed other slip: d/ds_x [G(rho)·s_x/rho] = G'·ux² + G/rho·(1 − ux²). */
  out->dfx_dkappa = dx * (dgx * ux * ux + gx / rho * (1.0 - ux * ux)) / kappa_peak;
  double dsy_dalpha = (1.0 + tan_alpha * tan_alpha) / tan_alpha_peak;
  out->dfy_dalpha = -dy * (dgy * uy * uy + gy / rho * (1.0 - uy * uy)) * dsy_dalpha;
  /* Aligning torque: pneumatic trail falling linearly to zero at the lateral peak. */
  double trail = def->pneumatic_trail * maxd(0.0, 1.0 - rho);
  out->mz = -trail * out->fy;
}

void grip_simple_mf_evaluate_tan(const grip_simple_mf_def *def, const simple_mf_cache *cache, double fz,
                                 double kappa, double tan_alpha, double friction_scale, grip_tyre_output *out) {
  if (!cache) {
    grip_simple_mf_evaluate_direct(def, grip_magic_formula_peak_slip(&def->longitudinal),
                                   tan(grip_magic_formula_peak_slip(&def->lateral)), fz, kappa, tan_alpha,
                                   friction_scale, out);
    return;
  }
  /* The same equations as evaluate_direct, with the curves from the tables and the divisions by
   * constants of the tyre turned into products with their reciprocals. */
  double sx = kappa * cache->inv_kappa_peak;
  double sy = tan_alpha * cache->inv_tan_alpha_peak;
  double rho2 = sx * sx + sy * sy;
  if (!(rho2 >= 1e-18 && rho2 < cache->rho_max * cache->rho_max)) {
    grip_simple_mf_evaluate_direct(def, cache->kappa_peak, cache->tan_alpha_peak, fz, kappa, tan_alpha,
                                   friction_scale, out);
    return;
  }
  fz = fz > 0.0 ? fz : 0.0;
  /* Load sensitivity (loaded_mu), one factor for both directions. */
  double load_factor = maxd(0.1, 1.0 - def->load_sensitivity * ((fz - def->nominal_load) * cache->inv_nominal_load));
  double scale = friction_scale * fz;
  double dx = def->longitudinal.mu * load_factor * scale;
  double dy = def->lateral.mu * load_factor * scale;
  double rho = sqrt(rho2);
  double inv_rho = 1.0 / rho;
  double dgx, dgy;
  double gx = table_lookup(cache->x[0], rho, &dgx);
  double gy = table_lookup(cache->y[0], rho, &dgy);
  double ux = sx * inv_rho, uy = sy * inv_rho;
  out->fx = dx * gx * ux;
  out->fy = -dy * gy * uy;
  out->dfx_dkappa = dx * (dgx * ux * ux + gx * inv_rho * (1.0 - ux * ux)) * cache->inv_kappa_peak;
  double dsy_dalpha = (1.0 + tan_alpha * tan_alpha) * cache->inv_tan_alpha_peak;
  out->dfy_dalpha = -dy * (dgy * uy * uy + gy * inv_rho * (1.0 - uy * uy)) * dsy_dalpha;
  double trail = def->pneumatic_trail * maxd(0.0, 1.0 - rho);
  out->mz = -trail * out->fy;
}

void grip_simple_mf_set_fill(simple_mf_set *set, int n, const grip_simple_mf_def *const def[],
                             const simple_mf_cache *const cache[]) {
  for (int k = 0; k < n; ++k) {
    const simple_mf_cache *c = cache[k];
    const grip_simple_mf_def *d = def[k];
    set->inv_kappa_peak[k] = c->inv_kappa_peak;
    set->inv_tan_alpha_peak[k] = c->inv_tan_alpha_peak;
    set->rho_max2[k] = c->rho_max * c->rho_max;
    set->load_sensitivity[k] = d->load_sensitivity;
    set->nominal_load[k] = d->nominal_load;
    set->inv_nominal_load[k] = c->inv_nominal_load;
    set->mu_x[k] = d->longitudinal.mu;
    set->mu_y[k] = d->lateral.mu;
    set->trail[k] = d->pneumatic_trail;
    set->table_x[k] = c->x[0];
    set->table_y[k] = c->y[0];
    set->def[k] = d;
    set->cache[k] = c;
  }
}

GRIP_HOT_CLONES
static void simple_mf_evaluate_set_cloned(int n, const simple_mf_set *set, const tyre_inputs *in, bool slopes_y,
                                          tyre_results *out) {
  /* the step's usual call: four tyres, without the lateral slopes */
  if (n == 4 && !slopes_y) grip_simple_mf_evaluate_set_n(4, set, in, false, out);
  else grip_simple_mf_evaluate_set_n(n, set, in, slopes_y, out);
}

void grip_simple_mf_evaluate_set(int n, const simple_mf_set *set, const tyre_inputs *in, bool slopes_y,
                                 tyre_results *out) {
  simple_mf_evaluate_set_cloned(n, set, in, slopes_y, out);
}

void grip_simple_mf_evaluate_batch(int n, const tyre_inputs *in, bool slopes_y, tyre_results *out) {
  simple_mf_set set;
  grip_simple_mf_set_fill(&set, n, in->def, in->cache);
  simple_mf_evaluate_set_cloned(n, &set, in, slopes_y, out);
}

void grip_simple_mf_evaluate(const grip_simple_mf_def *def, const grip_tyre_input *in,
                             grip_tyre_output *out) {
  double tan_alpha = tan(clampd(in->alpha, -1.5, 1.5));
  grip_simple_mf_evaluate_tan(def, NULL, in->fz, in->kappa, tan_alpha, in->friction_scale, out);
}
