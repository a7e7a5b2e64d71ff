/* The rows of the effect format: every field of plume_system_desc a file can
 * hold. The logger and allocator are the host's, and texture pixels live in
 * memory: no file holds them. docs/effects.md shows the same table for
 * people. */
#include "effect_schema.h"
#include "plume/plume_effect.h"

#include <stdbool.h>

#include "plume/plume_particles.h"

#define ROWS(array) {array, sizeof array / sizeof array[0]}
#define FIELD(type_name, field, kind) {#field, kind, offsetof(type_name, field), NULL, 0, 0, NULL}

static const char *const SHAPE_NAMES[] = {"point", "sphere", "box", "cone", NULL};
_Static_assert(PLUME_SHAPE_CONE == 3, "SHAPE_NAMES lists every plume_emitter_shape in order");

static const effect_field EMITTER_FIELDS[] = {
    {"shape", EFFECT_ENUM, offsetof(plume_emitter_desc, shape), NULL, 0, 0, SHAPE_NAMES},
    FIELD(plume_emitter_desc, position, EFFECT_VEC3),
    FIELD(plume_emitter_desc, extents, EFFECT_VEC3),
    FIELD(plume_emitter_desc, direction, EFFECT_VEC3),
    FIELD(plume_emitter_desc, spread, EFFECT_FLOAT),
    FIELD(plume_emitter_desc, rate, EFFECT_FLOAT),
    FIELD(plume_emitter_desc, burst_count, EFFECT_UINT),
    FIELD(plume_emitter_desc, burst_interval, EFFECT_FLOAT),
    FIELD(plume_emitter_desc, lifetime, EFFECT_RANGE),
    FIELD(plume_emitter_desc, speed, EFFECT_RANGE),
    FIELD(plume_emitter_desc, size, EFFECT_RANGE),
    FIELD(plume_emitter_desc, rotation, EFFECT_RANGE),
    FIELD(plume_emitter_desc, spin, EFFECT_RANGE),
};
static const effect_table EMITTER_TABLE = ROWS(EMITTER_FIELDS);

static const effect_field FORCES_FIELDS[] = {
    FIELD(plume_forces, gravity, EFFECT_VEC3),
    FIELD(plume_forces, wind, EFFECT_VEC3),
    FIELD(plume_forces, drag, EFFECT_FLOAT),
    FIELD(plume_forces, turbulence, EFFECT_FLOAT),
    FIELD(plume_forces, turbulence_scale, EFFECT_FLOAT),
    FIELD(plume_forces, turbulence_speed, EFFECT_FLOAT),
};
static const effect_table FORCES_TABLE = ROWS(FORCES_FIELDS);

static const effect_field TEXTURE_FIELDS[] = {
    /* A path's stride: its storage in the plume_effect. */
    {"path", EFFECT_PATH, offsetof(plume_texture_desc, path), NULL, 0, offsetof(plume_effect, texture_path), NULL},
    FIELD(plume_texture_desc, columns, EFFECT_UINT),
    FIELD(plume_texture_desc, rows, EFFECT_UINT),
    FIELD(plume_texture_desc, disable_frame_blend, EFFECT_BOOL),
};
static const effect_table TEXTURE_TABLE = ROWS(TEXTURE_FIELDS);

static const effect_field FLIPBOOK_MOTION_FIELDS[] = {
    {"path", EFFECT_PATH, offsetof(plume_flipbook_motion, path), NULL, 0, offsetof(plume_effect, motion_path), NULL},
    FIELD(plume_flipbook_motion, strength, EFFECT_FLOAT),
};
static const effect_table FLIPBOOK_MOTION_TABLE = ROWS(FLIPBOOK_MOTION_FIELDS);

static const effect_field APPEARANCE_FIELDS[] = {
    FIELD(plume_appearance, size_over_life, EFFECT_CURVE),
    FIELD(plume_appearance, color_over_life, EFFECT_GRADIENT),
    FIELD(plume_appearance, opacity_over_life, EFFECT_CURVE),
    {"texture", EFFECT_OBJECT, offsetof(plume_appearance, texture), &TEXTURE_TABLE, 0, 0, NULL},
    FIELD(plume_appearance, soft_fade_distance, EFFECT_FLOAT),
};
static const effect_table APPEARANCE_TABLE = ROWS(APPEARANCE_FIELDS);

static const char *const BLEND_MODE_NAMES[] = {"premultiplied", "additive", "premultiplied_additive", NULL};
_Static_assert(PLUME_BLEND_PREMULTIPLIED_ADDITIVE == 2, "BLEND_MODE_NAMES lists every plume_blend_mode in order");

