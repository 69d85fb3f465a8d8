// grip's wheels on a Bullet rigid body: forces mode (docs/embedding.md, "Forces mode").
//
// Bullet owns the chassis (a btRigidBody with the car definition's mass and inertia, its body
// box as the collision shape) and the world: a ground plane, a ramp and a loose box. grip owns
// the wheels: each frame the program hands grip the chassis state, grip casts its suspension
// rays through Bullet's own ray test (the grip_ground callback below), runs the tyres and the
// drivetrain and returns a force and a torque, which the program applies to the btRigidBody
// before Bullet steps. A wheel standing on a loose body pushes it back.
//
// Run with no argument it checks itself (the test suite runs it): 0–100 km/h and top speed
// within 2 % of the same car in grip's own mode, the car drives up the ramp and rests on it
// with the brakes on, it knocks the box away, and a second run gives the same bits.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "grip/grip.h"

namespace {

constexpr double kGravity = 9.81;
constexpr double kRampGrade = 0.15;   // rise/run of the ramp: 15 %, 8.5°
constexpr double kRampLength = 40.0;  // m, along its slope
constexpr double kRampY = 60.0;       // m, the ramp's lane (the accel runs along y = 0)
constexpr double kRampStartX = 40.0;  // m, where its top face meets the ground
constexpr double kBoxY = -60.0;       // m, the box's lane

btVector3 bt(grip_vec3 v) { return btVector3(v.x, v.y, v.z); }
grip_vec3 gv(const btVector3 &v) { return grip_vec3{v.x(), v.y(), v.z()}; }

// --- the ground grip's wheels see: Bullet's ray test ------------------------------------------

// Ray test that ignores the chassis the rays start inside.
struct IgnoreBodyRay : btCollisionWorld::ClosestRayResultCallback {
  IgnoreBodyRay(const btVector3 &from, const btVector3 &to, const btCollisionObject *ignore)
      : ClosestRayResultCallback(from, to), ignored(ignore) {}
  bool needsCollision(btBroadphaseProxy *proxy) const override {
    return proxy->m_clientObject != ignored && ClosestRayResultCallback::needsCollision(proxy);
  }
  const btCollisionObject *ignored;
};

struct BulletGround {
  btCollisionWorld *world = nullptr;
  const btCollisionObject *chassis = nullptr;
  // What each wheel stood on at its last ray (grip's query says which wheel asks).
  const btCollisionObject *under[GRIP_WHEEL_COUNT] = {};
};

bool bullet_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                    double max_distance, grip_ground_hit *hit) {
  BulletGround *g = static_cast<BulletGround *>(context);
  btVector3 from = bt(origin), to = from + bt(direction) * max_distance;
  IgnoreBodyRay ray(from, to, g->chassis);
  g->world->rayTest(from, to, ray);
  bool wheel = query && query->wheel >= 0 && query->wheel < GRIP_WHEEL_COUNT;
  if (wheel) g->under[query->wheel] = ray.hasHit() ? ray.m_collisionObject : nullptr;
  if (!ray.hasHit()) return false;
  hit->point = gv(ray.m_hitPointWorld);
  hit->normal = gv(ray.m_hitNormalWorld.normalized());
  hit->distance = ray.m_closestHitFraction * max_distance;
  hit->surface = grip_default_surface();
  // What was hit, for grip to hand back with the wheel's force (the push-back below), and its
  // velocity at the hit point: tyre slip is measured relative to a moving body.
  const btRigidBody *body = btRigidBody::upcast(ray.m_collisionObject);
  if (body) {
    hit->body = const_cast<btRigidBody *>(body);
    hit->velocity = gv(body->getVelocityInLocalPoint(ray.m_hitPointWorld - body->getCenterOfMassPosition()));
  }
  return true;
}

// --- the Bullet scene with one grip car -------------------------------------------------------

