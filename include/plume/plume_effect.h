/*
 * plume_effect.h — particle effects as JSON files (the plume_effects library,
 * beside the module: libplume_effects.a, pkg-config plume_effects).
 *
 * An effect file maps one to one onto plume_system_desc (docs/effects.md
 * lists every field). Omitted fields take the descriptor's defaults; the
 * texture path is relative to the effect file; the file carries its format
 * version as "plume_effect": 1.
 *
 *     plume_effect effect;
 *     plume_effect_error error;
 *     if (plume_effect_load("fire.json", &effect, &error) != PLUME_OK) {
 *         puts(error.message);   // "fire.json:12:9: emitters[0].lifetime: min is 0; it must be above 0"
 *     } else {
 *         plume_system_create(context, &effect.desc, &system);
 *     }
 *
 * Loading checks every value with the module's own descriptor checks (the
 * rules plume_system_create applies, so a file that loads creates a system
 * unless the GL refuses it) and reports the first problem with the file, line
 * and column of the field it names; unknown fields are errors (a misspelt
 * field must not silently take its default), and so are a texture file that
 * cannot be opened or is not an image stb_image decodes, a flipbook with more
 * frames across or down than the image has pixels, a capacity over
 * PLUME_EFFECT_MAX_CAPACITY, malformed JSON and a newer format version. What
 * only the GL can judge stays for plume_system_create: the capacity against
 * this GL's limits (plume_system_desc.capacity). No input makes
 * it crash or leak. The library keeps no state: every call may run on any
 * thread. It makes no GL call.
 */
#ifndef PLUME_EFFECT_H
#define PLUME_EFFECT_H

#include <stddef.h>

#include "plume_common.h"
#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The format version this library writes and the newest it reads. */
#define PLUME_EFFECT_FORMAT_VERSION 1

enum { PLUME_EFFECT_PATH_MAX = 4096, PLUME_EFFECT_MESSAGE_MAX = 640 };

/* The largest capacity an effect file may ask for: the most
 * plume_system_create accepts on any GL (the sort's 2^30 pairs). A GL's own
 * limits are lower and only it can say them: every GL 4.3 guarantees
 * 4,194,240 particles on the compute path (GL_MAX_SHADER_STORAGE_BLOCK_SIZE
 * of 2^27 bytes at 32 a particle, and 65535 workgroups of 64), and
 * plume_system_create names the limit it meets. */
#define PLUME_EFFECT_MAX_CAPACITY (1u << 30)

/* A loaded effect: the descriptor, and the storage its texture path points
 * into (so the struct may be copied only with desc.appearance.texture.path
 * fixed up: plume_effect_copy does it). */
typedef struct plume_effect {
    plume_system_desc desc;                   /* texture.path: NULL or texture_path */
    char texture_path[PLUME_EFFECT_PATH_MAX]; /* the file's path joined to the effect file's folder */
    /* desc.flipbook_motion.path's storage, as texture_path's [since 1.3]. */
    char motion_path[PLUME_EFFECT_PATH_MAX];
    /* The meshes' sources, desc.meshes.count of them [since 1.3]: mesh i is
     * the OBJ file at mesh_sources[i] (joined to the effect file's folder)
     * or, where mesh_is_name[i], the mesh the host registers under that
     * name. desc.meshes.meshes[] stay zero until plume_effect_resolve_meshes
     * fills a descriptor's. */
    char mesh_sources[PLUME_MAX_MESHES][PLUME_EFFECT_PATH_MAX];
    bool mesh_is_name[PLUME_MAX_MESHES];
} plume_effect;

typedef struct plume_effect_error {
    int line, column;                         /* 1-based; 0 when the error is about no place in a file */
    char field[128];                          /* "emitters[0].lifetime"; "" for syntax and file errors */
    char message[PLUME_EFFECT_MESSAGE_MAX];   /* "FILE:LINE:COLUMN: FIELD: why", or "FILE: why" */
} plume_effect_error;

/* Reads the effect file at `path` into *out (zeroed first; on failure left
 * zeroed). Errors: PLUME_ERROR_INVALID_ARGUMENT (a NULL argument; a value the
 * format or the descriptor checks refuse; a capacity over
 * PLUME_EFFECT_MAX_CAPACITY; a flipbook of more columns or rows than the
 * sprite's width or height in pixels; an unknown field; malformed JSON; a
 * format version newer than PLUME_EFFECT_FORMAT_VERSION or none), PLUME_ERROR_IO
 * (the effect file or its texture cannot be read, or the texture is not an
 * image stb_image decodes), PLUME_ERROR_OUT_OF_MEMORY.
 * `error` (may be NULL) says which and where. */
