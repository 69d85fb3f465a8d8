/* Pit lane, pit stops and the robot's way in and out (docs/driver.md, "Pit stops and fuel").
 *
 * The lane lies on the pit side's run-off strip (TORCS puts its pit lane on the track's "side"),
 * between the track's pit entry and exit. The boxes follow TORCS 1.3's track builder
 * (src/modules/track/track4.cpp, read for the facts): side by side from the lane's start, each
 * box_length long, their centres box_width/2 inside the barrier at the run-off's outer edge. The
 * lane the cars drive along is one box width further in (as TORCS's bt robot drives it,
 * src/drivers/bt/pit.cpp). A stop follows TORCS's race engine
 * (src/modules/raceman/raceengine.cpp, ReManage and ReUpdtPitTime): the car must stand in its
 * box (|along| within half a box of its centre, its centre less than box_width − half the car's
 * width from the outer edge, under 1 m/s), and the stop lasts 2 s + fuel / (8 l/s). */
#ifndef GRIP_PIT_H
#define GRIP_PIT_H

#include <stdbool.h>

#include "fuel_strategy.h"
#include "grip/grip.h"
#include "grip/track.h"
#include "robot.h"
#include "track_file.h"

#define PIT_FIXED_TIME 2.0     /* s, every stop (TORCS ReUpdtPitTime) */
#define PIT_REFUEL_RATE 8.0    /* kg/s: TORCS's 8 l/s, a litre counted as a kilogram as TORCS does */
#define PIT_STOP_SPEED 1.0     /* m/s, TORCS: |vx| and |vy| under this to be served */
#define PIT_LIMIT_MARGIN 1.0   /* m/s, the robot drives the lane this far under the limit */
#define PIT_ROUTE_STEP 2.0     /* m between the route's samples */
/* Release from the box: a served car waits while another car moves on the pit road less than
 * PIT_RELEASE_GAP behind its box (2.3 s at the 80 km/h limit: a pit crew holds a car that
 * would pull out in front of, or into, one arriving) or less than PIT_RELEASE_AHEAD box
 * lengths ahead of it (the car's way out to the lane crosses the next box, where a car may be
 * turning in), for at most PIT_RELEASE_WAIT. */
#define PIT_RELEASE_GAP 50.0   /* m */
#define PIT_RELEASE_AHEAD 1.5  /* box lengths */
#define PIT_RELEASE_WAIT 10.0  /* s */

/* A pit lane on a built track. */
typedef struct pit_lane {
  grip_track_pit def;
  const grip_track *track;
  double length;  /* m, the track's */
  double sign;    /* +1: lane on the left, -1: on the right */
  int boxes;      /* TORCS's nMaxPits: (lane length + box_length/2) / box_length, rounded down */
} pit_lane;

/* 0, or -1 when def is NULL, has no lane or no box fits. */
int pit_lane_init(pit_lane *lane, const grip_track *track, const grip_track_pit *def);

/* m, forward distance from a to b along the track, [0, length). */
double pit_ahead(const pit_lane *lane, double a, double b);
/* m, |lateral| of the pit side's barrier (road half width + kerb + run-off) at distance s. */
double pit_outer_edge(const pit_lane *lane, double s);
/* m along the track of box k's centre (0-based, k < boxes). */
double pit_box_distance(const pit_lane *lane, int k);
/* m, signed lateral of box k's centre: sign·(outer edge there − box_width/2). */
double pit_box_lateral(const pit_lane *lane, int k);
/* m, signed lateral of the lane at s: sign·(outer edge − 1.5·box_width). */
double pit_lane_lateral(const pit_lane *lane, double s);
/* Within the speed-limited lane (start .. end), within the pit road (entry .. exit). */
bool pit_in_limit_zone(const pit_lane *lane, double s);
bool pit_in_road(const pit_lane *lane, double s);
/* TORCS's test for a car standing in box k: s, lateral its position, vx, vy its velocity in its
 * own frame (m/s), car_width its body width (m). */
bool pit_car_in_box(const pit_lane *lane, int k, double s, double lateral, double car_width, double vx, double vy);
/* s, a stop's service time for refuel kg of fuel (2 s + refuel / 8). */
double pit_stop_time(double refuel);

/* A route for the robot (robot_route) with its own samples. */
typedef struct pit_route {
  robot_route route;
  double *lateral, *weight, *speed; /* owned */
} pit_route;

/* The way into box k: from well before the entry (the racing line, only capped for braking)
 * across to the lane between entry and lane start, along the lane under the limit, into the
 * box, stopping at its centre. decel (m/s², > 0) is the braking the cap assumes and lat_accel
 * (m/s²) the sideways acceleration allowed for the crossing; car_width (m) keeps the car's side
 * clear of the barrier where the run-off narrows. 0, or -1 without memory. */
int pit_route_in(pit_route *out, const pit_lane *lane, int k, double car_width, double decel, double lat_accel);
/* The way out of box k: from half a box before its centre, out to the lane, along it under the
 * limit, back to the racing line between the lane's end and the exit. */
