/* Internal pieces shared by the module's objects: environment (log +
 * allocator), shader building, GL state scopes. Not part of the public API. */
#ifndef PLUME_INTERNAL_H
#define PLUME_INTERNAL_H

#include <epoxy/gl.h>
#include <stdarg.h>
#include <stdbool.h>

#include "platform.h"
#include "plume/plume_common.h"
#include "plume/plume_context.h"

#ifdef PLUME_LAB
/* The lab's synchronisation probe (plume_lab_sync, lab/plume_lab.h): every
 * dispatch of the module goes through it, named by its source file. */
void plume_lab_dispatch_compute(unsigned x, unsigned y, unsigned z, const char *file);
void plume_lab_sync_point(const char *where);
#undef glDispatchCompute
#define glDispatchCompute(x, y, z) plume_lab_dispatch_compute((x), (y), (z), __FILE__)
#define PLUME_LAB_SYNC_POINT(where) plume_lab_sync_point(where)
#else
#define PLUME_LAB_SYNC_POINT(where) ((void)0)
#endif

typedef struct plume_program_cache plume_program_cache;

/* What every object carries: where its messages and memory go, and where its
 * GL programs come from (its context's cache; NULL outside a context). */
typedef struct plume_env {
    plume_logger logger;
    plume_allocator allocator;
    plume_program_cache *programs;
    /* plume_lab_poison_new_buffers: nonzero fills every buffer made without
     * data from this seed (lab builds only; always zero in the product). In
     * every build, so that the struct is one size wherever this header is
     * read (the tests read it without PLUME_LAB). */
    uint32_t new_buffer_poison;
} plume_env;

/* Fills defaults for a zero logger/allocator. Fails (and logs) on a partial
 * allocator. */
plume_result plume_env_init(plume_env *env, const plume_logger *logger, const plume_allocator *allocator);
/* stderr and malloc: for messages that have no object to go through. */
const plume_env *plume_default_env(void);
/* As plume_env_init, with `parent`'s logger and allocator as the defaults (an
 * object inherits its context's). */
plume_result plume_env_init_child(plume_env *env, const plume_env *parent, const plume_logger *logger,
                                  const plume_allocator *allocator);

void plume_log(const plume_env *env, plume_log_level level, const char *format, ...) PLUME_PRINTF_FORMAT(3, 4);
void *plume_alloc(const plume_env *env, size_t size);          /* zeroed */
void *plume_realloc(const plume_env *env, void *block, size_t size);
void plume_free(const plume_env *env, void *block);

/* ---- Context: checked handles ------------------------------------------------
 * Each kind of object registers a class; the context's slot table maps a
 * handle's id to the object (see plume_context.h for why). */
typedef struct plume_object_class {
    const char *name;  /* "sorter": names the kind in messages */
    /* Frees the object's GL objects and memory (the object's GL context is
     * current). Used by plume_context_destroy for objects the host left. */
    void (*destroy)(void *object);
    /* Writes at most `capacity` of the object's GL objects to `out`; returns
     * how many it has. */
    uint32_t (*list_gl_objects)(const void *object, plume_gl_object *out, uint32_t capacity);
} plume_object_class;

/* The context's environment: the default of its objects' environments
 * (plume_default_env() for NULL). */
const plume_env *plume_context_env(const plume_context *context);
/* The context's program cache (NULL for NULL). */
plume_program_cache *plume_context_programs(const plume_context *context);

/* Lab builds only (PLUME_LAB, lab/plume_lab.h): settings the lab stored on
 * a context for the objects created from it from then on, as bytes that core
 * does not read (sort/sort_internal.h's sort_settings). NULL in the product,
 * which keeps none. */
const void *plume_context_lab_settings(const plume_context *context);
#ifdef PLUME_LAB
plume_result plume_context_set_lab_settings(plume_context *context, const void *settings, size_t bytes);
/* The context's environment, which its objects made afterwards inherit. */
plume_env *plume_context_lab_env(plume_context *context);
#endif

/* Files a new object; its handle id goes to *out_id. Fails (logged) with
 * PLUME_ERROR_OUT_OF_MEMORY or PLUME_ERROR_CAPACITY (slots exhausted). */
plume_result plume_context_insert(plume_context *context, const plume_object_class *object_class, void *object,
                                  uint64_t *out_id);