PLUME_API plume_result plume_effect_load(const char *path, plume_effect *out, plume_effect_error *error);

/* As plume_effect_load, from `length` bytes of `text`: `file_name` names it in
 * messages, and a relative texture path is joined to `folder` ("" or NULL:
 * kept as it is). */
PLUME_API plume_result plume_effect_parse(const char *text, size_t length, const char *file_name, const char *folder,
                                          plume_effect *out, plume_effect_error *error);

/* Writes `desc` as effect text, every field that is not zero (a zero field is
 * the default, so reading the text back gives `desc` again, bit for bit);
 * the texture path as it is. Returns a NUL-terminated malloc'd string to free
 * with plume_effect_free_text, or NULL (with `error` filled) when desc cannot
 * be a file: pixels in memory (only a path can be written), a value out of the
 * field's type (an unknown shape) or memory ran out. The logger and allocator
 * are not written. Values are not checked against the descriptor rules. */
PLUME_API char *plume_effect_write(const plume_system_desc *desc, plume_effect_error *error);
PLUME_API void plume_effect_free_text(char *text);

/* plume_effect_write into the file `path` (replaced whole: written beside it
 * and renamed, so a watcher never sees half a file). A texture path below
 * the effect file's folder is written relative to it. Errors:
 * PLUME_ERROR_INVALID_ARGUMENT (as plume_effect_write), PLUME_ERROR_IO. */
PLUME_API plume_result plume_effect_save(const char *path, const plume_system_desc *desc, plume_effect_error *error);

/* *to = *from, with to's texture path (and flipbook motion path [since
 * 1.3]) pointing into to's own storage. */
PLUME_API void plume_effect_copy(plume_effect *to, const plume_effect *from);

/* ---- Meshes from Wavefront OBJ files [since 1.3] ----------------------------
 * A mesh for plume_system_desc.meshes (plume_mesh.h) read from the OBJ
 * subset exporters write: `v x y z`, `vn x y z`, `vt u v`, and faces `f`
 * of three or more corners `v`, `v/t`, `v//n` or `v/t/n` (1-based, or
 * negative: from the end), polygons cut into fans; `#` comments; other
 * statements (o, g, s, usemtl, mtllib, ...) are skipped. Each triangle's
 * corners become vertices of their own (not indexed). Without normals in a
 * face its triangles get their facet's; without texture coordinates none
 * (texcoord_data NULL). OBJ's v runs up from the image's bottom: it is
 * turned to plume's (down from the top). */
typedef struct plume_effect_mesh {
    plume_mesh_desc desc;      /* vertex_count, position_data, normal_data and texcoord_data:
                                  the arrays below; the rest zero */
    float *positions, *normals, *texcoords; /* owned: plume_effect_mesh_free */
} plume_effect_mesh;

/* Reads the OBJ file at `path` into *out (zeroed first; on failure left
 * zeroed). Errors, `error` (may be NULL) saying "FILE:LINE:COLUMN: why":
 * PLUME_ERROR_INVALID_ARGUMENT (a NULL argument; a number that does not
 * parse or is not finite; a face of fewer than 3 corners; a corner naming a
 * vertex, normal or texture coordinate the file has not defined before it;
 * no face at all; over 2^24 vertices), PLUME_ERROR_IO (the file cannot be
 * read), PLUME_ERROR_OUT_OF_MEMORY. Any thread; no GL. */
PLUME_API plume_result plume_effect_load_obj(const char *path, plume_effect_mesh *out, plume_effect_error *error);
/* As plume_effect_load_obj, from `length` bytes of `text` (`file_name` names
 * it in messages). */
PLUME_API plume_result plume_effect_parse_obj(const char *text, size_t length, const char *file_name,
                                              plume_effect_mesh *out, plume_effect_error *error);
/* Frees what a loaded mesh owns and zeroes it (NULL or zeroed: nothing). */
PLUME_API void plume_effect_mesh_free(plume_effect_mesh *mesh);

/* ---- Meshes in effect files [since 1.3] --------------------------------------
 * An effect's "meshes" object (docs/effects.md) names each mesh by an OBJ
 * file or by a name the host registers:
 *     "meshes": {"sources": [{"file": "leaf.obj"}, {"name": "rock"}], "surface": "opaque", ...}
 * plume_effect_load reads the OBJ files to check them (an error is the OBJ's
 * "leaf.obj:LINE:COLUMN: why", placed at the source's field) and keeps their
 * paths and the names (plume_effect.mesh_sources); the host then fills a
 * descriptor's meshes with plume_effect_resolve_meshes before
 * plume_system_create, and frees what it loaded after. */
