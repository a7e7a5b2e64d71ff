/* The sorter object (plume_sort.h): its handle, descriptor, argument checks
 * and GL state scope, in front of the backends that sort (sort_backend.h):
 * on the compute path bitonic.c and radix.c, one picked per call; on the
 * fragment path feedback_sort.c (a merge sort), or fragment_sort.c where the
 * GL's buffer textures cannot hold the capacity (the path and the backend
 * are picked at creation from the descriptor and the context). */
#include <string.h>

#include "shared/plume_gpu_layout.h"
#include "sort_backend.h"
#include "sort_fragment_path.h"
#include "sort_in_scope.h"

enum {
    MAX_CAPACITY = 1u << 30,
    /* plume_sorter_desc.max_fused_stages: still checked so that descriptors
     * valid before stay valid; nothing reads it (plume_sort.h). */
    MAX_FUSED_STAGES = 5,
    DEFAULT_FUSED_STAGES = 3,
    MAX_KEY_BITS = 32
};

_Static_assert(PLUME_BINDING_SORT_PAIRS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_SORT_STATE < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_SORT_HOST_COUNT < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_SORT_PASS_TABLE < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the sort uses");
_Static_assert(PLUME_GPU_KEY_NAN == PLUME_KEY_NAN && PLUME_GPU_KEY_LAST == PLUME_KEY_LAST,
               "the shaders' keys are the API's");

/* A backend and its object (sort_fragment_path.h names it the key input:
 * what the particle system's fragment path records into). */
struct sort_key_input {
    const sort_backend *backend; /* NULL: none */
    void *object;
};
typedef struct sort_key_input backend_slot;

/* What a plume_sorter handle names. */
typedef struct sorter_state {
    plume_env env;
    plume_sorter_desc desc;      /* defaults filled in */
    sort_settings settings;      /* the lab's, or all zero */
    /* The bitonic sort (none for PLUME_SORT_RADIX), or on the fragment path
     * its one backend. */
    backend_slot network;
    /* The radix sort: none for PLUME_SORT_BITONIC, for AUTOMATIC where no
     * count gets it, and on the fragment path. */
    backend_slot radix;
    uint32_t radix_from_count;  /* AUTOMATIC: counts from this one get the radix sort */
    uint32_t radix_up_to_count; /* AUTOMATIC: and counts up to this one (its one-workgroup path; 0: none) */
    sort_pass_hook pass_hook;   /* the lab's (lab/plume_lab.h); none in the product */
    GLint ssbo_offset_alignment;
    GLint max_texture_buffer_size;
} sorter_state;

/* ---- Creation ------------------------------------------------------------- */

static plume_result make_backend(sorter_state *s, const sort_backend *backend, const sort_backend_desc *desc,
                                 backend_slot *slot) {
    slot->backend = backend;
    return backend->create(&s->env, desc, &slot->object);
}

static void free_backend(backend_slot *slot) {
    if (slot->object) slot->backend->destroy(slot->object);
    *slot = (backend_slot){0};
}

static plume_result check_desc(sorter_state *s, const char *caller) {
    if (s->desc.capacity == 0 || s->desc.capacity > MAX_CAPACITY) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: capacity %u is outside 1 .. 2^30", caller, s->desc.capacity);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.max_fused_stages == 0) s->desc.max_fused_stages = DEFAULT_FUSED_STAGES;
    if (s->desc.max_fused_stages > MAX_FUSED_STAGES) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: max_fused_stages %u is outside 1 .. %d", caller,
                  s->desc.max_fused_stages, MAX_FUSED_STAGES);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.algorithm > PLUME_SORT_RADIX) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "%s: algorithm %u is not a plume_sort_algorithm (0 automatic, 1 bitonic, 2 radix)", caller,
                  s->desc.algorithm);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.key_bits == 0) s->desc.key_bits = MAX_KEY_BITS;
    if (s->desc.key_bits > MAX_KEY_BITS) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: key_bits %u is outside 1 .. 32 (0: 32)", caller, s->desc.key_bits);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