/* The live object of `object_class` that `id` names in `context`, or NULL
 * after logging why not (through the context's logger; stderr when context is
 * NULL) under the name `caller`. Reads only the context's own table. */
void *plume_context_lookup(const plume_context *context, uint64_t id, const plume_object_class *object_class,
                           const char *caller);
/* As plume_context_lookup, without a message: NULL when `id` names no live
 * object of the class (for handles kept inside descriptors). */
void *plume_context_find(const plume_context *context, uint64_t id, const plume_object_class *object_class);

/* As plume_context_lookup, and frees the slot: `id` is stale from now on. */
void *plume_context_remove(plume_context *context, uint64_t id, const plume_object_class *object_class,
                           const char *caller);

/* The first step of every object's create: checks that the context is there
 * and that the descriptor and the out handle are (`desc_given`, `out_given`),
 * logging why not under `caller`, and fills *env: the descriptor's logger and
 * allocator (NULL without a descriptor), each defaulting to the context's.
 * Then checks that a GL context is current (plume_check_gl_context). */
plume_result plume_object_env(plume_context *context, const char *caller, bool desc_given, bool out_given,
                              const plume_logger *logger, const plume_allocator *allocator, plume_env *env);

/* The last step of every object's create: files `object` when `result` is
 * PLUME_OK, its handle id to *out_id; otherwise, or when filing fails, frees
 * it with the class's destroy. Returns the outcome. */
plume_result plume_context_file_or_free(plume_context *context, const plume_object_class *object_class, void *object,
                                        plume_result result, uint64_t *out_id);

/* An object's public destroy: id 0 is a no-op (PLUME_OK); otherwise removes
 * the object (PLUME_ERROR_INVALID_ARGUMENT, logged, when `id` names no live
 * object of the class) and frees it with the class's destroy. Without a
 * current GL context it refuses (plume_check_gl_context): the object and its
 * handle stay alive, to be destroyed where its GL context is current. */
plume_result plume_context_destroy_object(plume_context *context, uint64_t id, const plume_object_class *object_class,
                                          const char *caller);

/* The handles of the live objects of `object_class`, in the order of their
 * slots: at most `capacity` into `out` (NULL with capacity 0: only the
 * count); returns how many there are. Logs nothing. */
uint32_t plume_context_list_ids(const plume_context *context, const plume_object_class *object_class, uint64_t *out,
                                uint32_t capacity);

/* The GL objects of the live object `id` (of any class), as the class's
 * list_gl_objects; 0 where `id` names none. Logs nothing. */
uint32_t plume_context_list_object_gl_objects(const plume_context *context, uint64_t id, plume_gl_object *out,
                                              uint32_t capacity);

/* ---- Context attachments: state a part shares among a context's objects -----
 * What every object of a context may use in turn (render/'s screen-sized
 * scratch: one set per context, not one per system) lives in an attachment of
 * the context, keyed by its class, so core keeps it without knowing the part.
 * Its GL objects are listed by plume_context_list_gl_objects; it is released
 * by plume_context_detach, or by plume_context_destroy before the objects
 * still alive (whose own release then finds no attachment). */
typedef struct plume_context_attachment_class {
    const char *name;
    /* Deletes what `state` holds (GL objects, objects filed in `context`);
     * the context frees the memory after. The GL context is current. */
    void (*release)(void *state, plume_context *context);
    /* Its GL objects with a name, as plume_list_named_gl_objects. */
    uint32_t (*list_gl_objects)(const void *state, plume_gl_object *out, uint32_t capacity);
} plume_context_attachment_class;

enum { PLUME_CONTEXT_MAX_ATTACHMENTS = 4 };

/* The context's attachment of `kind`, or NULL where none was made. */
void *plume_context_attachment(const plume_context *context, const plume_context_attachment_class *kind);
/* The same, made (`size` bytes, zeroed, from the context's allocator) where
 * none was: NULL, logged, when memory or the slots run out. */
void *plume_context_attach(plume_context *context, const plume_context_attachment_class *kind, size_t size);
/* Releases and frees the attachment of `kind` (none: nothing). */
void plume_context_detach(plume_context *context, const plume_context_attachment_class *kind);

