#include "support_random.h"

double support_uniform(unsigned long long *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (double)(*state >> 11) / 9007199254740992.0; /* 2^53 */
}
