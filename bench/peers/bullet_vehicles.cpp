// Peer benchmark for `scripts/bench_peers.py` (docs/performance.md): Bullet's btRaycastVehicle,
// what a user might pick instead of grip, timed on the same machine in the same run.
// Source: the project's ../shared/peers/bullet_vehicles.cpp (written for grip's benchmarks, not
// taken from Bullet), copied here unchanged apart from this note, the process-CPU clock around
// the stepping loop (the machine these figures come from is shared: wall time counts the time
// other jobs ran), a last line in the form scripts/bench_peers.py reads, and the cars given back
// at the end (a sanitizer build's leak check fails the program otherwise).
// Built by CMake as bullet_vehicles when Bullet (pkg-config "bullet", single precision, as
// Debian's libbullet-dev ships it by default) is found.
// Peer benchmark: N Bullet btRaycastVehicle cars on a flat static ground,
// full throttle with a slight steer, stepped at a fixed dt. Prints ns per vehicle-step.
// Build: g++ -O2 bullet_vehicles.cpp $(pkg-config --cflags --libs bullet) -o bullet_vehicles
#include <btBulletDynamicsCommon.h>
#include <BulletDynamics/Vehicle/btRaycastVehicle.h>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double simSeconds = argc > 2 ? atof(argv[2]) : 20.0;
    double dt = argc > 3 ? atof(argv[3]) : 1.0 / 500.0;
    btDefaultCollisionConfiguration cfg;
    btCollisionDispatcher disp(&cfg);
    btDbvtBroadphase bp;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&disp, &bp, &solver, &cfg);
    world.setGravity(btVector3(0, -9.81, 0));
    btStaticPlaneShape groundShape(btVector3(0, 1, 0), 0);
    btRigidBody ground(0, nullptr, &groundShape);
    btTransform gt; gt.setIdentity(); gt.setOrigin(btVector3(0, 0, 0));
    ground.setWorldTransform(gt);
    world.addRigidBody(&ground);
    btBoxShape chassisShape(btVector3(0.9, 0.3, 2.2));
    btCompoundShape compound; btTransform local; local.setIdentity(); local.setOrigin(btVector3(0, 0.3, 0));
    compound.addChildShape(local, &chassisShape);
    btDefaultVehicleRaycaster raycaster(&world);
    btRaycastVehicle::btVehicleTuning tuning;
    std::vector<btRaycastVehicle *> cars;
    std::vector<btRigidBody *> bodies;
    for (int i = 0; i < n; i++) {
        btScalar mass = 1439;
        btVector3 inertia; compound.calculateLocalInertia(mass, inertia);
        btTransform t; t.setIdentity(); t.setOrigin(btVector3((i % 50) * 8.0, 1.0, (i / 50) * 12.0));
        auto *ms = new btDefaultMotionState(t);
        auto *body = new btRigidBody(btRigidBody::btRigidBodyConstructionInfo(mass, ms, &compound, inertia));
        body->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(body);
        auto *v = new btRaycastVehicle(tuning, body, &raycaster);
        v->setCoordinateSystem(0, 1, 2);
        world.addVehicle(v);
        btVector3 dir(0, -1, 0), axle(-1, 0, 0);
        float r = 0.34f, rest = 0.3f, cx = 0.8f, cz = 1.4f, cy = 0.3f;
        v->addWheel(btVector3(cx, cy, cz), dir, axle, rest, r, tuning, true);
        v->addWheel(btVector3(-cx, cy, cz), dir, axle, rest, r, tuning, true);
        v->addWheel(btVector3(cx, cy, -cz), dir, axle, rest, r, tuning, false);
        v->addWheel(btVector3(-cx, cy, -cz), dir, axle, rest, r, tuning, false);
        for (int w = 0; w < 4; w++) {
            btWheelInfo &wi = v->getWheelInfo(w);
            wi.m_suspensionStiffness = 50; wi.m_wheelsDampingRelaxation = 2.3f;
            wi.m_wheelsDampingCompression = 4.4f; wi.m_frictionSlip = 1.2f; wi.m_rollInfluence = 0.1f;
        }
        cars.push_back(v); bodies.push_back(body);
    }
    long steps = (long)(simSeconds / dt);
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    for (long s = 0; s < steps; s++) {
        for (auto *v : cars) {
            v->applyEngineForce(3000, 2); v->applyEngineForce(3000, 3);
            v->setSteeringValue(0.05f, 0); v->setSteeringValue(0.05f, 1);
        }
        world.stepSimulation(dt, 0, dt);
    }
    std::clock_t c1 = std::clock();
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    double speed = cars[0]->getCurrentSpeedKmHour();
    { auto &wi = cars[0]->getWheelInfo(2); printf("car0 y=%.3f contact=%d susp=%.3f hp=%.3f,%.3f,%.3f dir=%.2f,%.2f,%.2f\n", bodies[0]->getWorldTransform().getOrigin().y(), (int)wi.m_raycastInfo.m_isInContact, wi.m_raycastInfo.m_suspensionLength, wi.m_raycastInfo.m_hardPointWS.x(), wi.m_raycastInfo.m_hardPointWS.y(), wi.m_raycastInfo.m_hardPointWS.z(), wi.m_raycastInfo.m_wheelDirectionWS.x(), wi.m_raycastInfo.m_wheelDirectionWS.y(), wi.m_raycastInfo.m_wheelDirectionWS.z()); }
    printf("bullet btRaycastVehicle: %d vehicles, %ld steps of %.4f s: %.1f ns per vehicle-step (car0 %.1f km/h)\n",
           n, steps, dt, ns / ((double)steps * n), speed);
    double cpu_ns = 1e9 * (double)(c1 - c0) / CLOCKS_PER_SEC;
    printf("{\"peer\":\"bullet_btRaycastVehicle\",\"vehicles\":%d,\"steps\":%ld,\"ns_per_vehicle_step\":%.1f,"
           "\"cpu_ns_per_vehicle_step\":%.1f}\n", n, steps, ns / ((double)steps * n), cpu_ns / ((double)steps * n));
    for (size_t i = 0; i < cars.size(); i++) {
        world.removeVehicle(cars[i]);
        delete cars[i];
        world.removeRigidBody(bodies[i]);
        delete bodies[i]->getMotionState();
        delete bodies[i];
    }
    world.removeRigidBody(&ground);
    return 0;
}
