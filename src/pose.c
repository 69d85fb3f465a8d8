/* Rotations of the public pose type (grip/types.h), for callers outside the core. */
#include "gmath.h"

grip_vec3 grip_quat_rotate(grip_quat q, grip_vec3 v) { return quat_rotate(q, v); }

grip_vec3 grip_pose_transform(grip_pose pose, grip_vec3 p) { return v3_add(pose.position, quat_rotate(pose.rotation, p)); }