/* PLUME_ERROR_GL_UNSUPPORTED, logged as "`caller`: no GL context is current
 * on this thread", where none is: the first check of every entry point that
 * touches the GL (without a context, libepoxy aborts the process at the first
 * GL call). plume_object_env, plume_check_host_state and the destroys make
 * it; an entry point whose first GL call comes before those makes it itself. */
plume_result plume_check_gl_context(const plume_env *env, const char *caller);

/* Requires a current GL 4.3+ context with compute shaders (the compute path). */
plume_result plume_check_gl_version(const plume_env *env, const char *what);
/* True when the current context can run the compute path (GL 4.3+). */
bool plume_gl_has_compute_path(void);
/* True when the current context is OpenGL ES (libepoxy reads GL_VERSION's
 * "OpenGL ES" prefix): the fragment path's GLSL ES 3.00 profile
 * (core/shader.c), and no buffer textures, geometry shaders, indexed
 * blending, polygon modes or clip distances on ES 3.0. */
bool plume_gl_is_es(void);
/* Requires a current GL 3.3+ or OpenGL ES 3.0+ context (the fragment path: no compute shaders,
 * SSBOs, image load/store or atomic counters). */
plume_result plume_check_gl_fragment_version(const plume_env *env, const char *what);
/* The path an object runs: `requested` (a plume_gpu_path; AUTO picks compute
 * where the context has it, else fragment), checked against the context.
 * Logs under `caller` and returns PLUME_ERROR_INVALID_ARGUMENT (not a path)
 * or PLUME_ERROR_GL_UNSUPPORTED (the context cannot run it). */
plume_result plume_resolve_gpu_path(const plume_env *env, const char *caller, uint32_t requested,
                                    plume_gpu_path *out_path);

/* GL errors raised since the last drain: each is logged; returns PLUME_OK when
 * there were none. `where` names the call for the message. */
plume_result plume_drain_gl_errors(const plume_env *env, const char *where);

/* Deletes GL objects of the kinds plume_gl_object names (in the current GL
 * context); programs are released to `env`'s cache (plume_program_release). */
void plume_delete_gl_objects(const plume_env *env, const plume_gl_object *objects, uint32_t count);

/* Every GL buffer plume makes is made here: a new buffer of `bytes` with
 * `usage`, holding `data` (NULL: contents undefined, as a pass must write
 * before it reads), labelled for debuggers. Binds GL_COPY_WRITE_BUFFER, which
 * the GL state scope restores. In lab builds a buffer made without data is
 * filled with a seeded pattern when the context asks for it
 * (plume_lab_poison_new_buffers), so that a read of memory no pass wrote
 * shows in results instead of the driver's zeroes. */
GLuint plume_make_buffer(const plume_env *env, GLsizeiptr bytes, const void *data, GLenum usage, const char *label);
/* Names a GL object for debuggers where the GL has KHR_debug (not GL 3.3). */
void plume_label_gl_object(const plume_env *env, GLenum type, GLuint name, const char *label);
/* A KHR_debug group around a stage, for debuggers, where the GL has KHR_debug
 * (neither GL 3.3 nor WebGL 2 has: nothing there). */
void plume_debug_group_begin(const plume_env *env, const char *name);
void plume_debug_group_end(const plume_env *env);
/* A range of `buffer` handed to a new user (a pool's block): in lab builds
 * poisoned as plume_make_buffer poisons a new buffer; binds
 * GL_COPY_WRITE_BUFFER. Nothing in the product. */
void plume_poison_new_range(const plume_env *env, GLuint buffer, GLintptr offset, GLsizeiptr bytes);
/* plume_make_buffer without data for GPU-only use (GL_DYNAMIC_COPY). */
GLuint plume_make_gpu_buffer(const plume_env *env, GLsizeiptr bytes, const char *label);

/* Data the CPU rewrites now and then (each update's spawn table, the
 * emitters after a change) and GPU passes read in between: a ring of
 * buffers, each rewritten only once the commands issued before it was left
 * have completed (a fence, waited for if need be). A GL must order a
 * rewrite after the reads issued before it; NVIDIA's driver (580, H100 and
 * H200) did not always, even with a glMemoryBarrier after every dispatch or
 * with glBufferData's fresh storage: an update still in flight read the
 * next one's table (notes/soak.md). A fence that has signalled leaves the
 * driver nothing to order. */