static const char *const ORIENTATION_NAMES[] = {"camera_facing", "velocity_stretched", "velocity_aligned",
                                                "world_axis", "world_facing", NULL};
_Static_assert(PLUME_ORIENT_WORLD_FACING == 4, "ORIENTATION_NAMES lists every plume_orientation in order");

static const char *const SORT_MODE_NAMES[] = {"view_depth", "distance", "oldest_first", "youngest_first", "none",
                                              NULL};
_Static_assert(PLUME_SORT_MODE_NONE == 4, "SORT_MODE_NAMES lists every plume_sort_mode in order");
static const char *const SPACE_NAMES[] = {"world", "local", NULL};
_Static_assert(PLUME_SPACE_LOCAL == 1, "SPACE_NAMES lists every plume_simulation_space in order");
/* The world (since 1.2). Not in files: a route's target_system and the
 * vector field's texture, which are the host's run-time GL and module
 * objects; a file's routes target its own system. */
static const char *const COLLIDER_SHAPE_NAMES[] = {"none", "plane", "sphere", "box", NULL};
_Static_assert(PLUME_COLLIDER_BOX == 3, "COLLIDER_SHAPE_NAMES lists every plume_collider_shape in order");
static const char *const RESPONSE_NAMES[] = {"bounce", "stick", "kill", NULL};
_Static_assert(PLUME_COLLISION_KILL == 2, "RESPONSE_NAMES lists every plume_collision_response in order");
static const char *const ATTRACTOR_KIND_NAMES[] = {"none", "point", "vortex", NULL};
_Static_assert(PLUME_ATTRACTOR_VORTEX == 2, "ATTRACTOR_KIND_NAMES lists every plume_attractor_kind in order");
static const char *const TRIGGER_NAMES[] = {"none", "death", "collision", NULL};
_Static_assert(PLUME_EVENT_COLLISION == 2, "TRIGGER_NAMES lists every plume_event_trigger in order");

static const effect_field COLLISION_FIELDS[] = {
    {"response", EFFECT_ENUM, offsetof(plume_collision_desc, response), NULL, 0, 0, RESPONSE_NAMES},
    FIELD(plume_collision_desc, restitution, EFFECT_FLOAT),
    FIELD(plume_collision_desc, friction, EFFECT_FLOAT),
    FIELD(plume_collision_desc, rest_speed, EFFECT_FLOAT),
};
static const effect_table COLLISION_TABLE = ROWS(COLLISION_FIELDS);

static const effect_field COLLIDER_FIELDS[] = {
    {"shape", EFFECT_ENUM, offsetof(plume_collider_desc, shape), NULL, 0, 0, COLLIDER_SHAPE_NAMES},
    FIELD(plume_collider_desc, position, EFFECT_VEC3),
    FIELD(plume_collider_desc, normal, EFFECT_VEC3),
    FIELD(plume_collider_desc, radius, EFFECT_FLOAT),
    FIELD(plume_collider_desc, extents, EFFECT_VEC3),
    FIELD(plume_collider_desc, inside, EFFECT_BOOL),
    {"collision", EFFECT_OBJECT, offsetof(plume_collider_desc, collision), &COLLISION_TABLE, 0, 0, NULL},
};
static const effect_table COLLIDER_TABLE = ROWS(COLLIDER_FIELDS);

static const effect_field DEPTH_COLLISION_FIELDS[] = {
    FIELD(plume_depth_collision_desc, enabled, EFFECT_BOOL),
    FIELD(plume_depth_collision_desc, thickness, EFFECT_FLOAT),
    {"collision", EFFECT_OBJECT, offsetof(plume_depth_collision_desc, collision), &COLLISION_TABLE, 0, 0, NULL},
};
static const effect_table DEPTH_COLLISION_TABLE = ROWS(DEPTH_COLLISION_FIELDS);

static const effect_field ATTRACTOR_FIELDS[] = {
    {"kind", EFFECT_ENUM, offsetof(plume_attractor_desc, kind), NULL, 0, 0, ATTRACTOR_KIND_NAMES},
    FIELD(plume_attractor_desc, position, EFFECT_VEC3),
    FIELD(plume_attractor_desc, axis, EFFECT_VEC3),
    FIELD(plume_attractor_desc, strength, EFFECT_FLOAT),
    FIELD(plume_attractor_desc, radius, EFFECT_FLOAT),
};
static const effect_table ATTRACTOR_TABLE = ROWS(ATTRACTOR_FIELDS);

