/* The full Magic Formula model against MFeval 4.0's reference table (430 rows of the MF 6.1
 * sample tyre), plus physical checks of the MF 5.2 and MF 6.2 sample files against figures
 * computed by hand from their own coefficients. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grip/mf_tyre.h"
#include "test.h"
#include "tir.h"

#define REF_DIR GRIP_SOURCE_DIR "/tests/data/mfeval"

static grip_mf_params tyre61, tyre52, tyre62, tyre205;

static int load(const char *file, grip_mf_params *p) {
  grip_load_error err;
  grip_load_error_clear(&err);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", REF_DIR, file);
  int rc = grip_tir_load(path, p, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  return rc;
}

/* Column index of name in a CSV header. */
static int column(char *header, const char *name) {
  int i = 0;
  for (char *tok = strtok(header, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), ++i)
    if (strcmp(tok, name) == 0) return i;
  return -1;
}

typedef struct checked {
  const char *name;
  double abs_tol; /* the tolerance is max(abs_tol, 0.1 % of the reference) */
  int col;
  double max_err;  /* largest |grip - MFeval| */
  double max_rel;  /* largest |grip - MFeval| / tolerance */
} checked;

static void test_reference_61(void) {
  FILE *f = fopen(REF_DIR "/MagicFormula61_Paramerters.csv", "r");
  CHECK(f != NULL);
  if (!f) return;
  char line[8192], header[8192];
  CHECK(fgets(header, sizeof header, f) != NULL);
  checked c[] = {
      {"Fx", 1.0, 0, 0, 0},     {"Fy", 1.0, 0, 0, 0},     {"Mz", 0.1, 0, 0, 0},
      {"Mx", 0.1, 0, 0, 0},     {"My", 0.1, 0, 0, 0},     {"Re", 1e-6, 0, 0, 0},
      {"omega", 1e-4, 0, 0, 0}, {"mux", 1e-6, 0, 0, 0},   {"muy", 1e-6, 0, 0, 0},
      {"Kxk", 1.0, 0, 0, 0},    {"Kya", 1.0, 0, 0, 0},    {"t", 1e-6, 0, 0, 0},
      {"Mzr", 0.01, 0, 0, 0},
  };
  const int nc = (int)(sizeof c / sizeof c[0]);
  int in_col[7];
  const char *inputs[7] = {"Fz", "kappa", "alpha", "gamma", "phit", "Vx", "P"};
  for (int i = 0; i < 7; ++i) {
    char h[8192];
    memcpy(h, header, sizeof h);
    in_col[i] = column(h, inputs[i]);
    CHECK(in_col[i] >= 0);
  }
  for (int i = 0; i < nc; ++i) {
    char h[8192];
    memcpy(h, header, sizeof h);
    c[i].col = column(h, c[i].name);
    CHECK(c[i].col >= 0);
  }
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    double v[64];
    int n = 0;
    for (char *tok = strtok(line, ",\r\n"); tok && n < 64; tok = strtok(NULL, ",\r\n"))
      v[n++] = strtod(tok, NULL);
    if (n < 36) continue;
    ++rows;
    CHECK(v[in_col[4]] == 0.0); /* no turn slip in the table */
    grip_mf_output o;
    grip_mf_evaluate_full(&tyre61, v[in_col[0]], v[in_col[1]], v[in_col[2]], v[in_col[3]],
                          v[in_col[5]], v[in_col[6]], &o);
    const double got[] = {o.fx, o.fy, o.mz, o.mx, o.my, o.re, o.omega, o.mux, o.muy, o.kxk, o.kya,
                          o.t, o.mzr};
    for (int i = 0; i < nc; ++i) {
      double expect = v[c[i].col];
      double tol = fmax(c[i].abs_tol, 1e-3 * fabs(expect));
      double err = fabs(got[i] - expect);
      if (err > c[i].max_err) c[i].max_err = err;
      if (err / tol > c[i].max_rel) c[i].max_rel = err / tol;
      CHECK_NEAR(got[i], expect, tol);
    }
  }
  fclose(f);
  CHECK(rows == 430);
  printf("  %d rows of MFeval 4.0 (MF 6.1): largest |grip - MFeval|:\n", rows);
  for (int i = 0; i < nc; ++i)
    printf("    %-6s %.3g  (%.2g of the tolerance)\n", c[i].name, c[i].max_err, c[i].max_rel);
}

