/* The compute-tiled draw path: the particles composited per screen tile in
 * compute shaders, with no blending per particle fragment.
 *
 * After the update's sort (back to front: rank 0 is the farthest):
 *   1. project  per rank: the particle's quad on the target (a splat) and the
 *               number of tiles its pixels' box touches;
 *   2. scan     an inclusive prefix sum of those counts: each rank's run of
 *               entries; then one invocation compares the total with the
 *               budget and writes the indirect arguments of both paths
 *               (control buffer);
 *   3. entries  per rank, {tile, rank} for each of its tiles, in rank order;
 *   4. sort     the entries by tile: each tile's run contiguous, in rank
 *               order within it (the bitonic sorter orders equal keys by
 *               value, the rank; the radix sort, stable, keeps the rank
 *               order it is given; 16 key bits: two radix passes);
 *   5. ranges   per tile, its run (binary searches);
 *   6. composite its pixels front to back with early termination
 *               (tiled_composite.comp), into an RGBA16F target: each tile's
 *               run cut into chunks of at most K entries (chunk plan: one
 *               workgroup scans the tiles' chunk counts and writes the
 *               indirect arguments), one workgroup per chunk, and a resolve
 *               per tile of several chunks combining their partials front to
 *               back; so the busiest tile's run is no longer one workgroup's
 *               serial walk (unchunked, TILED_UNCHUNKED: one workgroup per
 *               tile walks its whole run);
 *   7. blend    the target onto the host's framebuffer once per pixel (at
 *               full resolution a full-screen pass; at 1/2 and 1/4 the
 *               low-resolution path's depth-aware upsample, lowres_end).
 * A frame whose entries exceed the budget skips 3-7's work (their indirect
 * arguments are zero) and draws with the raster path instead, whose
 * instance count the control pass set: decided on the GPU, nothing dropped.
 * The entry count also goes to the CPU behind a fence, read frames later
 * without waiting, and the budget grows to what frames need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles/particles_internal.h"

enum {
    BUDGET_PER_PARTICLE = 4,  /* the first budget: entries per particle of the capacity... */
    MIN_BUDGET = 1 << 16,     /* ...and at least this many */
    MAX_BUDGET = 1 << 30      /* the sorter's limit */
};
_Static_assert(PLUME_TILED_SCAN_BLOCK == PLUME_TILED_SCAN_GROUP_SIZE * PLUME_TILED_SCAN_PER_INVOCATION,
               "a scan workgroup covers one block");