class Scene {
 public:
  Scene(const grip_vehicle_def &car_def, btVector3 start, double heading) : def_(car_def) {
    def_.chassis_mode = GRIP_CHASSIS_EXTERNAL;
    world_.setGravity(btVector3(0, 0, -kGravity));

    add_static(new btStaticPlaneShape(btVector3(0, 0, 1), 0), btTransform::getIdentity());
    // The ramp: a box tilted about y so that its top face rises along +x from z = 0 at
    // kRampStartX.
    double angle = std::atan(kRampGrade);
    btQuaternion tilt(btVector3(0, 1, 0), -angle);
    btVector3 half(0.5 * kRampLength, 4.0, 0.5);
    btVector3 low_edge(kRampStartX, kRampY, 0.0);
    btVector3 centre = low_edge - quatRotate(tilt, btVector3(-half.x(), 0, half.z()));
    add_static(new btBoxShape(half), btTransform(tilt, centre));
    // A loose box, 1 m and 150 kg, to drive into.
    {
      shapes_.emplace_back(new btBoxShape(btVector3(0.5, 0.5, 0.5)));
      btVector3 inertia;
      shapes_.back()->calculateLocalInertia(150.0, inertia);
      btRigidBody::btRigidBodyConstructionInfo info(150.0, nullptr, shapes_.back().get(), inertia);
      info.m_startWorldTransform = btTransform(btQuaternion::getIdentity(), btVector3(30.0, kBoxY, 0.5));
      info.m_friction = 0.6;
      box_.reset(new btRigidBody(info));
      box_->setActivationState(DISABLE_DEACTIVATION);
      world_.addRigidBody(box_.get());
    }

    // The chassis: centre of mass at the body's origin, axes along the car's design axes, the
    // definition's body box as a child shape offset from the centre of mass.
    com_design_ = def_.body.center_of_mass;
    body_box_.reset(new btBoxShape(0.5 * bt(def_.body.dimensions)));  // half extents, margin inside
    chassis_shape_.addChildShape(btTransform(btQuaternion::getIdentity(), bt(def_.body.box_center) - bt(com_design_)),
                                 body_box_.get());
    double mass = def_.body.mass + def_.fuel.mass;
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &chassis_shape_, bt(def_.body.inertia));
    info.m_friction = 0.5;
    chassis_.reset(new btRigidBody(info));
    chassis_->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(chassis_.get());