/* Sign conventions of ISO-W / ISO 8855, all four files. */
static void check_signs(const grip_mf_params *p) {
  double fz = p->FNOMIN, vx = p->LONGVL;
  grip_mf_output o;
  grip_mf_evaluate_full(p, fz, 0.05, 0.0, 0.0, vx, 0.0, &o);
  CHECK(o.fx > 0.3 * fz);
  CHECK(o.my < 0.0); /* rolling resistance opposes forward rolling */
  grip_mf_evaluate_full(p, fz, -0.05, 0.0, 0.0, vx, 0.0, &o);
  CHECK(o.fx < -0.3 * fz);
  grip_mf_evaluate_full(p, fz, 0.0, 0.03, 0.0, vx, 0.0, &o);
  CHECK(o.fy < -0.1 * fz);
  CHECK(o.mz > 0.0); /* aligning: turns the wheel towards its velocity */
  grip_mf_evaluate_full(p, fz, 0.0, -0.03, 0.0, vx, 0.0, &o);
  CHECK(o.fy > 0.1 * fz);
  CHECK(o.mz < 0.0);
  /* Reverse: Fx follows the slip ratio sign flipped with the speed; My changes sign. */
  grip_mf_evaluate_full(p, fz, 0.05, 0.0, 0.0, -vx, 0.0, &o);
  CHECK(o.fx < 0.0);
  CHECK(o.my > 0.0);
  /* No load, no force. */
  grip_mf_evaluate_full(p, 0.0, 0.1, 0.1, 0.0, vx, 0.0, &o);
  CHECK_NEAR(o.fx, 0.0, 1e-9);
  CHECK_NEAR(o.fy, 0.0, 1e-9);
  CHECK_NEAR(o.mz, 0.0, 1e-9);
}

/* Fx(kappa) at alpha = 0 crosses zero close to kappa = -SHx (bisection). */
static double fx_zero_crossing(const grip_mf_params *p) {
  double lo = -0.05, hi = 0.05;
  grip_mf_output o;
  for (int i = 0; i < 60; ++i) {
    double mid = 0.5 * (lo + hi);
    grip_mf_evaluate_full(p, p->FNOMIN, mid, 0.0, 0.0, p->LONGVL, 0.0, &o);
    if (o.fx > 0.0)
      hi = mid;
    else
      lo = mid;
  }
  return 0.5 * (lo + hi);
}

/* Largest |Fx| (over kappa) or |Fy| (over alpha) on a fine sweep, at Fz = FNOMIN, gamma = 0. */
static double peak_force(const grip_mf_params *p, int lateral, double scale) {
  double best = 0.0;
  for (int i = -400; i <= 400; ++i) {
    double s = i * (lateral ? 0.0015 : 0.0025); /* alpha to +-0.6 rad, kappa to +-1 */
    grip_mf_output o;
    if (lateral)
      grip_mf_evaluate_scaled(p, p->FNOMIN, 0.0, s, 0.0, p->LONGVL, 0.0, scale, &o);
    else
      grip_mf_evaluate_scaled(p, p->FNOMIN, s, 0.0, 0.0, p->LONGVL, 0.0, scale, &o);
    double v = fabs(lateral ? o.fy : o.fx);
    if (v > best) best = v;
  }
  return best;
}

/* Physical figures of a file against hand calculations from its own coefficients at Fz = Fz0,
 * gamma = 0, nominal pressure (so dfz = dpi = 0): zero crossing of Fx near kappa = -PHX1; peak
 * |Fx| = Fz0*(PDX1 + |PVX1|); peak |Fy| = Fz0*(|PDY1| + |PVY1|); cornering stiffness
 * Kya = PKY1*Fz0*sin(PKY4*atan(1/PKY2)); slip stiffness Kxk = PKX1*Fz0. */