_Static_assert(PLUME_BINDING_TILED_COUNTS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_TILED_SPLATS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CONTROL < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_SCAN_SUMS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_ENTRIES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_RANGES < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_CHUNK_TABLE < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_PARTIALS < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the tiled passes use");

static uint32_t tile_size_of(const tiled_renderer *r) { return r->tile_size ? r->tile_size : TILED_DEFAULT_TILE_SIZE; }

static uint32_t chunk_entries_of(const tiled_renderer *r) {
    return r->chunk_entries ? r->chunk_entries : TILED_DEFAULT_CHUNK_ENTRIES;
}

/* The benchmarks' A/B switch (tiled.h): what tiled_configure left at 0,
 * from the environment, when the path is made. */
static void read_environment(system_state *s) {
    tiled_renderer *r = &s->tiled;
    const char *tile = getenv("PLUME_TILED_TILE_SIZE"), *chunk = getenv("PLUME_TILED_CHUNK_ENTRIES");
    if (r->tile_size == 0 && tile) {
        unsigned long size = strtoul(tile, NULL, 10);
        if (size == 8 || size == 16 || size == 32) r->tile_size = (uint32_t)size;
    }
    if (r->chunk_entries == 0 && chunk) {
        unsigned long entries = strtoul(chunk, NULL, 10);
        if (strcmp(chunk, "unchunked") == 0) r->chunk_entries = TILED_UNCHUNKED;
        else if (entries > 0 && entries <= (1ul << 24)) r->chunk_entries = (uint32_t)entries;
    }
    if (tile || chunk)
        plume_log(&s->env, PLUME_LOG_INFO, "plume_system_draw: the tiled path's tile size %u, chunk entries %s%u",
                  tile_size_of(r), r->chunk_entries == TILED_UNCHUNKED ? "unchunked " : "",
                  r->chunk_entries == TILED_UNCHUNKED ? 0u : chunk_entries_of(r));
}

static uint32_t divide_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static GLint uniform(GLuint program, const char *name) { return glGetUniformLocation(program, name); }

/* ---- Creation --------------------------------------------------------------- */

static plume_result build_programs(system_state *s) {
    tiled_renderer *r = &s->tiled;
    uint32_t tile = tile_size_of(r), batch = tile * tile < 256 ? tile * tile : 256;
    char defines[96];
    snprintf(defines, sizeof defines, "#define TILED_TILE_SIZE %u\n#define TILED_BATCH %u\n", tile, batch);
    const char *COMMON = "render/tiled_common.glsl";
    struct {
        const char *label, *last;
        bool appearance;
        GLuint *out;
    } computes[] = {
        {"plume draw: tiled project", "render/tiled_project.comp", true, &r->programs.project},
        {"plume draw: tiled scan", "render/tiled_scan.comp", false, &r->programs.scan},
        {"plume draw: tiled control", "render/tiled_control.comp", false, &r->programs.control},
        {"plume draw: tiled entries", "render/tiled_entries.comp", false, &r->programs.entries},
        {"plume draw: tiled ranges", "render/tiled_ranges.comp", false, &r->programs.ranges},
        {"plume draw: tiled chunk plan", "render/tiled_chunk_plan.comp", false, &r->programs.chunk_plan},
        {"plume draw: tiled composite", "render/tiled_composite.comp", true, &r->programs.composite},
        {"plume draw: tiled resolve", "render/tiled_resolve.comp", false, &r->programs.resolve},
    };
    plume_result result = PLUME_OK;
    for (size_t i = 0; i < sizeof computes / sizeof computes[0] && result == PLUME_OK; ++i) {
        plume_shader_stage stage = {GL_COMPUTE_SHADER, {NULL}};
        int n = 0;
        if (computes[i].appearance) {
            stage.files[n++] = "particles/particle_common.glsl";
            stage.files[n++] = "render/particle_appearance.glsl";
        }
        stage.files[n++] = COMMON;
        stage.files[n++] = computes[i].last;
        result = plume_build_program(&s->env, computes[i].label, &stage, 1, defines, computes[i].out);
    }
    plume_shader_stage blend[2] = {{GL_VERTEX_SHADER, {"render/fullscreen.vert", NULL}},
                                   {GL_FRAGMENT_SHADER, {"render/tiled_blend.frag", NULL}}};
    if (result == PLUME_OK)
        result = plume_build_program(&s->env, "plume draw: tiled blend", blend, 2, NULL, &r->programs.blend);
    if (result != PLUME_OK) return result;
    raster_set_appearance_uniforms(s, r->programs.project);
    raster_set_appearance_uniforms(s, r->programs.composite);
    glProgramUniform1i(r->programs.blend, uniform(r->programs.blend, "u_particles"), 0);
    return PLUME_OK;
}

/* The scan's levels above the counts: each the block totals of the one
 * below, up to a single block. */
static GLsizeiptr plan_scan_levels(tiled_renderer *r, uint32_t capacity) {
    GLint alignment = 256;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    GLsizeiptr offset = 0;
    uint32_t size = capacity;
    r->scan_levels = 0;
    do {
        size = divide_up(size, PLUME_TILED_SCAN_BLOCK);
        r->scan_level_size[r->scan_levels] = size;
        r->scan_level_offset[r->scan_levels] = offset;
        offset += ((GLsizeiptr)size * 4 + alignment - 1) / alignment * alignment;
        ++r->scan_levels;
    } while (size > 1 && r->scan_levels < TILED_SCAN_MAX_LEVELS);
    return offset;
}

/* The one place the entries' sorter is made. Its keys are tile indices:
 * 16 key bits (two radix digits) cover up to 2^16 tiles (4096x4096 pixels at
 * 16-pixel tiles); a target with more tiles re-makes it with 32. */
enum { ENTRY_KEY_BITS = 16 };

static uint32_t entry_key_bits_for(uint32_t tile_count) {
    return tile_count <= (1u << ENTRY_KEY_BITS) ? ENTRY_KEY_BITS : 32;
}

static plume_result make_entry_sorter(system_state *s, uint32_t capacity, uint32_t key_bits) {
    plume_sorter_desc desc = {.capacity = capacity, .logger = s->env.logger, .allocator = s->env.allocator,
                              .key_bits = key_bits, .algorithm = s->tiled.entry_sort};
    s->tiled.sorter_key_bits = key_bits;
    return plume_sorter_create(s->context, &desc, &s->tiled.sorter);
}

static uint32_t largest_budget(void) {
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    uint64_t pairs = (uint64_t)block / PLUME_PAIR_BYTES;
    return pairs < MAX_BUDGET ? (uint32_t)pairs : MAX_BUDGET;
}

/* (Re)makes the entries buffer and its sorter for `budget` pairs. */
static plume_result size_entries(system_state *s, uint32_t budget) {
    tiled_renderer *r = &s->tiled;
    plume_sorter_destroy(s->context, r->sorter);
    r->sorter = (plume_sorter){0};
    glDeleteBuffers(1, &r->entries_buffer);
    r->entries_buffer = plume_make_gpu_buffer((GLsizeiptr)budget * PLUME_PAIR_BYTES, "plume draw: tiled entries");
    r->budget = budget;
    plume_result result = plume_drain_gl_errors(&s->env, "plume_system_draw (tiled entries)");
    return result != PLUME_OK ? result
                              : make_entry_sorter(s, budget, r->sorter_key_bits ? r->sorter_key_bits : ENTRY_KEY_BITS);
}

static plume_result create(system_state *s) {
    tiled_renderer *r = &s->tiled;
    read_environment(s);
    plume_result result = build_programs(s);
    if (result != PLUME_OK) return result;
    uint32_t capacity = s->desc.capacity;
    r->counts_buffer = plume_make_gpu_buffer((GLsizeiptr)capacity * 4, "plume draw: tiled counts");
    r->splats_buffer = plume_make_gpu_buffer((GLsizeiptr)capacity * 16 * PLUME_TILED_SPLAT_VEC4S, "plume draw: tiled splats");
    r->scan_sums_buffer = plume_make_gpu_buffer(plan_scan_levels(r, capacity), "plume draw: tiled scan sums");
    r->control_buffer = plume_make_gpu_buffer(4 * PLUME_TILED_CONTROL_WORDS, "plume draw: tiled control");
    const GLuint zero[PLUME_TILED_CONTROL_WORDS] = {0};
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, sizeof zero, zero);
    for (int i = 0; i < TILED_READBACK_SLOTS; ++i) {
        r->readback[i] = plume_make_gpu_buffer(4, "plume draw: tiled entry count readback");
    }
    uint32_t budget = r->budget;
    if (budget == 0) {
        uint64_t wanted = (uint64_t)capacity * BUDGET_PER_PARTICLE;
        budget = wanted < MIN_BUDGET ? MIN_BUDGET : wanted > MAX_BUDGET ? MAX_BUDGET : (uint32_t)wanted;
    }
    uint32_t most = largest_budget();
    result = size_entries(s, budget < most ? budget : most);
    if (result != PLUME_OK) return result;
    return plume_drain_gl_errors(&s->env, "plume_system_draw (tiled buffers)");
}