    // grip: a world whose ground is the Bullet scene, one car in forces mode.
    ground_.world = &world_;
    ground_.chassis = chassis_.get();
    grip_world_def wd = grip_default_world_def();
    wd.ground = grip_ground{bullet_raycast, &ground_};
    wd.moving_ground = true;  // Bullet's bodies move: the rays report them
    grip_ = grip_create_world(&wd);
    car_ = grip_create_vehicle(grip_, &def_);
    ok_ = grip_vehicle_is_valid(grip_, car_) && grip_vehicle_place(grip_, car_, start.x(), start.y(), heading) == GRIP_OK;
    if (!ok_) return;
    // grip placed the car at its static ride height on whatever the ray found: put the Bullet
    // body there.
    grip_vehicle_state s;
    grip_vehicle_get_state(grip_, car_, &s);
    grip_quat q = s.pose.rotation;
    chassis_->setCenterOfMassTransform(btTransform(btQuaternion(q.x, q.y, q.z, q.w), bt(s.center_of_mass)));
  }
  ~Scene() {
    grip_destroy_world(grip_);
    world_.removeRigidBody(chassis_.get());
    world_.removeRigidBody(box_.get());
    for (auto &b : statics_) world_.removeRigidBody(b.get());
  }
  Scene(const Scene &) = delete;
  Scene &operator=(const Scene &) = delete;

  bool ok() const { return ok_; }

  // A rolling start along the car's x at speed (m/s): Bullet's body and grip's wheels and gear.
  void set_speed(double speed) {
    btVector3 v = quatRotate(chassis_->getOrientation(), btVector3(speed, 0, 0));
    chassis_->setLinearVelocity(v);
    grip_vehicle_set_velocity(grip_, car_, gv(v));
  }

  void set_input(const grip_vehicle_input &in) { grip_vehicle_set_input(grip_, car_, &in); }

  // One frame, in the order forces mode needs.
  void step(double dt) {
    // 1. grip gets the chassis state from Bullet (pose of the design frame, velocities of the
    //    centre of mass).
    const btTransform &t = chassis_->getCenterOfMassTransform();
    btQuaternion r = t.getRotation();
    grip_pose pose;
    pose.rotation = grip_quat{r.w(), r.x(), r.y(), r.z()};
    pose.position = gv(t.getOrigin() - quatRotate(r, bt(com_design_)));
    grip_vehicle_set_chassis_state(grip_, car_, pose, gv(chassis_->getLinearVelocity()),
                                   gv(chassis_->getAngularVelocity()));
    // 2. grip runs the wheels: suspension rays into Bullet, tyres, drivetrain.
    grip_world_step(grip_, dt);
    // 3. Bullet gets grip's force and torque (gravity excluded: Bullet applies its own) with the
    //    car's current mass (fuel burns), and the ground under each wheel gets the reaction.
    grip_chassis_forces f;
    grip_vehicle_get_chassis_forces(grip_, car_, &f);
    chassis_->setMassProps(f.mass, bt(f.inertia));
    chassis_->updateInertiaTensor();
    chassis_->setGravity(world_.getGravity());  // Bullet keeps m·g from the last mass
    chassis_->applyCentralForce(bt(f.force));
    chassis_->applyTorque(bt(f.torque));
    for (int i = 0; i < GRIP_WHEEL_COUNT; ++i) {
      btRigidBody *under = static_cast<btRigidBody *>(f.wheels[i].ground_body);
      if (!f.wheels[i].in_contact || !under || under->getInvMass() == 0.0) continue;
      under->applyForce(-bt(f.wheels[i].force), bt(f.wheels[i].point) - under->getCenterOfMassPosition());
    }
    // 4. Bullet integrates the chassis and resolves its collisions: one step of exactly dt.
    world_.stepSimulation(dt, 0, dt);
  }

  double forward_speed() const {
    btVector3 x = quatRotate(chassis_->getOrientation(), btVector3(1, 0, 0));
    return chassis_->getLinearVelocity().dot(x);
  }
  btVector3 com() const { return chassis_->getCenterOfMassPosition(); }
  btQuaternion rotation() const { return chassis_->getOrientation(); }
  btVector3 velocity() const { return chassis_->getLinearVelocity(); }
  btVector3 angular_velocity() const { return chassis_->getAngularVelocity(); }
  btVector3 box_position() const { return box_->getCenterOfMassPosition(); }
  bool shifting() const {
    grip_vehicle_state s;
    grip_vehicle_get_state(grip_, car_, &s);
    return s.shifting;
  }
  int wheels_on(const btCollisionObject *o) const {
    int n = 0;
    for (auto *u : ground_.under) n += u == o;
    return n;
  }
  const btCollisionObject *ramp() const { return statics_[1].get(); }
  // grip's state hash and the bits of Bullet's chassis and box state, for determinism.
  uint64_t hash() const {
    uint64_t h = grip_world_state_hash(grip_);
    const btScalar v[] = {com().x(), com().y(), com().z(), rotation().x(), rotation().y(), rotation().z(),
                          rotation().w(), velocity().x(), velocity().y(), velocity().z(),
                          box_position().x(), box_position().y(), box_position().z()};
    const unsigned char *p = reinterpret_cast<const unsigned char *>(v);
    for (size_t i = 0; i < sizeof v; ++i) h = (h ^ p[i]) * 1099511628211ull;  // FNV-1a
    return h;
  }

 private:
  void add_static(btCollisionShape *shape, const btTransform &where) {
    shapes_.emplace_back(shape);
    btRigidBody::btRigidBodyConstructionInfo info(0.0, nullptr, shape);
    info.m_startWorldTransform = where;
    info.m_friction = 0.8;
    statics_.emplace_back(new btRigidBody(info));
    world_.addRigidBody(statics_.back().get());
  }

  grip_vehicle_def def_;
  grip_vec3 com_design_{};
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &config_};
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> statics_;
  std::unique_ptr<btRigidBody> box_;
  std::unique_ptr<btBoxShape> body_box_;
  btCompoundShape chassis_shape_;
  std::unique_ptr<btRigidBody> chassis_;
  BulletGround ground_;
  grip_world *grip_ = nullptr;
  grip_vehicle_id car_{};
  bool ok_ = false;
};

// --- checks -----------------------------------------------------------------------------------

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "FAILED: %s\n", what);
  }
}

void check_rel(double actual, double expected, double rel, const char *what) {
  bool ok = std::isfinite(actual) && std::fabs(actual - expected) <= rel * std::fabs(expected);
  if (!ok) std::fprintf(stderr, "%s: %.4f, expected %.4f within %.1f %%\n", what, actual, expected, 100.0 * rel);
  check(ok, what);
}

