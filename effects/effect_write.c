/* plume_system_desc -> effect text, from the same schema table as the
 * reader: objects one member a line, each value on its member's line (curves
 * and gradients one key a line). Values are encoded by jansson (strings
 * escaped, -0.0 kept, non-finite numbers refused); each float with the fewest
 * digits that read back as the same float. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

#include <jansson.h>

#include "effect_path.h"
#include "effect_printf.h"
#include "effect_schema.h"
#include "plume/plume_effect.h"

typedef struct writer {
    char *text;
    size_t length, capacity;
    bool out_of_memory;
    plume_effect_error *error;
    bool failed;
    const char *prefix;          /* "systems[2]" in a group, else "": refused fields are named from there */
    const plume_effect *effect;  /* a loaded effect whose mesh sources are written; NULL: meshes are refused */
} writer;

static void append(writer *w, const char *bytes, size_t count) {
    if (w->out_of_memory || w->failed) return;
    if (w->length + count + 1 > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 1024;
        while (capacity < w->length + count + 1) capacity *= 2;
        char *grown = realloc(w->text, capacity);
        if (!grown) {
            w->out_of_memory = true;
            return;
        }
        w->text = grown, w->capacity = capacity;
    }
    memcpy(w->text + w->length, bytes, count);
    w->length += count;
    w->text[w->length] = '\0';
}

static void append_string(writer *w, const char *text) { append(w, text, strlen(text)); }

static void indent(writer *w, int depth) {
    for (int i = 0; i < depth; ++i) append_string(w, "  ");
}

static void EFFECT_PRINTF_FORMAT(3, 4) refuse(writer *w, const char *field, const char *format, ...) {
    if (w->failed) return;
    w->failed = true;
    if (!w->error) return;
    char why[PLUME_EFFECT_MESSAGE_MAX / 2];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    const char *prefix = w->prefix ? w->prefix : "";
    snprintf(w->error->field, sizeof w->error->field, "%s%s%s", prefix, *prefix && *field ? "." : "", field);
    snprintf(w->error->message, sizeof w->error->message, "%s: %s", w->error->field, why);
}

/* The double nearest the shortest decimal that reads back as `value`. */
static double shortest(float value) {
    char digits[32];
    for (int precision = 1; precision < 9; ++precision) {
        snprintf(digits, sizeof digits, "%.*g", precision, (double)value);
        double candidate = strtod(digits, NULL);
        if ((float)candidate == value && !signbit(candidate) == !signbit(value)) return candidate;
    }
    return (double)value;
}

static json_t *numbers(const float *values, size_t count) {
    json_t *array = json_array();
    for (size_t i = 0; array && i < count; ++i) {
        json_t *number = json_real(shortest(values[i]));
        if (!number || json_array_append_new(array, number) != 0) {
            json_decref(array);
            return NULL;
        }
    }
    return array;
}

/* Appends `value` (taken over) encoded by jansson, or refuses `field`. */
static void append_json(writer *w, json_t *value, const char *field) {
    char *encoded = value ? json_dumps(value, JSON_ENCODE_ANY | JSON_REAL_PRECISION(9)) : NULL;
    json_decref(value);
    if (!encoded) {
        refuse(w, field, "cannot be written: a number that is not finite (or memory ran out)");
        return;
    }
    append_string(w, encoded);
    free(encoded);
}

static bool all_zero(const void *bytes, size_t size) {
    const unsigned char *b = bytes;
    for (size_t i = 0; i < size; ++i)
        if (b[i]) return false;
    return true;
}

static bool table_is_default(const effect_table *table, const char *base);