enum { TILED_GL_OBJECTS = 9 + 9 + TILED_READBACK_SLOTS };

uint32_t tiled_list_gl_objects(const tiled_renderer *r, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[TILED_GL_OBJECTS] = {
        {GL_PROGRAM, r->programs.project},   {GL_PROGRAM, r->programs.scan},     {GL_PROGRAM, r->programs.control},
        {GL_PROGRAM, r->programs.entries},   {GL_PROGRAM, r->programs.ranges},   {GL_PROGRAM, r->programs.composite},
        {GL_PROGRAM, r->programs.blend},     {GL_BUFFER, r->counts_buffer},      {GL_BUFFER, r->splats_buffer},
        {GL_BUFFER, r->scan_sums_buffer},    {GL_BUFFER, r->control_buffer},     {GL_BUFFER, r->entries_buffer},
        {GL_BUFFER, r->ranges_buffer},       {GL_TEXTURE, r->target},            {GL_PROGRAM, r->programs.chunk_plan},
        {GL_PROGRAM, r->programs.resolve},   {GL_BUFFER, r->chunk_table_buffer}, {GL_BUFFER, r->partials_buffer},
    };
    uint32_t n = 18;
    for (int i = 0; i < TILED_READBACK_SLOTS; ++i) all[n++] = (plume_gl_object){GL_BUFFER, r->readback[i]};
    return plume_list_named_gl_objects(all, n, out, capacity);
}

