/* Pit lane, pit stops and the robot's way in and out (pit.h, docs/driver.md "Pit stops and
 * fuel"). */
#include "pit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PIT_NO_CAP 1.0e3      /* m/s: "no speed cap" in a route sample */
#define PIT_BARRIER_CLEAR 0.6 /* m kept between the car's side and the pit side's barrier */
#define PIT_STOP_DECEL 2.0    /* m/s², the gentle braking into the box */
#define PIT_BOX_SPEED 6.0     /* m/s, turning into and out of the box (within its length) */
#define PIT_BEFORE_ENTRY 800.0 /* m of route before the entry (racing line, braking cap only) */
#define PIT_GIVE_UP 5.0        /* s standing on the way in, not accepted in the box, before leaving */

int pit_lane_init(pit_lane *lane, const grip_track *track, const grip_track_pit *def) {
  memset(lane, 0, sizeof *lane);
  if (!track || !def || !def->present || !(def->box_length > 0.0)) return -1;
  lane->def = *def;
  lane->track = track;
  lane->length = grip_track_length(track);
  lane->sign = def->side == GRIP_TRACK_SIDE_LEFT ? 1.0 : -1.0;
  double lane_length = pit_ahead(lane, def->start, def->end);
  lane->boxes = (int)floor((lane_length + 0.5 * def->box_length) / def->box_length);
  return lane->boxes >= 1 ? 0 : -1;
}

double pit_ahead(const pit_lane *lane, double a, double b) {
  double d = fmod(b - a, lane->length);
  if (d < 0.0) d += lane->length;
  return d;
}

double pit_outer_edge(const pit_lane *lane, double s) {
  grip_track_point p = grip_track_point_at(lane->track, s);
  const grip_track_segment_def *seg = grip_track_segment(lane->track, p.segment);
  double s0 = grip_track_segment_start(lane->track, p.segment);
  double s1 = p.segment + 1 < grip_track_segment_count(lane->track) ? grip_track_segment_start(lane->track, p.segment + 1)
                                                                     : lane->length;
  double u = s1 > s0 ? (p.distance - s0) / (s1 - s0) : 0.0;
  const grip_track_side_def *side = &seg->side[lane->def.side];
  double runoff = side->runoff_width_start + u * (side->runoff_width_end - side->runoff_width_start);
  return 0.5 * p.width + side->kerb_width + runoff;
}

double pit_box_distance(const pit_lane *lane, int k) {
  double d = lane->def.start + (k + 0.5) * lane->def.box_length;
  return fmod(d, lane->length);
}

double pit_box_lateral(const pit_lane *lane, int k) {
  return lane->sign * (pit_outer_edge(lane, pit_box_distance(lane, k)) - 0.5 * lane->def.box_width);
}

double pit_lane_lateral(const pit_lane *lane, double s) {
  return lane->sign * (pit_outer_edge(lane, s) - 1.5 * lane->def.box_width);
}

bool pit_in_limit_zone(const pit_lane *lane, double s) {
  return pit_ahead(lane, lane->def.start, s) <= pit_ahead(lane, lane->def.start, lane->def.end);
}

bool pit_in_road(const pit_lane *lane, double s) {
  return pit_ahead(lane, lane->def.entry, s) <= pit_ahead(lane, lane->def.entry, lane->def.exit);
}

bool pit_car_in_box(const pit_lane *lane, int k, double s, double lateral, double car_width, double vx, double vy) {
  double along = pit_ahead(lane, pit_box_distance(lane, k), s);
  if (along > 0.5 * lane->length) along -= lane->length;
  if (fabs(along) > 0.5 * lane->def.box_length) return false;
  if (lane->sign * lateral <= 0.0) return false;
  double to_edge = pit_outer_edge(lane, s) - fabs(lateral);
  return to_edge < lane->def.box_width - 0.5 * car_width && fabs(vx) < PIT_STOP_SPEED && fabs(vy) < PIT_STOP_SPEED;
}