/* Zero is every field's default, so a zero field is not written. */
static bool field_is_default(const effect_field *row, const char *base) {
    const void *at = base + row->offset;
    switch (row->type) {
    case EFFECT_FLOAT: return all_zero(at, sizeof(float));
    case EFFECT_VEC3: return all_zero(at, 3 * sizeof(float));
    case EFFECT_RANGE: return all_zero(at, sizeof(plume_range));
    case EFFECT_UINT: return *(const uint32_t *)at == 0;
    case EFFECT_BOOL: return !*(const bool *)at;
    case EFFECT_ENUM: return *(const int *)at == 0;
    case EFFECT_CURVE: return ((const plume_curve *)at)->key_count == 0;
    case EFFECT_GRADIENT: return ((const plume_gradient *)at)->key_count == 0;
    case EFFECT_PATH: return *(const char *const *)at == NULL;
    case EFFECT_OBJECT: return table_is_default(row->table, at);
    case EFFECT_MESH_SOURCES: return *(const uint32_t *)at == 0;
    case EFFECT_ARRAY:
        for (uint32_t i = 0; i < row->count; ++i)
            if (!table_is_default(row->table, (const char *)at + i * row->stride)) return false;
        return true;
    }
    return false;
}

static bool table_is_default(const effect_table *table, const char *base) {
    for (size_t i = 0; i < table->count; ++i)
        if (!field_is_default(&table->fields[i], base)) return false;
    return true;
}

static void write_table(writer *w, const effect_table *table, const char *base, const char *path, int depth,
                        bool version);

/* [[time, ...], ...], one key a line. */
static void write_keys(writer *w, uint32_t count, const float *first, size_t floats, size_t stride, const char *field,
                       int depth) {
    if (count > PLUME_MAX_CURVE_KEYS) {
        refuse(w, field, "has %u keys; at most %d", count, PLUME_MAX_CURVE_KEYS);
        return;
    }
    append_string(w, "[\n");
    for (uint32_t k = 0; k < count; ++k) {
        indent(w, depth + 1);
        append_json(w, numbers(first + k * stride, floats), field);
        append_string(w, k + 1 < count ? ",\n" : "\n");
    }
    indent(w, depth);
    append_string(w, "]");
}

/* [{"file": "rock.obj"} or {"name": "rock"}, ...], one a line: the sources a
 * loaded effect keeps (its meshes' data are never written). */
static void write_mesh_sources(writer *w, uint32_t count, const char *field, int depth) {
    if (!w->effect) {
        refuse(w, field, "meshes are data in memory: only an effect file names their files or names");
        return;
    }
    if (count > PLUME_MAX_MESHES) {
        refuse(w, field, "has %u meshes; at most %d", count, PLUME_MAX_MESHES);
        return;
    }
    for (uint32_t i = 0; i < count; ++i)
        if (!w->effect->mesh_sources[i][0]) {
            refuse(w, field, "mesh %u has no source (plume_effect.mesh_sources): its data are in memory", i);
            return;
        }
    append_string(w, "[\n");
    for (uint32_t i = 0; i < count; ++i) {
        indent(w, depth + 1);
        json_t *source = json_object();
        if (source && json_object_set_new(source, w->effect->mesh_is_name[i] ? "name" : "file",
                                          json_string(w->effect->mesh_sources[i])) != 0) {
            json_decref(source);
            source = NULL;
        }
        append_json(w, source, field);
        append_string(w, i + 1 < count ? ",\n" : "\n");
    }
    indent(w, depth);
    append_string(w, "]");
}