void tiled_release(system_state *s) {
    tiled_renderer *r = &s->tiled;
    plume_sorter_destroy(s->context, r->sorter); /* {0} if never made */
    plume_gl_object owned[TILED_GL_OBJECTS];
    plume_delete_gl_objects(owned, tiled_list_gl_objects(r, owned, TILED_GL_OBJECTS));
    for (int i = 0; i < TILED_READBACK_SLOTS; ++i)
        if (r->fences[i]) glDeleteSync(r->fences[i]);
    uint32_t tile_size = r->tile_size, budget = r->fixed_budget ? r->budget : 0;
    bool fixed = r->fixed_budget;
    plume_sort_algorithm entry_sort = r->entry_sort;
    uint32_t chunk_entries = r->chunk_entries;
    memset(r, 0, sizeof *r);
    /* What tiled_configure chose outlives the objects. */
    r->tile_size = tile_size;
    r->budget = budget;
    r->fixed_budget = fixed;
    r->entry_sort = entry_sort;
    r->chunk_entries = chunk_entries;
}

plume_result tiled_configure(plume_context *context, plume_system handle, uint32_t tile_size, uint32_t budget,
                             bool fixed_budget, plume_sort_algorithm entry_sort, uint32_t chunk_entries) {
    system_state *s = particles_find_system(context, handle, "tiled_configure");
    if (!s) return PLUME_ERROR_INVALID_ARGUMENT;
    if ((tile_size != 0 && tile_size != 8 && tile_size != 16 && tile_size != 32) || s->tiled.programs.composite) {
        plume_log(&s->env, PLUME_LOG_ERROR, "tiled_configure: tile size %u (8, 16 or 32), before the first draw",
                  tile_size);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (entry_sort > PLUME_SORT_RADIX) {
        plume_log(&s->env, PLUME_LOG_ERROR, "tiled_configure: entry sort %u is not a plume_sort_algorithm",
                  (unsigned)entry_sort);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (chunk_entries > (1u << 24) && chunk_entries != TILED_UNCHUNKED) {
        plume_log(&s->env, PLUME_LOG_ERROR, "tiled_configure: chunk entries %u (1 to 2^24, 0 or TILED_UNCHUNKED)",
                  chunk_entries);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    s->tiled.tile_size = tile_size;
    s->tiled.budget = budget;
    s->tiled.fixed_budget = fixed_budget;
    s->tiled.entry_sort = entry_sort;
    s->tiled.chunk_entries = chunk_entries;
    return PLUME_OK;
}

/* ---- The budget: entry counts read back without waiting ----------------------- */

static void record_entry_count(tiled_renderer *r) {
    if (r->fixed_budget || r->readback_count == TILED_READBACK_SLOTS) return;
    uint32_t slot = (r->readback_first + r->readback_count) % TILED_READBACK_SLOTS;
    glBindBuffer(GL_COPY_READ_BUFFER, r->control_buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, r->readback[slot]);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 4 * PLUME_TILED_ENTRY_COUNT, 0, 4);
    r->fences[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    ++r->readback_count;
}

/* The most entries a frame whose count has arrived needed (0: none arrived). */
static uint32_t collect_entry_counts(tiled_renderer *r) {
    uint32_t most = 0;
    while (r->readback_count > 0) {
        uint32_t slot = r->readback_first;
        GLenum status = glClientWaitSync(r->fences[slot], 0, 0);
        if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED) break;
        glDeleteSync(r->fences[slot]);
        r->fences[slot] = 0;
        GLuint needed = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, r->readback[slot]);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 4, &needed);
        if (needed > most) most = needed;
        r->readback_first = (slot + 1) % TILED_READBACK_SLOTS;
        --r->readback_count;
    }
    return most;
}