static plume_result create_gl_objects(sorter_state *s) {
    static const char *const CALLER = "plume_sorter_create";
    plume_gpu_path path = PLUME_PATH_AUTO;
    plume_result result = plume_resolve_gpu_path(&s->env, CALLER, s->desc.path, &path);
    if (result != PLUME_OK) return result;
    s->desc.path = path;
    result = check_desc(s, CALLER);
    if (result != PLUME_OK) return result;
    const sort_tuning tuning = sort_tuning_of_gl(path == PLUME_PATH_COMPUTE);
    sort_backend_desc desc = {.capacity = s->desc.capacity, .key_bits = s->desc.key_bits,
                              .block_pairs = s->desc.block_pairs, .tuning = &tuning, .settings = &s->settings};
    if (path == PLUME_PATH_FRAGMENT) {
        /* The fragment sorts give the bitonic sort's order (a merge sort, or
         * the render passes' network): the radix sort needs compute shaders. */
        if (s->desc.algorithm == PLUME_SORT_RADIX) {
            plume_log(&s->env, PLUME_LOG_ERROR,
                      "%s: algorithm PLUME_SORT_RADIX needs the compute path; the fragment path sorts in the "
                      "bitonic sort's order (algorithm 0 or PLUME_SORT_BITONIC)",
                      CALLER);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        /* A host written for the compute path keeps working where the
         * context has only the fragment path. */
        s->desc.block_pairs = 0;
        if (!plume_gl_is_es()) glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &s->max_texture_buffer_size);
        /* The render passes need no buffer texture of the capacity's size,
         * but write every pair through the raster back end. */
        bool feedback = !s->settings.render_pass_sort && feedback_sort_fits(s->desc.capacity);
        return make_backend(s, feedback ? &SORT_FEEDBACK_BACKEND : &SORT_FRAGMENT_BACKEND, &desc, &s->network);
    }
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &s->ssbo_offset_alignment);
    if (s->desc.algorithm != PLUME_SORT_RADIX) {
        result = make_backend(s, &SORT_BITONIC_BACKEND, &desc, &s->network);
        if (result != PLUME_OK) return result;
        s->desc.block_pairs = SORT_BITONIC_BACKEND.block_pairs(s->network.object);
    } else {
        s->desc.block_pairs = 0;
    }
    bool onesweep = radix_chooses_onesweep(s->desc.capacity, &tuning, &s->settings);
    uint32_t passes = radix_digit_passes(s->desc.key_bits);
    s->radix_from_count = tuning.radix_from_count[onesweep][passes - 2];
    s->radix_up_to_count = tuning.radix_single_up_to[onesweep][passes - 2];
    bool radix_needed = s->desc.algorithm == PLUME_SORT_RADIX ||
                        (s->desc.algorithm == PLUME_SORT_AUTOMATIC &&
                         (s->desc.capacity >= s->radix_from_count || s->radix_up_to_count > 0));
    /* The one-workgroup programs only where a count can get them. */
    desc.one_workgroup = s->desc.algorithm == PLUME_SORT_RADIX || s->radix_up_to_count > 0;
    if (radix_needed) result = make_backend(s, &SORT_RADIX_BACKEND, &desc, &s->radix);
    uint32_t one_workgroup_limit =
        result == PLUME_OK && s->radix.object ? SORT_RADIX_BACKEND.one_workgroup_limit(s->radix.object) : 0;
    if (result == PLUME_OK && s->radix.object && s->radix_up_to_count > one_workgroup_limit)
        s->radix_up_to_count = one_workgroup_limit;
    if (result != PLUME_OK && s->desc.algorithm == PLUME_SORT_AUTOMATIC && s->radix.object) {
        /* The bitonic sort serves every count; the message said why. */
        plume_log(&s->env, PLUME_LOG_WARNING, "%s: automatic sorts use the bitonic sort only", CALLER);
        free_backend(&s->radix);
        result = PLUME_OK;
    }
    return result;
}