int pit_route_out(pit_route *out, const pit_lane *lane, int k, double car_width, double lat_accel);
void pit_route_free(pit_route *r);

/* How a car is served: the phases of its pit stop. */
typedef enum pit_phase {
  PIT_RACING = 0,  /* on the racing line */
  PIT_GOING_IN = 1, /* on the way into its box */
  PIT_SERVICE = 2, /* standing in its box, being refuelled */
  PIT_GOING_OUT = 3, /* on the way out */
} pit_phase;

/* One car's pit stops and fuel (the race keeps one per car). */
typedef struct pit_car {
  const pit_lane *lane;   /* NULL: no pit lane (no stops) */
  int box;
  fuel_strategy strategy;
  pit_route in, out;
  pit_phase phase;
  double service_end;     /* s, race time the service ends */
  double refuel;          /* kg, this stop's fuel */
  double decision_point;  /* m along the track where the pit decision is taken (the in-route's start) */
  double lap_fuel;        /* kg on board at the last line crossing (NAN before the first) */
  double refuelled_in_lap; /* kg added since the last line crossing */
  int stops;
  double lane_time;       /* s on the pit road (entry .. exit) during stops */
  double service_time;    /* s standing in the box, served */
  double refuelled;       /* kg added over the race */
  double limit_excess;    /* m/s, the largest speed over the limit in the limited zone on a stop */
  double stand_time;      /* s standing still on the way in */
  double release_wait;    /* s held in the box after this stop's service, for lane traffic */
  double start_fuel;      /* kg on board at the start (set by the race) */
  bool measured;          /* a whole lap's consumption measured */
  double decision_progress, decision_used; /* m raced and kg burnt at the last decision point */
  int missed;             /* stops abandoned (the car not accepted in its box) */
} pit_car;

/* Sets up car's stops: the box (k modulo the boxes), routes, the strategy's plan. per_lap:
 * kg per lap estimated (0: the car uses no fuel). 0, or -1 without memory. */
int pit_car_init(pit_car *pc, const pit_lane *lane, int box, double tank, double per_lap, int laps, double car_width,
                 double decel, double lat_accel);
void pit_car_free(pit_car *pc);

/* A robot's fuel per lap (kg) before it has measured one: the plan's crank work for a flying
 * lap × the engine's fuel per joule × PIT_FUEL_PLAN_FACTOR (pit.c). */
double pit_robot_fuel_per_lap(const grip_vehicle_def *def, const robot *bot);

/* pit_car_init for a car the robot drives, as grip race and grip drive set it up: the tank and
 * width from def, pit_robot_fuel_per_lap, braking at half the plan's friction into the pit road
 * and 4 m/s² sideways across to the lane. */
int pit_car_init_robot(pit_car *pc, const pit_lane *lane, int box, const grip_vehicle_def *def, const robot *bot,
                       int laps);

/* True when another car holds pc in its box at the end of a service: a car at distance other_s,
 * lateral other_lateral (m), forward speed other_speed (m/s), on the pit road beyond the road's
 * edge on the pit side (in the lane or a box, whoever drives it), moving (faster than
 * PIT_STOP_SPEED), less than PIT_RELEASE_GAP behind pc's box or PIT_RELEASE_AHEAD box lengths
 * ahead of it. */
bool pit_car_blocks_release(const pit_car *pc, double other_s, double other_lateral, double other_speed);
/* Once per step before the robot drives: progress (m, unwrapped, from the race's start line),
 * s the wrapped distance, lateral, the state and the race's length in m (0: a timed race);
 * lane_traffic: a car blocks this one's release (pit_car_blocks_release). May change the
 * robot's route. Returns true while the car is held in its box (its inputs are then brake and
 * no throttle, see pit_car_input). */
bool pit_car_update(pit_car *pc, robot *bot, grip_world *world, grip_vehicle_id id, const grip_vehicle_state *st,
                    double prev_progress, double progress, double s, double lateral, double race_distance,
                    bool lane_traffic, double t, double dt);
/* Called at each line crossing with the fuel on board (kg): measures the lap's consumption. */
void pit_car_lap(pit_car *pc, double fuel);
/* The inputs while held (brake, neutral throttle), and the lane's speed limiter: in the
 * limited zone on a stop, no throttle above the limit. */
void pit_car_input(const pit_car *pc, grip_vehicle_input *in, const grip_vehicle_state *st, double s, bool held);
/* The pit limiter of a car someone drives (grip drive): in the speed-limited zone, on the
 * pit side beyond the road's edge (the lane), no throttle while faster than the limit. s and
 * lateral locate the car, speed its forward speed (m/s). Returns true when it cut the throttle. */
bool pit_lane_limiter(const pit_lane *lane, grip_vehicle_input *in, double s, double lateral, double speed);

/* Whether the car is on the pit road on a stop (for the race's off-track count). */
bool pit_car_on_pit_road(const pit_car *pc, double s);

#endif