/* A quarter more than the largest count seen, as a power of two. */
static plume_result grow_budget(system_state *s) {
    tiled_renderer *r = &s->tiled;
    uint32_t needed = collect_entry_counts(r);
    if (needed <= r->budget) return PLUME_OK;
    uint32_t most = largest_budget();
    if (r->budget >= most) return PLUME_OK; /* overflowing frames stay raster */
    uint64_t wanted = plume_next_pow2((uint32_t)(needed < most - needed / 4 ? needed + needed / 4 : most));
    uint32_t budget = wanted < most ? (uint32_t)wanted : most;
    plume_log(&s->env, PLUME_LOG_INFO, "plume_system_draw: the tiled path's entries grow from %u to %u (a frame needed %u)",
              r->budget, budget, needed);
    return size_entries(s, budget);
}

/* ---- The draw ----------------------------------------------------------------- */

/* The target the composite writes and what it reads the depth from. */
typedef struct tiled_target {
    GLuint texture;
    int width, height;
    GLuint depth_texture;
    int depth_origin[2];
    float depth_size[2];
} tiled_target;

static plume_result ensure_full_target(system_state *s, int width, int height) {
    tiled_renderer *r = &s->tiled;
    if (r->target && r->target_width == width && r->target_height == height) return PLUME_OK;
    glDeleteTextures(1, &r->target);
    glActiveTexture(GL_TEXTURE0); /* the host's active unit may be one the scope does not restore */
    glGenTextures(1, &r->target);
    glBindTexture(GL_TEXTURE_2D, r->target);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA16F, width, height);
    glObjectLabel(GL_TEXTURE, r->target, -1, "plume draw: tiled particles");
    r->target_width = width;
    r->target_height = height;
    return plume_drain_gl_errors(&s->env, "plume_system_draw (tiled target)");
}

static void ensure_ranges(tiled_renderer *r, uint32_t tiles) {
    if (r->ranges_buffer && r->range_capacity >= tiles) return;
    glDeleteBuffers(1, &r->ranges_buffer);
    r->ranges_buffer = plume_make_gpu_buffer((GLsizeiptr)tiles * 8, "plume draw: tiled ranges");
    r->range_capacity = tiles;
}

/* The chunked composite's table and partials for `tiles` tiles and the
 * budget: a slot per chunk, at most budget / K + tiles of them (the chunk
 * plan's bound). K is raised where the partials would not fit one shader
 * storage block; where not even one slot per tile fits, the composite is
 * unchunked. */
static plume_result ensure_chunks(system_state *s, uint32_t tiles) {
    tiled_renderer *r = &s->tiled;
    r->chunk_entries_in_use = 0;
    if (r->chunk_entries == TILED_UNCHUNKED) return PLUME_OK;
    uint32_t tile = tile_size_of(r);
    uint64_t slot_bytes = (uint64_t)tile * tile * 16;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    uint64_t most_slots = (uint64_t)block / slot_bytes;
    if (most_slots > UINT32_MAX / 2) most_slots = UINT32_MAX / 2;
    if (most_slots <= tiles) return PLUME_OK;
    uint32_t k = chunk_entries_of(r), least = divide_up(r->budget, (uint32_t)(most_slots - tiles));
    if (k < least) k = least;
    uint32_t slots = divide_up(r->budget, k) + tiles, words = 2 * tiles + slots;
    if (!r->partials_buffer || r->slot_capacity < slots || r->chunk_table_words < words) {
        glDeleteBuffers(1, &r->partials_buffer);
        glDeleteBuffers(1, &r->chunk_table_buffer);
        r->partials_buffer = plume_make_gpu_buffer((GLsizeiptr)(slots * slot_bytes), "plume draw: tiled chunk partials");
        r->chunk_table_buffer = plume_make_gpu_buffer((GLsizeiptr)words * 4, "plume draw: tiled chunk table");
        r->slot_capacity = slots;
        r->chunk_table_words = words;
        plume_result result = plume_drain_gl_errors(&s->env, "plume_system_draw (tiled chunks)");
        if (result != PLUME_OK) {
            r->slot_capacity = r->chunk_table_words = 0;
            return result;
        }
    }
    r->chunk_entries_in_use = k;
    return PLUME_OK;
}