static void check_file(const char *label, const grip_mf_params *p) {
  printf("  %s: FITTYP %d\n", label, p->fittyp);
  check_signs(p);
  double fz0 = p->FNOMIN;
  double k0 = fx_zero_crossing(p);
  CHECK(fabs(k0) < 0.01);
  /* Fx = Dx*sin(...) + SVx = 0 near kappa = -PHX1 - SVx/Kxk. */
  double expect_k0 = -p->PHX1 - fz0 * p->PVX1 / (p->PKX1 * fz0);
  CHECK_NEAR(k0, expect_k0, 2e-4);
  double mux = peak_force(p, 0, 1.0) / fz0;
  double muy = peak_force(p, 1, 1.0) / fz0;
  printf("    Fx = 0 at kappa %.5f (hand: %.5f); peak mu_x %.3f (PDX1 %.3f), mu_y %.3f (PDY1 %.3f)\n",
         k0, expect_k0, mux, p->PDX1, muy, p->PDY1);
  CHECK(mux > 0.6 && mux < 2.0);
  CHECK(muy > 0.6 && muy < 2.0);
  /* Peak = D + |SV| = Fz0*(PDX1 + |PVX1|), likewise lateral (the sweep resolves it to < 0.5 %). */
  CHECK_NEAR(mux, p->PDX1 + fabs(p->PVX1), 0.005);
  CHECK_NEAR(muy, fabs(p->PDY1) + fabs(p->PVY1), 0.005);
  /* Friction scale halves the peak. */
  CHECK_NEAR(peak_force(p, 0, 0.5) / fz0, 0.5 * mux, 0.01);
  CHECK_NEAR(peak_force(p, 1, 0.5) / fz0, 0.5 * muy, 0.01);

  /* Slopes through the grip tyre interface, at the shifted origin: Kxk and Kya by hand. */
  double kya = p->PKY1 * fz0 * sin(p->PKY4 * atan(1.0 / p->PKY2));
  double kxk = p->PKX1 * fz0;
  grip_tyre_input in = {fz0, -p->PHX1, 0.0, 0.0, p->LONGVL, 1.0};
  grip_tyre_output out;
  grip_mf_evaluate(p, &in, &out);
  CHECK_REL(out.dfx_dkappa, kxk, 1e-4);
  double slope_x = out.dfx_dkappa;
  double shy = p->PHY1; /* gamma = 0, dfz = 0 */
  in.kappa = 0.0;
  in.alpha = -shy;
  grip_mf_evaluate(p, &in, &out);
  CHECK_REL(out.dfy_dalpha, kya, 1e-4);
  CHECK(out.dfy_dalpha < 0.0);
  printf("    dFx/dkappa %.0f N (hand %.0f), dFy/dalpha %.0f N/rad (hand %.0f)\n", slope_x, kxk,
         out.dfy_dalpha, kya);
}

static void test_mf52(void) {
  CHECK(tyre52.version == GRIP_MF_52);
  CHECK(tyre52.fittyp == 6);
  /* Defaults MFeval fills in for a 5.2 file: PKY4 = 2, no pressure terms (INFLPRES = NOMPRES). */
  CHECK(tyre52.PKY4 == 2.0);
  CHECK(tyre52.INFLPRES == tyre52.NOMPRES);
  CHECK(tyre52.FNOMIN == 9416.6);
  check_file("MF 5.2 sample", &tyre52);
  /* MF 5.2 camber: SHy gains PHY3*gamma, so Fy at alpha = -PHY1 - PHY3*gamma is just the vertical
   * shift SVy = Fz0*(PVY1 + PVY3*gamma) (Fy0 equation with alpha_y = 0, kappa = 0). */
  double g = 0.05, fz0 = tyre52.FNOMIN;
  grip_mf_output o;
  grip_mf_evaluate_full(&tyre52, fz0, 0.0, -tyre52.PHY1 - tyre52.PHY3 * g, g, tyre52.LONGVL, 0.0, &o);
  CHECK_NEAR(o.fy, fz0 * (tyre52.PVY1 + tyre52.PVY3 * g), 0.5);
  /* MF 5.2 rolling resistance: My = -R0*Fz*QSY1 - ... (no load exponent). */
  double vr = 1.0; /* Vx = LONGVL */
  grip_mf_evaluate_full(&tyre52, fz0, -tyre52.PHX1 - tyre52.PVX1 / tyre52.PKX1, 0.0, 0.0,
                        tyre52.LONGVL, 0.0, &o);
  double my = -tyre52.UNLOADED_RADIUS * fz0 *
              (tyre52.QSY1 + tyre52.QSY2 * o.fx / fz0 + tyre52.QSY3 * vr + tyre52.QSY4 * vr);
  CHECK_NEAR(o.my, my, 1e-6);
}