grip_vehicle_input full_throttle() {
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  in.gear = 1;
  in.automatic = true;
  return in;
}

struct Accel {
  double t100 = NAN, top_kmh = 0.0;
};

// Tracks 0–100 km/h (interpolated) and the top speed once the speed has not risen for 2 s.
struct AccelMeter {
  Accel r;
  double t = 0.0, v_prev = 0.0, calm = 0.0;
  bool done() const { return calm >= 2.0 || t > 200.0; }
  void sample(double v, bool shifting, double dt) {
    t += dt;
    if (std::isnan(r.t100) && v >= 100.0 / 3.6) r.t100 = t - dt + dt * (100.0 / 3.6 - v_prev) / (v - v_prev);
    r.top_kmh = std::fmax(r.top_kmh, 3.6 * v);
    calm = (std::fabs(v - v_prev) / dt < 0.05 && !shifting && t > 5.0) ? calm + dt : 0.0;
    v_prev = v;
  }
};

Accel accel_bullet(const grip_vehicle_def &car, double dt) {
  Scene scene(car, btVector3(0, 0, 0), 0.0);
  AccelMeter m;
  check(scene.ok(), "scene set up");
  scene.set_input(full_throttle());
  while (scene.ok() && !m.done()) {
    scene.step(dt);
    m.sample(scene.forward_speed(), scene.shifting(), dt);
  }
  return m.r;
}

Accel accel_grip_own(const grip_vehicle_def &car, double dt) {
  grip_world_def wd = grip_default_world_def();
  grip_world *w = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(w, &car);
  grip_vehicle_place(w, id, 0, 0, 0);
  grip_vehicle_input in = full_throttle();
  grip_vehicle_set_input(w, id, &in);
  AccelMeter m;
  grip_vehicle_state s;
  while (!m.done()) {
    grip_world_step(w, dt);
    grip_vehicle_get_state(w, id, &s);
    m.sample(s.speed, s.shifting, dt);
  }
  grip_destroy_world(w);
  return m.r;
}

// Drives up the ramp at ~30 km/h, brakes on it and holds: the car must rest on the ramp with
// all four wheels on it, pitched by the ramp's angle, creeping less than 5 mm in 5 s.
void ramp(const grip_vehicle_def &car, double dt) {
  Scene scene(car, btVector3(kRampStartX - 30.0, kRampY, 0), 0.0);
  check(scene.ok(), "ramp scene set up");
  if (!scene.ok()) return;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.automatic = true;
  double t = 0.0;
  // Up to speed, onto the ramp until the centre of mass is 15 m up its length.
  double stop_x = kRampStartX + 15.0 * std::cos(std::atan(kRampGrade));
  while (t < 30.0 && scene.com().x() < stop_x) {
    double v = scene.forward_speed();
    in.throttle = v < 30.0 / 3.6 ? 0.6 : 0.25;
    scene.set_input(in);
    scene.step(dt);
    t += dt;
  }
  in.throttle = 0.0;
  in.brake = 1.0;
  in.gear = 0;
  scene.set_input(in);
  for (int i = 0; i < (int)std::lround(4.0 / dt); ++i) scene.step(dt);
  btVector3 p0 = scene.com();
  for (int i = 0; i < (int)std::lround(5.0 / dt); ++i) scene.step(dt);
  btVector3 p1 = scene.com();
  double creep_mm = 1000.0 * (p1 - p0).length();
  btVector3 fwd = quatRotate(scene.rotation(), btVector3(1, 0, 0));
  double pitch = std::atan2(fwd.z(), std::sqrt(fwd.x() * fwd.x() + fwd.y() * fwd.y()));
  // The centre of mass's height above the ramp's top face, against its height above flat ground
  // at rest (grip_vehicle_place's static ride height, the same suspension).
  double angle = std::atan(kRampGrade);
  btVector3 n(-std::sin(angle), 0, std::cos(angle));
  double above_ramp = (p1 - btVector3(kRampStartX, kRampY, 0)).dot(n);
  std::printf("ramp (dt %.3f): stopped %.2f m up, pitch %.2f deg (ramp %.2f), CG %.3f m above it, "
              "%d wheels on it, creep %.3f mm in 5 s, speed %.4f m/s\n",
              dt, (p1.x() - kRampStartX) / std::cos(angle), pitch * 180.0 / M_PI, angle * 180.0 / M_PI, above_ramp,
              scene.wheels_on(scene.ramp()), creep_mm, scene.velocity().length());
  check(p1.x() > kRampStartX + 5.0 && p1.x() < kRampStartX + kRampLength * std::cos(angle) - 3.0, "car stopped on the ramp");
  check(scene.wheels_on(scene.ramp()) == GRIP_WHEEL_COUNT, "all wheels on the ramp");
  check(std::fabs(pitch - angle) < 0.5 * M_PI / 180.0, "pitched by the ramp's angle within 0.5 deg");
  check(std::fabs(above_ramp - car.body.center_of_mass.z) < 0.05, "at ride height above the ramp (5 cm)");
  check(creep_mm < 5.0, "rests on the ramp: creep < 5 mm in 5 s");
  check(scene.velocity().length() < 0.01, "at rest on the ramp");
}

