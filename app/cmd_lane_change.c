/* grip lane-change: the ISO 3888-2 severe lane change (obstacle avoidance), sim/lane_change.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lane_change.h"
#include "report.h"

static void report_run(report *rep, const char *key, const lane_change_run *r) {
  if (rep->json) {
    json_open(&rep->w, key, '{');
    json_number(&rep->w, "target_kmh", r->target_kmh);
    json_number(&rep->w, "entry_speed_kmh", r->entry_speed_kmh);
    json_number(&rep->w, "exit_speed_kmh", r->exit_speed_kmh);
    json_bool(&rep->w, "pass", r->passed);
    json_number(&rep->w, "failed_section", r->failed_section);
    json_number(&rep->w, "min_clearance_m", r->min_clearance_m);
    json_number(&rep->w, "max_steer_deg", r->max_steer_deg);
    json_number(&rep->w, "max_lateral_g", r->max_lateral_g);
    json_number(&rep->w, "max_body_slip_deg", r->max_body_slip_deg);
    json_bool(&rep->w, "esc_acted", r->esc_acted);
    json_int(&rep->w, "gear", r->gear);
    json_close(&rep->w, '}');
  } else {
    char out[32];
    if (isnan(r->exit_speed_kmh)) snprintf(out, sizeof out, "%s", "     -");
    else snprintf(out, sizeof out, "%6.1f", r->exit_speed_kmh);
    printf("  %-10s %6.1f km/h in, %s km/h out  clearance %6.3f m  steer %5.0f deg  %4.2f g  slip %4.1f deg"
           "  gear %d%s  %s",
           key, r->entry_speed_kmh, out, r->min_clearance_m, r->max_steer_deg, r->max_lateral_g,
           r->max_body_slip_deg, r->gear, r->esc_acted ? "  ESC acted" : "", r->passed ? "pass" : "FAIL");
    if (!r->passed) {
      if (r->failed_section) printf(" (cone in section %d)", r->failed_section);
      else printf(" (never left section 5)");
    }
    printf("\n");
  }
}

int cmd_lane_change(int argc, char **argv);
int cmd_lane_change(int argc, char **argv) {
  double dt = 0.002, speed = 0.0, low = 30.0, high = 200.0;
  bool json = false;
  static grip_car loaded;
  const char *esc = NULL;
  const cli_option own[] = {
      {"--speed", CLI_DOUBLE, &speed, 10.0, 250.0, "one run at this entry speed, km/h (default: search the highest passing speed)"},
      {"--from", CLI_DOUBLE, &low, 10.0, 250.0, "search: lowest speed tried, km/h (default 30)"},
      {"--to", CLI_DOUBLE, &high, 10.0, 300.0, "search: highest speed tried, km/h (default 200)"},
      {"--esc", CLI_STRING, &esc, 0, 0, "on|off: stability control (default: the car's [systems] esc)"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  if (esc) {
    if (strcmp(esc, "on") != 0 && strcmp(esc, "off") != 0) {
      fprintf(stderr, "grip lane-change: --esc: '%s' is not on or off\n", esc);
      return CLI_USAGE_ERROR;
    }
    loaded.def.systems.esc.enabled = strcmp(esc, "on") == 0;
  }
  if (high <= low) {
    fprintf(stderr, "grip lane-change: --to (%g) must be above --from (%g)\n", high, low);
    return CLI_USAGE_ERROR;
  }
  const grip_vehicle_def *car = &loaded.def;
  lane_change_track track = lane_change_track_for_width(car->body.dimensions.y);
  report rep;
  report_begin(&rep, json, "lane-change: %s, dt %g s (ISO 3888-2 obstacle avoidance)", car->name, dt);
  report_string(&rep, "car", car->name, NULL);
  report_bool(&rep, "esc", car->systems.esc.enabled, "ESC");
  report_number(&rep, "vehicle_width_m", track.vehicle_width, "vehicle width", "%8.3f m");
  report_number(&rep, "lane_1_width_m", track.lanes[0].y_left - track.lanes[0].y_right, "lane widths", "%8.3f m (section 1)");
  report_number(&rep, "lane_3_width_m", track.lanes[1].y_left - track.lanes[1].y_right, "", "%8.3f m (section 3)");
  report_number(&rep, "lane_5_width_m", track.lanes[2].y_left - track.lanes[2].y_right, "", "%8.3f m (section 5)");
  bool ok = true;
  if (speed > 0.0) {
    lane_change_run r = sim_lane_change_run(car, speed, dt);
    report_bool(&rep, "pass", r.passed, "pass");
    report_run(&rep, "run", &r);
    ok = !isnan(r.entry_speed_kmh);
  } else {
    lane_change_result r = sim_lane_change_search(car, low, high, dt);
    report_optional(&rep, "max_speed_kmh", r.max_pass_kmh, "highest pass", "%8.1f km/h entry (0.5 km/h steps)",
                    "none (fails at --from)");
    report_bool(&rep, "capped", r.capped, "capped");
    report_int(&rep, "runs", r.runs, "runs", "%8lld");
    if (!isnan(r.max_pass_kmh)) report_run(&rep, "at_max", &r.at_max);
    if (!r.capped) report_run(&rep, "above", &r.above);
  }
  report_end(&rep);
  return ok ? 0 : 1;
}
