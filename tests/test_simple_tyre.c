/* The simple Magic-Formula tyre's slide gain (grip_simple_mf_curve.slide_gain) against the
 * formula written out with libm: F(x) = sin(C·atan(B·x − E·(B·x − atan(B·x))))·(1 + g·min(|x|,
 * 1.5)), the peak slip of the Magic Formula alone, and what the tyre model and the definition
 * check make of it. */
#include <string.h>

#include "grip/grip.h"
#include "grip/mf_tyre.h"
#include "support_random.h"
#include "test.h"
#include "vehicle_internal.h"

/* TORCS's car1-trb1 curve (stiffness 20, dynamic friction 0.8, elasticity 0.7) and the skid
 * factor TORCS gives its robots. */
static const grip_simple_mf_curve TRB1 = {.b = 14.187762687605225, .c = 1.409665529398267, .mu = 1.0,
                                          .e = 0.7, .slide_gain = 0.3};

static double written_out(const grip_simple_mf_curve *k, double x) {
  double bx = k->b * x;
  double f = sin(k->c * atan(bx - k->e * (bx - atan(bx))));
  double s = fabs(x) < 1.5 ? fabs(x) : 1.5;
  return f * (1.0 + k->slide_gain * s);
}

static void curve_matches_formula(void) {
  const double xs[] = {-1.7, -1.0, -0.3, -0.02, 0.0, 0.01, 0.1, 0.263, 0.5, 0.9, 1.2, 1.49, 1.51, 2.0};
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double x = xs[i], slope;
    double f = grip_magic_formula(&TRB1, x, &slope);
    CHECK_NEAR(f, written_out(&TRB1, x), 1e-9);
    /* the slope against a central difference (away from the cap's kink at |x| = 1.5) */
    if (fabs(fabs(x) - 1.5) > 1e-3) {
      double h = 1e-6, fd = (written_out(&TRB1, x + h) - written_out(&TRB1, x - h)) / (2.0 * h);
      CHECK_NEAR(slope, fd, 1e-5 * fmax(1.0, fabs(fd)));
    }
  }
  /* Beyond the peak the force keeps rising with the gain (TORCS's tyre: 1.079 at its peak slip
   * 0.263, 1.125 at 0.5, 1.21 at 1.0), where the plain curve falls. */
  CHECK(grip_magic_formula(&TRB1, 1.0, NULL) > grip_magic_formula(&TRB1, 0.5, NULL));
  grip_simple_mf_curve plain = TRB1;
  plain.slide_gain = 0.0;
  CHECK(grip_magic_formula(&plain, 1.0, NULL) < grip_magic_formula(&plain, 0.5, NULL));
  CHECK_NEAR(grip_magic_formula(&TRB1, 1.0, NULL), 1.2068, 1e-4);
}

