/* The compute-tiled path's resources (tiled.c draws with them): its
 * programs, the entries' budget, the context's scratch sized for each draw
 * (screen_scratch.h: the screen-sized tables and the per-rank buffers), and
 * the fenced readbacks the budget grows from. */
#include <stdio.h>
#include <string.h>

#include "tiled_internal.h"

enum {
    BUDGET_PER_PARTICLE = 4,  /* the first budget: entries per particle of the capacity... */
    MIN_BUDGET = 1 << 16,     /* ...and at least this many */
    MAX_BUDGET = 1 << 30      /* the sorter's limit */
};
/* ---- Creation --------------------------------------------------------------- */

/* The vec4s of a splat's map (tiled_common.glsl): what the composite's test
 * of whether it covers a pixel reads. */
static uint32_t splat_map_vec4s(uint32_t look) { return (look & LOOK_ORIENTED) ? 4 : 2; }

/* The splat's size in vec4s for a look's features: tiled_common.glsl lays
 * it out and refuses to build where its layout's size is not this one. */
uint32_t tiled_splat_vec4s(uint32_t look, tiled_input input) {
    return splat_map_vec4s(look) + 2 /* colour, tiles and frames */ + ((look & (LOOK_LIT | LOOK_EMISSIVE)) ? 1 : 0) +
           (input == TILED_INPUT_TRAIL || input == TILED_INPUT_GROUP_TRAILS ? 1 /* the far colour, the sprite along */
                                                                             : 0);
}

/* Splats the composite holds in shared memory at once: one per invocation
 * of a tile, at most 256, in the 32 KiB every GL 4.3 gives (a multiple of
 * 32: whole warps load them); `held` vec4s of each (its map, or the whole
 * splat: the lab's whole_splat_batch). The lab's batch where it sets a
 * smaller one. */
static uint32_t composite_batch(const tiled_renderer *r, uint32_t tile, uint32_t held) {
    /* The composite's other shared variables (pixels_alive, ...) take a few
     * bytes of the GL's least 32 KiB too: a batch that filled all of it
     * (256 splats of 8 vec4s, a lit or emissive trail's) failed to link on
     * Mesa ("Too much shared memory used (32776/32768)"); and a tile
     * keeps its 8 x 4 regions' lists of the batch, a bit a splat
     * (tiled_composite.comp), at most 256 splats. A batch of maps keeps
     * each splat's rank beside its map. */
    uint32_t regions = (tile / 8) * (tile / 4), lists = regions * (256 / 32) * 4;
    /* A camera-facing splat's level of detail beside it too. */
    bool camera_facing = !(r->look & LOOK_ORIENTED);
    uint32_t bytes = 16 * held + (r->knobs.whole_splat_batch ? 0 : 4) + (camera_facing ? 4 : 0);
    uint32_t fits = (32768 - 256 - lists) / bytes / 32 * 32, batch = tile * tile;
    if (batch > 256) batch = 256;
    if (batch > fits) batch = fits;
    return r->knobs.batch && r->knobs.batch < batch ? r->knobs.batch : batch;
}

static const char *const TILED_UNIFORM_NAMES[TILED_UNIFORMS + 1] = {
    "u_capacity",  "u_scan_levels",    "u_view",          "u_projection",         "u_camera_right",
    "u_camera_up", "u_target_size",    "u_count",         "u_add",                "u_budget",
    "u_tiles",     "u_tile_count",     "u_chunk_entries", "u_inverse_projection", "u_soft_fade_distance",
    "u_depth_origin", "u_depth_size",  "u_threshold",         "u_particles",
    "u_viewport_origin", "u_depth_convention", "u_lab_knobs", "u_items",
    "u_cover_mode", "u_low_resolution", "u_hit_lists", "u_side_planes", "u_over_host", "u_host_clip",
    SCREEN_COVER_UNIFORM_NAMES, NULL};

static const char *const INPUT_DEFINES[] = {
    [TILED_INPUT_PARTICLES] = "",
    [TILED_INPUT_GROUP] = "#define TILED_GROUP\n#define GROUP_RECORD_ACCESS readonly\n",
    [TILED_INPUT_TRAIL] = "#define TILED_TRAIL\n",
    [TILED_INPUT_GROUP_TRAILS] = "#define TILED_GROUP\n#define TILED_TRAIL\n#define GROUP_RECORD_ACCESS readonly\n",
};