static void bind_texture(GLuint unit, GLuint texture, GLuint sampler) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(unit, sampler);
}

static void bind_tiled_buffers(const system_state *s) {
    const tiled_renderer *r = &s->tiled;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SPLATS, r->splats_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CONTROL, r->control_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_STATE, s->state_buffer);
}

/* 1-3: project, scan, control, entries. */

/* One level of the scan over `capacity` counts (level 0: the counts, level
 * k: the block totals of level k - 1): up, each block scanned and its total
 * written to the next level; down (`add`), each block offset by the scanned
 * totals before it. The scan program is in use. */
static void run_scan_level(const tiled_renderer *r, uint32_t capacity, uint32_t level, bool add, GLint count_at,
                           GLint add_at) {
    uint32_t n = level == 0 ? capacity : r->scan_level_size[level - 1];
    if (level == 0) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    else
        glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->scan_sums_buffer,
                          r->scan_level_offset[level - 1], (GLsizeiptr)n * 4);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_SCAN_SUMS, r->scan_sums_buffer,
                      r->scan_level_offset[level], (GLsizeiptr)r->scan_level_size[level] * 4);
    glProgramUniform1ui(r->programs.scan, count_at, n);
    glProgramUniform1i(r->programs.scan, add_at, add);
    glDispatchCompute(r->scan_level_size[level], 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void build_entries(system_state *s, const mat4 view, const mat4 projection, const tiled_target *t,
                          const uint32_t tiles[2]) {
    tiled_renderer *r = &s->tiled;
    uint32_t capacity = s->desc.capacity, groups = divide_up(capacity, PLUME_TILED_PROJECT_GROUP_SIZE);
    bind_tiled_buffers(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MOTION, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->live_list_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAITS, s->traits_buffer);

    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled project");
    GLuint p = r->programs.project;
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, uniform(p, "u_view"), 1, GL_FALSE, &view[0][0]);
    glProgramUniformMatrix4fv(p, uniform(p, "u_projection"), 1, GL_FALSE, &projection[0][0]);
    glProgramUniform3f(p, uniform(p, "u_camera_right"), view[0][0], view[1][0], view[2][0]);
    glProgramUniform3f(p, uniform(p, "u_camera_up"), view[0][1], view[1][1], view[2][1]);
    glProgramUniform2f(p, uniform(p, "u_target_size"), (float)t->width, (float)t->height);
    glProgramUniform1ui(p, uniform(p, "u_capacity"), capacity);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glPopDebugGroup();

    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled scan");
    GLuint scan = r->programs.scan;
    glUseProgram(scan);
    GLint count_at = uniform(scan, "u_count"), add_at = uniform(scan, "u_add");
    /* Up: each level scanned in blocks, its block totals into the next. */
    for (uint32_t level = 0; level < r->scan_levels; ++level) run_scan_level(r, capacity, level, false, count_at, add_at);
    /* Down: each level's blocks offset by the scanned totals before them. */
    for (uint32_t level = r->scan_levels - 1; level-- > 0;) run_scan_level(r, capacity, level, true, count_at, add_at);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COUNTS, r->counts_buffer);
    GLuint control = r->programs.control;
    glUseProgram(control);
    glProgramUniform1ui(control, uniform(control, "u_capacity"), capacity);
    glProgramUniform1ui(control, uniform(control, "u_budget"), r->budget);
    glProgramUniform2ui(control, uniform(control, "u_tiles"), tiles[0], tiles[1]);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    glPopDebugGroup();

    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled entries");
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->entries_buffer);
    GLuint e = r->programs.entries;
    glUseProgram(e);
    glProgramUniform1ui(e, uniform(e, "u_capacity"), capacity);
    glProgramUniform2ui(e, uniform(e, "u_tiles"), tiles[0], tiles[1]);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glPopDebugGroup();
}