static void peak_is_the_magic_formulas(void) {
  grip_simple_mf_curve plain = TRB1;
  plain.slide_gain = 0.0;
  double xp = grip_magic_formula_peak_slip(&plain);
  /* C·atan(phi) = π/2 at the peak: phi = tan(π/(2C)) */
  double bx = xp * TRB1.b;
  CHECK_NEAR(bx - TRB1.e * (bx - atan(bx)), tan(3.14159265358979323846 / (2.0 * TRB1.c)), 1e-9);
  CHECK(grip_magic_formula_peak_slip(&TRB1) == xp);
  CHECK_NEAR(grip_magic_formula_peak_value(&plain), 1.0, 0.0);
  CHECK_NEAR(grip_magic_formula_peak_value(&TRB1), 1.0 + 0.3 * xp, 1e-12);
  printf("  peak slip %.4f, force there %.4f of the Magic Formula's\n", xp, grip_magic_formula_peak_value(&TRB1));

  /* grip_tyre_peak_mu: the loaded μ times that factor (nominal load: the load law's 1) */
  grip_tyre_def t = grip_default_tyre_def();
  t.simple.lateral = TRB1;
  t.simple.longitudinal = TRB1;
  t.simple.lateral.mu = t.simple.longitudinal.mu = 1.6;
  t.simple.load_sensitivity = 0.15;
  double mx, my;
  grip_tyre_peak_mu(&t, t.simple.nominal_load, &mx, &my);
  CHECK_NEAR(my, 1.6 * (1.0 + 0.3 * xp), 1e-12);
  CHECK_NEAR(mx, my, 0.0);
  /* asked one at a time, each is the same number, at any load (the other pointer NULL) */
  t.simple.longitudinal.mu = 1.4;
  t.simple.longitudinal.slide_gain = 0.0;
  int differ = 0;
  for (double fz = 100.0; fz < 20000.0; fz *= 1.7) {
    double x_both, y_both, x_alone = -1.0, y_alone = -1.0;
    grip_tyre_peak_mu(&t, fz, &x_both, &y_both);
    grip_tyre_peak_mu(&t, fz, &x_alone, NULL);
    grip_tyre_peak_mu(&t, fz, NULL, &y_alone);
    grip_tyre_peak_mu(&t, fz, NULL, NULL);
    differ += x_alone != x_both || y_alone != y_both;
    /* the load law (never below 10 % of μ) times the peak factor: 1 without a slide gain */
    double law = fmax(0.1, 1.0 - 0.15 * (fz - t.simple.nominal_load) / t.simple.nominal_load);
    CHECK_REL(x_both, 1.4 * law, 1e-12);
    CHECK_REL(y_both, 1.6 * law * (1.0 + 0.3 * xp), 1e-12);
  }
  CHECK(differ == 0);
  /* the full Magic Formula's branch: one evaluation, either number alone the same */
  grip_mf_params mf;
  grip_mf_default_params(&mf);
  t.model = GRIP_TYRE_FULL_MF;
  t.mf = &mf;
  double fx_both, fy_both, fx_alone = -1.0, fy_alone = -1.0;
  grip_tyre_peak_mu(&t, 4000.0, &fx_both, &fy_both);
  grip_tyre_peak_mu(&t, 4000.0, &fx_alone, NULL);
  grip_tyre_peak_mu(&t, 4000.0, NULL, &fy_alone);
  CHECK(fx_alone == fx_both && fy_alone == fy_both);
  CHECK(fx_both > 0.5 && fx_both < 2.0 && fy_both > 0.5 && fy_both < 2.0);
}

/* The tyre model: a pure longitudinal slip is the curve's own argument (the normalised slip
 * times the peak slip), so Fx = μ·Fz·F(κ) exactly as written out; and pure lateral slip α
 * gives μ·Fz·F(α). */
static void tyre_forces(void) {
  grip_simple_mf_def d = grip_default_simple_mf_def();
  d.longitudinal = d.lateral = TRB1;
  d.longitudinal.mu = d.lateral.mu = 1.6;
  const double kappas[] = {0.05, 0.263, 0.6, 0.95};
  for (size_t i = 0; i < sizeof kappas / sizeof kappas[0]; ++i) {
    grip_tyre_input in = {.fz = d.nominal_load, .kappa = kappas[i], .alpha = 0.0, .vx = 20.0, .friction_scale = 1.0};
    grip_tyre_output out;
    grip_simple_mf_evaluate(&d, &in, &out);
    CHECK_REL(out.fx, 1.6 * d.nominal_load * written_out(&TRB1, kappas[i]), 1e-9);
    CHECK_NEAR(out.fy, 0.0, 1e-9);
    grip_tyre_input lat = {.fz = d.nominal_load, .kappa = 0.0, .alpha = kappas[i], .vx = 20.0, .friction_scale = 1.0};
    grip_simple_mf_evaluate(&d, &lat, &out);
    CHECK_REL(-out.fy, 1.6 * d.nominal_load * written_out(&TRB1, kappas[i]), 1e-9);
  }
}