static void test_mf62(void) {
  CHECK(tyre62.version == GRIP_MF_62 && tyre62.fittyp == 62);
  CHECK(tyre205.version == GRIP_MF_62 && tyre205.fittyp == 62);
  CHECK(tyre205.FNOMIN == 4000.0 && tyre205.INFLPRES == 220000.0);
  check_file("MF 6.2 sample", &tyre62);
  check_file("TNO car205/60R15 (6.2)", &tyre205);
  /* Pressure: the 6.x terms. Kxk scales by (1 + PPX1*dpi + PPX2*dpi^2). */
  double fz0 = tyre205.FNOMIN, dpi = 0.2;
  grip_mf_output o;
  grip_mf_evaluate_full(&tyre205, fz0, 0.0, 0.0, 0.0, tyre205.LONGVL, tyre205.NOMPRES * (1 + dpi), &o);
  CHECK_REL(o.kxk, tyre205.PKX1 * fz0 * (1 + tyre205.PPX1 * dpi + tyre205.PPX2 * dpi * dpi), 1e-12);
  CHECK_REL(o.mux, tyre205.PDX1 * (1 + tyre205.PPX3 * dpi + tyre205.PPX4 * dpi * dpi), 1e-12);
  /* The same file with FITTYP 61 gives the same forces (MFeval's 6.2 shares 6.1's equations). */
  grip_mf_params as61 = tyre205;
  as61.version = GRIP_MF_61;
  grip_mf_output a, b;
  grip_mf_evaluate_full(&tyre205, 5000, 0.07, -0.05, 0.02, 20.0, 0.0, &a);
  grip_mf_evaluate_full(&as61, 5000, 0.07, -0.05, 0.02, 20.0, 0.0, &b);
  CHECK(a.fx == b.fx && a.fy == b.fy && a.mz == b.mz);
}

static void test_limits(void) {
  const grip_mf_params *p = &tyre61;
  grip_mf_output a, b;
  /* Saturation: beyond ALPMAX / KPUMAX / FZMAX / CAMMAX nothing changes. */
  grip_mf_evaluate_full(p, 5000, 0.0, p->ALPMAX, 0.0, 20, 0, &a);
  grip_mf_evaluate_full(p, 5000, 0.0, p->ALPMAX + 0.3, 0.0, 20, 0, &b);
  CHECK(a.fy == b.fy);
  grip_mf_evaluate_full(p, 5000, p->KPUMAX, 0.0, 0.0, 20, 0, &a);
  grip_mf_evaluate_full(p, 5000, p->KPUMAX + 1.0, 0.0, 0.0, 20, 0, &b);
  CHECK(a.fx == b.fx);
  grip_mf_evaluate_full(p, p->FZMAX, 0.1, 0.1, 0.0, 20, 0, &a);
  grip_mf_evaluate_full(p, p->FZMAX * 2, 0.1, 0.1, 0.0, 20, 0, &b);
  CHECK(a.fx == b.fx && a.fy == b.fy);
  grip_mf_evaluate_full(p, 5000, 0.0, 0.05, p->CAMMAX, 20, 0, &a);
  grip_mf_evaluate_full(p, 5000, 0.0, 0.05, p->CAMMAX + 0.2, 20, 0, &b);
  CHECK(a.fy == b.fy);
  /* Low-speed model: at standstill the slips are zero, so no force beyond the faded shifts. */
  grip_mf_evaluate_full(p, 5000, 0.2, 0.2, 0.0, 0.0, 0, &a);
  CHECK_NEAR(a.fx, 0.0, 1e-9);
  CHECK_NEAR(a.fy, 0.0, 1e-9);
  CHECK_NEAR(a.my, 0.0, 1e-12);
  /* Half of VXLOW: kappa is scaled by |vx|/VXLOW, so Fx(kappa, vx) = Fx(kappa/2) with the shifts
   * faded by 1 - 0.5*(1 + cos(pi/2)) = 0.5: check continuity rather than a value. */
  grip_mf_evaluate_full(p, 5000, 0.1, 0.0, 0.0, p->VXLOW * 1.0000001, 0, &a);
  grip_mf_evaluate_full(p, 5000, 0.1, 0.0, 0.0, p->VXLOW * 0.9999999, 0, &b);
  CHECK_NEAR(a.fx, b.fx, 1.0);
  /* Finite everywhere on a coarse grid including extreme inputs. */
  int finite = 1;
  for (double fz = -100; fz <= 30000; fz += 2500)
    for (double k = -3; k <= 3; k += 0.37)
      for (double al = -2; al <= 2; al += 0.31)
        for (double vx = -40; vx <= 40; vx += 7.3) {
          grip_mf_evaluate_full(p, fz, k, al, 0.3, vx, 0, &a);
          if (!isfinite(a.fx) || !isfinite(a.fy) || !isfinite(a.mz) || !isfinite(a.mx) || !isfinite(a.my))
            finite = 0;
        }
  CHECK(finite);
}