double pit_stop_time(double refuel) { return PIT_FIXED_TIME + fabs(refuel) / PIT_REFUEL_RATE; }

/* 0 at x <= 0, 1 at x >= 1, a half cosine in between (its second derivative at most π²/2). */
static double blend(double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  return 0.5 * (1.0 - cos(GRIP_PI * x));
}

static int route_alloc(pit_route *r, double start, double total) {
  memset(r, 0, sizeof *r);
  int n = (int)ceil(total / PIT_ROUTE_STEP) + 1;
  if (n < 2) n = 2;
  r->lateral = malloc((size_t)n * sizeof *r->lateral);
  r->weight = malloc((size_t)n * sizeof *r->weight);
  r->speed = malloc((size_t)n * sizeof *r->speed);
  if (!r->lateral || !r->weight || !r->speed) {
    pit_route_free(r);
    return -1;
  }
  r->route = (robot_route){.start = start, .step = total / (n - 1), .count = n, .lateral = r->lateral,
                           .weight = r->weight, .speed = r->speed};
  return 0;
}

/* Speed caps from the route's own sideways bends (v² ≤ a_lat / |d²y/ds²|, y the shift the route
 * asks for) and a braking pass backwards (v_i² ≤ v_{i+1}² + 2·decel·step). */
static void route_caps(pit_route *r, double lat_accel, double decel) {
  int n = r->route.count;
  double h = r->route.step;
  for (int i = 1; i + 1 < n; ++i) {
    double y0 = r->weight[i - 1] * r->lateral[i - 1], y1 = r->weight[i] * r->lateral[i],
           y2 = r->weight[i + 1] * r->lateral[i + 1];
    double k = fabs(y2 - 2.0 * y1 + y0) / (h * h);
    if (k > 1e-9) r->speed[i] = fmin(r->speed[i], sqrt(lat_accel / k));
  }
  if (decel > 0.0)
    for (int i = n - 2; i >= 0; --i) r->speed[i] = fmin(r->speed[i], sqrt(r->speed[i + 1] * r->speed[i + 1] + 2.0 * decel * h));
}

/* m, |lateral| the car's centre may reach at s on the pit side without its side coming within
 * PIT_BARRIER_CLEAR of the barrier. */
static double room(const pit_lane *lane, double s, double car_width) {
  return pit_outer_edge(lane, s) - 0.5 * car_width - PIT_BARRIER_CLEAR;
}

int pit_route_in(pit_route *out, const pit_lane *lane, int k, double car_width, double decel, double lat_accel) {
  const grip_track_pit *d = &lane->def;
  double box = pit_box_distance(lane, k);
  double pre = fmin(PIT_BEFORE_ENTRY, 0.25 * lane->length);
  double to_start = pit_ahead(lane, d->entry, d->start), to_box = pit_ahead(lane, d->entry, box);
  double start = fmod(d->entry - pre + lane->length, lane->length);
  if (route_alloc(out, start, pre + to_box)) return -1;
  double lane_mag = fabs(pit_lane_lateral(lane, box)), box_mag = fabs(pit_box_lateral(lane, k));
  /* The turn from the lane into the box, as TORCS's bt turns in (within its own box's length):
   * from a box length before the centre to a quarter box before it, at walking pace, so the
   * car stands square in its box and passes the cars standing in the boxes before it in the
   * lane (a turn over three box lengths drove through them). */
  double approach = 0.75 * d->box_length, approach_end = to_box - 0.25 * d->box_length;
  double limit = fmax(1.0, d->speed_limit - PIT_LIMIT_MARGIN);
  for (int i = 0; i < out->route.count; ++i) {
    double u = i * out->route.step, s = fmod(start + u, lane->length);
    double past = u - pre; /* m past the entry */
    double w = 0.0, mag = 0.0, v = PIT_NO_CAP;
    if (past >= 0.0) {
      mag = fmin(lane_mag, room(lane, s, car_width));
      double into = past - (approach_end - approach);
      if (into > 0.0) mag += blend(into / approach) * (fmin(box_mag, room(lane, s, car_width)) - mag);
      if (past < to_start) {
        w = blend(past / fmax(to_start, 1.0));
      } else {
        w = 1.0;
        v = limit;
      }
      if (past > approach_end - approach) v = fmin(v, PIT_BOX_SPEED);
      v = fmin(v, sqrt(2.0 * PIT_STOP_DECEL * fmax(0.0, to_box - past)));
    }
    out->lateral[i] = lane->sign * mag;
    out->weight[i] = w;
    out->speed[i] = v;
  }
  route_caps(out, lat_accel, decel);
  return 0;
}