/* The step's batch of wheels (grip_simple_mf_evaluate_batch, whose phases run the wheels side
 * by side in vector registers) against the one-wheel evaluation of the same tyre, over random
 * tyres, loads and slips: inside the tables, at zero slip and beyond the tables (both evaluated
 * directly), a load below zero. Each wheel's result must not depend on how many wheels share
 * the batch or where it stands in it, bit for bit: that is what keeps a car's figures the same
 * whatever its wheel count and whichever copy of the step runs. Against the one-wheel path
 * (1/rho by a division there, as rho·(1/rho²) in the batch) to 1e-12. */
static bool same_bits(const grip_tyre_output *a, const grip_tyre_output *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

/* Tyre k of a batch's results (all five with slopes_y). */
static grip_tyre_output batch_tyre(const tyre_results *f, int k) {
  return (grip_tyre_output){f->fx[k], f->fy[k], f->mz[k], f->dfx_dkappa[k], f->dfy_dalpha[k]};
}

static void batch_matches_one_wheel(void) {
  enum { TYRES = 3 };
  grip_simple_mf_def defs[TYRES];
  simple_mf_cache caches[TYRES];
  unsigned long long rng = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < TYRES; ++k) {
    defs[k] = grip_default_simple_mf_def();
    defs[k].longitudinal = defs[k].lateral = TRB1;
    defs[k].longitudinal.mu = 1.0 + 0.6 * support_uniform(&rng);
    defs[k].lateral.mu = 1.0 + 0.6 * support_uniform(&rng);
    defs[k].lateral.b = 8.0 + 8.0 * support_uniform(&rng);
    defs[k].load_sensitivity = 0.2 * support_uniform(&rng);
    defs[k].pneumatic_trail = 0.01 + 0.04 * support_uniform(&rng);
    CHECK(grip_simple_mf_cache_init(&caches[k], &defs[k]));
  }
  int tabled = 0, direct = 0, checked = 0;
  for (int round = 0; round < 400; ++round) {
    int n = 1 + round % GRIP_MAX_WHEELS;
    tyre_inputs in;
    const grip_simple_mf_def **def = in.def;
    const simple_mf_cache **cache = in.cache;
    double *fz = in.fz, *kappa = in.kappa, *tan_alpha = in.tan_alpha, *scale = in.friction_scale;
    for (int j = 0; j < n; ++j) {
      int k = (int)(support_uniform(&rng) * TYRES) % TYRES;
      def[j] = &defs[k];
      cache[j] = &caches[k];
      double pick = support_uniform(&rng);
      fz[j] = pick < 0.05 ? -100.0 : 8000.0 * support_uniform(&rng);
      kappa[j] = 2.0 * MAX_TRANSIENT_KAPPA * (support_uniform(&rng) - 0.5);
      tan_alpha[j] = 2.0 * tan(MAX_TRANSIENT_ALPHA) * (support_uniform(&rng) - 0.5);
      if (pick > 0.9) kappa[j] = tan_alpha[j] = 0.0;                /* at rest: evaluated directly */
      else if (pick > 0.85) kappa[j] = 50.0 * caches[k].kappa_peak * caches[k].rho_max; /* past the tables */
      scale[j] = 0.5 + support_uniform(&rng);
    }
    tyre_results batch, without_y;
    grip_simple_mf_evaluate_batch(n, &in, true, &batch);
    /* the step's call, without the lateral slopes: the other four the same bits */
    memset(&without_y, 0, sizeof without_y);
    grip_simple_mf_evaluate_batch(n, &in, false, &without_y);
    /* the step's call for every wheel of a type, from the type's set laid out beforehand: the
     * inputs' definitions and caches are not read (the set has them), the same bits */
    simple_mf_set set;
    grip_simple_mf_set_fill(&set, n, in.def, in.cache);
    tyre_inputs bare = in;
    memset(bare.def, 0, sizeof bare.def);
    memset(bare.cache, 0, sizeof bare.cache);
    tyre_results via_set;
    grip_simple_mf_evaluate_set(n, &set, &bare, true, &via_set);
    grip_tyre_output out[GRIP_MAX_WHEELS];
    for (int j = 0; j < n; ++j) {
      out[j] = batch_tyre(&batch, j);
      grip_tyre_output y = batch_tyre(&without_y, j), z = batch_tyre(&via_set, j);
      CHECK(same_bits(&z, &out[j]));
      y.dfy_dalpha = out[j].dfy_dalpha;
      CHECK(same_bits(&y, &out[j]));
    }
    for (int j = 0; j < n; ++j) {
      grip_tyre_output alone, one;
      /* the same wheel alone in a batch of one */
      tyre_inputs one_in = {.def = {def[j]}, .cache = {cache[j]}, .fz = {fz[j]}, .kappa = {kappa[j]},
                            .tan_alpha = {tan_alpha[j]}, .friction_scale = {scale[j]}};
      tyre_results single;
      grip_simple_mf_evaluate_batch(1, &one_in, true, &single);
      alone = batch_tyre(&single, 0);
      CHECK(same_bits(&out[j], &alone));
      grip_simple_mf_evaluate_tan(def[j], cache[j], fz[j], kappa[j], tan_alpha[j], scale[j], &one);
      double sx = kappa[j] * cache[j]->inv_kappa_peak, sy = tan_alpha[j] * cache[j]->inv_tan_alpha_peak;
      double rho2 = sx * sx + sy * sy;
      if (rho2 >= 1e-18 && rho2 < cache[j]->rho_max * cache[j]->rho_max) {
        ++tabled;
        double size = 1.0 + fabs(one.fx) + fabs(one.fy) + fabs(one.dfx_dkappa) + fabs(one.dfy_dalpha);
        CHECK_NEAR(out[j].fx, one.fx, 1e-12 * size);
        CHECK_NEAR(out[j].fy, one.fy, 1e-12 * size);
        CHECK_NEAR(out[j].mz, one.mz, 1e-12 * size);
        CHECK_NEAR(out[j].dfx_dkappa, one.dfx_dkappa, 1e-12 * size);
        CHECK_NEAR(out[j].dfy_dalpha, one.dfy_dalpha, 1e-12 * size);
      } else {
        ++direct;
        CHECK(same_bits(&out[j], &one)); /* both the direct evaluation */
      }
      ++checked;
    }
  }
  /* every kind of wheel came up */
  CHECK(tabled > 1000);
  CHECK(direct > 200);
  printf("  %d wheels in batches of 1..%d: %d from the tables, %d evaluated directly\n", checked, GRIP_MAX_WHEELS,
         tabled, direct);
  for (int k = 0; k < TYRES; ++k) grip_simple_mf_cache_free(&caches[k]);
}

/* The definition check: slide_gain in [0, 2]. */
static void validation(void) {
  const double gains[] = {-0.1, 0.0, 0.3, 2.0, 2.5, NAN};
  const bool ok[] = {false, true, true, true, false, false};
  for (size_t i = 0; i < sizeof gains / sizeof gains[0]; ++i) {
    grip_vehicle_def car = grip_default_vehicle_def();
    car.axles[1].tyre.simple.lateral.slide_gain = gains[i];
    char msg[256] = "";
    grip_result r = grip_vehicle_def_validate(&car, msg, sizeof msg);
    CHECK((r == GRIP_OK) == ok[i]);
    if (!ok[i]) CHECK(strstr(msg, "slide_gain") != NULL);
  }
}

int main(void) {
  RUN_TEST(curve_matches_formula);
  RUN_TEST(peak_is_the_magic_formulas);
  RUN_TEST(tyre_forces);
  RUN_TEST(batch_matches_one_wheel);
  RUN_TEST(validation);
  return TEST_RESULT();
}