/* The analytic slopes of grip_mf_evaluate against central differences of the forces from
 * grip_mf_evaluate_full, over a grid including reverse, low speed, camber and friction scale. */
static void test_slopes(void) {
  const grip_mf_params *tyres[] = {&tyre61, &tyre52, &tyre205};
  double worst = 0.0;
  int points = 0;
  for (int t = 0; t < 3; ++t) {
    const grip_mf_params *p = tyres[t];
    const double vxs[] = {p->LONGVL, 35.0, -12.0, 0.6 * p->VXLOW};
    for (int iv = 0; iv < 4; ++iv)
      for (double k = -0.4; k <= 0.4; k += 0.0731)
        for (double al = -0.3; al <= 0.3; al += 0.0577)
          for (double g = -0.04; g <= 0.05; g += 0.045) {
            double fz = p->FNOMIN * (0.7 + 0.1 * t), scale = t == 2 ? 0.6 : 1.0;
            grip_tyre_input in = {fz, k, al, g, vxs[iv], scale};
            grip_tyre_output out;
            grip_mf_evaluate(p, &in, &out);
            grip_mf_output a, b, c;
            const double h = 1e-6;
            grip_mf_evaluate_scaled(p, fz, k + h, al, g, vxs[iv], 0, scale, &a);
            grip_mf_evaluate_scaled(p, fz, k - h, al, g, vxs[iv], 0, scale, &b);
            double dfx = (a.fx - b.fx) / (2 * h);
            grip_mf_evaluate_scaled(p, fz, k, al + h, g, vxs[iv], 0, scale, &a);
            grip_mf_evaluate_scaled(p, fz, k, al - h, g, vxs[iv], 0, scale, &b);
            double dfy = (a.fy - b.fy) / (2 * h);
            grip_mf_evaluate_scaled(p, fz, k, al, g, vxs[iv], 0, scale, &c);
            CHECK_NEAR(out.fx, c.fx, 1e-9);
            CHECK_NEAR(out.fy, c.fy, 1e-9);
            CHECK_NEAR(out.mz, c.mz, 1e-9);
            /* Tolerance: 0.1 % of the slip stiffness scale (Fz*20) absorbs the difference noise. */
            double tol = 1e-3 * 20.0 * fz;
            CHECK_NEAR(out.dfx_dkappa, dfx, tol);
            CHECK_NEAR(out.dfy_dalpha, dfy, tol);
            worst = fmax(worst, fmax(fabs(out.dfx_dkappa - dfx), fabs(out.dfy_dalpha - dfy)) / tol);
            ++points;
          }
  }
  /* Beyond KPUMAX the force is saturated: zero slope. */
  grip_tyre_input in = {4000, tyre61.KPUMAX + 0.5, 0.0, 0.0, 20.0, 1.0};
  grip_tyre_output out;
  grip_mf_evaluate(&tyre61, &in, &out);
  CHECK(out.dfx_dkappa == 0.0);
  printf("  %d points: analytic slopes within %.2g of the tolerance of differences\n", points, worst);
}

int main(void) {
  struct stat st;
  if (stat(REF_DIR, &st) != 0) TEST_SKIP("reference data " REF_DIR " is not installed");
  CHECK(load("MagicFormula61_Paramerters.tir", &tyre61) == 0);
  CHECK(load("MagicFormula52_Paramerters.tir", &tyre52) == 0);
  CHECK(load("MagicFormula62_Paramerters.tir", &tyre62) == 0);
  CHECK(load("TNO_car205_60R15.tir", &tyre205) == 0);
  if (test_failures_) return TEST_RESULT();
  RUN_TEST(test_reference_61);
  RUN_TEST(test_mf52);
  RUN_TEST(test_mf62);
  RUN_TEST(test_limits);
  RUN_TEST(test_slopes);
  return TEST_RESULT();
}
