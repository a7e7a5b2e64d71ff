/* Effect file -> plume_system_desc: jansson parses, the schema table says
 * where each field goes, and the module's descriptor checks judge the values;
 * every error is placed at its field's line and column. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "effect_locate.h"
#include "effect_path.h"
#include "effect_printf.h"
#include "effect_schema.h"
#include "effect_sprite.h"
#include "plume/plume_effect.h"
#include "plume/plume_particles.h"

_Static_assert(sizeof(plume_emitter_shape) == sizeof(int), "enum fields are read and written as int");

/* Effect files are small; a bigger one is a mistake, not an effect. */
enum { EFFECT_FILE_MAX_BYTES = 16 << 20 };

typedef struct reader {
    const char *text;
    size_t length;
    const char *file_name;
    const char *folder;
    plume_effect *effect;
    plume_effect_error *error;
    const char *prefix;   /* "systems[2]" in a group's entry, else "": every field's path starts there */
} reader;

static void set_error(plume_effect_error *error, int line, int column, const char *field, const char *message) {
    if (!error) return;
    error->line = line;
    error->column = column;
    snprintf(error->field, sizeof error->field, "%s", field);
    snprintf(error->message, sizeof error->message, "%s", message);
}

/* "FILE:LINE:COLUMN: FIELD: why" at the field's place in the text. */
static plume_result EFFECT_PRINTF_FORMAT(4, 5)
    fail(const reader *r, plume_result result, const char *field, const char *format, ...) {
    char why[PLUME_EFFECT_MESSAGE_MAX / 2];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    char path[sizeof r->error->field];
    if (snprintf(path, sizeof path, "%s%s%s", r->prefix, *r->prefix && *field ? "." : "", field) >= (int)sizeof path)
        path[sizeof path - 1] = '\0';
    effect_position at = effect_locate(r->text, r->length, path);
    char message[PLUME_EFFECT_MESSAGE_MAX];
    snprintf(message, sizeof message, "%s:%d:%d: %s%s%s", r->file_name, at.line, at.column, path, *path ? ": " : "",
             why);
    set_error(r->error, at.line, at.column, path, message);
    return result;
}

/* `path` + ".name" or "[index]", truncated to fit (a truncated path still
 * locates its first steps). */
static void join_field(char *out, size_t size, const char *path, const char *name) {
    if (snprintf(out, size, "%s%s%s", path, *path ? "." : "", name) >= (int)size) out[size - 1] = '\0';
}
static void index_field(char *out, size_t size, const char *path, size_t index) {
    if (snprintf(out, size, "%s[%zu]", path, index) >= (int)size) out[size - 1] = '\0';
}

static float to_float(double value) {
    /* A double beyond float's range becomes an infinity (converting it is
     * undefined in C), which the descriptor checks then refuse as not finite. */
    if (value > FLT_MAX) return INFINITY;
    if (value < -FLT_MAX) return -INFINITY;
    return (float)value;
}

static plume_result read_numbers(const reader *r, const json_t *value, const char *field, float *out, size_t count,
                                 const char *shape) {
    if (!json_is_array(value) || json_array_size(value) != count)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be %s", shape);
    for (size_t i = 0; i < count; ++i) {
        const json_t *item = json_array_get(value, i);
        if (!json_is_number(item)) {
            char element[160];
            index_field(element, sizeof element, field, i);
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, element, "must be a number (in %s)", shape);
        }
        out[i] = to_float(json_number_value(item));
    }
    return PLUME_OK;
}

/* [[time, v1, ...], ...]: `floats` numbers a key, at most PLUME_MAX_CURVE_KEYS
 * keys, written `stride` floats apart from `first`. */