typedef struct plume_effect_named_mesh {
    const char *name;       /* as in the file */
    plume_mesh_desc mesh;   /* the host's buffers or data, as plume_mesh.h */
} plume_effect_named_mesh;

/* The OBJ meshes one resolve loaded (owned: plume_effect_meshes_free). */
typedef struct plume_effect_meshes {
    plume_effect_mesh loaded[PLUME_MAX_MESHES];
} plume_effect_meshes;

/* *desc = effect->desc with desc->meshes.meshes[i] filled for each source:
 * an OBJ file loaded into out->loaded[i], a name looked up among the
 * `named_count` entries of `named` (NULL where 0). Errors (out and *desc
 * zeroed, nothing to free): PLUME_ERROR_INVALID_ARGUMENT (NULL effect, desc
 * or out; a name no entry has: "meshes.sources[1].name: no mesh 'rock' is
 * registered"; an OBJ file that does not parse, "FILE:LINE:COLUMN: why"),
 * PLUME_ERROR_IO, PLUME_ERROR_OUT_OF_MEMORY. Keeps no state; any thread. */
PLUME_API plume_result plume_effect_resolve_meshes(const plume_effect *effect, const plume_effect_named_mesh *named,
                                                   uint32_t named_count, plume_system_desc *desc,
                                                   plume_effect_meshes *out, plume_effect_error *error);
/* Frees what plume_effect_resolve_meshes loaded and zeroes it (zeroed: nothing). */
PLUME_API void plume_effect_meshes_free(plume_effect_meshes *meshes);

/* ---- Effects of several systems [since 1.3] ----------------------------------
 * One effect asset holding several systems, each with its own look and
 * renderer (sprites, meshes), as an engine's effect asset holds emitters of
 * different renderers (an explosion: a fireball, rock meshes, a ring on the
 * ground, sparks, smoke):
 *     {"plume_effect": 1, "systems": [{"capacity": 600, ...}, {"capacity": 90, "meshes": {...}, ...}]}
 * Each entry holds the fields of a one-system file (docs/effects.md; its
 * paths relative to the effect file); beside "systems" the top level holds
 * only the version. Errors name the entry: "group.json:6:20:
 * systems[1].emitters[0].lifetime: min is 0; it must be above 0". A file
 * without "systems" reads as a group of one; plume_effect_load refuses a
 * file with "systems" (it names plume_effect_group_load). The host creates
 * a system per entry (plume_effect_resolve_meshes for those with meshes),
 * updates them with the same frame and draws them in the entries' order
 * (opaque meshes first: they write depth). */
enum { PLUME_EFFECT_MAX_SYSTEMS = 8 };

typedef struct plume_effect_group {
    uint32_t system_count;      /* 1 .. PLUME_EFFECT_MAX_SYSTEMS (0 when zeroed) */
    plume_effect *systems;      /* system_count of them, the file's order; owned: plume_effect_group_free */
} plume_effect_group;

/* Reads the effect file at `path` (several systems or one) into *out
 * (zeroed first; on failure left zeroed, nothing to free). Errors as
 * plume_effect_load's, and PLUME_ERROR_INVALID_ARGUMENT for "systems" that
 * is not a list of 1 to PLUME_EFFECT_MAX_SYSTEMS objects or a field beside
 * it other than the version. Any thread; no GL. */
PLUME_API plume_result plume_effect_group_load(const char *path, plume_effect_group *out, plume_effect_error *error);
/* As plume_effect_group_load, from `length` bytes of `text` (`file_name`
 * and `folder` as plume_effect_parse's). */
PLUME_API plume_result plume_effect_group_parse(const char *text, size_t length, const char *file_name,
                                                const char *folder, plume_effect_group *out,
                                                plume_effect_error *error);
/* Writes `group` as effect text, {"plume_effect": 1, "systems": [...]} (a
 * group of one too), each system's desc as plume_effect_write writes it and
 * its meshes as their sources (plume_effect.mesh_sources: files as they are,
 * names), never their data; reading the text back gives the group again.
 * NULL (with `error` filled, the field prefixed "systems[i].") where
 * plume_effect_write would refuse a system, for no systems or more than
 * PLUME_EFFECT_MAX_SYSTEMS, and when memory runs out. Free the text with
 * plume_effect_free_text. */
PLUME_API char *plume_effect_group_write(const plume_effect_group *group, plume_effect_error *error);
/* Frees the systems and zeroes the group (NULL or zeroed: nothing). */
PLUME_API void plume_effect_group_free(plume_effect_group *group);

#ifdef __cplusplus
}
#endif

#endif