/* The backend a sort of `count` pairs (or of at most `count`) runs. */
static const backend_slot *backend_for(const sorter_state *s, uint32_t count) {
    if (!s->network.object) return &s->radix;
    if (!s->radix.object) return &s->network;
    return count >= s->radix_from_count || count <= s->radix_up_to_count ? &s->radix : &s->network;
}

/* The one list of the sorter's GL objects: free_sorter deletes what it lists,
 * and the tests check that each of them is gone. */
static uint32_t list_sorter_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity) {
    const sorter_state *s = object;
    uint32_t count = 0;
    const backend_slot *slots[2] = {&s->network, &s->radix};
    for (int i = 0; i < 2; ++i) {
        if (!slots[i]->object) continue;
        bool room = out && count < capacity;
        count += slots[i]->backend->list_gl_objects(slots[i]->object, room ? out + count : NULL,
                                                    room ? capacity - count : 0);
    }
    return count;
}

static void free_sorter(void *object) {
    sorter_state *sorter = object;
    free_backend(&sorter->network);
    free_backend(&sorter->radix);
    plume_env env = sorter->env;
    plume_free(&env, sorter);
}

static const plume_object_class sorter_class = {"sorter", free_sorter, list_sorter_gl_objects};

sort_settings sort_settings_of(const plume_context *context) {
    const sort_settings *lab = plume_context_lab_settings(context);
    return lab ? *lab : (sort_settings){0};
}

plume_result plume_sorter_create(plume_context *context, const plume_sorter_desc *desc, plume_sorter *out_sorter) {
    if (out_sorter) *out_sorter = (plume_sorter){0};
    plume_env env;
    plume_result result = plume_object_env(context, "plume_sorter_create", desc != NULL, out_sorter != NULL,
                                           desc ? &desc->logger : NULL, desc ? &desc->allocator : NULL, &env);
    if (result != PLUME_OK) return result;
    sorter_state *s = plume_alloc(&env, sizeof *s);
    if (!s) return PLUME_ERROR_OUT_OF_MEMORY;
    s->env = env;
    s->desc = *desc;
    s->settings = sort_settings_of(context);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &s->env);
    /* The fragment path's textures, framebuffers and vertex array are bound
     * while they are made. */
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS | SORT_FEEDBACK_BACKEND.scope_groups |
                                    SORT_FRAGMENT_BACKEND.scope_groups);
    result = create_gl_objects(s);
    plume_gl_scope_end(&scope);
    return plume_context_file_or_free(context, &sorter_class, s, result, &out_sorter->id);
}

plume_result plume_sorter_destroy(plume_context *context, plume_sorter sorter) {
    return plume_context_destroy_object(context, sorter.id, &sorter_class, "plume_sorter_destroy");
}

plume_result plume_sorter_get_desc(const plume_context *context, plume_sorter sorter, plume_sorter_desc *out_desc) {
    const sorter_state *s = plume_context_lookup(context, sorter.id, &sorter_class, "plume_sorter_get_desc");
    if (out_desc) *out_desc = s ? s->desc : (plume_sorter_desc){0};
    if (s && !out_desc) plume_log(&s->env, PLUME_LOG_ERROR, "plume_sorter_get_desc: out_desc is NULL");
    return s && out_desc ? PLUME_OK : PLUME_ERROR_INVALID_ARGUMENT;
}

uint32_t plume_sorter_pass_count(const plume_context *context, plume_sorter handle, uint32_t count) {
    const sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_pass_count");
    if (!sorter) return 0;
    const backend_slot *slot = backend_for(sorter, count);
    return slot->backend->pass_count(slot->object, count);
}

plume_sort_algorithm plume_sorter_algorithm_for(const plume_context *context, plume_sorter handle, uint32_t count) {
    const sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_algorithm_for");
    return sorter ? backend_for(sorter, count)->backend->order : PLUME_SORT_AUTOMATIC;
}

/* ---- Sorting -------------------------------------------------------------- */

/* Results are read next by the host's shaders, draws (vertex pulling or
 * attributes) or buffer reads. */