/* The defines every program of the path is built with: the tile, batch and
 * splat sizes, the input, the lab's knobs and the look. */
static void program_defines(const tiled_renderer *r, char *out, size_t size) {
    uint32_t tile = tile_size_of(r);
    uint32_t held = r->knobs.whole_splat_batch ? r->splat_vec4s : splat_map_vec4s(r->look);
    int written = snprintf(out, size, "#define TILED_TILE_SIZE %u\n#define TILED_BATCH %u\n#define TILED_SPLAT_VEC4S %u\n%s%s%s",
                           tile, composite_batch(r, tile, held), r->splat_vec4s, INPUT_DEFINES[r->input],
                           r->knobs.whole_tile_lists ? "#define TILED_WHOLE_TILE_LISTS\n" : "",
                           r->knobs.whole_splat_batch ? "#define TILED_WHOLE_SPLAT_BATCH\n" : "");
    particles_look_defines(r->look, out + written);
}

enum { PROGRAM_DEFINES_SIZE = 320 + LOOK_DEFINES_SIZE };

plume_result tiled_use_depth_function(const plume_env *env, tiled_renderer *r, GLint depth_function) {
    uint32_t index = (uint32_t)(depth_function - GL_NEVER);
    if (index >= TILED_DEPTH_FUNCTIONS) index = GL_ALWAYS - GL_NEVER; /* not a function: as the shader's default */
    if (r->programs[TP_COMPOSITE] && r->depth_function == (GLint)(GL_NEVER + index)) return PLUME_OK;
    if (!r->composites[index]) {
        char defines[PROGRAM_DEFINES_SIZE + 48];
        int written = snprintf(defines, sizeof defines, "#define TILED_DEPTH_FUNCTION 0x%04xu\n", GL_NEVER + index);
        program_defines(r, defines + written, sizeof defines - (size_t)written);
        plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/tiled_composite.comp"};
        plume_result result =
            plume_build_program(env, "plume draw: tiled composite", &stage, 1, defines, &r->composites[index]);
        if (result != PLUME_OK) return result;
    }
    GLuint program = r->composites[index];
    r->programs[TP_COMPOSITE] = program;
    r->depth_function = (GLint)(GL_NEVER + index);
    plume_find_uniform_locations(program, TILED_UNIFORM_NAMES, r->at[TP_COMPOSITE]);
    particle_find_uniforms(program, &r->composite_uniforms);
    return PLUME_OK;
}

static plume_result build_programs(const particle_view *s, tiled_renderer *r, uint32_t look, tiled_input input) {
    r->look = look;
    r->input = input;
    r->splat_vec4s = tiled_splat_vec4s(look, input);
    char defines[PROGRAM_DEFINES_SIZE];
    program_defines(r, defines, sizeof defines);
    struct {
        const char *label, *file;
        GLuint *out;
    } computes[] = {
        {"plume draw: tiled prepare", "render/tiled_prepare.comp", &r->programs[TP_PREPARE]},
        {"plume draw: tiled project", "render/tiled_project.comp", &r->programs[TP_PROJECT]},
        {"plume draw: tiled scan", "render/tiled_scan.comp", &r->programs[TP_SCAN]},
        {"plume draw: tiled control", "render/tiled_control.comp", &r->programs[TP_CONTROL]},
        {"plume draw: tiled entries", "render/tiled_entries.comp", &r->programs[TP_ENTRIES]},
        {"plume draw: tiled ranges", "render/tiled_ranges.comp", &r->programs[TP_RANGES]},
        {"plume draw: tiled resolve", "render/tiled_resolve.comp", &r->programs[TP_RESOLVE]},
    };
    plume_result result = PLUME_OK;
    for (size_t i = 0; i < sizeof computes / sizeof computes[0] && result == PLUME_OK; ++i) {
        plume_shader_stage stage = {GL_COMPUTE_SHADER, computes[i].file};
        result = plume_build_program(s->env, computes[i].label, &stage, 1, defines, computes[i].out);
    }
    plume_shader_stage blend[2] = {{GL_VERTEX_SHADER, "render/tile_cover.vert"},
                                   {GL_FRAGMENT_SHADER, "render/tiled_blend.frag"}};
    if (result == PLUME_OK)
        result = plume_build_program(s->env, "plume draw: tiled blend", blend, 2, NULL, &r->programs[TP_BLEND]);
    /* The composite for the usual GL_LESS; the first draw with another
     * function builds its own. */
    if (result == PLUME_OK) result = tiled_use_depth_function(s->env, r, GL_LESS);
    if (result != PLUME_OK) return result;
    for (int p = 0; p < TILED_PROGRAMS; ++p)
        if (p != TP_COMPOSITE) plume_find_uniform_locations(r->programs[p], TILED_UNIFORM_NAMES, r->at[p]);
    particle_find_uniforms(r->programs[TP_PROJECT], &r->project_uniforms);
    particle_find_uniforms(r->programs[TP_ENTRIES], &r->entries_uniforms);
    if (input == TILED_INPUT_TRAIL || input == TILED_INPUT_GROUP_TRAILS)
        trail_find_uniforms(r->programs[TP_PROJECT], &r->trail); /* a group's: u_eye and u_trail_target only */
    glProgramUniform1i(r->programs[TP_BLEND], r->at[TP_BLEND][TU_PARTICLES], 0);
    return PLUME_OK;
}