static plume_result read_keys(const reader *r, const json_t *value, const char *field, uint32_t *key_count,
                              float *first, size_t floats, size_t stride, const char *shape) {
    if (!json_is_array(value)) return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a list of keys %s", shape);
    size_t count = json_array_size(value);
    if (count > PLUME_MAX_CURVE_KEYS)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "has %zu keys; at most %d", count, PLUME_MAX_CURVE_KEYS);
    for (size_t k = 0; k < count; ++k) {
        char element[160];
        index_field(element, sizeof element, field, k);
        plume_result result = read_numbers(r, json_array_get(value, k), element, first + k * stride, floats, shape);
        if (result != PLUME_OK) return result;
    }
    *key_count = (uint32_t)count;
    return PLUME_OK;
}

/* The path's storage is the plume_effect's member at `storage_offset`. */
static plume_result read_path(const reader *r, const json_t *value, const char *field, size_t storage_offset,
                              const char **out) {
    if (!json_is_string(value) || json_string_length(value) == 0)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a file name (a non-empty string)");
    const char *path = json_string_value(value);
    char *storage = (char *)r->effect + storage_offset;
    bool relative = !effect_path_is_absolute(path) && r->folder && *r->folder;
    int length = relative ? snprintf(storage, PLUME_EFFECT_PATH_MAX, "%s/%s", r->folder, path)
                          : snprintf(storage, PLUME_EFFECT_PATH_MAX, "%s", path);
    if (length < 0 || length >= PLUME_EFFECT_PATH_MAX)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "is longer than %d bytes", PLUME_EFFECT_PATH_MAX - 1);
    FILE *file = fopen(storage, "rb");
    if (!file) return fail(r, PLUME_ERROR_IO, field, "cannot open '%s': %s", storage, strerror(errno));
    fclose(file);
    *out = storage;
    return PLUME_OK;
}

static plume_result read_table(const reader *r, const json_t *object, const effect_table *table, char *base,
                               const char *path);

/* One mesh source, {"file": path} (the OBJ read now, to check it) or
 * {"name": text}, into the effect's mesh_sources[i]. */
static plume_result read_mesh_source(const reader *r, const json_t *value, const char *field, uint32_t i) {
    json_t *file = json_is_object(value) ? json_object_get(value, "file") : NULL;
    json_t *name = json_is_object(value) ? json_object_get(value, "name") : NULL;
    if (!json_is_object(value) || json_object_size(value) != 1 || (!file && !name))
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be {\"file\": \"mesh.obj\"} or {\"name\": \"rock\"}");
    char element[160];
    join_field(element, sizeof element, field, file ? "file" : "name");
    if (!json_is_string(file ? file : name) || json_string_length(file ? file : name) == 0)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, element, "must be a non-empty string");
    char *storage = r->effect->mesh_sources[i];
    if (name) {
        if (snprintf(storage, PLUME_EFFECT_PATH_MAX, "%s", json_string_value(name)) >= PLUME_EFFECT_PATH_MAX)
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, element, "is longer than %d bytes", PLUME_EFFECT_PATH_MAX - 1);
        r->effect->mesh_is_name[i] = true;
        return PLUME_OK;
    }
    const char *path = NULL;
    plume_result result = read_path(r, file, element,
                                    offsetof(plume_effect, mesh_sources) + (size_t)i * PLUME_EFFECT_PATH_MAX, &path);
    if (result != PLUME_OK) return result;
    plume_effect_mesh mesh;
    plume_effect_error why;
    result = plume_effect_load_obj(path, &mesh, &why);
    plume_effect_mesh_free(&mesh);
    return result == PLUME_OK ? PLUME_OK : fail(r, result, element, "%s", why.message);
}

static plume_result read_mesh_sources(const reader *r, const json_t *value, const char *field, uint32_t *count) {
    if (!json_is_array(value) || json_array_size(value) == 0)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a list of 1 to %d sources [{...}, ...]",
                    PLUME_MAX_MESHES);
    if (json_array_size(value) > PLUME_MAX_MESHES)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "has %zu entries; at most %d", json_array_size(value),
                    PLUME_MAX_MESHES);
    for (size_t i = 0; i < json_array_size(value); ++i) {
        char element[160];
        index_field(element, sizeof element, field, i);
        plume_result result = read_mesh_source(r, json_array_get(value, i), element, (uint32_t)i);
        if (result != PLUME_OK) return result;
    }
    *count = (uint32_t)json_array_size(value);
    return PLUME_OK;
}

