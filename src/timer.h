/* A monotonic clock for the step profile (grip_world_get_profile). Not public. */
#ifndef GRIP_TIMER_H
#define GRIP_TIMER_H

/* Seconds since an arbitrary fixed origin, from a monotonic clock where the platform has one
 * (POSIX CLOCK_MONOTONIC), else from C11's timespec_get (wall time). Only differences mean
 * anything. */
double grip_timer_now(void);

#endif
