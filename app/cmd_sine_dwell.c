/* grip sine-dwell: the FMVSS 126 / UN R140 sine-with-dwell stability test (sim/sine_dwell.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "sine_dwell.h"

static void text_run(const sine_dwell_run *r, double steer_at_03g) {
  printf("  %6.1f deg (%3.1f A) %-5s  peak %7.2f deg/s  1.00 s %7.1f %%  1.75 s %7.1f %%  "
         "lateral %5.2f m  slip %5.1f deg%s  %s\n",
         r->amplitude_deg, r->amplitude_deg / steer_at_03g, r->direction > 0 ? "left" : "right",
         r->first_peak_dps, r->yaw_ratio_1s_pct, r->yaw_ratio_175s_pct, r->lateral_displacement_m,
         r->max_body_slip_deg, r->spun ? "  spun" : "", r->passed ? "pass" : "FAIL");
}

static void json_run(json_writer *w, const sine_dwell_run *r) {
  json_open(w, NULL, '{');
  json_number(w, "amplitude_deg", r->amplitude_deg);
  json_string(w, "direction", r->direction > 0 ? "left" : "right");
  json_number(w, "first_peak_yaw_rate_dps", r->first_peak_dps);
  json_number(w, "yaw_ratio_1s_pct", r->yaw_ratio_1s_pct);
  json_number(w, "yaw_ratio_1_75s_pct", r->yaw_ratio_175s_pct);
  json_number(w, "lateral_displacement_m", r->lateral_displacement_m);
  json_number(w, "max_body_slip_deg", r->max_body_slip_deg);
  json_bool(w, "spun", r->spun);
  json_bool(w, "pass", r->passed);
  json_close(w, '}');
}

int cmd_sine_dwell(int argc, char **argv);
int cmd_sine_dwell(int argc, char **argv) {
  double dt = 0.002, speed = 80.0;
  bool json = false;
  static grip_car loaded;
  const char *esc = NULL;
  const cli_option own[] = {
      {"--speed", CLI_DOUBLE, &speed, 40.0, 200.0, "speed at the start of the steer, km/h (default 80, the standard's)"},
      {"--esc", CLI_STRING, &esc, 0, 0, "on|off: stability control (default: the car's [systems] esc)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  if (esc) {
    if (strcmp(esc, "on") != 0 && strcmp(esc, "off") != 0) {
      fprintf(stderr, "grip sine-dwell: --esc: '%s' is not on or off\n", esc);
      return CLI_USAGE_ERROR;
    }
    loaded.def.systems.esc.enabled = strcmp(esc, "on") == 0;
  }
  const grip_vehicle_def *car = &loaded.def;
  static sine_dwell_result r;
  if (!sim_sine_dwell(car, speed, dt, &r)) {
    fprintf(stderr, "grip sine-dwell: %s: %s\n", car->name, r.failure);
    return 1;
  }
  report rep;
  report_begin(&rep, json, "sine-dwell: %s from %.0f km/h, dt %g s (FMVSS 126 / UN R140)", car->name, speed, dt);
  report_string(&rep, "car", car->name, NULL);
  report_bool(&rep, "esc", car->systems.esc.enabled, "ESC");
  report_number(&rep, "steer_at_0_3g_deg", r.steer_at_03g_deg, "A (0.3 g)", "%8.2f deg steering wheel");
  report_number(&rep, "steer_at_0_3g_left_deg", r.steer_at_03g_left_deg, NULL, NULL);
  report_number(&rep, "steer_at_0_3g_right_deg", r.steer_at_03g_right_deg, NULL, NULL);
  report_optional(&rep, "worst_yaw_ratio_1s_pct", r.worst_yaw_ratio_1s_pct, "yaw at 1.00 s", "%8.1f %% of the first peak (limit 35)", "no peak");
  report_optional(&rep, "worst_yaw_ratio_1_75s_pct", r.worst_yaw_ratio_175s_pct, "yaw at 1.75 s", "%8.1f %% of the first peak (limit 20)", "no peak");
  report_optional(&rep, "min_lateral_displacement_m", r.min_lateral_displacement_m, "lateral at 1.07 s",
                  "%8.2f m, least over the runs at 5 A and more (minimum 1.83)", "no run");
  report_bool(&rep, "pass", r.pass, "pass");
  if (r.failure) report_string(&rep, "failure", r.failure, "failure");
  else report_null(&rep, "failure");
  if (json) {
    json_open(&rep.w, "runs", '[');
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < r.run_count; ++i) json_run(&rep.w, &r.runs[side][i]);
    json_close(&rep.w, ']');
  } else {
    printf("  runs:\n");
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < r.run_count; ++i) text_run(&r.runs[side][i], r.steer_at_03g_deg);
  }
  report_end(&rep);
  return 0;
}