static plume_result read_field(const reader *r, const json_t *value, const effect_field *row, char *base,
                               const char *field) {
    void *at = base + row->offset;
    switch (row->type) {
    case EFFECT_FLOAT:
        if (!json_is_number(value)) return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a number");
        *(float *)at = to_float(json_number_value(value));
        return PLUME_OK;
    case EFFECT_VEC3: return read_numbers(r, value, field, at, 3, "[x, y, z]");
    case EFFECT_RANGE: return read_numbers(r, value, field, at, 2, "[min, max]");
    case EFFECT_UINT:
        if (!json_is_integer(value) || json_integer_value(value) < 0 || json_integer_value(value) > UINT32_MAX)
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a whole number from 0 to 4294967295");
        *(uint32_t *)at = (uint32_t)json_integer_value(value);
        return PLUME_OK;
    case EFFECT_BOOL:
        if (!json_is_boolean(value)) return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be true or false");
        *(bool *)at = json_is_true(value);
        return PLUME_OK;
    case EFFECT_ENUM:
        for (int i = 0; json_is_string(value) && row->names[i]; ++i)
            if (strcmp(json_string_value(value), row->names[i]) == 0) {
                *(int *)at = i;
                return PLUME_OK;
            }
        {
            char names[256] = "";
            for (int i = 0; row->names[i]; ++i)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"", i ? ", " : "",
                         row->names[i]);
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be one of %s", names);
        }
    case EFFECT_CURVE: {
        plume_curve *curve = at;
        return read_keys(r, value, field, &curve->key_count, &curve->keys[0].time, 2,
                         sizeof(plume_curve_key) / sizeof(float), "[time, value]");
    }
    case EFFECT_GRADIENT: {
        plume_gradient *gradient = at;
        return read_keys(r, value, field, &gradient->key_count, &gradient->keys[0].time, 5,
                         sizeof(plume_color_key) / sizeof(float), "[time, r, g, b, a]");
    }
    case EFFECT_PATH: return read_path(r, value, field, row->stride, (const char **)at);
    case EFFECT_OBJECT: return read_table(r, value, row->table, at, field);
    case EFFECT_MESH_SOURCES: return read_mesh_sources(r, value, field, at);
    case EFFECT_ARRAY: {
        if (!json_is_array(value))
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "must be a list of objects [{...}, ...]");
        if (json_array_size(value) > row->count)
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "has %zu entries; at most %u",
                        json_array_size(value), row->count);
        for (size_t i = 0; i < json_array_size(value); ++i) {
            char element[160];
            index_field(element, sizeof element, field, i);
            plume_result result =
                read_table(r, json_array_get(value, i), row->table, (char *)at + i * row->stride, element);
            if (result != PLUME_OK) return result;
        }
        return PLUME_OK;
    }
    }
    return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "has a type the format does not know");
}

static const effect_field *find_row(const effect_table *table, const char *name) {
    for (size_t i = 0; i < table->count; ++i)
        if (strcmp(table->fields[i].name, name) == 0) return &table->fields[i];
    return NULL;
}

static plume_result read_table(const reader *r, const json_t *object, const effect_table *table, char *base,
                               const char *path) {
    if (!json_is_object(object)) return fail(r, PLUME_ERROR_INVALID_ARGUMENT, path, "must be an object {...}");
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        char field[160];
        join_field(field, sizeof field, path, key);
        if (!*path && !*r->prefix && strcmp(key, EFFECT_VERSION_KEY) == 0) continue;
        const effect_field *row = find_row(table, key);
        if (!row) {
            char known[512] = "";
            for (size_t i = 0; i < table->count; ++i)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                         table->fields[i].name);
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, field, "is not a field here (known: %s)", known);
        }
        plume_result result = read_field(r, value, row, base, field);
        if (result != PLUME_OK) return result;
    }
    return PLUME_OK;
}

