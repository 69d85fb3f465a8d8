/* grip plot tyre: a tyre's steady-state forces at three loads (0.5, 1, 1.5 × nominal): Fx against
 * slip ratio, Fy and Mz against slip angle, and the combined-slip envelope (Fx against Fy). */
#include <math.h>
#include <plplot.h>
#include <stdlib.h>
#include <string.h>

#include "car_option.h"
#include "grip/mf_tyre.h"
#include "plot_canvas.h"
#include "plot_kinds.h"
#include "tir.h"

#define DEG (180.0 / GRIP_PI)
#define LOADS 3
#define SWEEP 241       /* points per slip sweep */
#define RAYS 144        /* directions of the combined-slip envelope */
#define KAPPA_MAX 0.4   /* slip ratio range ± */
#define ALPHA_MAX_DEG 16.0

static const double load_factor[LOADS] = {0.5, 1.0, 1.5};

/* The tyre as it is evaluated: the simple model of a car's axle, or a .tir file's full MF at its
 * LONGVL and INFLPRES, upright (as grip tire evaluates it by default). */
typedef struct tyre_model {
  const grip_tyre_def *def;   /* simple model, or NULL */
  const grip_mf_params *mf;   /* full MF, or NULL */
  double nominal_load;        /* N */
} tyre_model;

static void evaluate(const tyre_model *t, double fz, double kappa, double alpha, double *fx, double *fy,
                     double *mz) {
  if (t->mf) {
    grip_mf_output o;
    grip_mf_evaluate_full(t->mf, fz, kappa, alpha, 0.0, t->mf->LONGVL, 0.0, &o);
    *fx = o.fx, *fy = o.fy, *mz = o.mz;
  } else {
    grip_tyre_input in = {.fz = fz, .kappa = kappa, .alpha = alpha, .gamma = 0.0, .vx = 20.0, .friction_scale = 1.0};
    grip_tyre_output o;
    grip_simple_mf_evaluate(&t->def->simple, &in, &o);
    *fx = o.fx, *fy = o.fy, *mz = o.mz;
  }
}

/* Slip of the pure-slip peak (|Fx| over kappa in (0, 1], |Fy| over alpha in (0, 0.6] rad),
 * scanned: the envelope's rays are scaled by it. */
static double peak_slip(const tyre_model *t, double fz, bool lateral) {
  double best = 0.0, at = lateral ? 0.1 : 0.1;
  for (int i = 1; i <= 600; ++i) {
    double s = (lateral ? 0.6 : 1.0) * i / 600.0, fx, fy, mz;
    evaluate(t, fz, lateral ? 0.0 : s, lateral ? s : 0.0, &fx, &fy, &mz);
    double f = fabs(lateral ? fy : fx);
    if (f > best) best = f, at = s;
  }
  return at;
}

