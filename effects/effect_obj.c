/* Wavefront OBJ meshes (plume_effect.h, since 1.3): a small line reader
 * whose every refusal names the file, line and column. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effect_path.h"
#include "effect_printf.h"
#include "plume/plume_effect.h"

enum { OBJ_MAX_VERTICES = 1 << 24 };
/* Room for OBJ_MAX_VERTICES written out at length (about 40 bytes a line). */
enum { OBJ_FILE_MAX_BYTES = 1 << 30 };

/* A growing array of floats. */
typedef struct floats {
    float *values;
    size_t count, room;
} floats;

static bool push(floats *f, const float *values, size_t count) {
    if (f->count + count > f->room) {
        size_t room = f->room ? f->room * 2 : 256;
        while (room < f->count + count) room *= 2;
        float *grown = realloc(f->values, room * sizeof(float));
        if (!grown) return false;
        f->values = grown;
        f->room = room;
    }
    memcpy(f->values + f->count, values, count * sizeof(float));
    f->count += count;
    return true;
}

typedef struct obj_reader {
    const char *file_name;
    const char *line_start;
    int line;
    plume_effect_error *error;
    floats positions, normals, texcoords;       /* as the file defines them */
    floats out_positions, out_normals, out_texcoords; /* a vertex per triangle corner */
    bool any_texcoords, all_texcoords;
} obj_reader;

static plume_result EFFECT_PRINTF_FORMAT(4, 5)
    obj_fail(obj_reader *r, plume_result result, const char *at, const char *format, ...) {
    if (!r->error) return result;
    char why[256];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    *r->error = (plume_effect_error){.line = r->line, .column = at ? (int)(at - r->line_start) + 1 : 0};
    if (at) snprintf(r->error->message, sizeof r->error->message, "%s:%d:%d: %s", r->file_name, r->line,
                     r->error->column, why);
    else snprintf(r->error->message, sizeof r->error->message, "%s: %s", r->file_name, why);
    return result;
}

static const char *skip_blanks(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    return p;
}

/* `count` finite numbers after the keyword, into `out`. */
static plume_result read_numbers(obj_reader *r, const char **p, const char *end, float *out, int count) {
    for (int i = 0; i < count; ++i) {
        *p = skip_blanks(*p, end);
        char buffer[64];
        size_t length = 0;
        while (*p + length < end && !strchr(" \t\r", (*p)[length]) && length < sizeof buffer - 1) ++length;
        memcpy(buffer, *p, length);
        buffer[length] = '\0';
        char *stop = NULL;
        double value = strtod(buffer, &stop);
        if (length == 0 || *stop != '\0' || !isfinite(value))
            return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, *p, "expected a finite number, found '%s'", buffer);
        out[i] = (float)value;
        *p += length;
    }
    return PLUME_OK;
}

/* An OBJ index (1-based, or negative from the end) into `defined` items. */
static plume_result read_index(obj_reader *r, const char **p, const char *end, size_t defined, const char *what,
                               long *out) {
    const char *start = *p;
    char *stop = NULL;
    long value = strtol(start, &stop, 10);
    if (stop == start || stop > end)
        return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, start, "expected a %s index", what);
    long index = value < 0 ? (long)defined + value : value - 1;
    if (value == 0 || index < 0 || (size_t)index >= defined)
        return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, start, "%s %ld is not defined (the file has %zu so far)",
                        what, value, defined);
    *p = stop;
    *out = index;
    return PLUME_OK;
}

typedef struct corner {
    long position, texcoord, normal; /* -1: none */
} corner;

static plume_result read_corner(obj_reader *r, const char **p, const char *end, corner *c) {
    *c = (corner){-1, -1, -1};
    plume_result result = read_index(r, p, end, r->positions.count / 3, "vertex", &c->position);
    if (result != PLUME_OK || *p >= end || **p != '/') return result;
    ++*p;
    if (*p < end && **p != '/' &&
        (result = read_index(r, p, end, r->texcoords.count / 2, "texture coordinate", &c->texcoord)) != PLUME_OK)
        return result;
    if (*p >= end || **p != '/') return PLUME_OK;
    ++*p;
    return read_index(r, p, end, r->normals.count / 3, "normal", &c->normal);
}

static plume_result emit_triangle(obj_reader *r, const corner *c[3], const char *at) {
    if (r->out_positions.count / 3 + 3 > OBJ_MAX_VERTICES)
        return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, at, "over 2^24 vertices");
    const float *p[3];
    for (int k = 0; k < 3; ++k) p[k] = r->positions.values + 3 * c[k]->position;
    float u[3], v[3], facet[3];
    for (int k = 0; k < 3; ++k) u[k] = p[1][k] - p[0][k], v[k] = p[2][k] - p[0][k];
    facet[0] = u[1] * v[2] - u[2] * v[1];
    facet[1] = u[2] * v[0] - u[0] * v[2];
    facet[2] = u[0] * v[1] - u[1] * v[0];
    float length = sqrtf(facet[0] * facet[0] + facet[1] * facet[1] + facet[2] * facet[2]);
    for (int k = 0; k < 3; ++k) facet[k] = length > 0.0f ? facet[k] / length : (k == 2 ? 1.0f : 0.0f);
    for (int k = 0; k < 3; ++k) {
        const float *n = c[k]->normal >= 0 ? r->normals.values + 3 * c[k]->normal : facet;
        float t[2] = {0.5f, 0.5f};
        if (c[k]->texcoord >= 0) {
            t[0] = r->texcoords.values[2 * c[k]->texcoord];
            t[1] = 1.0f - r->texcoords.values[2 * c[k]->texcoord + 1];
            r->any_texcoords = true;
        } else {
            r->all_texcoords = false;
        }
        if (!push(&r->out_positions, p[k], 3) || !push(&r->out_normals, n, 3) || !push(&r->out_texcoords, t, 2))
            return obj_fail(r, PLUME_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    return PLUME_OK;
}

static plume_result read_face(obj_reader *r, const char *p, const char *end) {
    corner first, previous, current;
    int corners = 0;
    const char *face = skip_blanks(p, end);
    for (;;) {
        p = skip_blanks(p, end);
        if (p >= end) break;
        plume_result result = read_corner(r, &p, end, &current);
        if (result != PLUME_OK) return result;
        if (p < end && !strchr(" \t\r", *p))
            return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, p, "unexpected '%c' in a face corner", *p);
        if (corners == 0) first = current;
        if (corners >= 2) { /* a fan from the first corner */
            const corner *triangle[3] = {&first, &previous, &current};
            if ((result = emit_triangle(r, triangle, face)) != PLUME_OK) return result;
        }
        previous = current;
        ++corners;
    }
    if (corners < 3)
        return obj_fail(r, PLUME_ERROR_INVALID_ARGUMENT, face, "a face needs 3 corners or more, this one has %d",
                        corners);
    return PLUME_OK;
}