static const GLbitfield BARRIER_FOR_HOST =
    GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT;

/* After a compute sort's last pass: the host's barrier and the hook's
 * closing call (the fragment path's GL orders its copies, transfers and
 * passes itself, and its backends close the hook). */
static void finish_sort(const sorter_state *sorter) {
    glMemoryBarrier(BARRIER_FOR_HOST);
    sort_call_hook(&sorter->pass_hook, NULL);
}

void sort_host_barrier(void) { glMemoryBarrier(BARRIER_FOR_HOST); }

/* A buffer sort on the fragment path: through transform feedback, or
 * through a texture and render passes. */
static void sort_buffer_without_compute(sorter_state *sorter, GLuint pairs_buffer, GLuint count_buffer,
                                        uint32_t count_index, uint32_t count) {
    const backend_slot *slot = &sorter->network;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    slot->backend->prepare_state(slot->object, &scope);
    if (count_buffer)
        slot->backend->sort_indirect(slot->object, pairs_buffer, count_buffer, count_index, count, &sorter->pass_hook);
    else
        slot->backend->sort_direct(slot->object, pairs_buffer, count, &sorter->pass_hook);
    plume_gl_scope_end(&scope);
}

plume_result plume_sort(plume_context *context, plume_sorter handle, uint32_t pairs_buffer, uint32_t count) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sort");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    if (plume_check_gl_context(&sorter->env, "plume_sort") != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (count > sorter->desc.capacity) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "plume_sort: count %u is over the sorter's capacity %u", count,
                  sorter->desc.capacity);
        return PLUME_ERROR_CAPACITY;
    }
    GLsizeiptr size = 0;
    if (!plume_buffer_has_size(pairs_buffer, (GLsizeiptr)count * PLUME_PAIR_BYTES, &size)) {
        plume_log(&sorter->env, PLUME_LOG_ERROR,
                  "plume_sort: pairs buffer %u is not a buffer or holds %lld bytes, under the %llu that %u pairs need",
                  pairs_buffer, (long long)size, (unsigned long long)count * PLUME_PAIR_BYTES, count);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (count < 2) return PLUME_OK;
    plume_result host = plume_check_host_state(&sorter->env, "plume_sort");
    if (host != PLUME_OK) return host;
    if (sorter->desc.path == PLUME_PATH_FRAGMENT) {
        sort_buffer_without_compute(sorter, pairs_buffer, 0, 0, count);
        return plume_drain_gl_errors(&sorter->env, "plume_sort");
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    const backend_slot *slot = backend_for(sorter, count);
    slot->backend->sort_direct(slot->object, pairs_buffer, count, &sorter->pass_hook);
    finish_sort(sorter);
    plume_gl_scope_end(&scope);
    return PLUME_OK;
}

/* plume_sort_indirect(_bounded) once the handle is resolved. */
/* A compute sort of the first count (read at count_offset of count_buffer,
 * `count_size` bytes) of at most max_count pairs, inside the caller's scope. */
static void run_compute_indirect(sorter_state *sorter, GLuint pairs_buffer, GLuint count_buffer, uint32_t count_offset,
                                 GLsizeiptr count_size, uint32_t max_count, bool host_barrier) {
    /* SSBO ranges must start at the GL's alignment: bind from the aligned
     * offset below and index the count from there. */
    GLintptr aligned = count_offset - count_offset % (uint32_t)sorter->ssbo_offset_alignment;
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_HOST_COUNT, count_buffer, aligned,
                      count_size - aligned);
    uint32_t count_index = (uint32_t)((count_offset - aligned) / 4);
    const backend_slot *slot = backend_for(sorter, max_count);
    slot->backend->sort_indirect(slot->object, pairs_buffer, count_buffer, count_index, max_count,
                                 &sorter->pass_hook);
    if (host_barrier) finish_sort(sorter);
    else sort_call_hook(&sorter->pass_hook, NULL);
}

