/* The sorter object (plume_sort.h): its handle, descriptor, argument checks
 * and GL state scope, in front of the backends that sort: on the compute
 * path bitonic.c and radix.c, one picked per call; on the fragment path
 * feedback_sort.c (a merge sort), or fragment_sort.c where the GL's buffer
 * textures cannot hold the capacity (the path and the backend are picked at
 * creation from the descriptor and the context). */
#include <string.h>

#include "bitonic.h"
#include "feedback_sort.h"
#include "fragment_sort.h"
#include "radix.h"
#include "shared/plume_gpu_layout.h"

enum {
    MAX_CAPACITY = 1u << 30,
    /* plume_sorter_desc.max_fused_stages: still checked so that descriptors
     * valid before stay valid; nothing reads it (plume_sort.h). */
    MAX_FUSED_STAGES = 5,
    DEFAULT_FUSED_STAGES = 3,
    MAX_KEY_BITS = 32
};

/* PLUME_SORT_AUTOMATIC: the smallest count (or bound) that gets the radix
 * sort, by the radix sort's way (radix.c) and digit passes (radix_digit_passes:
 * 2 for key_bits <= 16, 3 to 24, else 4): measured on an H100
 * (notes/sort-performance.md, "Radix", and for three passes "Three digit
 * passes": 2^13 0.0336 ms against bitonic 0.0360), reduce-then-scan forced
 * there for its row. Reduce-then-scan's three passes were not measured: they
 * take the four-pass crossover (radix costs less, so bitonic keeps a range it
 * may lose, never one it would win). */
static const uint32_t RADIX_FROM_COUNT[2][3] = {
    {1u << 15, 1u << 17, 1u << 17}, /* reduce-then-scan: two passes, three, four */
    {1u << 12, 1u << 13, 1u << 15}, /* Onesweep */
};
/* PLUME_SORT_AUTOMATIC: also the counts (or bounds) up to this one get the
 * radix sort's one-workgroup path (radix_single.comp), where it measured
 * faster than the bitonic sort on the same H100 (notes/sort-performance.md):
 * every count it takes, with 32 key bits (2^10 0.0127 ms against 0.0163,
 * 2^11 0.0169 against 0.0181, 2^12 0.0249 against 0.0293) and with 16. 0:
 * none (the drivers that get reduce-then-scan were not measured). */
static const uint32_t RADIX_SINGLE_UP_TO[2][3] = {
    {0, 0, 0},                      /* reduce-then-scan: two passes, three, four */
    {1u << 12, 1u << 12, 1u << 12}, /* Onesweep */
};