static plume_result check_version(const reader *r, const json_t *root) {
    if (!json_is_object(root)) return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "", "an effect must be an object {...}");
    const json_t *version = json_object_get(root, EFFECT_VERSION_KEY);
    if (!version)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "", "no \"%s\": the format version (%d) must be given",
                    EFFECT_VERSION_KEY, PLUME_EFFECT_FORMAT_VERSION);
    if (!json_is_integer(version) || json_integer_value(version) < 1)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, EFFECT_VERSION_KEY, "must be a format version: a whole number >= 1");
    if (json_integer_value(version) > PLUME_EFFECT_FORMAT_VERSION)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, EFFECT_VERSION_KEY,
                    "format version %lld is newer than this library's (%d)", (long long)json_integer_value(version),
                    PLUME_EFFECT_FORMAT_VERSION);
    return PLUME_OK;
}

/* plume_system_desc_check logs "plume_system_desc_check: FIELD why"
 * (plume_particles.h); the first message is kept and turned into a placed
 * error. */
typedef struct captured_message {
    char text[PLUME_EFFECT_MESSAGE_MAX];
    bool any;
} captured_message;

static const char CHECK_CALLER[] = "plume_system_desc_check";

static void capture(plume_log_level level, const char *message, void *user) {
    captured_message *captured = user;
    if (level != PLUME_LOG_ERROR || captured->any) return;
    captured->any = true;
    snprintf(captured->text, sizeof captured->text, "%s", message);
}

static plume_result check_desc(const reader *r, const plume_system_desc *desc) {
    captured_message captured = {.any = false};
    plume_system_desc checked = *desc;
    checked.logger = (plume_logger){capture, &captured};
    /* The meshes' data come at plume_effect_resolve_meshes (their files
     * checked already): a triangle stands for each here. */
    static const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (uint32_t i = 0; i < desc->meshes.count && i < PLUME_MAX_MESHES; ++i)
        checked.meshes.meshes[i] = (plume_mesh_desc){.vertex_count = 3, .position_data = triangle};
    plume_result result = plume_system_desc_check(&checked, NULL);
    if (result == PLUME_OK) return PLUME_OK;
    /* "plume_system_desc_check: emitters[0].lifetime min is 0; ..." -> field and why. */
    const char *text = captured.text;
    size_t prefix = strlen(CHECK_CALLER);
    if (strncmp(text, CHECK_CALLER, prefix) == 0 && text[prefix] == ':' && text[prefix + 1] == ' ') text += prefix + 2;
    char field[128];
    size_t field_length = strcspn(text, " ");
    snprintf(field, sizeof field, "%.*s", (int)(field_length < sizeof field ? field_length : sizeof field - 1), text);
    const char *why = text[field_length] ? text + field_length + 1 : "is refused by the descriptor checks";
    return fail(r, result, field, "%s", why);
}

/* What the descriptor checks leave to creation and the loader can check
 * without a GL: the capacity against the most creation ever accepts, the
 * sprite file decoding as an image, and a flipbook's frames against its
 * pixels (each frame at least one pixel), as creation will judge them. */
static plume_result check_for_creation(const reader *r, const plume_system_desc *desc) {
    if (desc->capacity > PLUME_EFFECT_MAX_CAPACITY)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "capacity",
                    "is %u; at most %u (PLUME_EFFECT_MAX_CAPACITY: more than plume_system_create accepts on any GL)",
                    desc->capacity, PLUME_EFFECT_MAX_CAPACITY);
    const plume_texture_desc *texture = &desc->appearance.texture;
    if (!texture->path) return PLUME_OK;
    uint32_t width = 0, height = 0;
    char why[PLUME_EFFECT_MESSAGE_MAX / 2];
    if (!effect_sprite_size(texture->path, &width, &height, why, sizeof why))
        return fail(r, PLUME_ERROR_IO, "appearance.texture.path", "%s", why);
    uint32_t motion_width = 0, motion_height = 0;
    const char *motion = desc->flipbook_motion.path;
    if (motion && !effect_sprite_size(motion, &motion_width, &motion_height, why, sizeof why))
        return fail(r, PLUME_ERROR_IO, "flipbook_motion.path", "%s", why);
    if (motion && (motion_width != width || motion_height != height))
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "flipbook_motion.path",
                    "is %ux%u pixels; it must be the sprite's size (%ux%u)", motion_width, motion_height, width,
                    height);
    if (texture->columns > width)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "appearance.texture.columns",
                    "is %u; the sprite is %u pixels wide, so at most %u frames across", texture->columns, width, width);
    if (texture->rows > height)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, "appearance.texture.rows",
                    "is %u; the sprite is %u pixels high, so at most %u frames down", texture->rows, height, height);
    return PLUME_OK;
}

