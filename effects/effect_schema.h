/* The effect format as a table: one row per descriptor field (its name in
 * the file, its type, where it lives in the struct), read by the reader and
 * the writer alike, so a new descriptor field is one new row. The values'
 * rules are not here: they are the module's own descriptor checks
 * (plugin/particles/desc.c), which the reader runs on what it read. */
#ifndef PLUME_EFFECT_SCHEMA_H
#define PLUME_EFFECT_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

typedef enum effect_type {
    EFFECT_FLOAT,     /* float: a number */
    EFFECT_VEC3,      /* float[3]: [x, y, z] */
    EFFECT_RANGE,     /* plume_range: [min, max] */
    EFFECT_UINT,      /* uint32_t: a whole number 0 .. 4294967295 */
    EFFECT_BOOL,      /* bool: true or false */
    EFFECT_ENUM,      /* a C enum (int-sized): one of the row's names, the i-th for value i */
    EFFECT_CURVE,     /* plume_curve: [[time, value], ...], at most PLUME_MAX_CURVE_KEYS */
    EFFECT_GRADIENT,  /* plume_gradient: [[time, r, g, b, a], ...], at most PLUME_MAX_CURVE_KEYS */
    EFFECT_PATH,      /* const char *: a string; a file path relative to the effect file */
    EFFECT_OBJECT,    /* a nested struct: {...} with the fields of `table` */
    EFFECT_ARRAY,     /* a fixed array of nested structs: [{...}, ...], at most `count` */
    /* uint32_t, plume_mesh_particles.count: [{"file": "x.obj"} or {"name": "n"}, ...], at most
     * PLUME_MAX_MESHES, each source kept in the plume_effect (mesh_sources) */
    EFFECT_MESH_SOURCES
} effect_type;

typedef struct effect_table effect_table;

typedef struct effect_field {
    const char *name;             /* the JSON key, the C field's name */
    effect_type type;
    size_t offset;                /* offsetof the field in the table's struct */
    const effect_table *table;    /* EFFECT_OBJECT, EFFECT_ARRAY: the nested struct's fields */
    uint32_t count;               /* EFFECT_ARRAY: elements */
    size_t stride;                /* EFFECT_ARRAY: sizeof an element */
    const char *const *names;     /* EFFECT_ENUM: value i is names[i]; NULL-terminated */
} effect_field;

struct effect_table {
    const effect_field *fields;
    size_t count;
};

/* plume_system_desc's table: the top level of an effect file (beside the
 * format version, "plume_effect"). */
extern const effect_table effect_system_table;

/* The JSON key of the format version. */
#define EFFECT_VERSION_KEY "plume_effect"
/* The JSON key of a group file's list of systems (plume_effect_group). */
#define EFFECT_SYSTEMS_KEY "systems"

#endif