static const effect_field EVENT_ROUTE_FIELDS[] = {
    {"trigger", EFFECT_ENUM, offsetof(plume_event_route_desc, trigger), NULL, 0, 0, TRIGGER_NAMES},
    FIELD(plume_event_route_desc, source_emitters, EFFECT_UINT),
    FIELD(plume_event_route_desc, target_emitter, EFFECT_UINT),
    FIELD(plume_event_route_desc, count, EFFECT_UINT),
    FIELD(plume_event_route_desc, inherit_velocity, EFFECT_FLOAT),
};
static const effect_table EVENT_ROUTE_TABLE = ROWS(EVENT_ROUTE_FIELDS);

static const effect_field WORLD_FIELDS[] = {
    {"colliders", EFFECT_ARRAY, offsetof(plume_world, colliders), &COLLIDER_TABLE, PLUME_MAX_COLLIDERS,
     sizeof(plume_collider_desc), NULL},
    {"depth_collision", EFFECT_OBJECT, offsetof(plume_world, depth_collision), &DEPTH_COLLISION_TABLE, 0, 0, NULL},
    {"attractors", EFFECT_ARRAY, offsetof(plume_world, attractors), &ATTRACTOR_TABLE, PLUME_MAX_ATTRACTORS,
     sizeof(plume_attractor_desc), NULL},
    {"events", EFFECT_ARRAY, offsetof(plume_world, events), &EVENT_ROUTE_TABLE, PLUME_MAX_EVENT_ROUTES,
     sizeof(plume_event_route_desc), NULL},
    FIELD(plume_world, event_capacity, EFFECT_UINT),
};
static const effect_table WORLD_TABLE = ROWS(WORLD_FIELDS);

/* Trails (since 1.3). */
static const char *const TRAIL_SPACING_NAMES[] = {"time", "distance", NULL};
_Static_assert(PLUME_TRAIL_SPACING_DISTANCE == 1, "TRAIL_SPACING_NAMES lists every plume_trail_spacing in order");
static const char *const TRAIL_UV_NAMES[] = {"stretch", "tile", NULL};
_Static_assert(PLUME_TRAIL_UV_TILE == 1, "TRAIL_UV_NAMES lists every plume_trail_uv in order");
static const effect_field TRAIL_FIELDS[] = {
    FIELD(plume_trail_desc, points, EFFECT_UINT),
    {"spacing_mode", EFFECT_ENUM, offsetof(plume_trail_desc, spacing_mode), NULL, 0, 0, TRAIL_SPACING_NAMES},
    FIELD(plume_trail_desc, spacing, EFFECT_FLOAT),
    FIELD(plume_trail_desc, width_over_length, EFFECT_CURVE),
    FIELD(plume_trail_desc, color_over_length, EFFECT_GRADIENT),
    FIELD(plume_trail_desc, opacity_over_length, EFFECT_CURVE),
    {"uv_mode", EFFECT_ENUM, offsetof(plume_trail_desc, uv_mode), NULL, 0, 0, TRAIL_UV_NAMES},
    FIELD(plume_trail_desc, uv_tile_length, EFFECT_FLOAT),
    FIELD(plume_trail_desc, hide_particles, EFFECT_BOOL),
    FIELD(plume_trail_desc, ribbon, EFFECT_BOOL),
};
static const effect_table TRAIL_TABLE = ROWS(TRAIL_FIELDS);

static const effect_field SELF_SHADOW_FIELDS[] = {
    FIELD(plume_self_shadow_desc, strength, EFFECT_FLOAT),
    FIELD(plume_self_shadow_desc, map_size, EFFECT_UINT),
    FIELD(plume_self_shadow_desc, slices, EFFECT_UINT),
};
static const effect_table SELF_SHADOW_TABLE = ROWS(SELF_SHADOW_FIELDS);

/* Meshes (since 1.3): the sources are files or names the host resolves
 * (plume_effect_resolve_meshes); the mesh data are never in a file. */
