/* A small pthread pool implementing grip_world_def's task callbacks (enqueue_task /
 * finish_task), so a world steps its vehicles on several cores. The core has no threads. */
#ifndef GRIP_TASK_POOL_H
#define GRIP_TASK_POOL_H

#include "grip/grip.h"

typedef struct task_pool task_pool;

/* workers >= 1 counts the calling thread; NULL on failure. */
task_pool *task_pool_create(int workers);
void task_pool_destroy(task_pool *pool);

/* Wires the pool into a world definition. */
void task_pool_attach(task_pool *pool, grip_world_def *def);

/* Moves the calling thread off CPU `cpu` when its affinity allows it another (Linux), and
 * leaves its affinity as it was: true when moved. What a helper woken onto its caller's CPU does
 * (task_pool.c, leave_callers_cpu). */
bool task_pool_leave_cpu(int cpu);

#endif
