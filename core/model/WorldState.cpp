#include "model/WorldState.h"

#include <type_traits>

namespace granular {

static_assert(std::is_trivially_copyable_v<PlateDrive>);

namespace {

void saveContact(StateWriter& out, const Contact& c)
{
    out.put(c.kind);
    out.put(c.partner);
    out.put(c.particle);
    out.put(c.normal);
    out.put(c.lever0);
    out.put(c.lever1);
    out.put(c.surfaceVelocity);
    out.put(c.gap);
    out.put(c.normalMass);
    out.put(c.tangentialMass);
    out.put(c.force);
    out.put(c.bulge);
}

Contact loadContact(StateReader& in)
{
    Contact c;
    c.kind = in.get<ContactKind>();
    c.partner = in.get<std::int32_t>();
    c.particle = in.get<std::int32_t>();
    c.normal = in.get<Vec3>();
    c.lever0 = in.get<Vec3>();
    c.lever1 = in.get<Vec3>();
    c.surfaceVelocity = in.get<Vec3>();
    c.gap = in.get<double>();
    c.normalMass = in.get<double>();
    c.tangentialMass = in.get<double>();
    c.force = in.get<Vec3>();
    c.bulge = in.get<std::array<double, 2>>();
    return c;
}

void savePlane(StateWriter& out, const PlaneWall& plane)
{
    out.put(plane.name);
    out.put(plane.point);
    out.put(plane.normal);
}

PlaneWall loadPlane(StateReader& in)
{
    PlaneWall plane;
    plane.name = in.getString();
    plane.point = in.get<Vec3>();
    plane.normal = in.get<Vec3>();
    return plane;
}

}  // namespace

void saveWorld(StateWriter& out, const World& world)
{
    out.put(world.dimension);
    const Particles& p = world.particles;
    out.putVector(p.position);
    out.putVector(p.velocity);
    out.putVector(p.angularVelocity);
    out.putVector(p.radius);
    out.putVector(p.mass);
    out.putVector(p.inertia);
    out.putVector(p.externalForce);
    out.put(static_cast<std::uint64_t>(world.walls.size()));
    for (const PlaneWall& wall : world.walls) {
        savePlane(out, wall);
    }
    out.put(world.piston.has_value());
    if (world.piston) {
        const Piston& piston = *world.piston;
        savePlane(out, piston.plane);
        out.put(piston.mass);
        out.put(piston.velocity);
        out.put(piston.force);
        out.put(piston.loadStep);
        out.put(piston.loadStepTime);
        out.put(piston.area);
        out.put(piston.contactForce);
        out.put(piston.drive.has_value());
        if (piston.drive) {
            out.put(*piston.drive);
        }
    }
    out.put(world.drum.has_value());
    if (world.drum) {
        out.put(world.drum->centre);
        out.put(world.drum->axis);
        out.put(world.drum->radius);
        out.put(world.drum->angularVelocity);
        out.put(world.drum->angle);
    }
    out.put(world.cell.has_value());
    if (world.cell) {
        const PeriodicCell& cell = *world.cell;
        out.put(cell.dimension);
        out.put(cell.edges);
        out.put(cell.strainRate);
        out.put(cell.innerPressure);
        out.put(cell.innerStress);
        out.put(cell.externalPressure);
    }
    out.put(static_cast<std::uint64_t>(world.contacts.size()));
    for (const Contact& c : world.contacts) {
        saveContact(out, c);
    }
    out.put(world.gravity);
    out.put(world.bounds);
    out.put(world.time);
    out.put(world.steps);
}

World loadWorld(StateReader& in)
{
    World world;
    world.dimension = in.get<int>();
    if (world.dimension != 2 && world.dimension != 3) {
        throw StateError("the saved world has dimension " + std::to_string(world.dimension));
    }
    Particles& p = world.particles;
    p.position = in.getVector<Vec3>();
    p.velocity = in.getVector<Vec3>();
    p.angularVelocity = in.getVector<Vec3>();
    p.radius = in.getVector<double>();
    p.mass = in.getVector<double>();
    p.inertia = in.getVector<double>();
    p.externalForce = in.getVector<Vec3>();
    const std::size_t n = p.position.size();
    for (const std::size_t size : {p.velocity.size(), p.angularVelocity.size(), p.radius.size(), p.mass.size(),
                                   p.inertia.size(), p.externalForce.size()}) {
        if (size != n) {
            throw StateError("the saved grains' arrays differ in length");
        }
    }
    const auto walls = in.get<std::uint64_t>();
    if (walls > 1000) {
        throw StateError("the saved world counts " + std::to_string(walls) + " walls");
    }
    for (std::uint64_t w = 0; w < walls; ++w) {
        world.walls.push_back(loadPlane(in));
    }
    if (in.get<bool>()) {
        Piston piston;
        piston.plane = loadPlane(in);
        piston.mass = in.get<double>();
        piston.velocity = in.get<double>();
        piston.force = in.get<double>();
        piston.loadStep = in.get<double>();
        piston.loadStepTime = in.get<double>();
        piston.area = in.get<double>();
        piston.contactForce = in.get<double>();
        if (in.get<bool>()) {
            piston.drive = in.get<PlateDrive>();
        }
        world.piston = piston;
    }
    if (in.get<bool>()) {
        Drum drum;
        drum.centre = in.get<Vec3>();
        drum.axis = in.get<Vec3>();
        drum.radius = in.get<double>();
        drum.angularVelocity = in.get<double>();
        drum.angle = in.get<double>();
        world.drum = drum;
    }
    if (in.get<bool>()) {
        PeriodicCell cell;
        cell.dimension = in.get<int>();
        cell.setEdges(in.get<Mat3>());
        cell.strainRate = in.get<Mat3>();
        cell.innerPressure = in.get<double>();
        cell.innerStress = in.get<Mat3>();
        cell.externalPressure = in.get<double>();
        world.cell = cell;
    }
    const auto contacts = in.get<std::uint64_t>();
    if (contacts > 1000000000ULL) {
        throw StateError("the saved world counts " + std::to_string(contacts) + " contacts");
    }
    for (std::uint64_t k = 0; k < contacts; ++k) {
        const Contact c = loadContact(in);
        const auto body0 = static_cast<std::size_t>(c.partner);
        const bool valid = static_cast<std::uint8_t>(c.kind) <= static_cast<std::uint8_t>(ContactKind::Drum) &&
                           c.particle >= 0 && static_cast<std::size_t>(c.particle) < n && c.partner >= 0 &&
                           (c.kind != ContactKind::Particle || body0 < n) &&
                           (c.kind != ContactKind::Wall || body0 < world.walls.size()) &&
                           (c.kind != ContactKind::Piston || world.piston) &&
                           (c.kind != ContactKind::Drum || world.drum);
        if (!valid) {
            throw StateError("a saved contact names a body the world does not have");
        }
        // The methods merge the contacts from step to step by key: they are saved in that order, each once.
        if (!world.contacts.empty() && !(world.contacts.back().key() < c.key())) {
            throw StateError("the saved contacts are not in the order of their bodies");
        }
        world.contacts.push_back(c);
    }
    world.gravity = in.get<Vec3>();
    world.bounds = in.get<Eigen::AlignedBox3d>();
    world.time = in.get<double>();
    world.steps = in.get<std::int64_t>();
    return world;
}

}  // namespace granular