int pit_route_out(pit_route *out, const pit_lane *lane, int k, double car_width, double lat_accel) {
  const grip_track_pit *d = &lane->def;
  double box = pit_box_distance(lane, k);
  double back = d->box_length; /* the car may stand up to half a box short of the centre */
  double to_end = pit_ahead(lane, box, d->end), to_exit = pit_ahead(lane, box, d->exit);
  double start = fmod(box - back + lane->length, lane->length);
  if (route_alloc(out, start, back + to_exit)) return -1;
  double lane_mag = fabs(pit_lane_lateral(lane, box)), box_mag = fabs(pit_box_lateral(lane, k));
  /* out of the box within its own length, at walking pace, clear of the next box's car */
  double leave_start = 0.25 * d->box_length, leave = 0.75 * d->box_length;
  double limit = fmax(1.0, d->speed_limit - PIT_LIMIT_MARGIN);
  for (int i = 0; i < out->route.count; ++i) {
    double u = i * out->route.step, s = fmod(start + u, lane->length);
    double past = u - back; /* m past the box's centre */
    double w = 1.0, mag, v = PIT_NO_CAP;
    double lane_here = fmin(lane_mag, room(lane, s, car_width));
    if (past < leave_start) {
      mag = box_mag;
    } else if (past < leave_start + leave) {
      mag = box_mag + blend((past - leave_start) / leave) * (lane_here - box_mag);
    } else {
      mag = lane_here;
    }
    if (past < to_end) {
      v = past < leave_start + leave ? fmin(limit, PIT_BOX_SPEED) : limit;
    } else {
      w = 1.0 - blend((past - to_end) / fmax(to_exit - to_end, 1.0));
    }
    out->lateral[i] = lane->sign * mag;
    out->weight[i] = w;
    out->speed[i] = v;
  }
  route_caps(out, lat_accel, 0.0);
  return 0;
}

void pit_route_free(pit_route *r) {
  free(r->lateral);
  free(r->weight);
  free(r->speed);
  memset(r, 0, sizeof *r);
}

int pit_car_init(pit_car *pc, const pit_lane *lane, int box, double tank, double per_lap, int laps, double car_width,
                 double decel, double lat_accel) {
  memset(pc, 0, sizeof *pc);
  pc->strategy = fuel_strategy_plan(tank, per_lap, laps > 0 ? laps : 1000000);
  pc->lap_fuel = NAN;
  pc->phase = PIT_RACING;
  if (!lane) return 0;
  pc->lane = lane;
  pc->box = box % lane->boxes;
  if (pit_route_in(&pc->in, lane, pc->box, car_width, decel, lat_accel) ||
      pit_route_out(&pc->out, lane, pc->box, car_width, lat_accel)) {
    pit_car_free(pc);
    return -1;
  }
  pc->decision_point = pc->in.route.start;
  return 0;
}

/* The robot's fuel per lap before it has measured one: the plan's crank work for a flying lap
 * × the engine's fuel per joule, × 1.4 for what the plan leaves out (the standing start, clutch
 * and tyre slip, the controller's corrections). Measured against the plan: 1.29 for the built-in
 * car on Grip Park (3 laps from a standing start), 1.07 for car1-trb1 on e-track-4; the larger
 * one plus 8 % keeps "--fuel auto" from running dry before its first measured lap. Measured
 * laps replace it (docs/driver.md). */
#define PIT_FUEL_PLAN_FACTOR 1.4
#define PIT_LANE_LATERAL_ACCEL 4.0 /* m/s², across from the track to the lane */