/* 5-6: ranges and composite, after the sort. */
static void composite(system_state *s, const plume_frame_desc *frame, const mat4 projection, const tiled_target *t,
                      const uint32_t tiles[2], GLint depth_function) {
    tiled_renderer *r = &s->tiled;
    uint32_t tile_count = tiles[0] * tiles[1];
    bind_tiled_buffers(s);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_ENTRIES, r->entries_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_RANGES, r->ranges_buffer);

    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled ranges");
    GLuint ranges = r->programs.ranges;
    glUseProgram(ranges);
    glProgramUniform1ui(ranges, uniform(ranges, "u_tile_count"), tile_count);
    glDispatchCompute(divide_up(tile_count, PLUME_TILED_RANGES_GROUP_SIZE), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glPopDebugGroup();

    uint32_t chunk_entries = r->chunk_entries_in_use;
    if (chunk_entries) {
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled chunk plan");
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CHUNK_TABLE, r->chunk_table_buffer);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_PARTIALS, r->partials_buffer);
        GLuint plan = r->programs.chunk_plan;
        glUseProgram(plan);
        glProgramUniform1ui(plan, uniform(plan, "u_tile_count"), tile_count);
        glProgramUniform1ui(plan, uniform(plan, "u_chunk_entries"), chunk_entries);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        glPopDebugGroup();
    }

    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled composite");
    GLuint c = r->programs.composite;
    glUseProgram(c);
    mat4 inverse;
    glm_mat4_inv((vec4 *)projection, inverse);
    glProgramUniformMatrix4fv(c, uniform(c, "u_inverse_projection"), 1, GL_FALSE, &inverse[0][0]);
    glProgramUniform1f(c, uniform(c, "u_soft_fade_distance"), s->desc.appearance.soft_fade_distance);
    glProgramUniform2i(c, uniform(c, "u_target_size"), t->width, t->height);
    glProgramUniform2i(c, uniform(c, "u_depth_origin"), t->depth_origin[0], t->depth_origin[1]);
    glProgramUniform2f(c, uniform(c, "u_depth_size"), t->depth_size[0], t->depth_size[1]);
    glProgramUniform1ui(c, uniform(c, "u_depth_function"), (GLuint)depth_function);
    float threshold = frame->disable_early_termination ? 0.0f
                      : frame->transmittance_threshold > 0.0f ? frame->transmittance_threshold
                                                              : 1.0f / 255.0f;
    glProgramUniform1f(c, uniform(c, "u_threshold"), threshold);
    glProgramUniform2ui(c, uniform(c, "u_tiles"), tiles[0], tiles[1]);
    glProgramUniform1ui(c, uniform(c, "u_chunk_entries"), chunk_entries);
    if (s->sprite_texture) bind_texture(0, s->sprite_texture, s->raster.sprite_sampler);
    bind_texture(1, t->depth_texture, raster_depth_sampler(&s->raster));
    glBindImageTexture(0, t->texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, r->control_buffer);
    glDispatchComputeIndirect(4 * (chunk_entries ? PLUME_TILED_CHUNK_ARGS : PLUME_TILED_COMPOSITE_ARGS));
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glPopDebugGroup();
    if (chunk_entries) {
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled resolve");
        GLuint resolve = r->programs.resolve;
        glUseProgram(resolve);
        glProgramUniform2i(resolve, uniform(resolve, "u_target_size"), t->width, t->height);
        glProgramUniform1f(resolve, uniform(resolve, "u_threshold"), threshold);
        glProgramUniform2ui(resolve, uniform(resolve, "u_tiles"), tiles[0], tiles[1]);
        glDispatchCompute(tiles[0], tiles[1], 1);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        glPopDebugGroup();
    }
}

/* 7 at full resolution: the raster fallback (no instance unless the frame
 * overflowed), then the target blended onto the host's framebuffer. */
static void blend_full(system_state *s, const mat4 view, const mat4 projection, const tiled_target *t,
                       const GLint viewport[4]) {
    tiled_renderer *r = &s->tiled;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled raster fallback");
    raster_draw(s, view, projection, t->depth_texture, t->depth_size, r->control_buffer, 4 * PLUME_TILED_RASTER_ARGS);
    glPopDebugGroup();
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled blend");
    GLuint b = r->programs.blend;
    glUseProgram(b);
    glProgramUniform2i(b, uniform(b, "u_viewport_origin"), viewport[0], viewport[1]);
    bind_texture(0, t->texture, raster_depth_sampler(&s->raster));
    glDisable(GL_DEPTH_TEST);
    /* raster_draw left the premultiplied blend on and the vertex array bound */
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, r->control_buffer);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)(4 * PLUME_TILED_BLEND_ARGS));
    glPopDebugGroup();
}