// Drives into the box at ~40 km/h; returns the hash of the final state.
uint64_t box_run(const grip_vehicle_def &car, double dt, double *box_moved) {
  Scene scene(car, btVector3(0, kBoxY, 0), 0.0);
  check(scene.ok(), "box scene set up");
  if (!scene.ok()) return 0;
  btVector3 b0 = scene.box_position();
  grip_vehicle_input in = grip_default_vehicle_input();
  in.automatic = true;
  for (int i = 0; i < (int)std::lround(8.0 / dt); ++i) {
    in.throttle = scene.forward_speed() < 40.0 / 3.6 ? 0.7 : 0.2;
    in.steering = 0.02 * std::sin(0.5 * i * dt);
    scene.set_input(in);
    scene.step(dt);
  }
  *box_moved = (scene.box_position() - b0).length();
  return scene.hash();
}

// What the skidpad driver sees of a car, and how it drives it: the Bullet scene or grip's own.
struct Motion {
  btVector3 com, velocity, up;
  double yaw_rate, speed;  // rad/s about the body's up; m/s along its x
  btVector3 local_velocity;
};

Motion motion_of(const btQuaternion &q, const btVector3 &com, const btVector3 &v, const btVector3 &w) {
  Motion m;
  m.com = com;
  m.velocity = v;
  m.up = quatRotate(q, btVector3(0, 0, 1));
  m.yaw_rate = w.dot(m.up);
  m.local_velocity = quatRotate(q.inverse(), v);
  m.speed = m.local_velocity.x();
  return m;
}

// Skidpad, radius 40 m, counter-clockwise round (0, 40): path-holding steering and a slow speed
// ramp (0.1 m/s²); the limit is the highest one-second mean of v·(yaw rate)/g on the circle.
template <class Car>
double skidpad_limit_g(Car &car, const grip_vehicle_def &def, double dt) {
  const double radius = 40.0, ramp_rate = 0.1;
  double target = std::sqrt(0.1 * kGravity * radius);
  double wheelbase = def.axles[0].x - def.axles[1].x;
  double lock = def.steering.max_wheel_angle / def.steering.ratio;
  grip_vehicle_input in = grip_default_vehicle_input();
  double speed_integral = 0.0, integral = 0.0, t = 0.0, best = 0.0, window = 0.0, window_t = 0.0;
  int off = 0;
  while (t < 400.0) {
    Motion m = car.motion();
    double px = m.com.x(), py = m.com.y() - radius;
    double error = std::sqrt(px * px + py * py) - radius;
    double tangent = std::atan2(py, px) + 0.5 * M_PI;
    double course = std::atan2(m.velocity.y(), m.velocity.x());
    integral += error * dt;
    double delta = std::atan(wheelbase / radius) + 0.8 * std::remainder(tangent - course, 2.0 * M_PI) + 0.05 * error +
                   0.02 * integral;
    delta = std::fmax(-lock, std::fmin(lock, delta));
    in.steering = delta * def.steering.ratio / def.steering.max_wheel_angle;
    // PI speed control: throttle above the target's shortfall, brake well below it.
    double speed_error = target - m.speed;
    speed_integral = std::fmax(-5.0, std::fmin(5.0, speed_integral + speed_error * dt));
    double u = 0.5 * speed_error + 0.4 * speed_integral;
    in.throttle = u > 0.0 ? std::fmin(u, 1.0) : 0.0;
    in.brake = u < -0.5 ? std::fmin(-u - 0.5, 1.0) : 0.0;
    car.set_input(in);
    car.step(dt);
    t += dt;
    target += ramp_rate * dt;
    m = car.motion();
    double v = std::hypot(m.local_velocity.x(), m.local_velocity.y());
    window += v * m.yaw_rate / kGravity * dt;
    window_t += dt;
    if (window_t >= 1.0) {
      if (std::fabs(error) < 2.0) best = std::fmax(best, window / window_t);
      window = window_t = 0.0;
    }
    off = std::fabs(error) > 5.0 ? off + 1 : 0;
    if (off * dt > 2.0) break;  // left the circle: past the limit
  }
  return best;
}