int plot_tyre(int argc, char **argv) {
  plot_options o = plot_default_options();
  const char *car_spec = NULL, *axle_name = "front", *tir = NULL;
  cli_option options[] = {
      {"--car", CLI_STRING, &car_spec, 0, 0, CLI_CAR_HELP},
      {"--axle", CLI_STRING, &axle_name, 0, 0, "front or rear: the car's axle whose tyre to draw (default front)"},
      {"--tir", CLI_STRING, &tir, 0, 0, "a .tir file (MF 5.2/6.1/6.2) instead of a car's tyre"},
      PLOT_COMMON_OPTIONS(o),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("tyre", &o))) return rc;
  if (car_spec && tir) {
    fprintf(stderr, "grip plot tyre: give --car or --tir, not both\n");
    return CLI_USAGE_ERROR;
  }
  int axle = strcmp(axle_name, "front") == 0 ? 0 : strcmp(axle_name, "rear") == 0 ? 1 : -1;
  if (axle < 0) {
    fprintf(stderr, "grip plot tyre: --axle: '%s' is not front or rear\n", axle_name);
    return CLI_USAGE_ERROR;
  }
  static grip_car car;
  static grip_mf_params params;
  tyre_model t = {0};
  char what[600], caption[1200];
  if (tir) {
    grip_load_error err;
    grip_load_error_clear(&err);
    if (grip_tir_load(tir, &params, &err) != 0) {
      fprintf(stderr, "grip plot tyre: %s\n", err.message);
      return 1;
    }
    t.mf = &params;
    t.nominal_load = params.FNOMIN;
    const char *base = strrchr(tir, '/');
    snprintf(what, sizeof what, "%s", base ? base + 1 : tir);
    snprintf(caption, sizeof caption,
             "tyre %s (MF %s) · nominal load FNOMIN %.0f N · Vx %.1f m/s (LONGVL), inflation pressure INFLPRES, "
             "upright\nISO signs: α > 0 gives Fy < 0 · envelope: the largest force in each direction of combined slip",
             what, params.version == GRIP_MF_52 ? "5.2" : params.version == GRIP_MF_61 ? "6.1" : "6.2", params.FNOMIN,
             params.LONGVL);
  } else {
    if (cli_load_car(argv[0], car_spec ? car_spec : "builtin", &car)) return 1;
    const grip_tyre_def *def = &car.def.axles[axle].tyre;
    if (def->model == GRIP_TYRE_FULL_MF) {
      t.mf = def->mf;
      t.nominal_load = def->mf->FNOMIN;
      snprintf(what, sizeof what, "%s %s tyre", car.name, axle_name);
      snprintf(caption, sizeof caption,
               "car %s, %s axle: full Magic Formula tyre %s · nominal load FNOMIN %.0f N · Vx %.1f m/s, "
               "upright\nISO signs: α > 0 gives Fy < 0 · envelope: the largest force in each direction of combined slip",
               car.name, axle_name, car.tir_path[axle], t.nominal_load, def->mf->LONGVL);
    } else {
      t.def = def;
      t.nominal_load = def->simple.nominal_load;
      const grip_simple_mf_def *s = &def->simple;
      snprintf(what, sizeof what, "%s %s tyre", car.name, axle_name);
      snprintf(caption, sizeof caption,
               "car %s, %s axle: simple Magic Formula, lateral B %.3g C %.3g μ %.3g E %.3g, longitudinal B %.3g "
               "C %.3g μ %.3g E %.3g\nnominal load %.0f N, load sensitivity %.3g, upright\nISO signs: α > 0 gives Fy < 0 · envelope: the largest force in each direction of combined slip",
               car.name, axle_name, s->lateral.b, s->lateral.c, s->lateral.mu, s->lateral.e, s->longitudinal.b,
               s->longitudinal.c, s->longitudinal.mu, s->longitudinal.e, s->nominal_load, s->load_sensitivity);
    }
  }

  /* The curves. */
  static double kappa[SWEEP], alpha_deg[SWEEP], fx[LOADS][SWEEP], fy[LOADS][SWEEP], mz[LOADS][SWEEP];
  static double env_fx[LOADS][RAYS + 1], env_fy[LOADS][RAYS + 1], fz_col[SWEEP + RAYS + 1];
  double fmax = 0.0, mzmax = 0.0;
  for (int l = 0; l < LOADS; ++l) {
    double fz = load_factor[l] * t.nominal_load, unused;
    for (int i = 0; i < SWEEP; ++i) {
      kappa[i] = KAPPA_MAX * (2.0 * i / (SWEEP - 1) - 1.0);
      alpha_deg[i] = ALPHA_MAX_DEG * (2.0 * i / (SWEEP - 1) - 1.0);
      evaluate(&t, fz, kappa[i], 0.0, &fx[l][i], &unused, &unused);
      evaluate(&t, fz, 0.0, alpha_deg[i] / DEG, &unused, &fy[l][i], &mz[l][i]);
      fmax = fmax > fabs(fx[l][i]) ? fmax : fabs(fx[l][i]);
      fmax = fmax > fabs(fy[l][i]) ? fmax : fabs(fy[l][i]);
      mzmax = mzmax > fabs(mz[l][i]) ? mzmax : fabs(mz[l][i]);
    }
    /* Envelope: along each ray of normalised combined slip (kappa/kappa_peak, alpha/alpha_peak),
     * the largest resultant force. */
    double kp = peak_slip(&t, fz, false), ap = peak_slip(&t, fz, true);
    for (int r = 0; r <= RAYS; ++r) {
      double th = 2.0 * GRIP_PI * r / RAYS, best = -1.0;
      for (int i = 1; i <= 150; ++i) {
        double s = 3.0 * i / 150.0, x, y, m;
        evaluate(&t, fz, s * cos(th) * kp, s * sin(th) * ap, &x, &y, &m);
        if (x * x + y * y > best) best = x * x + y * y, env_fx[l][r] = x, env_fy[l][r] = y;
      }
    }
  }
  for (int i = 0; i < SWEEP + RAYS + 1; ++i) fz_col[i] = 0.0;

  FILE *csv = NULL;
  if (o.csv && !(csv = plot_csv_open("tyre", o.csv))) return 1;
  for (int l = 0; l < LOADS; ++l) {
    char name[32];
    snprintf(name, sizeof name, "load_%g", load_factor[l]);
    for (int i = 0; i < SWEEP + RAYS + 1; ++i) fz_col[i] = load_factor[l] * t.nominal_load;
    plot_csv_series(csv, "fx_kappa", name, SWEEP, kappa, fx[l], fz_col);
    plot_csv_series(csv, "fy_alpha_deg", name, SWEEP, alpha_deg, fy[l], fz_col);
    plot_csv_series(csv, "mz_alpha_deg", name, SWEEP, alpha_deg, mz[l], fz_col);
    plot_csv_series(csv, "envelope_fy_fx", name, RAYS + 1, env_fy[l], env_fx[l], fz_col);
  }
  if (plot_csv_close("tyre", o.csv, csv)) return 1;

  if (plot_begin("tyre", &o)) return 1;
  char text[700];
  snprintf(text, sizeof text, "Tyre forces: %s", what);
  plot_title(text);
  plot_caption(caption);
  double flo, fhi, mlo, mhi;
  plot_nice_range(-fmax * 1.08, fmax * 1.08, &flo, &fhi);
  plot_nice_range(-mzmax * 1.1, mzmax * 1.1, &mlo, &mhi);
  plot_legend_entry legend[LOADS];
  char labels[LOADS][64];
  for (int l = 0; l < LOADS; ++l) {
    snprintf(labels[l], sizeof labels[l], "Fz %.0f N (%g×)", load_factor[l] * t.nominal_load, load_factor[l]);
    legend[l] = (plot_legend_entry){labels[l], plot_series_colour(l), 'l', 1, NULL};
  }
  /* Top left: Fx against kappa. */
  plot_panel(0.08, 0.46, 0.61, 0.90, -KAPPA_MAX, KAPPA_MAX, flo, fhi, "slip ratio κ (−)", "Fx (N)");
  for (int l = 0; l < LOADS; ++l) plot_line(SWEEP, kappa, fx[l], plot_series_colour(l), 2.5, 1);
  plot_text(KAPPA_MAX * 0.95, flo + 0.06 * (fhi - flo), 1.0, PLOT_DARK_GREY, 0.9, "longitudinal, α = 0");
  /* Top right: Fy against alpha. */
  plot_panel(0.57, 0.95, 0.61, 0.90, -ALPHA_MAX_DEG, ALPHA_MAX_DEG, flo, fhi, "slip angle α (deg)", "Fy (N)");
  for (int l = 0; l < LOADS; ++l) plot_line(SWEEP, alpha_deg, fy[l], plot_series_colour(l), 2.5, 1);
  plot_text(ALPHA_MAX_DEG * 0.95, fhi - 0.1 * (fhi - flo), 1.0, PLOT_DARK_GREY, 0.9, "lateral, κ = 0");
  /* Bottom left: Mz against alpha. */
  plot_panel(0.08, 0.46, 0.185, 0.475, -ALPHA_MAX_DEG, ALPHA_MAX_DEG, mlo, mhi, "slip angle α (deg)", "Mz (N·m)");
  for (int l = 0; l < LOADS; ++l) plot_line(SWEEP, alpha_deg, mz[l], plot_series_colour(l), 2.5, 1);

  plot_text(ALPHA_MAX_DEG * 0.95, mhi - 0.1 * (mhi - mlo), 1.0, PLOT_DARK_GREY, 0.9, "aligning moment, κ = 0");
  /* Bottom right: the combined-slip envelope, equal scales. */
  double square = 0.29 * o.height / o.width; /* the width of a square viewport */
  plot_panel(0.57, 0.57 + square, 0.185, 0.475, flo, fhi, flo, fhi, "Fy (N)", "Fx (N)");
  for (int l = 0; l < LOADS; ++l) plot_line(RAYS + 1, env_fy[l], env_fx[l], plot_series_colour(l), 2.5, 1);
  plot_legend(PL_POSITION_RIGHT | PL_POSITION_OUTSIDE, LOADS, legend);
  plot_end();
  return 0;
}