/* An indirect sort's max_count past the sorter's capacity: said. */
static bool over_capacity(const sorter_state *sorter, uint32_t max_count) {
    if (max_count <= sorter->desc.capacity) return false;
    plume_log(&sorter->env, PLUME_LOG_ERROR, "plume_sort_indirect: max_count %u is over the sorter's capacity %u",
              max_count, sorter->desc.capacity);
    return true;
}

static plume_result sort_indirect(sorter_state *sorter, uint32_t pairs_buffer, uint32_t count_buffer,
                                  uint32_t count_offset, uint32_t max_count) {
    if (plume_check_gl_context(&sorter->env, "plume_sort_indirect") != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (over_capacity(sorter, max_count)) return PLUME_ERROR_CAPACITY;
    GLsizeiptr pairs_size = 0, count_size = 0;
    if (!plume_buffer_has_size(pairs_buffer, (GLsizeiptr)max_count * PLUME_PAIR_BYTES, &pairs_size)) {
        plume_log(&sorter->env, PLUME_LOG_ERROR,
                  "plume_sort_indirect: pairs buffer %u is not a buffer or holds %lld bytes, under the %llu that %u "
                  "pairs need",
                  pairs_buffer, (long long)pairs_size, (unsigned long long)max_count * PLUME_PAIR_BYTES, max_count);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (count_offset % 4 != 0 || !plume_buffer_has_size(count_buffer, (GLsizeiptr)count_offset + 4, &count_size)) {
        plume_log(&sorter->env, PLUME_LOG_ERROR,
                  "plume_sort_indirect: count buffer %u (%lld bytes) has no aligned uint at byte offset %u",
                  count_buffer, (long long)count_size, count_offset);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (max_count < 2) return PLUME_OK;
    plume_result host = plume_check_host_state(&sorter->env, "plume_sort_indirect");
    if (host != PLUME_OK) return host;
    if (sorter->desc.path == PLUME_PATH_FRAGMENT) {
        /* The count is read through a buffer texture of R32UI texels. */
        if (plume_gl_is_es()) {
            plume_log(&sorter->env, PLUME_LOG_ERROR,
                      "plume_sort_indirect: count_buffer: the fragment path reads the count through a buffer "
                      "texture, which OpenGL ES 3.0 lacks; sort with plume_sort and the count there");
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
        if (count_offset / 4 >= (uint32_t)sorter->max_texture_buffer_size) {
            plume_log(&sorter->env, PLUME_LOG_ERROR,
                      "plume_sort_indirect: count offset %u is past GL_MAX_TEXTURE_BUFFER_SIZE (%d uints), through "
                      "which the fragment path reads the count",
                      count_offset, sorter->max_texture_buffer_size);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        sort_buffer_without_compute(sorter, pairs_buffer, count_buffer, count_offset / 4, max_count);
        return plume_drain_gl_errors(&sorter->env, "plume_sort_indirect");
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    run_compute_indirect(sorter, pairs_buffer, count_buffer, count_offset, count_size, max_count, true);
    plume_gl_scope_end(&scope);
    return PLUME_OK;
}

plume_result sort_indirect_in_scope(plume_context *context, plume_sorter handle, GLuint pairs_buffer,
                                    GLuint count_buffer, uint32_t count_offset, GLsizeiptr count_buffer_bytes,
                                    uint32_t max_count, bool host_barrier) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sort_indirect_bounded");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    if (over_capacity(sorter, max_count)) return PLUME_ERROR_CAPACITY;
    if (max_count >= 2)
        run_compute_indirect(sorter, pairs_buffer, count_buffer, count_offset, count_buffer_bytes, max_count,
                             host_barrier);
    return PLUME_OK;
}

plume_result plume_sort_indirect(plume_context *context, plume_sorter handle, uint32_t pairs_buffer,
                                 uint32_t count_buffer, uint32_t count_offset) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sort_indirect");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    return sort_indirect(sorter, pairs_buffer, count_buffer, count_offset, sorter->desc.capacity);
}

plume_result plume_sort_indirect_bounded(plume_context *context, plume_sorter handle, uint32_t pairs_buffer,
                                         uint32_t count_buffer, uint32_t count_offset, uint32_t max_count) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sort_indirect_bounded");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    return sort_indirect(sorter, pairs_buffer, count_buffer, count_offset, max_count);
}

/* ---- The texture form (fragment path) -------------------------------------------- */

/* Whether an empty RG_INTEGER upload at (x, y) into the bound texture's
 * level 0 is accepted: the GL refuses one past the level's extent, and any
 * pixel format but RG_INTEGER / UNSIGNED_INT for an RG32UI texture. */
static bool empty_upload_fits(GLint x, GLint y) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, 0, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, NULL);
    return glGetError() == GL_NO_ERROR;
}

/* The largest offset in [0, most] that `fits` at, along x or y. */
static GLint largest_fitting_offset(GLint most, bool along_x) {
    GLint low = 0, high = most; /* fits at low */
    while (low < high) {
        GLint middle = low + (high - low + 1) / 2;
        if (along_x ? empty_upload_fits(middle, 0) : empty_upload_fits(0, middle)) low = middle;
        else high = middle - 1;
    }
    return low;
}

/* OpenGL ES 3.0 cannot query a texture's level (glGetTexLevelParameteriv is
 * ES 3.1): the bound texture's level 0 is found by empty uploads instead,
 * its format GL_RG32UI where RG_INTEGER / UNSIGNED_INT is accepted at all,
 * its extent the largest offsets accepted. The refused probes raise GL
 * errors, read here, with the debug output off so that nobody's callback
 * hears them. The caller's scope holds the unpack buffer binding. */
static void es30_level_extent(GLint *format, GLint *width, GLint *height) {
    bool debug = epoxy_has_gl_extension("GL_KHR_debug") && glIsEnabled(GL_DEBUG_OUTPUT);
    if (debug) glDisable(GL_DEBUG_OUTPUT);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    GLint most = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &most);
    *format = *width = *height = 0;
    if (empty_upload_fits(0, 0)) {
        *format = GL_RG32UI;
        *width = largest_fitting_offset(most, true);
        *height = largest_fitting_offset(most, false);
    }
    if (debug) glEnable(GL_DEBUG_OUTPUT);
}