static void plume_effect_clear(plume_effect *effect) { memset(effect, 0, sizeof *effect); }

/* One system's object (the top level of a one-system file, or a group's
 * entry) into r->effect. */
static plume_result read_system(const reader *r, const json_t *object) {
    plume_result result = read_table(r, object, &effect_system_table, (char *)&r->effect->desc, "");
    if (result == PLUME_OK) result = check_desc(r, &r->effect->desc);
    if (result == PLUME_OK) result = check_for_creation(r, &r->effect->desc);
    return result;
}

/* The text parsed by jansson and its version checked; NULL with the error
 * set otherwise. */
static json_t *parse_root(const reader *r, plume_result *result) {
    json_error_t parse_error;
    json_t *root = json_loadb(r->text, r->length, JSON_REJECT_DUPLICATES, &parse_error);
    *result = PLUME_ERROR_INVALID_ARGUMENT;
    if (!root) {
        char message[PLUME_EFFECT_MESSAGE_MAX];
        int line = parse_error.line > 0 ? parse_error.line : 1, column = parse_error.column > 0 ? parse_error.column : 1;
        snprintf(message, sizeof message, "%s:%d:%d: %s", r->file_name, line, column, parse_error.text);
        set_error(r->error, line, column, "", message);
        return NULL;
    }
    *result = check_version(r, root);
    if (*result == PLUME_OK) return root;
    json_decref(root);
    return NULL;
}

plume_result plume_effect_parse(const char *text, size_t length, const char *file_name, const char *folder,
                                plume_effect *out, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (!out || (!text && length)) {
        set_error(error, 0, 0, "", "plume_effect_parse: text and out must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_effect_clear(out);
    reader r = {text ? text : "", length, file_name ? file_name : "<effect>", folder, out, error, ""};
    plume_result result;
    json_t *root = parse_root(&r, &result);
    if (!root) return result;
    if (json_object_get(root, EFFECT_SYSTEMS_KEY))
        result = fail(&r, PLUME_ERROR_INVALID_ARGUMENT, EFFECT_SYSTEMS_KEY,
                      "holds several systems: plume_effect_group_load reads this file");
    else
        result = read_system(&r, root);
    json_decref(root);
    if (result != PLUME_OK) plume_effect_clear(out);
    return result;
}

/* The systems of a group file: "systems", a list of 1 to
 * PLUME_EFFECT_MAX_SYSTEMS objects, and nothing else beside the version. */
static plume_result read_group(reader *r, const json_t *root, plume_effect_group *out) {
    const json_t *systems = json_object_get(root, EFFECT_SYSTEMS_KEY);
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)root, key, value) {
        if (strcmp(key, EFFECT_VERSION_KEY) != 0 && strcmp(key, EFFECT_SYSTEMS_KEY) != 0)
            return fail(r, PLUME_ERROR_INVALID_ARGUMENT, key,
                        "is not a field beside \"systems\" (each system's fields go in its entry)");
    }
    size_t count = json_array_size(systems);
    if (!json_is_array(systems) || count == 0 || count > PLUME_EFFECT_MAX_SYSTEMS)
        return fail(r, PLUME_ERROR_INVALID_ARGUMENT, EFFECT_SYSTEMS_KEY,
                    "must be a list of 1 to %d systems [{...}, ...]", PLUME_EFFECT_MAX_SYSTEMS);
    out->systems = calloc(count, sizeof *out->systems);
    if (!out->systems) return fail(r, PLUME_ERROR_OUT_OF_MEMORY, EFFECT_SYSTEMS_KEY, "out of memory");
    out->system_count = (uint32_t)count;
    for (size_t i = 0; i < count; ++i) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s[%zu]", EFFECT_SYSTEMS_KEY, i);
        reader entry = *r;
        entry.prefix = prefix, entry.effect = &out->systems[i];
        plume_result result = read_system(&entry, json_array_get(systems, i));
        if (result != PLUME_OK) return result;
    }
    return PLUME_OK;
}

