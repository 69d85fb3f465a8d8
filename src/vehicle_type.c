/* Car types: what a vehicle definition derives to that does not change while the car drives
 * (wheel geometry, spring preload, shift points, tyre tables, full MF parameters), held once per
 * world for all the vehicles created from an equal definition. A step reads it and never writes
 * it, so a thousand cars of one type read one copy of it from the cache instead of a thousand.
 *
 * Two definitions are equal when their bytes are, apart from pose, velocity and the full MF
 * pointers (whose parameter sets are compared by their bytes instead): a bitwise test, so that
 * sharing can never change a result. Definitions that differ only in padding bytes get their own
 * types, which costs memory and nothing else. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vehicle_internal.h"

/* The registry's table holds pointers; a freed type's slot keeps this marker so that probing
 * goes on past it. */
#define TOMBSTONE ((vehicle_type *)(uintptr_t)1)

/* A type with the key it was created from: the definition as given, with pose, velocity and MF
 * pointers cleared, and the full MF parameter sets it pointed to. */
typedef struct keyed_type {
  vehicle_type type;
  grip_vehicle_def key;
  grip_mf_params key_mf[GRIP_MAX_AXLES];
} keyed_type;

/* FNV-1a over 64-bit words (then the tail bytes): a definition is a few kB, hashed once per
 * vehicle created. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t size) {
  const unsigned char *p = data;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    memcpy(&word, p + i, sizeof word);
    h ^= word;
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void make_key(const grip_vehicle_def *def, grip_vehicle_def *key, grip_mf_params mf[GRIP_MAX_AXLES]) {
  memcpy(key, def, sizeof *key);
  memset(&key->pose, 0, sizeof key->pose);
  memset(&key->velocity, 0, sizeof key->velocity);
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) {
    memset(&mf[a], 0, sizeof mf[a]);
    if (a < def->axle_count && def->axles[a].tyre.model == GRIP_TYRE_FULL_MF && def->axles[a].tyre.mf)
      memcpy(&mf[a], def->axles[a].tyre.mf, sizeof mf[a]);
    memset(&key->axles[a].tyre.mf, 0, sizeof key->axles[a].tyre.mf);
  }
}

static uint64_t key_hash(const grip_vehicle_def *key, const grip_mf_params mf[GRIP_MAX_AXLES]) {
  uint64_t h = hash_bytes(14695981039346656037ull, key, sizeof *key);
  return hash_bytes(h, mf, GRIP_MAX_AXLES * sizeof *mf);
}

static bool key_equal(const keyed_type *t, const grip_vehicle_def *key, const grip_mf_params mf[GRIP_MAX_AXLES]) {
  return memcmp(&t->key, key, sizeof *key) == 0 && memcmp(t->key_mf, mf, GRIP_MAX_AXLES * sizeof *mf) == 0;
}

/* Inserts t (not present) into a table with room. */
static void table_put(vehicle_type **slots, int capacity, vehicle_type *t) {
  int i = (int)(t->key_hash & (uint64_t)(capacity - 1));
  while (slots[i] && slots[i] != TOMBSTONE) i = (i + 1) & (capacity - 1);
  slots[i] = t;
}

static bool table_reserve(vehicle_type_registry *r) {
  if (2 * (r->count + r->deleted + 1) <= r->capacity) return true;
  int capacity = r->capacity ? r->capacity : 16;
  while (2 * (r->count + 1) > capacity) capacity *= 2;
  vehicle_type **slots = calloc((size_t)capacity, sizeof *slots);
  if (!slots) return false;
  for (int i = 0; i < r->capacity; ++i)
    if (r->slots[i] && r->slots[i] != TOMBSTONE) table_put(slots, capacity, r->slots[i]);
  free(r->slots);
  r->slots = slots;
  r->capacity = capacity;
  r->deleted = 0;
  return true;
}

const vehicle_type *grip_vehicle_type_acquire(vehicle_type_registry *r, const grip_vehicle_def *def, grip_vec3 gravity) {
  keyed_type *fresh = malloc(sizeof *fresh);
  if (!fresh) return NULL;
  make_key(def, &fresh->key, fresh->key_mf);
  uint64_t h = key_hash(&fresh->key, fresh->key_mf);
  if (r->capacity > 0) {
    for (int i = (int)(h & (uint64_t)(r->capacity - 1)); r->slots[i]; i = (i + 1) & (r->capacity - 1)) {
      vehicle_type *t = r->slots[i];
      if (t == TOMBSTONE || t->key_hash != h || !key_equal((const keyed_type *)t, &fresh->key, fresh->key_mf)) continue;
      free(fresh);
      t->refs++;
      return t;
    }
  }
  if (!table_reserve(r)) {
    free(fresh);
    return NULL;
  }
  vehicle_type *t = &fresh->type;
  memset(t, 0, sizeof *t);
  t->def = *def;
  t->def.pose = (grip_pose){.position = {0.0, 0.0, 0.0}, .rotation = {1.0, 0.0, 0.0, 0.0}};
  t->def.velocity = (grip_vec3){0.0, 0.0, 0.0};
  for (int a = 0; a < GRIP_MAX_AXLES; ++a) {
    t->mf[a] = NULL;
    if (a >= def->axle_count || def->axles[a].tyre.model != GRIP_TYRE_FULL_MF) continue;
    t->mf_params[a] = *def->axles[a].tyre.mf;
    t->mf[a] = &t->mf_params[a];
    t->def.axles[a].tyre.mf = t->mf[a]; /* the definition points at the type's own copy */
  }
  if (!grip_vehicle_type_init(t, gravity)) {
    free(fresh);
    return NULL;
  }
  grip_systems_type_init(t);
  t->key_hash = h;
  t->refs = 1;
  table_put(r->slots, r->capacity, t);
  r->count++;
  return t;
}

void grip_vehicle_type_release(vehicle_type_registry *r, const vehicle_type *type) {
  if (!type) return;
  for (int i = (int)(type->key_hash & (uint64_t)(r->capacity - 1)); r->slots[i]; i = (i + 1) & (r->capacity - 1)) {
    vehicle_type *t = r->slots[i];
    if (t != type) continue;
    if (--t->refs > 0) return;
    r->slots[i] = TOMBSTONE;
    r->count--;
    r->deleted++;
    grip_vehicle_type_free(t);
    free((keyed_type *)t);
    return;
  }
}

void grip_vehicle_type_registry_free(vehicle_type_registry *r) {
  for (int i = 0; i < r->capacity; ++i)
    if (r->slots[i] && r->slots[i] != TOMBSTONE) {
      grip_vehicle_type_free(r->slots[i]);
      free((keyed_type *)r->slots[i]);
    }
  free(r->slots);
  memset(r, 0, sizeof *r);
}

size_t grip_vehicle_type_registry_bytes(const vehicle_type_registry *r) {
  size_t bytes = (size_t)r->capacity * sizeof *r->slots;
  for (int i = 0; i < r->capacity; ++i) {
    const vehicle_type *t = r->slots[i];
    if (!t || t == TOMBSTONE) continue;
    bytes += sizeof(keyed_type);
    for (int a = 0; a < GRIP_MAX_AXLES; ++a) bytes += (size_t)t->tyre_cache[a].intervals * 2 * sizeof *t->tyre_cache[a].x;
  }
  return bytes;
}