static GLsizeiptr storage_alignment(void) {
    GLint alignment = 256;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    return alignment > 0 ? alignment : 256;
}

/* A scan's levels above `count` values: each the block totals of the one
 * below, up to a single block. */
static tiled_scan_plan plan_scan(uint32_t count) {
    GLsizeiptr alignment = storage_alignment();
    tiled_scan_plan plan = {0};
    uint32_t size = count;
    do {
        size = divide_up(size, PLUME_TILED_SCAN_BLOCK);
        plan.size[plan.levels] = size;
        plan.offset[plan.levels] = (uint32_t)plan.bytes;
        plan.bytes += ((GLsizeiptr)size * 4 + alignment - 1) / alignment * alignment;
        ++plan.levels;
    } while (size > 1 && plan.levels < PLUME_TILED_SCAN_MAX_LEVELS);
    return plan;
}

/* The ranks' scan for `capacity` ranks, and a dense one's pairs after them
 * in the counts (both scans use the same sums in turn). */
static void plan_ranks(tiled_renderer *r, uint32_t capacity) {
    r->capacity = capacity;
    r->scan = plan_scan(capacity);
    if (!r->dense) return;
    GLsizeiptr alignment = storage_alignment() / 4;
    r->item_offset = (uint32_t)(((GLsizeiptr)capacity + alignment - 1) / alignment * alignment);
    r->item_scan = plan_scan(r->items);
}

/* The entries' sorter keys are tile indices, and one past the last (an
 * entry that names no tile: tiled_entries.comp): 16 key bits (two radix
 * digits) cover targets of fewer than 2^16 tiles (about 2048x2048 pixels at
 * 8-pixel tiles, 4096x4096 at 16); a target with more sorts with 32. */
enum { ENTRY_KEY_BITS = 16 };

static uint32_t entry_key_bits_for(uint32_t tile_count) {
    return tile_count < (1u << ENTRY_KEY_BITS) ? ENTRY_KEY_BITS : 32;
}

static uint64_t largest_block(const plume_env *env) {
    GLint64 block = plume_env_gl_caps(env).storage_block_bytes;
    return block > 0 ? (uint64_t)block : 0;
}

static uint32_t largest_budget(const plume_env *env) {
    uint64_t pairs = largest_block(env) / PLUME_PAIR_BYTES;
    return pairs < MAX_BUDGET ? (uint32_t)pairs : MAX_BUDGET;
}

/* The most ranks whose splats fit one storage block. */
static uint32_t most_ranks(const plume_env *env, uint32_t splat_vec4s) {
    uint64_t ranks = largest_block(env) / (16 * (uint64_t)splat_vec4s);
    return ranks < UINT32_MAX / 2 ? (uint32_t)ranks : UINT32_MAX / 2;
}

/* A dense capacity of at least `ranks`: a whole number of scan blocks, at
 * least TILED_LEAST_DENSE_RANKS, at most what a storage block holds and
 * what every pair at its most needs. */