enum { PLUME_UPLOAD_RING = 8 }; /* up to 7 updates in flight without a wait */
typedef struct plume_upload_ring {
    GLuint buffers[PLUME_UPLOAD_RING]; /* [current] is the one to bind; 0: not made yet */
    GLsizeiptr sizes[PLUME_UPLOAD_RING];
    GLsync fences[PLUME_UPLOAD_RING];  /* after the commands that may have read each */
    uint32_t current;
    /* What a buffer is made with when the ring first reaches it: a ring
     * that is never written makes none (NULL env: never created). */
    const plume_env *env;
    GLsizeiptr first_bytes;
    const char *label;
} plume_upload_ring;
/* Readies the ring: with `data`, its first buffer (`bytes` of it, the
 * current one; plume_make_buffer: binds GL_COPY_WRITE_BUFFER); without,
 * no buffer. Each other buffer is made (at least `bytes`) when a write
 * first reaches it, so a ring never written holds no memory. `env` and
 * `label` must outlive the ring. */
void plume_upload_ring_create(const plume_env *env, plume_upload_ring *ring, GLsizeiptr bytes, const void *data,
                              const char *label);
/* Leaves the current buffer (fenced after every command so far), takes the
 * next one (made here the first time), waiting until its fence has
 * signalled where the GPU is a whole ring behind, and fills it with `bytes`
 * of `data` (it grows as needed); returns it, bound to `target`, whose
 * binding the caller's scope restores (0: the ring was never created). */
GLuint plume_upload_ring_write(plume_upload_ring *ring, GLenum target, GLsizeiptr bytes, const void *data);
/* Deletes the ring's fences (its buffers are listed with list_gl_objects:
 * plume_upload_ring_list). */
void plume_upload_ring_forget(plume_upload_ring *ring);
uint32_t plume_upload_ring_list(const plume_upload_ring *ring, plume_gl_object *out, uint32_t capacity);

/* An object's list_gl_objects from the candidates it holds: copies those with
 * a name (0: not created) to `out`, at most `capacity`, and returns how many
 * have one. */
uint32_t plume_list_named_gl_objects(const plume_gl_object *candidates, uint32_t count, plume_gl_object *out,
                                     uint32_t capacity);

/* True when `name` is a buffer of at least `min_size` bytes (binds nothing:
 * restores GL_COPY_READ_BUFFER). */
bool plume_buffer_has_size(GLuint name, GLsizeiptr min_size, GLsizeiptr *actual_size);

/* ---- Shaders ----------------------------------------------------------------
 * A program's stage is one embedded file (shaders/, named by its path below
 * it: "sort/sort_local.comp") that names what it needs on lines of their own,
 * `#include` lines naming a path below shaders/ in quotes (the GLSL side's
 * "particles/particle_common.glsl"; worded so here that a grep of plugin/'s
 * includes does not read this comment as core including particles/), each
 * replaced by that file's text, itself resolved the same way; a stage gets
 * each file once, at its first include (later ones add nothing). Includes are
 * resolved before the GLSL preprocessor runs, whatever #if surrounds them.
 * The stage's text is a "#version" line, `defines`, PLUME_GPU_LAYOUT_FILE (the
 * numbers C and GLSL share; every stage gets it), then the file. Each piece
 * of a file is preceded by a "#line" whose number encodes the file, so
 * compile errors are logged as "file:line: message"; an include that names
 * no file fails the build of the program, logged as "file:line". */
#define PLUME_GPU_LAYOUT_FILE "shared/plume_gpu_layout.h"

typedef struct plume_shader_stage {
    GLenum type;      /* GL_COMPUTE_SHADER, GL_VERTEX_SHADER, ... */
    const char *file; /* the embedded file with main() */
} plume_shader_stage;

/* The embedded text of a shader file, or NULL. */
const char *plume_shader_source(const char *file);

/* Programs come from the context's cache (env->programs): a request the
 * context has built before gives the same program again without building, so
 * the second system of a look builds nothing. *out_program is then a
 * reference to a program the cache owns and other objects share: never
 * delete it (release it: plume_program_release, which
 * plume_delete_gl_objects calls for GL_PROGRAM entries) and never keep state
 * of one object in it (a uniform an object needs is set before each of its
 * dispatches or draws, never once at creation). Without a cache (env outside
 * a context) the program is built for the caller alone, and its release
 * deletes it.
 * Builds and links where needed; on failure logs the mapped compiler log,
 * deletes every GL object it made and returns PLUME_ERROR_SHADER
 * (PLUME_ERROR_OUT_OF_MEMORY where the stage's text or the cache's entry
 * could not be put together) with *out_program = 0. */