double pit_robot_fuel_per_lap(const grip_vehicle_def *def, const robot *bot) {
  return def->engine.fuel_per_joule * robot_plan_lap_energy(bot) * PIT_FUEL_PLAN_FACTOR;
}

int pit_car_init_robot(pit_car *pc, const pit_lane *lane, int box, const grip_vehicle_def *def, const robot *bot,
                       int laps) {
  /* brakes at half the plan's friction into the pit road */
  double decel = 0.5 * robot_plan_mu(bot) * 9.81;
  return pit_car_init(pc, lane, box, def->fuel.capacity, pit_robot_fuel_per_lap(def, bot), laps, def->body.dimensions.y,
                      decel, PIT_LANE_LATERAL_ACCEL);
}

void pit_car_free(pit_car *pc) {
  pit_route_free(&pc->in);
  pit_route_free(&pc->out);
  pc->lane = NULL;
}

bool pit_car_on_pit_road(const pit_car *pc, double s) {
  return pc->lane && pc->phase != PIT_RACING && pit_in_road(pc->lane, s);
}

bool pit_car_blocks_release(const pit_car *pc, double other_s, double other_lateral, double other_speed) {
  const pit_lane *lane = pc->lane;
  if (!lane || !pit_in_road(lane, other_s) || !(other_speed > PIT_STOP_SPEED)) return false;
  if (!(lane->sign * other_lateral > 0.5 * grip_track_point_at(lane->track, other_s).width)) return false;
  double box = pit_box_distance(lane, pc->box);
  return pit_ahead(lane, other_s, box) < PIT_RELEASE_GAP ||
         pit_ahead(lane, box, other_s) < PIT_RELEASE_AHEAD * lane->def.box_length;
}