static void write_field(writer *w, const effect_field *row, const char *base, const char *field, int depth) {
    const void *at = base + row->offset;
    switch (row->type) {
    case EFFECT_FLOAT: append_json(w, json_real(shortest(*(const float *)at)), field); break;
    case EFFECT_VEC3: append_json(w, numbers(at, 3), field); break;
    case EFFECT_RANGE: append_json(w, numbers(at, 2), field); break;
    case EFFECT_UINT: append_json(w, json_integer(*(const uint32_t *)at), field); break;
    case EFFECT_BOOL: append_json(w, json_boolean(*(const bool *)at), field); break;
    case EFFECT_ENUM: {
        int value = *(const int *)at, count = 0;
        while (row->names[count]) ++count;
        if (value < 0 || value >= count) refuse(w, field, "is %d: not a value the format names", value);
        else append_json(w, json_string(row->names[value]), field);
        break;
    }
    case EFFECT_CURVE: {
        const plume_curve *curve = at;
        write_keys(w, curve->key_count, &curve->keys[0].time, 2, sizeof(plume_curve_key) / sizeof(float), field, depth);
        break;
    }
    case EFFECT_GRADIENT: {
        const plume_gradient *gradient = at;
        write_keys(w, gradient->key_count, &gradient->keys[0].time, 5, sizeof(plume_color_key) / sizeof(float), field,
                   depth);
        break;
    }
    case EFFECT_PATH: append_json(w, json_string(*(const char *const *)at), field); break;
    case EFFECT_OBJECT: write_table(w, row->table, at, field, depth, false); break;
    case EFFECT_MESH_SOURCES: write_mesh_sources(w, *(const uint32_t *)at, field, depth); break;
    case EFFECT_ARRAY: {
        uint32_t used = row->count;
        while (used > 0 && table_is_default(row->table, (const char *)at + (used - 1) * row->stride)) --used;
        append_string(w, "[\n");
        for (uint32_t i = 0; i < used; ++i) {
            char element[160];
            if (snprintf(element, sizeof element, "%s[%u]", field, i) >= (int)sizeof element) element[0] = '\0';
            indent(w, depth + 1);
            write_table(w, row->table, (const char *)at + i * row->stride, element, depth + 1, false);
            append_string(w, i + 1 < used ? ",\n" : "\n");
        }
        indent(w, depth);
        append_string(w, "]");
        break;
    }
    }
}

static void write_table(writer *w, const effect_table *table, const char *base, const char *path, int depth,
                        bool version) {
    append_string(w, "{");
    bool first = true;
    if (version) {
        char line[64];
        snprintf(line, sizeof line, "\n%*s\"%s\": %d", 2 * (depth + 1), "", EFFECT_VERSION_KEY,
                 PLUME_EFFECT_FORMAT_VERSION);
        append_string(w, line);
        first = false;
    }
    for (size_t i = 0; i < table->count; ++i) {
        const effect_field *row = &table->fields[i];
        if (field_is_default(row, base)) continue;
        char field[160];
        if (snprintf(field, sizeof field, "%s%s%s", path, *path ? "." : "", row->name) >= (int)sizeof field) field[0] = '\0';
        append_string(w, first ? "\n" : ",\n");
        first = false;
        indent(w, depth + 1);
        append_string(w, "\"");
        append_string(w, row->name);
        append_string(w, "\": ");
        write_field(w, row, base, field, depth + 1);
    }
    if (!first) {
        append_string(w, "\n");
        indent(w, depth);
    }
    append_string(w, "}");
}

/* What a file cannot hold: the host's run-time objects and pixels in memory. */
static void refuse_run_time_objects(writer *w, const plume_system_desc *desc) {
    if (desc->appearance.texture.pixels)
        refuse(w, "appearance.texture.pixels", "cannot be written: a file names its texture by path");
    if (desc->host_sprite.texture || desc->host_sprite.target)
        refuse(w, "host_sprite", "cannot be written: a GL texture is the host's run-time object");
    if (desc->flipbook_motion.pixels)
        refuse(w, "flipbook_motion.pixels", "cannot be written: a file names its motion by path");
    if (desc->flipbook_motion.host_texture)
        refuse(w, "flipbook_motion.host_texture", "cannot be written: a GL texture is the host's run-time object");
    if (desc->world.vector_field.texture)
        refuse(w, "world.vector_field.texture", "cannot be written: a GL texture is the host's run-time object");
    for (int i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i)
        if (desc->world.events[i].target_system.id) {
            char field[40];
            snprintf(field, sizeof field, "world.events[%d].target_system", i);
            refuse(w, field, "cannot be written: a file's routes target its own system");
        }
}

/* The text written, or NULL (freed) when anything was refused. */
static char *finish(writer *w) {
    w->prefix = "";
    if (w->out_of_memory && !w->failed) refuse(w, "", "out of memory");
    if (w->failed || w->out_of_memory) {
        free(w->text);
        return NULL;
    }
    return w->text;
}

