/* The rows of the effect format: every field of plume_system_desc a file can
 * hold. The logger and allocator are the host's, and texture pixels live in
 * memory: no file holds them. docs/effects.md shows the same table for
 * people. */
#include "effect_schema.h"

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
    FIELD(plume_texture_desc, path, EFFECT_PATH),
    FIELD(plume_texture_desc, columns, EFFECT_UINT),
    FIELD(plume_texture_desc, rows, EFFECT_UINT),
    FIELD(plume_texture_desc, disable_frame_blend, EFFECT_BOOL),
};
static const effect_table TEXTURE_TABLE = ROWS(TEXTURE_FIELDS);

static const effect_field APPEARANCE_FIELDS[] = {
    FIELD(plume_appearance, size_over_life, EFFECT_CURVE),
    FIELD(plume_appearance, color_over_life, EFFECT_GRADIENT),
    FIELD(plume_appearance, opacity_over_life, EFFECT_CURVE),
    {"texture", EFFECT_OBJECT, offsetof(plume_appearance, texture), &TEXTURE_TABLE, 0, 0, NULL},
    FIELD(plume_appearance, soft_fade_distance, EFFECT_FLOAT),
};
static const effect_table APPEARANCE_TABLE = ROWS(APPEARANCE_FIELDS);

static const effect_field SYSTEM_FIELDS[] = {
    FIELD(plume_system_desc, capacity, EFFECT_UINT),
    FIELD(plume_system_desc, seed, EFFECT_UINT),
    {"emitters", EFFECT_ARRAY, offsetof(plume_system_desc, emitters), &EMITTER_TABLE, PLUME_MAX_EMITTERS,
     sizeof(plume_emitter_desc), NULL},
    {"forces", EFFECT_OBJECT, offsetof(plume_system_desc, forces), &FORCES_TABLE, 0, 0, NULL},
    {"appearance", EFFECT_OBJECT, offsetof(plume_system_desc, appearance), &APPEARANCE_TABLE, 0, 0, NULL},
};
const effect_table effect_system_table = ROWS(SYSTEM_FIELDS);