bool pit_car_update(pit_car *pc, robot *bot, grip_world *world, grip_vehicle_id id, const grip_vehicle_state *st,
                    double prev_progress, double progress, double s, double lateral, double race_distance,
                    bool lane_traffic, double t, double dt) {
  const pit_lane *lane = pc->lane;
  if (!lane) return false;
  double L = lane->length;
  if (pc->phase != PIT_RACING && pit_in_road(lane, s)) pc->lane_time += dt;
  if (pc->phase != PIT_RACING && pit_in_limit_zone(lane, s) && st->speed - lane->def.speed_limit > pc->limit_excess)
    pc->limit_excess = st->speed - lane->def.speed_limit;
  switch (pc->phase) {
    case PIT_RACING: {
      /* The decision point passed during this step (not before the start: the grid may stand
       * behind it). */
      double dp = pc->decision_point;
      bool crossed = progress > 0.0 && floor((prev_progress - dp) / L) != floor((progress - dp) / L);
      if (crossed) {
        pc->decision_progress = progress;
        pc->decision_used = pc->start_fuel + pc->refuelled - st->fuel_mass;
        /* Before a whole lap is measured, the consumption so far (from a standing start: on the
         * safe side) when it is more than the plan's estimate: on dirt the plan's was 20 % low
         * and the car ran dry. */
        if (!pc->measured && progress > 0.3 * L) {
          double so_far = pc->decision_used / progress * L;
          if (so_far > pc->strategy.per_lap) fuel_strategy_measure(&pc->strategy, so_far);
        }
        /* the laps to go, needed only here (not a division every step) */
        double laps_to_go = race_distance > 0.0 ? (race_distance - progress) / L : 1.0e6;
        if (laps_to_go > 0.0 && fuel_strategy_pit_now(&pc->strategy, st->fuel_mass, laps_to_go)) {
          pc->phase = PIT_GOING_IN;
          robot_set_route(bot, &pc->in.route);
        }
      }
      return false;
    }
    case PIT_GOING_IN: {
      double vx = st->local_velocity.x, vy = st->local_velocity.y;
      const grip_vehicle_def *def = grip_vehicle_get_def(world, id);
      double width = def ? def->body.dimensions.y : 2.0;
      if (pit_car_in_box(lane, pc->box, s, lateral, width, vx, vy)) {
        double tank = def ? def->fuel.capacity : pc->strategy.tank;
        double to_go_from_box = race_distance > 0.0 ? (race_distance - progress) / L : 1.0e6;
        /* A stop before a whole lap was measured: the consumption per lap up to the decision
         * (racing; the slow pit road after it would make it look smaller). */
        if (!pc->measured && pc->decision_progress > 0.3 * L)
          fuel_strategy_measure(&pc->strategy, pc->decision_used / pc->decision_progress * L);
        pc->refuel = fmin(fuel_strategy_refuel(&pc->strategy, st->fuel_mass, to_go_from_box), tank - st->fuel_mass);
        if (pc->refuel < 0.0) pc->refuel = 0.0;
        pc->service_end = t + pit_stop_time(pc->refuel);
        pc->phase = PIT_SERVICE;
        pc->stops++;
        return true;
      }
      /* Past the box without stopping (pushed on by something), or standing short of it or
       * beside it for PIT_GIVE_UP s: go out and try again next lap. */
      double past = pit_ahead(lane, pit_box_distance(lane, pc->box), s);
      pc->stand_time = fabs(st->speed) < PIT_STOP_SPEED ? pc->stand_time + dt : 0.0;
      if ((past > lane->def.box_length && past < 0.5 * L) || pc->stand_time > PIT_GIVE_UP) {
        pc->stand_time = 0.0;
        pc->missed++;
        pc->phase = PIT_GOING_OUT;
        robot_set_route(bot, &pc->out.route);
      }
      return false;
    }
    case PIT_SERVICE:
      if (pc->release_wait == 0.0) pc->service_time += dt;
      if (t + 0.5 * dt >= pc->service_end) {
        /* Served; held while a car moves in the lane near the box (pit_car_blocks_release). */
        if (lane_traffic && pc->release_wait < PIT_RELEASE_WAIT) {
          pc->release_wait += dt;
          return true;
        }
        pc->release_wait = 0.0;
        double fuel = st->fuel_mass + pc->refuel;
        if (grip_vehicle_set_fuel(world, id, fuel) == GRIP_OK) {
          pc->refuelled += pc->refuel;
          pc->refuelled_in_lap += pc->refuel;
        }
        pc->refuel = 0.0;
        pc->phase = PIT_GOING_OUT;
        robot_set_route(bot, &pc->out.route);
        return false;
      }
      return true;
    case PIT_GOING_OUT: {
      double along = pit_ahead(lane, pc->out.route.start, s);
      double total = pc->out.route.step * (pc->out.route.count - 1);
      if (along > total && along < 0.5 * L + total) {
        pc->phase = PIT_RACING;
        robot_set_route(bot, NULL);
      }
      return false;
    }
  }
  return false;
}

void pit_car_lap(pit_car *pc, double fuel) {
  if (!isnan(pc->lap_fuel)) {
    fuel_strategy_measure(&pc->strategy, pc->lap_fuel + pc->refuelled_in_lap - fuel);
    pc->measured = true;
  }
  pc->lap_fuel = fuel;
  pc->refuelled_in_lap = 0.0;
}

void pit_car_input(const pit_car *pc, grip_vehicle_input *in, const grip_vehicle_state *st, double s, bool held) {
  if (!pc->lane) return;
  if (held) {
    in->throttle = 0.0;
    in->brake = 1.0;
    return;
  }
  if (pc->phase != PIT_RACING && pit_in_limit_zone(pc->lane, s) && st->speed > pc->lane->def.speed_limit)
    in->throttle = 0.0;
}

bool pit_lane_limiter(const pit_lane *lane, grip_vehicle_input *in, double s, double lateral, double speed) {
  if (!pit_in_limit_zone(lane, s) || speed <= lane->def.speed_limit) return false;
  double half_road = 0.5 * grip_track_point_at(lane->track, s).width;
  if (lane->sign * lateral <= half_road) return false;
  in->throttle = 0.0;
  return true;
}