static uint32_t dense_capacity(const plume_env *env, const tiled_renderer *r, uint64_t ranks) {
    if (ranks < TILED_LEAST_DENSE_RANKS) ranks = TILED_LEAST_DENSE_RANKS;
    uint64_t most = most_ranks(env, r->splat_vec4s), worst = (uint64_t)r->items * 2 * PLUME_TRAIL_SUBDIVISIONS;
    if (worst < most) most = worst;
    ranks = (ranks + PLUME_TILED_SCAN_BLOCK - 1) / PLUME_TILED_SCAN_BLOCK * PLUME_TILED_SCAN_BLOCK;
    return (uint32_t)(ranks < most ? ranks : most);
}

plume_result tiled_create(const particle_view *s, tiled_renderer *r, uint32_t capacity, uint32_t look,
                          tiled_input input) {
    /* A trail system's capacity is its pairs (a group's, its items): its
     * ranks are dense, made for those expected (or the tests' first
     * ranks), grown to what frames need. */
    r->dense = input == TILED_INPUT_TRAIL || input == TILED_INPUT_GROUP_TRAILS;
    r->splat_vec4s = tiled_splat_vec4s(look, input);
    r->items = capacity;
    if (r->dense) capacity = r->first_ranks ? r->first_ranks : dense_capacity(s->env, r, r->expected_ranks);
    /* The splats are one storage block: a capacity past it (a draw group's
     * triangles of many particles) cannot draw tiled. */
    if ((uint64_t)capacity * 16 * r->splat_vec4s > largest_block(s->env)) return PLUME_ERROR_OUT_OF_MEMORY;
    plume_result result = build_programs(s, r, look, input);
    if (result != PLUME_OK) return result;
    draw_create_samplers(&r->sprite_sampler, &r->depth_sampler);
    /* A trail's sprite repeats along it where it is tiled (as trail_draw.c's). */
    if (input == TILED_INPUT_TRAIL && s->desc->trail.uv_mode == PLUME_TRAIL_UV_TILE)
        glSamplerParameteri(r->sprite_sampler, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glGenVertexArrays(1, &r->vertex_array);
    plan_ranks(r, capacity);
    uint32_t budget = r->budget;
    if (budget == 0) {
        /* A trail's ranks are its strips' small triangles: one entry each. */
        bool triangles = input == TILED_INPUT_TRAIL || input == TILED_INPUT_GROUP_TRAILS;
        uint64_t wanted = (uint64_t)capacity * (triangles ? 1 : BUDGET_PER_PARTICLE);
        budget = wanted < MIN_BUDGET ? MIN_BUDGET : wanted > MAX_BUDGET ? MAX_BUDGET : (uint32_t)wanted;
    }
    uint32_t most = largest_budget(s->env);
    r->budget = budget < most ? budget : most; /* the entries are the context's, sized on each draw */
    return plume_drain_gl_errors(s->env, "plume_system_draw (tiled buffers)");
}

enum { TILED_GL_OBJECTS = TILED_PROGRAMS - 1 + TILED_DEPTH_FUNCTIONS + 3 };

/* The composite's programs are listed from `composites` (programs[TP_COMPOSITE] is one of them). */
uint32_t tiled_list_gl_objects(const tiled_renderer *r, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[TILED_GL_OBJECTS] = {
        {GL_SAMPLER, r->sprite_sampler}, {GL_SAMPLER, r->depth_sampler}, {GL_VERTEX_ARRAY, r->vertex_array}};
    uint32_t n = 3;
    for (int p = 0; p < TILED_PROGRAMS; ++p)
        if (p != TP_COMPOSITE) all[n++] = (plume_gl_object){GL_PROGRAM, r->programs[p]};
    for (int f = 0; f < TILED_DEPTH_FUNCTIONS; ++f) all[n++] = (plume_gl_object){GL_PROGRAM, r->composites[f]};
    return plume_list_named_gl_objects(all, n, out, capacity);
}

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    return tiled_list_gl_objects(state, out, capacity);
}

static void release_attached(void *state, plume_context *context) { tiled_release(state, context); }

static const particle_attachment_class TILED_ATTACHMENT = {"tiled draw path", release_attached, list_gl_objects};

_Static_assert(sizeof(tiled_renderer) + 16 <= PARTICLE_ATTACHMENT_BYTES / 2, "fits its share of the system (draw.c)");

tiled_renderer *tiled_of(const particle_view *v) {
    return particle_view_attach(v, &TILED_ATTACHMENT, sizeof(tiled_renderer));
}