plume_result tiled_draw(system_state *s, const plume_frame_desc *frame, const mat4 view, const mat4 projection,
                        int factor, plume_gl_scope *scope) {
    tiled_renderer *r = &s->tiled;
    if (r->unavailable) return PLUME_ERROR_GL_UNSUPPORTED;
    plume_gl_scope_save(scope, PLUME_SCOPE_IMAGE_UNIT | PLUME_SCOPE_COPY_BUFFERS);
    plume_result result = PLUME_OK;
    if (!r->programs.composite) {
        result = create(s);
        if (result != PLUME_OK) {
            plume_log(&s->env, PLUME_LOG_WARNING,
                      "plume_system_draw: the tiled draw path cannot be made on this GL (%s); drawing with the "
                      "raster path",
                      plume_result_string(result));
            tiled_release(s);
            r->unavailable = true;
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
    }
    if ((result = grow_budget(s)) != PLUME_OK) return result;

    GLint viewport[4] = {0, 0, 1, 1}, depth_function = GL_LESS;
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_DEPTH_FUNC, &depth_function);
    tiled_target t = {0};
    lowres_pass pass;
    if (factor == 1) {
        if ((result = ensure_full_target(s, viewport[2], viewport[3])) != PLUME_OK) return result;
        t = (tiled_target){.texture = r->target, .width = viewport[2], .height = viewport[3],
                           .depth_texture = frame->depth_texture, .depth_origin = {viewport[0], viewport[1]}};
        bool sized = frame->viewport_size[0] > 0 && frame->viewport_size[1] > 0;
        t.depth_size[0] = (float)(sized ? frame->viewport_size[0] : viewport[2]);
        t.depth_size[1] = (float)(sized ? frame->viewport_size[1] : viewport[3]);
    } else {
        if ((result = lowres_begin(s, frame, factor, &pass)) != PLUME_OK) return result;
        t = (tiled_target){.texture = s->lowres.particles, .width = s->lowres.width, .height = s->lowres.height,
                           .depth_texture = s->lowres.depth_copy,
                           .depth_size = {(float)s->lowres.width, (float)s->lowres.height}};
    }
    uint32_t tile = tile_size_of(r);
    uint32_t tiles[2] = {divide_up((uint32_t)t.width, tile), divide_up((uint32_t)t.height, tile)};
    ensure_ranges(r, tiles[0] * tiles[1]);
    if ((result = ensure_chunks(s, tiles[0] * tiles[1])) != PLUME_OK) return result;
    uint32_t key_bits = entry_key_bits_for(tiles[0] * tiles[1]);
    if (key_bits != r->sorter_key_bits) {
        plume_sorter_destroy(s->context, r->sorter);
        r->sorter = (plume_sorter){0};
        if ((result = make_entry_sorter(s, r->budget, key_bits)) != PLUME_OK) return result;
    }

    build_entries(s, view, projection, &t, tiles);
    profiler_capture_u32(s->profiler, PROFILER_VALUE_TILED_ENTRIES, r->control_buffer, 4 * PLUME_TILED_ENTRY_COUNT,
                         scope);
    profiler_set_u32(s->profiler, PROFILER_VALUE_TILED_BUDGET, r->budget);
    record_entry_count(r);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled entry sort");
    result = plume_sort_indirect_bounded(s->context, r->sorter, r->entries_buffer, r->control_buffer,
                                         4 * PLUME_TILED_SORT_COUNT, r->budget);
    glPopDebugGroup();
    composite(s, frame, projection, &t, tiles, depth_function);
    if (factor == 1) {
        blend_full(s, view, projection, &t, viewport);
    } else {
        /* The fallback into the low-resolution target (cleared by
         * lowres_begin), then the upsample. */
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: tiled raster fallback");
        raster_draw(s, view, projection, s->lowres.depth_copy, t.depth_size, r->control_buffer,
                    4 * PLUME_TILED_RASTER_ARGS);
        glPopDebugGroup();
        lowres_end(s, frame, projection, &pass);
    }
    return result;
}