plume_result plume_build_program(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                 int stage_count, const char *defines, GLuint *out_program);
/* As plume_build_program, in GLSL 3.30 core: the fragment path's programs
 * (GL 3.3 contexts). */
plume_result plume_build_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                     int stage_count, const char *defines, GLuint *out_program);
/* As plume_build_program_330, for a program whose outputs `varyings` (in
 * order) transform feedback captures, interleaved into one buffer. */
plume_result plume_build_feedback_program_330(const plume_env *env, const char *label, const plume_shader_stage *stages,
                                              int stage_count, const char *defines, const char *const *varyings,
                                              int varying_count, GLuint *out_program);

/* ---- Program cache ------------------------------------------------------------
 * One per context (program_cache.c). A request names everything that makes a
 * program: the GLSL version, the stages' types and files, the defines text and
 * the transform feedback outputs (the label only names the first build). */
typedef struct plume_program_request {
    const char *label;
    const plume_shader_stage *stages;
    int stage_count;
    const char *defines; /* NULL: none */
    bool glsl_330;       /* the fragment path's GLSL 3.30, else 4.30 */
    const char *const *varyings;
    int varying_count;
} plume_program_request;

/* The cached program for `request` (see plume_build_program). */
plume_result plume_program_obtain(const plume_env *env, const plume_program_request *request, GLuint *out_program);
/* Builds `request` for the caller alone (no cache). */
plume_result plume_build_program_uncached(const plume_env *env, const plume_program_request *request,
                                          GLuint *out_program);
/* Gives back one reference to `program` (0: nothing): the last one deletes
 * it, unless pinned. A program the cache does not hold is deleted. */
void plume_program_release(const plume_env *env, GLuint program);

/* The context's side (context.c): made with the context's environment, whose
 * memory it uses; destroy deletes every program left (GL current). */
plume_program_cache *plume_program_cache_create(const plume_env *context_env);
void plume_program_cache_destroy(plume_program_cache *cache);
bool plume_program_cache_is_empty(const plume_program_cache *cache);
/* As an object's list_gl_objects: the cached programs, each once. */
uint32_t plume_program_cache_list(const plume_program_cache *cache, plume_gl_object *out, uint32_t capacity);
/* Programs compiled and linked through the cache so far (lab counts). */
uint64_t plume_program_cache_builds(const plume_program_cache *cache);
/* While on, every program obtained (built or found) stays until the context
 * is destroyed, whoever releases it: what a warm-up builds ahead of the
 * systems that will use it. */
void plume_program_cache_set_pinning(plume_program_cache *cache, bool pinning);

/* The one convention for uniform locations: a program's names in a
 * NULL-terminated table, looked up once when the program is built, into
 * `locations` in the table's order (-1 for a name the program does not use);
 * a draw or dispatch then sets uniforms by index, never by name. */
void plume_find_uniform_locations(GLuint program, const char *const *names, GLint *locations);
/* For locations kept as a union of named GLint fields over an array `at`
 * (`locations.at` goes to plume_find_uniform_locations): true when the
 * NULL-terminated table `names` has a name for each field and `at` covers
 * them all. */
#define PLUME_UNIFORM_NAMES_FIT(names, locations_type)                                                                 \
    (sizeof(names) / sizeof(names)[0] - 1 == sizeof(locations_type) / sizeof(GLint) &&                                 \
     sizeof(((locations_type *)0)->at) == sizeof(locations_type))

/* Builds a program from explicit source strings (tests feed broken shaders
 * through this), one stage of them in order, their includes resolved from
 * the embedded files; `file_names` label the strings in messages. */
plume_result plume_build_program_from_sources(const plume_env *env, const char *label, GLenum type,
                                              const char *const *sources, const char *const *file_names,
                                              int source_count, const char *defines, GLuint *out_program);