struct BulletCar {
  Scene &scene;
  Motion motion() const { return motion_of(scene.rotation(), scene.com(), scene.velocity(), scene.angular_velocity()); }
  void set_input(const grip_vehicle_input &in) { scene.set_input(in); }
  void step(double dt) { scene.step(dt); }
};

struct GripOwnCar {
  grip_world *world;
  grip_vehicle_id id;
  Motion motion() const {
    grip_vehicle_state s;
    grip_vehicle_get_state(world, id, &s);
    grip_quat q = s.pose.rotation;
    return motion_of(btQuaternion(q.x, q.y, q.z, q.w), bt(s.center_of_mass), bt(s.linear_velocity),
                     bt(s.angular_velocity));
  }
  void set_input(const grip_vehicle_input &in) { grip_vehicle_set_input(world, id, &in); }
  void step(double dt) { grip_world_step(world, dt); }
};

double skidpad_bullet(const grip_vehicle_def &def, double dt) {
  double start_speed = std::sqrt(0.1 * kGravity * 40.0);
  Scene scene(def, btVector3(0, 0, 0), 0.0);
  check(scene.ok(), "skidpad scene set up");
  scene.set_speed(start_speed);
  BulletCar car{scene};
  return skidpad_limit_g(car, def, dt);
}

double skidpad_grip_own(const grip_vehicle_def &def, double dt) {
  grip_world_def wd = grip_default_world_def();
  grip_world *w = grip_create_world(&wd);
  grip_vehicle_id id = grip_create_vehicle(w, &def);
  grip_vehicle_place(w, id, 0, 0, 0);
  grip_vehicle_set_velocity(w, id, grip_vec3{std::sqrt(0.1 * kGravity * 40.0), 0, 0});
  GripOwnCar car{w, id};
  double g = skidpad_limit_g(car, def, dt);
  grip_destroy_world(w);
  return g;
}

}  // namespace

int main() {
  const grip_vehicle_def car = grip_default_vehicle_def();
  for (double dt : {0.002, 0.01}) {
    Accel own = accel_grip_own(car, dt), on_bullet = accel_bullet(car, dt);
    std::printf("dt %.3f: 0-100 km/h %.4f s (grip's own body %.4f), top speed %.3f km/h (%.3f)\n", dt, on_bullet.t100,
                own.t100, on_bullet.top_kmh, own.top_kmh);
    check_rel(on_bullet.t100, own.t100, 0.02, "0-100 km/h on Bullet vs grip's own body");
    check_rel(on_bullet.top_kmh, own.top_kmh, 0.02, "top speed on Bullet vs grip's own body");
    double g_own = skidpad_grip_own(car, dt), g_bullet = skidpad_bullet(car, dt);
    std::printf("dt %.3f: skidpad (R 40 m) limit %.5f g (grip's own body %.5f)\n", dt, g_bullet, g_own);
    check_rel(g_bullet, g_own, 0.02, "skidpad limit on Bullet vs grip's own body");
    ramp(car, dt);
  }
  double moved1 = 0.0, moved2 = 0.0;
  uint64_t h1 = box_run(car, 0.005, &moved1), h2 = box_run(car, 0.005, &moved2);
  std::printf("box: knocked %.2f m; two runs hash %016llx %016llx\n", moved1, (unsigned long long)h1,
              (unsigned long long)h2);
  check(moved1 > 1.0, "the car knocked the box away (> 1 m)");
  check(h1 == h2, "same inputs, same bits (grip and Bullet state)");
  std::printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
