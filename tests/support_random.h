/* The tests' random points: one generator for all, so that every run draws the same ones
 * (tests/support_*.c are linked into every test). */
#ifndef GRIP_SUPPORT_RANDOM_H
#define GRIP_SUPPORT_RANDOM_H

/* xorshift64 (Marsaglia 2003: shifts 13, 7, 17) on *state, which must not be 0; returns the top
 * 53 bits as a double, uniform in [0, 1). */
double support_uniform(unsigned long long *state);

#endif