/* ---- GL state scope ---------------------------------------------------------
 * Saves what a module call binds, routes KHR_debug messages raised during the
 * call to the object's logger, and restores everything at the end. On a
 * context without a piece of state (GL 3.3: no SSBOs, no indexed blending, no
 * KHR_debug) it neither saves nor names it.
 * plume_gl_scope_begin always saves the current program, the indexed SSBO
 * bindings 0 .. PLUME_SCOPE_SSBO_SLOTS-1 and the generic SSBO and dispatch-
 * indirect bindings; plume_gl_scope_save adds the groups a call also touches
 * (call it right after begin, once per group). Bindings
 * PLUME_SCOPE_OPTIONAL_SSBO_SLOT .. + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS - 1,
 * which only the update (spawn batches, mesh spins), a self-shadowed
 * system's draw (its opacity map) and a mesh draw (the spins) bind, are a
 * group of their own: every other call would pay their queries for nothing. */
enum {
    PLUME_SCOPE_SSBO_SLOTS = 8, PLUME_SCOPE_OPTIONAL_SSBO_SLOT = 8, PLUME_SCOPE_OPTIONAL_SSBO_SLOTS = 2,
    PLUME_SCOPE_TEXTURE_UNITS = 8,
    PLUME_SCOPE_DRAW_BUFFERS = 8, PLUME_SCOPE_CLIP_DISTANCES = 8
};

/* What the scope asks of the GL once per context rather than in every call
 * (a version string parsed, limits queried: on a threaded driver each query
 * waits for the driver's thread). Filled at the first scope of a context
 * (plume_env_gl_caps), kept by its program cache. */
typedef struct plume_gl_caps {
    bool known;
    bool storage_buffers, debug_output, indexed_blend, draw_indirect, feedback_objects, fixed_index_restart,
        query_buffer, direct_state_access;
    /* KHR_debug, and the host's callback can be read and put back: a call's
     * messages go to the object's logger. */
    bool debug_routing;
    /* OpenGL ES, and what ES 3.0 lacks: buffer textures and blending and
     * colour masks per draw buffer (ES 3.2), the sample mask (ES 3.1). */
    bool es, texture_buffers, indexed_draw_buffer_state, sample_mask;
    bool webgl; /* WebGL 2 (a browser's ES 3.0): no GL_PRIMITIVE_RESTART_FIXED_INDEX to ask or set */
    bool clip_control; /* GL 4.5 or ARB_clip_control: the clip depth mode can be asked */
    bool level_parameters; /* glGetTexLevelParameteriv: the desktop GL, OpenGL ES from 3.1 */
    bool reset_status; /* GL 4.5 or KHR_robustness: glGetGraphicsResetStatus says a context was lost */
    int pixel_store_parameters; /* the pixel-store parameters the GL has (no byte swapping on ES) */
    GLint ssbo_bindings, draw_buffers, clip_distances; /* the GL's limits, at most the PLUME_SCOPE_ ones */
    /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE (0 without storage buffers): what
     * each tiled draw sizes its chunks by, asked once (on a threaded
     * driver a query waits for its thread). */
    GLint64 storage_block_bytes;
} plume_gl_caps;

/* The context's capabilities (queried on first use, with its GL context
 * current); an env without a context queries them each time. */
plume_gl_caps plume_env_gl_caps(const plume_env *env);
/* Where a program cache keeps its context's capabilities. */
plume_gl_caps *plume_program_cache_gl_caps(plume_program_cache *cache);
/* Where a program cache keeps the current-context query that last answered
 * for its context (released with the cache). */
plume_current_context_query *plume_program_cache_current_context(plume_program_cache *cache);