/* The host's texture: a 2D RG32UI texture with room for `count` pairs; its
 * width to *width. Binds it on unit 0 (the caller's scope restores). */
static bool check_pair_texture(const sorter_state *sorter, GLuint texture, uint32_t count, uint32_t *width) {
    static const char *const CALLER = "plume_sort_texture";
    if (texture == 0 || !glIsTexture(texture)) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "%s: texture %u is not a texture", CALLER, texture);
        return false;
    }
    plume_drain_gl_errors(&sorter->env, CALLER);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    if (glGetError() != GL_NO_ERROR) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "%s: texture %u is not a GL_TEXTURE_2D", CALLER, texture);
        return false;
    }
    GLint format = 0, w = 0, h = 0;
    if (plume_gl_is_es() && epoxy_gl_version() < 31) es30_level_extent(&format, &w, &h);
    else {
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    }
    if (format != GL_RG32UI) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "%s: texture %u's level 0 is format 0x%04x, not GL_RG32UI", CALLER,
                  texture, (unsigned)format);
        return false;
    }
    if ((uint64_t)w * (uint64_t)h < count) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "%s: texture %u holds %dx%d texels, under the %u pairs to sort",
                  CALLER, texture, w, h, count);
        return false;
    }
    *width = (uint32_t)w;
    return true;
}