_Static_assert(PLUME_BINDING_SORT_PAIRS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_SORT_STATE < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_SORT_HOST_COUNT < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_SORT_PASS_TABLE < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the sort uses");
_Static_assert(PLUME_GPU_KEY_NAN == PLUME_KEY_NAN && PLUME_GPU_KEY_LAST == PLUME_KEY_LAST,
               "the shaders' keys are the API's");

/* What a plume_sorter handle names. */
typedef struct sorter_state {
    plume_env env;
    plume_sorter_desc desc;     /* defaults filled in */
    bitonic_sort *bitonic;      /* NULL for PLUME_SORT_RADIX and on the fragment path */
    radix_sort *radix;          /* NULL for PLUME_SORT_BITONIC, for AUTOMATIC where no count gets it, and on the fragment path */
    uint32_t radix_from_count;  /* AUTOMATIC: counts from this one get the radix sort */
    uint32_t radix_up_to_count; /* AUTOMATIC: and counts up to this one (its one-workgroup path; 0: none) */
    feedback_sort *feedback;    /* the fragment path's backend (transform feedback), or NULL */
    fragment_sort *fragment;    /* the fragment path's backend where feedback_sort_fits is false, or NULL */
    sort_pass_hook pass_hook;   /* benchmarks only (sort_internal.h) */
    GLint ssbo_offset_alignment;
    GLint max_texture_buffer_size;
} sorter_state;

/* plume_fragment_use_raster_sort: fragment-path sorters created from now on
 * take the render-pass network (benchmarks). */
static bool raster_sort_forced;

void plume_fragment_use_raster_sort(bool raster) {
    raster_sort_forced = raster;
}

/* ---- Creation ------------------------------------------------------------- */

static plume_result create_gl_objects(sorter_state *s) {
    static const char *CALLER = "plume_sorter_create";
    plume_gpu_path path = PLUME_PATH_AUTO;
    plume_result result = plume_resolve_gpu_path(&s->env, CALLER, s->desc.path, &path);
    if (result != PLUME_OK) return result;
    s->desc.path = path;
    if (s->desc.capacity == 0 || s->desc.capacity > MAX_CAPACITY) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: capacity %u is outside 1 .. 2^30", CALLER, s->desc.capacity);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.max_fused_stages == 0) s->desc.max_fused_stages = DEFAULT_FUSED_STAGES;
    if (s->desc.max_fused_stages > MAX_FUSED_STAGES) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: max_fused_stages %u is outside 1 .. %d", CALLER,
                  s->desc.max_fused_stages, MAX_FUSED_STAGES);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.algorithm > PLUME_SORT_RADIX) {
        plume_log(&s->env, PLUME_LOG_ERROR,
                  "%s: algorithm %u is not a plume_sort_algorithm (0 automatic, 1 bitonic, 2 radix)", CALLER,
                  s->desc.algorithm);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (s->desc.key_bits == 0) s->desc.key_bits = MAX_KEY_BITS;
    if (s->desc.key_bits > MAX_KEY_BITS) {
        plume_log(&s->env, PLUME_LOG_ERROR, "%s: key_bits %u is outside 1 .. 32 (0: 32)", CALLER, s->desc.key_bits);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
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
        glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &s->max_texture_buffer_size);
        /* The render passes need no buffer texture of the capacity's size,
         * but write every pair through the raster back end. */
        if (!raster_sort_forced && feedback_sort_fits(s->desc.capacity))
            return feedback_sort_create(&s->env, s->desc.capacity, &s->feedback);
        return fragment_sort_create(&s->env, s->desc.capacity, &s->fragment);
    }
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &s->ssbo_offset_alignment);
    if (s->desc.algorithm != PLUME_SORT_RADIX) {
        result = bitonic_create(&s->env, s->desc.capacity, s->desc.block_pairs, &s->bitonic);
        if (result != PLUME_OK) return result;
        s->desc.block_pairs = bitonic_block_pairs(s->bitonic);
    } else {
        s->desc.block_pairs = 0;
    }
    bool onesweep = radix_chooses_onesweep(s->desc.capacity);
    uint32_t passes = radix_digit_passes(s->desc.key_bits);
    s->radix_from_count = RADIX_FROM_COUNT[onesweep][passes - 2];
    s->radix_up_to_count = RADIX_SINGLE_UP_TO[onesweep][passes - 2];
    bool radix_needed = s->desc.algorithm == PLUME_SORT_RADIX ||
                        (s->desc.algorithm == PLUME_SORT_AUTOMATIC &&
                         (s->desc.capacity >= s->radix_from_count || s->radix_up_to_count > 0));
    /* The one-workgroup programs only where a count can get them. */
    bool one_workgroup = s->desc.algorithm == PLUME_SORT_RADIX || s->radix_up_to_count > 0;
    if (radix_needed) result = radix_create(&s->env, s->desc.capacity, s->desc.key_bits, one_workgroup, &s->radix);
    if (result == PLUME_OK && s->radix && s->radix_up_to_count > radix_single_tile_limit(s->radix))
        s->radix_up_to_count = radix_single_tile_limit(s->radix);
    if (result != PLUME_OK && s->desc.algorithm == PLUME_SORT_AUTOMATIC && s->radix) {
        /* The bitonic sort serves every count; the message said why. */
        plume_log(&s->env, PLUME_LOG_WARNING, "%s: automatic sorts use the bitonic sort only", CALLER);
        radix_destroy(s->radix);
        s->radix = NULL;
        result = PLUME_OK;
    }
    return result;
}