plume_result plume_effect_group_parse(const char *text, size_t length, const char *file_name, const char *folder,
                                      plume_effect_group *out, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (!out || (!text && length)) {
        set_error(error, 0, 0, "", "plume_effect_group_parse: text and out must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    reader r = {text ? text : "", length, file_name ? file_name : "<effect>", folder, NULL, error, ""};
    plume_result result;
    json_t *root = parse_root(&r, &result);
    if (!root) return result;
    if (json_object_get(root, EFFECT_SYSTEMS_KEY)) {
        result = read_group(&r, root, out);
    } else {
        r.effect = out->systems = calloc(1, sizeof *out->systems);
        out->system_count = 1;
        result = r.effect ? read_system(&r, root) : fail(&r, PLUME_ERROR_OUT_OF_MEMORY, "", "out of memory");
    }
    json_decref(root);
    if (result != PLUME_OK) plume_effect_group_free(out);
    return result;
}

void plume_effect_group_free(plume_effect_group *group) {
    if (!group) return;
    free(group->systems);
    memset(group, 0, sizeof *group);
}

/* Reads the effect file at `path` and parses it with `parse` into `out`
 * (`caller` names the call in the errors): relative paths start at the
 * file's folder. */
typedef plume_result (*effect_text_parser)(const char *text, size_t length, const char *file_name,
                                           const char *folder, void *out, plume_effect_error *error);

static plume_result load_effect_file(const char *caller, const char *path, void *out, plume_effect_error *error,
                                     effect_text_parser parse) {
    char message[PLUME_EFFECT_MESSAGE_MAX];
    if (!path || !out) {
        snprintf(message, sizeof message, "%s: path and out must not be NULL", caller);
        set_error(error, 0, 0, "", message);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    size_t length = 0;
    plume_result result;
    char *text = effect_read_file(path, EFFECT_FILE_MAX_BYTES, "an effect", &length, message, sizeof message, &result);
    if (!text) {
        set_error(error, 0, 0, "", message);
        return result;
    }
    char folder[PLUME_EFFECT_PATH_MAX];
    const char *slash = effect_path_last_separator(path);
    if (slash) snprintf(folder, sizeof folder, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else folder[0] = '\0';
    result = parse(text, length, path, folder, out, error);
    free(text);
    return result;
}

static plume_result parse_one(const char *text, size_t length, const char *file_name, const char *folder, void *out,
                              plume_effect_error *error) {
    return plume_effect_parse(text, length, file_name, folder, out, error);
}

static plume_result parse_group(const char *text, size_t length, const char *file_name, const char *folder,
                                void *out, plume_effect_error *error) {
    return plume_effect_group_parse(text, length, file_name, folder, out, error);
}

plume_result plume_effect_load(const char *path, plume_effect *out, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (path && out) plume_effect_clear(out);
    return load_effect_file("plume_effect_load", path, out, error, parse_one);
}

plume_result plume_effect_group_load(const char *path, plume_effect_group *out, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (path && out) memset(out, 0, sizeof *out);
    return load_effect_file("plume_effect_group_load", path, out, error, parse_group);
}

void plume_effect_copy(plume_effect *to, const plume_effect *from) {
    if (to == from) return;
    *to = *from;
    if (from->desc.appearance.texture.path == from->texture_path) to->desc.appearance.texture.path = to->texture_path;
    if (from->desc.flipbook_motion.path == from->motion_path) to->desc.flipbook_motion.path = to->motion_path;
}