plume_result plume_sort_texture(plume_context *context, plume_sorter handle, uint32_t texture, uint32_t count) {
    static const char *const CALLER = "plume_sort_texture";
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, CALLER);
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    if (sorter->desc.path != PLUME_PATH_FRAGMENT) {
        plume_log(&sorter->env, PLUME_LOG_ERROR,
                  "%s: the sorter runs the compute path, which sorts buffers; create it with path "
                  "PLUME_PATH_FRAGMENT to sort textures",
                  CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (count > sorter->desc.capacity) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "%s: count %u is over the sorter's capacity %u", CALLER, count,
                  sorter->desc.capacity);
        return PLUME_ERROR_CAPACITY;
    }
    plume_result host = plume_check_host_state(&sorter->env, CALLER);
    if (host != PLUME_OK) return host;
    const backend_slot *slot = &sorter->network;
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    slot->backend->prepare_state(slot->object, &scope);
    uint32_t width = 0;
    bool usable = check_pair_texture(sorter, texture, count, &width);
    if (usable && count >= 2) slot->backend->sort_texture(slot->object, texture, width, count, &sorter->pass_hook);
    plume_gl_scope_end(&scope);
    if (!usable) return PLUME_ERROR_INVALID_ARGUMENT;
    return plume_drain_gl_errors(&sorter->env, CALLER);
}

/* ---- The key input (sort_fragment_path.h) -------------------------------------- */

const sort_key_input *sort_key_input_of(const plume_context *context, plume_sorter handle) {
    const sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "sort_key_input_of");
    return sorter && sorter->desc.path == PLUME_PATH_FRAGMENT && sorter->network.object ? &sorter->network : NULL;
}

bool sort_key_input_records(const sort_key_input *input) { return input->backend->recording != NULL; }

void sort_key_input_sort_texture(const sort_key_input *input, GLuint texture, uint32_t width, uint32_t count) {
    if (count >= 2) input->backend->sort_texture(input->object, texture, width, count, NULL);
}

void sort_key_input_prepare_state(const sort_key_input *input, plume_gl_scope *scope) {
    input->backend->prepare_state(input->object, scope);
}

GLuint sort_key_input_buffer(const sort_key_input *input) {
    return input->backend->recording->input_buffer(input->object);
}

void sort_key_input_record(const sort_key_input *input, GLuint buffer, uint32_t vertices, uint32_t bytes) {
    input->backend->recording->record(input->object, buffer, vertices, bytes);
}

GLuint sort_key_input_sort(const sort_key_input *input, uint32_t count) {
    return input->backend->recording->sort_recorded(input->object, count);
}

GLuint sort_key_input_pairs_texture(const sort_key_input *input, GLuint buffer) {
    return input->backend->recording->pairs_texture(input->object, buffer);
}

#ifdef PLUME_LAB
/* ---- The lab's entries (lab/plume_lab.h) ----------------------------------------- */
#include "plume_lab.h"

_Static_assert(sizeof(plume_lab_pass_hook) == sizeof(sort_pass_function), "the lab's pass hook is the sorter's");

plume_result plume_lab_sorter_set_pass_hook(plume_context *context, plume_sorter handle, plume_lab_pass_hook hook,
                                            void *user) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_lab_sorter_set_pass_hook");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    sorter->pass_hook = (sort_pass_hook){hook, user};
    return PLUME_OK;
}

void plume_lab_sorter_set_group_bits(plume_context *context, plume_sorter handle, uint32_t group_bits) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_lab_sorter_set_group_bits");
    if (!sorter || !sorter->network.object || !sorter->network.backend->set_group_bits) return;
    plume_gl_scope scope; /* a program may be built */
    plume_gl_scope_begin(&scope, &sorter->env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_DRAW);
    sorter->network.backend->set_group_bits(sorter->network.object, group_bits);
    plume_gl_scope_end(&scope);
}

uint32_t plume_lab_sorter_group_bits(const plume_context *context, plume_sorter handle) {
    const sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_lab_sorter_group_bits");
    if (!sorter || !sorter->network.object || !sorter->network.backend->group_bits) return 0;
    return sorter->network.backend->group_bits(sorter->network.object);
}

const char *plume_lab_sorter_backend(const plume_context *context, plume_sorter handle, uint32_t count) {
    const sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_lab_sorter_backend");
    const backend_slot *slot = sorter ? backend_for(sorter, count) : NULL;
    return slot && slot->object ? slot->backend->name : NULL;
}
#endif