char *plume_effect_write(const plume_system_desc *desc, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    writer w = {.error = error, .prefix = ""};
    if (!desc) {
        refuse(&w, "desc", "must not be NULL");
        return NULL;
    }
    refuse_run_time_objects(&w, desc);
    write_table(&w, &effect_system_table, (const char *)desc, "", 0, true);
    append_string(&w, "\n");
    return finish(&w);
}

char *plume_effect_group_write(const plume_effect_group *group, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    writer w = {.error = error, .prefix = ""};
    if (!group || !group->systems || group->system_count == 0 || group->system_count > PLUME_EFFECT_MAX_SYSTEMS) {
        refuse(&w, EFFECT_SYSTEMS_KEY, "must be 1 to %d systems", PLUME_EFFECT_MAX_SYSTEMS);
        return NULL;
    }
    char line[96];
    snprintf(line, sizeof line, "{\n  \"%s\": %d,\n  \"%s\": [\n", EFFECT_VERSION_KEY, PLUME_EFFECT_FORMAT_VERSION,
             EFFECT_SYSTEMS_KEY);
    append_string(&w, line);
    for (uint32_t i = 0; i < group->system_count; ++i) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s[%u]", EFFECT_SYSTEMS_KEY, i);
        w.prefix = prefix, w.effect = &group->systems[i];
        refuse_run_time_objects(&w, &group->systems[i].desc);
        indent(&w, 2);
        write_table(&w, &effect_system_table, (const char *)&group->systems[i].desc, "", 2, false);
        append_string(&w, i + 1 < group->system_count ? ",\n" : "\n");
    }
    append_string(&w, "  ]\n}\n");
    return finish(&w);
}

void plume_effect_free_text(char *text) { free(text); }

/* Renames `from` over `to` in one step, so that a reader never sees half a
 * file (Windows' rename() refuses an existing `to`: saving over an effect
 * failed there). */
static bool replace_file(const char *from, const char *to) {
#ifdef _WIN32
    return MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING) != 0;
#else
    return rename(from, to) == 0;
#endif
}

/* `file` relative to the folder of the effect file `path` where it is below
 * it, else as it is. */
static const char *relative_to_folder(const char *file, const char *path) {
    const char *slash = effect_path_last_separator(path);
    size_t folder_length = slash ? (size_t)(slash - path) + 1 : 0;
    if (file && folder_length && strncmp(file, path, folder_length) == 0 && file[folder_length])
        return file + folder_length;
    return file;
}

plume_result plume_effect_save(const char *path, const plume_system_desc *desc, plume_effect_error *error) {
    if (error) memset(error, 0, sizeof *error);
    if (!path || !desc) {
        if (error) snprintf(error->message, sizeof error->message, "plume_effect_save: path and desc must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    /* A texture below the effect's folder is named relative to it. */
    plume_system_desc written = *desc;
    written.appearance.texture.path = relative_to_folder(desc->appearance.texture.path, path);
    written.flipbook_motion.path = relative_to_folder(desc->flipbook_motion.path, path);
    char *text = plume_effect_write(&written, error);
    if (!text) return PLUME_ERROR_INVALID_ARGUMENT;
    size_t temporary_size = strlen(path) + 8;
    char *temporary = malloc(temporary_size);
    if (!temporary) {
        plume_effect_free_text(text);
        if (error) snprintf(error->message, sizeof error->message, "%s: out of memory", path);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    snprintf(temporary, temporary_size, "%s.saving", path);
    FILE *file = fopen(temporary, "wb");
    size_t length = strlen(text);
    bool ok = file && fwrite(text, 1, length, file) == length;
    if (file) ok = fclose(file) == 0 && ok;
    if (ok) ok = replace_file(temporary, path);
    if (!ok) {
        if (error) snprintf(error->message, sizeof error->message, "%s: cannot write: %s", path, strerror(errno));
        remove(temporary);
    }
    free(temporary);
    plume_effect_free_text(text);
    return ok ? PLUME_OK : PLUME_ERROR_IO;
}