void tiled_release(tiled_renderer *r, plume_context *context) {
    screen_scratch_leave(context, &r->joined_scratch);
    plume_gl_object owned[TILED_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, tiled_list_gl_objects(r, owned, TILED_GL_OBJECTS));
    for (int i = 0; i < TILED_READBACK_SLOTS; ++i)
        if (r->fences[i]) glDeleteSync(r->fences[i]);
    uint32_t tile_size = r->tile_size, budget = r->fixed_budget ? r->budget : 0;
    bool fixed = r->fixed_budget;
    plume_sort_algorithm entry_sort = r->entry_sort;
    uint32_t chunk_entries = r->chunk_entries, first_ranks = r->first_ranks;
    memset(r, 0, sizeof *r);
    r->first_ranks = first_ranks;
    /* What tiled_configure chose outlives the objects. */
    r->tile_size = tile_size;
    r->budget = budget;
    r->fixed_budget = fixed;
    r->entry_sort = entry_sort;
    r->chunk_entries = chunk_entries;
}

/* The system's tiled state where `tile_size` and `chunk_entries` may still
 * be set (before its first tiled draw); NULL, logged under `caller`, where
 * not or where a value is out of range. */
static tiled_renderer *configurable(plume_context *context, plume_system handle, const char *caller,
                                    uint32_t tile_size, uint32_t chunk_entries, plume_result *result) {
    particle_view s;
    *result = PLUME_ERROR_INVALID_ARGUMENT;
    if (particles_find_view(context, handle, caller, &s) != PLUME_OK) return NULL;
    const tiled_renderer *made = particle_view_attachment(&s, &TILED_ATTACHMENT);
    if ((tile_size != 0 && tile_size != 8 && tile_size != 16 && tile_size != 32) ||
        (made && made->programs[TP_COMPOSITE])) {
        plume_log(s.env, PLUME_LOG_ERROR, "%s: tile size %u (8, 16 or 32), before the first draw", caller, tile_size);
        return NULL;
    }
    if (chunk_entries > (1u << 24) && chunk_entries != TILED_UNCHUNKED) {
        plume_log(s.env, PLUME_LOG_ERROR, "%s: chunk entries %u (1 to 2^24, 0 or unchunked)", caller, chunk_entries);
        return NULL;
    }
    tiled_renderer *r = tiled_of(&s);
    *result = r ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    return r;
}