static plume_result read_line(obj_reader *r, const char *p, const char *end) {
    p = skip_blanks(p, end);
    if (p >= end || *p == '#') return PLUME_OK;
    const char *keyword = p;
    while (p < end && !strchr(" \t\r", *p)) ++p;
    size_t length = (size_t)(p - keyword);
    float values[3];
    plume_result result = PLUME_OK;
    bool ok = true;
    if (length == 1 && keyword[0] == 'v') {
        if ((result = read_numbers(r, &p, end, values, 3)) == PLUME_OK) ok = push(&r->positions, values, 3);
    } else if (length == 2 && !strncmp(keyword, "vn", 2)) {
        if ((result = read_numbers(r, &p, end, values, 3)) == PLUME_OK) {
            float n = sqrtf(values[0] * values[0] + values[1] * values[1] + values[2] * values[2]);
            if (n > 0.0f) values[0] /= n, values[1] /= n, values[2] /= n;
            ok = push(&r->normals, values, 3);
        }
    } else if (length == 2 && !strncmp(keyword, "vt", 2)) {
        if ((result = read_numbers(r, &p, end, values, 2)) == PLUME_OK) ok = push(&r->texcoords, values, 2);
    } else if (length == 1 && keyword[0] == 'f') {
        result = read_face(r, p, end);
    }
    if (!ok) return obj_fail(r, PLUME_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    return result;
}

static void free_floats(obj_reader *r) {
    free(r->positions.values);
    free(r->normals.values);
    free(r->texcoords.values);
    free(r->out_positions.values);
    free(r->out_normals.values);
    free(r->out_texcoords.values);
}

plume_result plume_effect_parse_obj(const char *text, size_t length, const char *file_name, plume_effect_mesh *out,
                                    plume_effect_error *error) {
    if (error) *error = (plume_effect_error){0};
    if (out) *out = (plume_effect_mesh){0};
    obj_reader r = {.file_name = file_name ? file_name : "(text)", .error = error, .all_texcoords = true};
    if (!text || !out) return obj_fail(&r, PLUME_ERROR_INVALID_ARGUMENT, NULL, "text and out must not be NULL");
    const char *end = text + length;
    plume_result result = PLUME_OK;
    for (const char *p = text; p < end && result == PLUME_OK;) {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (!line_end) line_end = end;
        ++r.line;
        r.line_start = p;
        result = read_line(&r, p, line_end);
        p = line_end + 1;
    }
    if (result == PLUME_OK && r.out_positions.count == 0)
        result = obj_fail(&r, PLUME_ERROR_INVALID_ARGUMENT, NULL, "has no face");
    if (result != PLUME_OK) {
        free_floats(&r);
        return result;
    }
    out->positions = r.out_positions.values;
    out->normals = r.out_normals.values;
    out->texcoords = r.any_texcoords ? r.out_texcoords.values : NULL;
    if (!r.any_texcoords) free(r.out_texcoords.values);
    out->desc = (plume_mesh_desc){.vertex_count = (uint32_t)(r.out_positions.count / 3),
                                  .position_data = out->positions, .normal_data = out->normals,
                                  .texcoord_data = out->texcoords};
    free(r.positions.values);
    free(r.normals.values);
    free(r.texcoords.values);
    return PLUME_OK;
}

plume_result plume_effect_load_obj(const char *path, plume_effect_mesh *out, plume_effect_error *error) {
    if (out) *out = (plume_effect_mesh){0};
    if (error) *error = (plume_effect_error){0};
    if (!path || !out) {
        if (error) snprintf(error->message, sizeof error->message, "path and out must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    size_t length = 0;
    plume_result result;
    char message[PLUME_EFFECT_MESSAGE_MAX];
    char *text = effect_read_file(path, OBJ_FILE_MAX_BYTES, "a mesh", &length, message, sizeof message, &result);
    if (!text) {
        if (error) snprintf(error->message, sizeof error->message, "%s", message);
        return result;
    }
    result = plume_effect_parse_obj(text, length, path, out, error);
    free(text);
    return result;
}

void plume_effect_mesh_free(plume_effect_mesh *mesh) {
    if (!mesh) return;
    free(mesh->positions);
    free(mesh->normals);
    free(mesh->texcoords);
    *mesh = (plume_effect_mesh){0};
}