/* The backend a sort of `count` pairs (or of at most `count`) runs. */
static plume_sort_algorithm backend_for(const sorter_state *s, uint32_t count) {
    if (s->fragment || s->feedback) return PLUME_SORT_BITONIC; /* the fragment path's sorts: its order */
    if (!s->bitonic) return PLUME_SORT_RADIX;
    return s->radix && (count >= s->radix_from_count || count <= s->radix_up_to_count) ? PLUME_SORT_RADIX
                                                                                        : PLUME_SORT_BITONIC;
}

/* The one list of the sorter's GL objects: free_sorter deletes what it lists,
 * and the tests check that each of them is gone. */
static uint32_t list_sorter_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity) {
    const sorter_state *s = object;
    if (s->fragment) return fragment_sort_list_gl_objects(s->fragment, out, capacity);
    if (s->feedback) return feedback_sort_list_gl_objects(s->feedback, out, capacity);
    uint32_t count = bitonic_list_gl_objects(s->bitonic, out, capacity);
    bool room = out && count < capacity;
    return count + radix_list_gl_objects(s->radix, room ? out + count : NULL, room ? capacity - count : 0);
}

static void free_sorter(void *object) {
    sorter_state *sorter = object;
    bitonic_destroy(sorter->bitonic);
    radix_destroy(sorter->radix);
    fragment_sort_destroy(sorter->fragment);
    feedback_sort_destroy(sorter->feedback);
    plume_env env = sorter->env;
    plume_free(&env, sorter);
}

static const plume_object_class sorter_class = {"sorter", free_sorter, list_sorter_gl_objects};

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
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &s->env);
    /* The fragment path's textures, framebuffers and vertex array are bound
     * while they are made. */
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS | FRAGMENT_SORT_SCOPE_GROUPS | FEEDBACK_SORT_SCOPE_GROUPS);
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
    if (sorter->fragment) return fragment_sort_pass_count(sorter->fragment, count);
    if (sorter->feedback) return feedback_sort_pass_count(sorter->feedback, count);
    return backend_for(sorter, count) == PLUME_SORT_RADIX ? radix_dispatch_count(sorter->radix, count)
                                                          : bitonic_dispatch_count(sorter->bitonic, count);
}

plume_sort_algorithm plume_sorter_algorithm_for(const plume_context *context, plume_sorter handle, uint32_t count) {
    const sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_algorithm_for");
    return sorter ? backend_for(sorter, count) : PLUME_SORT_AUTOMATIC;
}

plume_result plume_sorter_set_pass_hook(plume_context *context, plume_sorter handle, plume_sort_pass_hook hook,
                                        void *user) {
    sorter_state *sorter = plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_set_pass_hook");
    if (!sorter) return PLUME_ERROR_INVALID_ARGUMENT;
    sorter->pass_hook = (sort_pass_hook){hook, user};
    return PLUME_OK;
}

/* ---- Sorting -------------------------------------------------------------- */

/* Results are read next by the host's shaders, draws (vertex pulling or
 * attributes) or buffer reads. */
static const GLbitfield BARRIER_FOR_HOST =
    GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT;

/* After the last pass: the host's barrier and the hook's closing call. */
static void finish_sort(const sorter_state *sorter) {
    glMemoryBarrier(BARRIER_FOR_HOST);
    if (sorter->pass_hook.function) sorter->pass_hook.function(sorter->pass_hook.user, NULL);
}

/* A buffer sort on the fragment path (the GL orders its copies, transfers
 * and passes itself: no barrier): through transform feedback, or through a
 * texture and render passes. */
static void sort_buffer_without_compute(sorter_state *sorter, GLuint pairs_buffer, GLuint count_buffer,
                                        uint32_t count_index, uint32_t count) {
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    if (sorter->feedback) {
        feedback_sort_prepare_state(sorter->feedback, &scope);
        feedback_sort_buffer(sorter->feedback, pairs_buffer, count, count_buffer, count_index, &sorter->pass_hook);
    } else {
        fragment_sort_prepare_state(&scope);
        fragment_sort_pairs pairs = {.count = count, .count_buffer = count_buffer, .count_index = count_index};
        fragment_sort_buffer(sorter->fragment, pairs_buffer, &pairs, &sorter->pass_hook);
    }
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
    if (backend_for(sorter, count) == PLUME_SORT_RADIX)
        radix_sort_direct(sorter->radix, pairs_buffer, count, &sorter->pass_hook);
    else
        bitonic_sort_direct(sorter->bitonic, pairs_buffer, count, &sorter->pass_hook);
    finish_sort(sorter);
    plume_gl_scope_end(&scope);
    return PLUME_OK;
}