typedef enum plume_gl_scope_group {
    /* GL_COPY_READ_BUFFER and GL_COPY_WRITE_BUFFER bindings (uploads, readbacks) */
    PLUME_SCOPE_COPY_BUFFERS = 1 << 0,
    /* the active texture unit, the GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY (draw
     * groups' sprites) and sampler bindings of units
     * 0 .. PLUME_SCOPE_TEXTURE_UNITS-1 */
    PLUME_SCOPE_TEXTURES = 1 << 1,
    /* GL_PIXEL_UNPACK_BUFFER and the unpack alignment / row length / skips /
     * byte swapping */
    PLUME_SCOPE_PIXEL_UNPACK = 1 << 2,
    /* a draw: vertex array, GL_DRAW_INDIRECT_BUFFER, every draw buffer's
     * GL_BLEND, draw buffer 0's blend functions and equations (all buffers'
     * where the GL has no indexed blending), GL_DEPTH_TEST, the depth function and
     * write mask, the viewport, GL_SCISSOR_TEST, the draw framebuffer binding,
     * and everything plume_gl_scope_neutral_raster sets */
    PLUME_SCOPE_DRAW = 1 << 3,
    /* GL_QUERY_BUFFER (GL 4.4 or ARB_query_buffer_object), bound to 0 while
     * saved: with a query buffer bound, glGetQueryObject* writes into it at
     * the pointer's value taken as an offset */
    PLUME_SCOPE_QUERY_BUFFER = 1 << 4,
    /* image unit 0's binding (texture, level, layering, access, format): the
     * tiled draw's composite writes its target through it */
    PLUME_SCOPE_IMAGE_UNIT = 1 << 5,
    /* GL_PIXEL_PACK_BUFFER, the pack alignment / row length / skips / byte
     * swapping and the read framebuffer binding (readbacks through
     * glReadPixels) */
    PLUME_SCOPE_PIXEL_PACK = 1 << 6,
    /* the GL_TEXTURE_BUFFER bindings of units 0 .. PLUME_SCOPE_TEXTURE_UNITS-1 */
    PLUME_SCOPE_TEXTURE_BUFFERS = 1 << 7,
    /* transform feedback: the generic GL_TRANSFORM_FEEDBACK_BUFFER binding and,
     * where the GL has transform feedback objects (4.0), the bound object (the
     * module binds its own: the host's object and its buffers stay as they
     * are, even while paused), else (3.3) the indexed buffer binding 0 */
    PLUME_SCOPE_TRANSFORM_FEEDBACK = 1 << 8,
    /* the indexed SSBO bindings from PLUME_SCOPE_OPTIONAL_SSBO_SLOT (the update's
     * spawn batches and mesh spins, a self-shadowed draw's opacity map, a mesh
     * draw's spins) */
    PLUME_SCOPE_OPTIONAL_SSBO = 1 << 9
} plume_gl_scope_group;

/* What a scope saved, a part per state group: gl_scope.c has one save and one
 * restore function for each, and its table of groups names them. */
enum { PLUME_SCOPE_PIXEL_PARAMETERS = 5, PLUME_SCOPE_RASTER_CAPABILITIES = 12 };

typedef struct plume_scope_pixel_store {
    GLint buffer;                                 /* the pack or unpack buffer */
    GLint parameters[PLUME_SCOPE_PIXEL_PARAMETERS]; /* alignment, row length, skip pixels, skip rows, swap bytes */
} plume_scope_pixel_store;

typedef struct plume_gl_scope {
    const plume_env *env;
    plume_gl_caps caps;
    unsigned saved_groups; /* plume_gl_scope_group bits */
    struct {               /* always (plume_gl_scope_begin) */
        GLint program;
        bool storage_buffers; /* the context has SSBOs (GL 4.3): their bindings were saved */
        GLint ssbo_generic, dispatch_indirect;
        GLint ssbo_slots; /* of PLUME_SCOPE_SSBO_SLOTS, those the GL has */
        /* the always-saved slots, then PLUME_SCOPE_OPTIONAL_SSBO's */
        GLint ssbo_slot_buffer[PLUME_SCOPE_SSBO_SLOTS + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS];
        GLint64 ssbo_slot_start[PLUME_SCOPE_SSBO_SLOTS + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS];
        GLint64 ssbo_slot_size[PLUME_SCOPE_SSBO_SLOTS + PLUME_SCOPE_OPTIONAL_SSBO_SLOTS];
    } bindings;
    struct { /* always, where the host has KHR_debug output on */
        bool routed;
        GLDEBUGPROC host_callback;
        void *host_user;
        GLboolean synchronous;
    } debug;
    struct {
        GLint read, write;
    } copy_buffers;
    struct {
        GLint active;
        GLint texture_2d[PLUME_SCOPE_TEXTURE_UNITS], texture_3d[PLUME_SCOPE_TEXTURE_UNITS];
        GLint texture_2d_array[PLUME_SCOPE_TEXTURE_UNITS], sampler[PLUME_SCOPE_TEXTURE_UNITS];
    } textures;
    plume_scope_pixel_store unpack;
    struct {
        GLint vertex_array, draw_indirect;
        bool indexed_blend; /* blend functions were saved for draw buffer 0 (GL 4.0), not for all */
        GLint blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha, blend_equation_rgb, blend_equation_alpha;
        GLboolean depth_test, depth_mask, scissor_test;
        GLboolean raster_capabilities[PLUME_SCOPE_RASTER_CAPABILITIES]; /* those plume_gl_scope_neutral_raster turns off */
        GLint draw_buffers, clip_distances; /* how many of each the GL has, at most the PLUME_SCOPE_ limits */
        GLboolean color_mask[PLUME_SCOPE_DRAW_BUFFERS][4];
        GLboolean blend[PLUME_SCOPE_DRAW_BUFFERS]; /* GL_BLEND of each draw buffer */
        GLboolean clip_distance[PLUME_SCOPE_CLIP_DISTANCES];
        GLint polygon_mode, viewport[4], draw_framebuffer, depth_func;
    } draw;
    struct {
        GLint buffer;
    } query;
    struct {
        GLint texture, level, layered, layer, access, format;
    } image;
    struct {
        plume_scope_pixel_store store;
        GLint read_framebuffer;
    } pack;
    struct {
        GLint texture_buffer[PLUME_SCOPE_TEXTURE_UNITS];
    } texture_buffers;
    struct {
        bool objects; /* the GL has transform feedback objects: `object` was saved */
        GLint object, generic, slot_buffer;
        GLint64 slot_start, slot_size;
    } feedback;
} plume_gl_scope;