plume_result tiled_configure(plume_context *context, plume_system handle, uint32_t tile_size, uint32_t budget,
                             bool fixed_budget, plume_sort_algorithm entry_sort, uint32_t chunk_entries) {
    static const char *CALLER = "tiled_configure";
    if (entry_sort > PLUME_SORT_RADIX) {
        particle_view s;
        if (particles_find_view(context, handle, CALLER, &s) != PLUME_OK) return PLUME_ERROR_INVALID_ARGUMENT;
        plume_log(s.env, PLUME_LOG_ERROR, "%s: entry sort %u is not a plume_sort_algorithm", CALLER,
                  (unsigned)entry_sort);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result result;
    tiled_renderer *r = configurable(context, handle, CALLER, tile_size, chunk_entries, &result);
    if (!r) return result;
    r->tile_size = tile_size;
    r->budget = budget;
    r->fixed_budget = fixed_budget;
    r->entry_sort = entry_sort;
    r->chunk_entries = chunk_entries;
    return PLUME_OK;
}

plume_result tiled_set_knobs(plume_context *context, plume_system handle, const tiled_knobs *knobs) {
    plume_result result;
    tiled_renderer *r = configurable(context, handle, "plume_lab_tiled_set_knobs", 0, 0, &result);
    if (!r) return result;
    float min_alpha = knobs->min_alpha, footprint = knobs->footprint;
    uint32_t batch = knobs->batch;
    if (!(min_alpha >= 0.0f && min_alpha < 1.0f) || batch % 32 != 0 || batch > 256 ||
        !(footprint >= 0.0f && footprint <= 0.5f) || knobs->hit_lists < -1 || knobs->hit_lists > 1) {
        particle_view s;
        particles_find_view(context, handle, "plume_lab_tiled_set_knobs", &s);
        plume_log(s.env, PLUME_LOG_ERROR, "plume_lab_tiled_set_knobs: min alpha %g (0 to below 1), batch %u (0, or a "
                  "multiple of 32 up to 256), footprint %g (0 to 0.5), hit lists %d (-1, 0 or 1)", (double)min_alpha,
                  batch, (double)footprint, knobs->hit_lists);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    r->knobs = *knobs;
    return PLUME_OK;
}

plume_result tiled_set_first_ranks(plume_context *context, plume_system handle, uint32_t ranks) {
    plume_result result;
    tiled_renderer *r = configurable(context, handle, "tiled_set_first_ranks", 0, 0, &result);
    if (r) r->first_ranks = ranks;
    return result;
}

plume_result plume_system_set_tiled_options(plume_context *context, plume_system handle, uint32_t tile_size,
                                            uint32_t chunk_entries) {
    plume_result result;
    tiled_renderer *r =
        configurable(context, handle, "plume_system_set_tiled_options", tile_size, chunk_entries, &result);
    if (!r) return result;
    r->tile_size = tile_size;
    r->chunk_entries = chunk_entries;
    return PLUME_OK;
}

/* ---- The budget: entry counts read back without waiting ----------------------- */

/* The control word `word` copied to the readback ring (its serial to
 * *serial); false where the ring could not be made. */
static bool copy_for_readback(const particle_view *s, tiled_renderer *r, uint32_t word, uint64_t *serial) {
    uint32_t at = screen_scratch_next_readback(r->shared, s->env, serial);
    if (at == UINT32_MAX) return false;
    glBindBuffer(GL_COPY_READ_BUFFER, r->shared->control_buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 4 * (GLintptr)word, 4 * (GLintptr)at, 4);
    return true;
}

void tiled_record_entry_count(const particle_view *s, tiled_renderer *r) {
    if ((r->fixed_budget && !r->dense) || r->readback_count == TILED_READBACK_SLOTS) return;
    uint32_t slot = (r->readback_first + r->readback_count) % TILED_READBACK_SLOTS;
    if (!copy_for_readback(s, r, PLUME_TILED_ENTRY_COUNT, &r->readback[slot])) return;
    if (r->dense && !copy_for_readback(s, r, PLUME_TILED_RANKS_NEEDED, &r->ranks_readback[slot])) return;
    r->fences[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    ++r->readback_count;
}

/* The most entries a frame whose count has arrived needed (0: none
 * arrived), and for dense ranks the most ranks to *ranks. */
static uint32_t collect_entry_counts(tiled_renderer *r, uint32_t *ranks) {
    uint32_t most = 0;
    *ranks = 0;
    while (r->readback_count > 0) {
        uint32_t slot = r->readback_first;
        GLenum status = glClientWaitSync(r->fences[slot], 0, 0);
        if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED) break;
        glDeleteSync(r->fences[slot]);
        r->fences[slot] = 0;
        uint32_t needed = 0;
        if (screen_scratch_read_readback(r->shared, r->readback[slot], &needed) && needed > most) most = needed;
        if (r->dense && screen_scratch_read_readback(r->shared, r->ranks_readback[slot], &needed) && needed > *ranks)
            *ranks = needed;
        r->readback_first = (slot + 1) % TILED_READBACK_SLOTS;
        --r->readback_count;
    }
    return most;
}

/* Dense ranks: where the most a frame needed (`needed`, read back) or the
 * frames are expected to need outgrow those made, a quarter more than
 * that (the context's per-rank buffers follow in tiled_ensure_ranks). The
 * tests' first ranks grow from the needs read back only. */
static void grow_ranks(const particle_view *s, tiled_renderer *r, uint32_t needed) {
    if (!r->dense) return;
    uint64_t wanted = needed, expected = r->first_ranks ? 0 : r->expected_ranks;
    if (expected > wanted) wanted = expected;
    if (wanted <= r->capacity) return;
    uint32_t capacity = dense_capacity(s->env, r, wanted + wanted / 4);
    if (capacity <= r->capacity) return;
    plume_log(s->env, PLUME_LOG_INFO, "plume_system_draw: the tiled path's trail ranks grow from %u to %u (%u needed "
              "by a frame, %llu expected)", r->capacity, capacity, needed, (unsigned long long)expected);
    plan_ranks(r, capacity);
}

/* `count` rounded up to a step of a quarter of the power of two below it
 * (1, 1.25, 1.5 or 1.75 times one): a budget a fraction over what it
 * needs, not up to twice (a 4K frame of 1 M puffs needs tens of millions of
 * entries), in at most four steps a doubling. */
static uint64_t round_up_to_quarter_steps(uint64_t count) {
    if (count <= 4) return count;
    uint64_t step = 1;
    while (step * 8 <= count) step *= 2;
    return (count + step - 1) / step * step;
}

/* The budget: a quarter more than the largest count seen, rounded up to a
 * quarter step; dense ranks as grow_ranks. */
plume_result tiled_grow_budget(const particle_view *s, tiled_renderer *r) {
    uint32_t ranks, needed = collect_entry_counts(r, &ranks);
    grow_ranks(s, r, ranks);
    if (needed <= r->budget || r->fixed_budget) return PLUME_OK;
    uint32_t most = largest_budget(s->env);
    if (r->budget >= most) return PLUME_OK; /* overflowing frames stay raster */
    uint64_t wanted = round_up_to_quarter_steps(needed < most - needed / 4 ? needed + needed / 4 : most);
    uint32_t budget = wanted < most ? (uint32_t)wanted : most;
    plume_log(s->env, PLUME_LOG_INFO, "plume_system_draw: the tiled path's entries grow from %u to %u (a frame needed %u)",
              r->budget, budget, needed);
    r->budget = budget; /* the context's entries follow in tiled_ensure_entries */
    return PLUME_OK;
}

plume_result tiled_join_scratch(const particle_view *s, tiled_renderer *r) {
    r->shared = screen_scratch_join(s->context, &r->joined_scratch);
    return r->shared ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
}


plume_result tiled_ensure_ranks(const particle_view *s, tiled_renderer *r) {
    GLsizeiptr counts = r->dense ? ((GLsizeiptr)r->item_offset + r->items) * 4 : (GLsizeiptr)r->capacity * 4;
    GLsizeiptr sums = r->item_scan.bytes > r->scan.bytes ? r->item_scan.bytes : r->scan.bytes;
    return screen_scratch_ensure_ranks(r->shared, s->env, counts, (GLsizeiptr)r->capacity * 16 * r->splat_vec4s, sums);
}

plume_result tiled_ensure_full_target(const particle_view *s, tiled_renderer *r, int width, int height) {
    return screen_scratch_ensure_tiled_target(r->shared, s->env, width, height);
}

void tiled_ensure_ranges(const particle_view *s, tiled_renderer *r, uint32_t tiles) {
    screen_scratch_ensure_ranges(r->shared, s->env, tiles);
}

/* The chunked composite's table and partials for `tiles` tiles and the
 * budget: a slot per chunk, at most budget / K + tiles of them (the chunk
 * plan's bound). K (the host's, else `default_entries`) is raised where the
 * partials would not fit one shader storage block; where not even one slot
 * per tile fits, the composite is unchunked. */
plume_result tiled_ensure_chunks(const particle_view *s, tiled_renderer *r, uint32_t tiles, uint32_t default_entries) {
    r->chunk_entries_in_use = 0;
    uint32_t asked = r->chunk_entries ? r->chunk_entries : default_entries;
    if (asked == TILED_UNCHUNKED) return PLUME_OK;
    uint32_t tile = tile_size_of(r);
    uint64_t slot_bytes = (uint64_t)tile * tile * 8; /* a pixel's partial: four halves */
    uint64_t most_slots = largest_block(s->env) / slot_bytes;
    if (most_slots > UINT32_MAX / 2) most_slots = UINT32_MAX / 2;
    if (most_slots <= tiles) return PLUME_OK;
    uint32_t k = asked, least = divide_up(r->budget, (uint32_t)(most_slots - tiles));
    if (k < least) k = least;
    uint32_t slots = divide_up(r->budget, k) + tiles, words = 2 * tiles + slots;
    plume_result result = screen_scratch_ensure_chunks(r->shared, s->env, slots, slot_bytes, words);
    if (result == PLUME_OK) r->chunk_entries_in_use = k;
    return result;
}

plume_result tiled_ensure_entries(const particle_view *s, tiled_renderer *r, uint32_t tiles) {
    return screen_scratch_ensure_entries(r->shared, s, r->budget, r->entry_sort, entry_key_bits_for(tiles), &r->sorter);
}