static const char *const MESH_PICK_NAMES[] = {"random", "by_emitter", NULL};
_Static_assert(PLUME_MESH_PICK_BY_EMITTER == 1, "MESH_PICK_NAMES lists every plume_mesh_pick in order");
static const char *const MESH_SURFACE_NAMES[] = {"opaque", "alpha_tested", "transparent", NULL};
_Static_assert(PLUME_MESH_TRANSPARENT == 2, "MESH_SURFACE_NAMES lists every plume_mesh_surface in order");
static const char *const MESH_START_NAMES[] = {"random", "along_velocity", NULL};
_Static_assert(PLUME_MESH_START_ALONG_VELOCITY == 1, "MESH_START_NAMES lists every plume_mesh_start in order");
static const effect_field MESH_LOD_FIELDS[] = {
    FIELD(plume_mesh_lod, coarse_below_pixels, EFFECT_FLOAT),
    FIELD(plume_mesh_lod, impostor_below_pixels, EFFECT_FLOAT),
    FIELD(plume_mesh_lod, cull, EFFECT_BOOL),
    FIELD(plume_mesh_lod, cull_back_faces, EFFECT_BOOL),
};
static const effect_table MESH_LOD_TABLE = ROWS(MESH_LOD_FIELDS);
static const effect_field MESHES_FIELDS[] = {
    {"sources", EFFECT_MESH_SOURCES, offsetof(plume_mesh_particles, count), NULL, 0, 0, NULL},
    {"pick", EFFECT_ENUM, offsetof(plume_mesh_particles, pick), NULL, 0, 0, MESH_PICK_NAMES},
    {"surface", EFFECT_ENUM, offsetof(plume_mesh_particles, surface), NULL, 0, 0, MESH_SURFACE_NAMES},
    FIELD(plume_mesh_particles, alpha_cutoff, EFFECT_FLOAT),
    {"start_orientation", EFFECT_ENUM, offsetof(plume_mesh_particles, start_orientation), NULL, 0, 0,
     MESH_START_NAMES},
    FIELD(plume_mesh_particles, angular_speed, EFFECT_RANGE),
    FIELD(plume_mesh_particles, angular_drag, EFFECT_FLOAT),
    FIELD(plume_mesh_particles, scale_start, EFFECT_VEC3),
    FIELD(plume_mesh_particles, scale_end, EFFECT_VEC3),
    {"lod", EFFECT_OBJECT, offsetof(plume_mesh_particles, lod), &MESH_LOD_TABLE, 0, 0, NULL},
};
static const effect_table MESHES_TABLE = ROWS(MESHES_FIELDS);

static const effect_field SYSTEM_FIELDS[] = {
    FIELD(plume_system_desc, capacity, EFFECT_UINT),
    FIELD(plume_system_desc, seed, EFFECT_UINT),
    {"emitters", EFFECT_ARRAY, offsetof(plume_system_desc, emitters), &EMITTER_TABLE, PLUME_MAX_EMITTERS,
     sizeof(plume_emitter_desc), NULL},
    {"forces", EFFECT_OBJECT, offsetof(plume_system_desc, forces), &FORCES_TABLE, 0, 0, NULL},
    {"appearance", EFFECT_OBJECT, offsetof(plume_system_desc, appearance), &APPEARANCE_TABLE, 0, 0, NULL},
    {"blend_mode", EFFECT_ENUM, offsetof(plume_system_desc, blend_mode), NULL, 0, 0, BLEND_MODE_NAMES},
    FIELD(plume_system_desc, additive_over_life, EFFECT_CURVE),
    {"orientation", EFFECT_ENUM, offsetof(plume_system_desc, orientation), NULL, 0, 0, ORIENTATION_NAMES},
    FIELD(plume_system_desc, orientation_axis, EFFECT_VEC3),
    FIELD(plume_system_desc, stretch_factor, EFFECT_FLOAT),
    FIELD(plume_system_desc, stretch_limits, EFFECT_RANGE),
    {"sort_mode", EFFECT_ENUM, offsetof(plume_system_desc, sort_mode), NULL, 0, 0, SORT_MODE_NAMES},
    FIELD(plume_system_desc, sort_key_bits, EFFECT_UINT),
    FIELD(plume_system_desc, lit, EFFECT_BOOL),
    FIELD(plume_system_desc, emissive_over_life, EFFECT_GRADIENT),
    {"world", EFFECT_OBJECT, offsetof(plume_system_desc, world), &WORLD_TABLE, 0, 0, NULL},
    FIELD(plume_system_desc, prewarm_time, EFFECT_FLOAT),
    FIELD(plume_system_desc, inherit_velocity, EFFECT_FLOAT),
    {"simulation_space", EFFECT_ENUM, offsetof(plume_system_desc, simulation_space), NULL, 0, 0, SPACE_NAMES},
    {"trail", EFFECT_OBJECT, offsetof(plume_system_desc, trail), &TRAIL_TABLE, 0, 0, NULL},

    {"self_shadow", EFFECT_OBJECT, offsetof(plume_system_desc, self_shadow), &SELF_SHADOW_TABLE, 0, 0, NULL},
    {"flipbook_motion", EFFECT_OBJECT, offsetof(plume_system_desc, flipbook_motion), &FLIPBOOK_MOTION_TABLE, 0, 0,
     NULL},
    {"meshes", EFFECT_OBJECT, offsetof(plume_system_desc, meshes), &MESHES_TABLE, 0, 0, NULL},
};
const effect_table effect_system_table = ROWS(SYSTEM_FIELDS);