void plume_gl_scope_begin(plume_gl_scope *scope, const plume_env *env);
/* Saves more state groups (plume_gl_scope_group bits) for plume_gl_scope_end
 * to restore. */
void plume_gl_scope_save(plume_gl_scope *scope, unsigned groups);
void plume_gl_scope_end(plume_gl_scope *scope);

/* For a draw into the host's framebuffer (saves PLUME_SCOPE_DRAW): turns off
 * what would change or drop the module's fragments whatever the host left
 * (rasterizer discard, clip distances, stencil test, alpha to coverage and to
 * one, sample coverage and mask, depth clamp, logic op, polygon offset, face
 * culling, primitive restart), fills polygons, and lets the draw write all of draw buffer 0 and
 * nothing of the others (the module's shaders write output 0 only). The
 * viewport, scissor, depth function, GL_FRAMEBUFFER_SRGB and the framebuffer
 * stay the host's. */
void plume_gl_scope_neutral_raster(plume_gl_scope *scope);

/* plume_check_gl_context's error where no GL context is current, else
 * PLUME_ERROR_HOST_STATE (logged under `caller`) where the host left GL state
 * under which the module cannot work without touching the host's objects:
 * transform feedback active and not paused (it would capture the module's
 * draws, and glUseProgram fails under it). */
plume_result plume_check_host_state(const plume_env *env, const char *caller);

/* Whether the GL has transform feedback objects (4.0 or
 * ARB_transform_feedback2), and so glPauseTransformFeedback. */
bool plume_has_feedback_objects(void);
/* The pixel-store parameters of plume_scope_pixel_store the context has
 * (OpenGL ES has no byte swapping, the last). */
int plume_pixel_store_parameter_count(const plume_env *env);

/* Whether the GL sets blend functions per draw buffer (4.0 or
 * ARB_draw_buffers_blend: NVIDIA's 3.3 contexts have it); the scope saves
 * draw buffer 0's then, and a draw must set buffer 0's only. */
bool plume_has_indexed_blend(void);
/* The scene depth's convention as the shaders' u_depth_convention (bits of
 * PLUME_DEPTH_ZERO_TO_ONE, PLUME_DEPTH_REVERSED): the clip depth mode the GL
 * is in (GL_CLIP_DEPTH_MODE where 4.5 or ARB_clip_control has it, else
 * -1..1) and whether `projection` (16 floats, column-major) puts nearer points at larger
 * depths. Read once per call that reads the scene depth. */
uint32_t plume_depth_convention(const plume_env *env, const float *projection);

static inline uint32_t plume_next_pow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

static inline uint32_t plume_log2(uint32_t pow2) {
    uint32_t l = 0;
    while ((1u << l) < pow2) ++l;
    return l;
}

#endif