/* plume_sort_indirect(_bounded) once the handle is resolved. */
static plume_result sort_indirect(sorter_state *sorter, uint32_t pairs_buffer, uint32_t count_buffer,
                                  uint32_t count_offset, uint32_t max_count) {
    if (plume_check_gl_context(&sorter->env, "plume_sort_indirect") != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    if (max_count > sorter->desc.capacity) {
        plume_log(&sorter->env, PLUME_LOG_ERROR, "plume_sort_indirect: max_count %u is over the sorter's capacity %u",
                  max_count, sorter->desc.capacity);
        return PLUME_ERROR_CAPACITY;
    }
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
    /* SSBO ranges must start at the GL's alignment: bind from the aligned
     * offset below and index the count from there. */
    GLintptr aligned = count_offset - count_offset % (uint32_t)sorter->ssbo_offset_alignment;
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SORT_HOST_COUNT, count_buffer, aligned,
                      count_size - aligned);
    uint32_t count_index = (uint32_t)((count_offset - aligned) / 4);
    if (backend_for(sorter, max_count) == PLUME_SORT_RADIX)
        radix_sort_indirect(sorter->radix, pairs_buffer, count_index, max_count, &sorter->pass_hook);
    else
        bitonic_sort_indirect(sorter->bitonic, pairs_buffer, count_index, max_count, &sorter->pass_hook);
    finish_sort(sorter);
    plume_gl_scope_end(&scope);
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

/* The host's texture: a 2D RG32UI texture with room for `count` pairs; its
 * width to *width. Binds it on unit 0 (the caller's scope restores). */
static bool check_pair_texture(const sorter_state *sorter, GLuint texture, uint32_t count, uint32_t *width) {
    static const char *CALLER = "plume_sort_texture";
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
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
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
    static const char *CALLER = "plume_sort_texture";
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
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, &sorter->env);
    if (sorter->feedback) feedback_sort_prepare_state(sorter->feedback, &scope);
    else fragment_sort_prepare_state(&scope);
    uint32_t width = 0;
    bool usable = check_pair_texture(sorter, texture, count, &width);
    if (usable && count >= 2 && sorter->feedback) {
        feedback_sort_texture(sorter->feedback, texture, width, count, &sorter->pass_hook);
    } else if (usable && count >= 2) {
        fragment_sort_pairs pairs = {.texture = texture, .width = width, .count = count};
        fragment_sort_texture(sorter->fragment, &pairs, &sorter->pass_hook);
    }
    plume_gl_scope_end(&scope);
    if (!usable) return PLUME_ERROR_INVALID_ARGUMENT;
    return plume_drain_gl_errors(&sorter->env, CALLER);
}

void plume_sorter_set_fragment_group_bits(plume_context *context, plume_sorter handle, uint32_t group_bits) {
    sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_set_fragment_group_bits");
    if (sorter && sorter->fragment) fragment_sort_set_group_bits(sorter->fragment, group_bits);
    if (sorter && sorter->feedback) {
        plume_gl_scope scope; /* a program may be built */
        plume_gl_scope_begin(&scope, &sorter->env);
        plume_gl_scope_save(&scope, PLUME_SCOPE_DRAW);
        feedback_sort_set_group_bits(sorter->feedback, group_bits);
        plume_gl_scope_end(&scope);
    }
}

uint32_t plume_sorter_fragment_group_bits(const plume_context *context, plume_sorter handle) {
    const sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_fragment_group_bits");
    if (sorter && sorter->feedback) return feedback_sort_group_bits(sorter->feedback);
    return sorter && sorter->fragment ? fragment_sort_group_bits(sorter->fragment) : 0;
}

struct feedback_sort *plume_sorter_feedback_backend(const plume_context *context, plume_sorter handle) {
    const sorter_state *sorter =
        plume_context_lookup(context, handle.id, &sorter_class, "plume_sorter_feedback_backend");
    return sorter ? sorter->feedback : NULL;
}
