/* A draw group's creation and end (draw_group.c draws with it): the
 * descriptor checked against the context, the prepare, gather and draw
 * programs built for the union of the systems' looks, the sprites copied
 * into one texture array, the state, pair and record buffers, the group's
 * sorter and its profiler;
 * the GL objects it lists and deletes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw_group_internal.h"

_Static_assert((1u << PLUME_GROUP_SLOT_BITS) == PLUME_DRAW_GROUP_MAX_SYSTEM_CAPACITY,
               "the shaders' largest grouped capacity is the API's");
_Static_assert(PLUME_BINDING_GROUP_STATE < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_GROUP_PAIRS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_GROUP_RECORDS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_GROUP_SYSTEMS < PLUME_SCOPE_SSBO_SLOTS &&
                   PLUME_BINDING_TILED_GROUP_SYSTEMS < PLUME_SCOPE_SSBO_SLOTS,
               "the GL state scope restores every binding the group's passes use");

static void free_group(void *object);
static uint32_t list_group_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity);

const plume_object_class draw_group_class = {"draw group", free_group, list_group_gl_objects};

enum { GROUP_GL_OBJECTS = 12 };

/* The group's own GL objects (not its low-resolution targets). */
static uint32_t list_own_gl_objects(const group_state *g, plume_gl_object *out, uint32_t capacity) {
    const plume_gl_object all[GROUP_GL_OBJECTS] = {
        {GL_PROGRAM, g->prepare_program}, {GL_PROGRAM, g->gather_program}, {GL_PROGRAM, g->draw_program},
        {GL_BUFFER, g->state_buffer},     {GL_BUFFER, g->pairs_buffer},    {GL_BUFFER, g->records_buffer},
        {GL_TEXTURE, g->sprite_array},    {GL_SAMPLER, g->sprite_sampler}, {GL_SAMPLER, g->depth_sampler},
        {GL_VERTEX_ARRAY, g->vertex_array}, {GL_BUFFER, g->systems_buffer}, {GL_PROGRAM, g->trail_gather_program},
    };
    return plume_list_named_gl_objects(all, GROUP_GL_OBJECTS, out, capacity);
}

static uint32_t list_group_gl_objects(const void *object, plume_gl_object *out, uint32_t capacity) {
    return group_list_gl_objects(object, out, capacity);
}

uint32_t group_list_gl_objects(const group_state *g, plume_gl_object *out, uint32_t capacity) {
    uint32_t n = list_own_gl_objects(g, out, capacity);
    n += lowres_list_gl_objects(&g->lowres, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += tiled_list_gl_objects(&g->tiled, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += profiler_list_gl_objects(g->profiler, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += group_table_list_gl_objects(g, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    n += fill_probe_list(&g->fill, n < capacity ? out + n : NULL, n < capacity ? capacity - n : 0);
    return n;
}

static void free_group(void *object) {
    group_free(object);
}

void group_free(group_state *g) {
    if (!g) return;
    plume_gl_object owned[GROUP_GL_OBJECTS];
    plume_delete_gl_objects(&g->env, owned, list_own_gl_objects(g, owned, GROUP_GL_OBJECTS));
    group_table_free(g);
    fill_probe_release(&g->fill, &g->env);
    lowres_release(&g->lowres, g->context);
    tiled_release(&g->tiled, g->context);
    plume_sorter_destroy(g->context, g->sorter); /* {0} if it was never made */
    profiler_destroy(g->profiler);
    plume_env env = g->env;
    plume_free(&env, g);
}

/* A profiled draw's sort size, once its drawn count is read. */
static void finish_profiled_draw(void *user, profiler_frame *frame) {
    const group_state *g = user;
    profile_finish_sort_values(frame, g->context, g->sorter);
}

/* ---- Creation ------------------------------------------------------------------ */

/* A full mipmap chain's levels. */
static uint32_t mip_levels(uint32_t width, uint32_t height) {
    uint32_t largest = width > height ? width : height, levels = 1;
    while (largest >>= 1) ++levels;
    return levels;
}

/* A host's sprite (host_sprite.texture) the group can copy into
 * its GL_RGBA8 array level by level: a 2D GL_RGBA8 texture with every level
 * from 0 down to 1x1. Logged under `caller` otherwise. */
static plume_result check_host_sprite(const plume_env *env, const char *caller, uint32_t index,
                                      const particle_view *view) {
    const plume_texture_desc *t = &view->desc->appearance.texture;
    if (view->sprite_is_array) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: systems[%u]'s host_sprite.target is GL_TEXTURE_2D_ARRAY; a draw group takes 2D "
                  "sprites (its array holds one layer per system)",
                  caller, index);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_TEXTURES);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, view->sprite_texture);
    GLint format = 0, base = 0, missing = -1;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, &base);
    uint32_t levels = mip_levels(t->width, t->height);
    for (uint32_t level = 0; level < levels && missing < 0; ++level) {
        GLint width = 0;
        glGetTexLevelParameteriv(GL_TEXTURE_2D, (GLint)level, GL_TEXTURE_WIDTH, &width);
        if (width == 0) missing = (GLint)level;
    }
    plume_gl_scope_end(&scope);
    if (format == GL_RGBA8 && base == 0 && missing < 0) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR,
              "%s: systems[%u]'s host_sprite.texture %u cannot be copied into the group's sprites: it "
              "needs GL_RGBA8 (it is 0x%x), base level 0 (%d) and every mipmap level (level %d missing)",
              caller, index, view->sprite_texture, (unsigned)format, base, missing);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

/* The descriptor against the context: every system live, once, within the
 * limits; one sprite size. Fills `systems` and the sprite's size (0: none). */
static plume_result check_desc(const plume_env *env, plume_context *context, const char *caller,
                               const plume_draw_group_desc *desc, particle_view *systems, uint32_t sprite_size[2]) {
    if (!desc->systems) return group_refuse(env, caller, "systems must not be NULL");
    if (desc->sort_mode != PLUME_SORT_MODE_VIEW_DEPTH && desc->sort_mode != PLUME_SORT_MODE_DISTANCE) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: sort_mode %u: a group orders by view depth (%d) or distance to the eye (%d) only", caller,
                  desc->sort_mode, PLUME_SORT_MODE_VIEW_DEPTH, PLUME_SORT_MODE_DISTANCE);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return group_check_systems(env, context, caller, desc->systems, desc->system_count, PLUME_DRAW_GROUP_MAX_SYSTEMS,
                               systems, sprite_size);
}

/* True where `handles` names one system twice (logged): sorted copies of
 * the handles compared neighbour to neighbour, so a batch of a thousand
 * systems costs no million comparisons. */
static int compare_ids(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static plume_result check_each_once(const plume_env *env, const char *caller, const plume_system *handles,
                                    uint32_t count) {
    uint64_t *ids = plume_alloc(env, (size_t)count * sizeof *ids);
    if (!ids) {
        plume_log(env, PLUME_LOG_ERROR, "%s: no memory to check the list of %u systems", caller, count);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < count; ++i) ids[i] = handles[i].id;
    qsort(ids, count, sizeof *ids, compare_ids);
    uint64_t twice = 0;
    for (uint32_t i = 1; i < count && !twice; ++i)
        if (ids[i] == ids[i - 1]) twice = ids[i];
    plume_free(env, ids);
    if (!twice) return PLUME_OK;
    uint32_t first = UINT32_MAX, second = 0;
    for (uint32_t i = 0; i < count && second == 0; ++i) {
        if (handles[i].id != twice) continue;
        if (first == UINT32_MAX) first = i;
        else second = i;
    }
    plume_log(env, PLUME_LOG_ERROR, "%s: systems[%u] and systems[%u] are the same system", caller, first, second);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

/* A system's records in a group: a slot's, or a trail system's pairs a
 * particle (its segments and its own quad). */
static uint64_t group_records_of(const particle_view *s) {
    return (uint64_t)s->desc->capacity * (s->trail.entries ? s->trail.entries : 1);
}

/* A trail system the group can draw: its texture stretched along the trail
 * (the group's sprite array is sampled clamped; a tiled texture repeats). */
static plume_result check_trail(const plume_env *env, const char *caller, uint32_t index, const particle_view *s) {
    if (!s->trail.entries || !s->sprite_texture || s->desc->trail.uv_mode != PLUME_TRAIL_UV_TILE) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR,
              "%s: systems[%u] has a texture tiled along its trail (trail.uv_mode PLUME_TRAIL_UV_TILE); a draw group "
              "stretches a trail's texture (PLUME_TRAIL_UV_STRETCH) or draws it untextured",
              caller, index);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

plume_result group_check_systems(const plume_env *env, plume_context *context, const char *caller,
                                 const plume_system *handles, uint32_t count, uint32_t max_count,
                                 particle_view *views, uint32_t sprite_size[2]) {
    if (count == 0 || count > max_count) {
        plume_log(env, PLUME_LOG_ERROR, "%s: system_count is %u; it must be 1 .. %u", caller, count, max_count);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    uint64_t total = 0;
    int textured = -1;
    plume_result r;
    for (uint32_t i = 0; i < count; ++i) {
        particle_view view;
        const particle_view *s = &view;
        if (particles_find_view(context, handles[i], caller, &view) != PLUME_OK) {
            plume_log(env, PLUME_LOG_ERROR, "%s: systems[%u] is not a live system of this context", caller, i);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        uint64_t records = group_records_of(s);
        if (records > PLUME_DRAW_GROUP_MAX_SYSTEM_CAPACITY) {
            plume_log(env, PLUME_LOG_ERROR,
                      "%s: systems[%u] has capacity %u (times %u pairs a particle of its trail); a grouped system "
                      "has at most 2^28",
                      caller, i, s->desc->capacity, (uint32_t)(records / s->desc->capacity));
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        if ((r = check_trail(env, caller, i, s)) != PLUME_OK) return r;
        if (s->desc->path == PLUME_PATH_FRAGMENT) {
            /* The group gathers from the compute path's storage buffers. */
            plume_log(env, PLUME_LOG_ERROR,
                      "%s: systems[%u] runs the fragment path (plume_system_desc.path); a draw group needs the "
                      "compute path's systems",
                      caller, i);
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
        if (s->mesh) {
            /* A group draws sprites; meshes draw on their own (plume_mesh.h). */
            plume_log(env, PLUME_LOG_ERROR, "%s: systems[%u] draws meshes (plume_system_desc.meshes.count %u); a "
                      "draw group draws sprite systems only", caller, i, s->desc->meshes.count);
            return PLUME_ERROR_INVALID_ARGUMENT;
        }
        total += records;
        const plume_texture_desc *t = &s->desc->appearance.texture;
        if (s->desc->host_sprite.texture && (r = check_host_sprite(env, caller, i, s)) != PLUME_OK) return r;
        if (s->sprite_texture) {
            if (textured >= 0 && (t->width != sprite_size[0] || t->height != sprite_size[1])) {
                plume_log(env, PLUME_LOG_ERROR,
                          "%s: systems[%d]'s sprite is %ux%u and systems[%u]'s %ux%u: a group's sprites share "
                          "one texture array, so they must have one size",
                          caller, textured, sprite_size[0], sprite_size[1], i, t->width, t->height);
                return PLUME_ERROR_INVALID_ARGUMENT;
            }
            textured = (int)i;
            sprite_size[0] = t->width;
            sprite_size[1] = t->height;
        }
        views[i] = view;
    }
    if (total > (1u << 30)) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: the systems' capacities (a trail system's times its pairs a particle) add up to %llu; a "
                  "group sorts at most 2^30",
                  caller, (unsigned long long)total);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return check_each_once(env, caller, handles, count);
}

/* The gather and draw programs serve every system of the group: they are
 * built for the union of the systems' look features (particles_look_features),
 * which draws each system as its own program would. */
static const char *const PREPARE_UNIFORM_NAMES[PREPARE_UNIFORMS + 1] = {"u_system_count", "u_vertices", NULL};
static const char *const GATHER_UNIFORM_NAMES[GATHER_UNIFORMS + 1] = {
    "u_system", "u_first_record", "u_view", "u_camera_right", "u_camera_up", "u_eye", "u_by_distance",
    "u_light_direction", NULL};
static const char *const DRAW_UNIFORM_NAMES[DRAW_UNIFORMS + 1] = {
    "u_view",        "u_projection",    "u_soft_fade", "u_viewport_size", "u_inverse_projection",
    "u_light_color", "u_ambient_color", "u_sprites",   "u_scene_depth",   "u_depth_convention",
    "u_eye",         "u_camera_right",  "u_camera_up", "u_light_direction", "u_trail_target", NULL};
static const char *const TRAIL_GATHER_UNIFORM_NAMES[TRAIL_GATHER_UNIFORMS + 1] = {
    "u_system", "u_last_system", "u_first_record", "u_view", "u_camera_right", "u_camera_up", "u_group_eye",
    "u_group_by_distance", "u_light_direction", NULL};

static plume_result build_programs(group_state *g, const particle_view *systems, uint32_t count) {
    uint32_t features = 0;
    for (uint32_t i = 0; i < count; ++i) features |= particles_look_features(systems[i].desc);
    g->look = features;
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(features, look);
    char records_written[LOOK_DEFINES_SIZE + 96], records_read[LOOK_DEFINES_SIZE + 48];
    snprintf(records_written, sizeof records_written,
             "#define PARTICLE_TRAITS_ACCESS readonly\n#define GROUP_RECORD_ACCESS writeonly\n%s", look);
    snprintf(records_read, sizeof records_read, "#define GROUP_RECORD_ACCESS readonly\n%s", look);
    plume_shader_stage prepare = {GL_COMPUTE_SHADER, "render/draw_group_prepare.comp"};
    plume_shader_stage gather = {GL_COMPUTE_SHADER, "render/draw_group_gather.comp"};
    plume_shader_stage draw[2] = {
        {GL_VERTEX_SHADER, "render/draw_group.vert"},
        {GL_FRAGMENT_SHADER, "render/draw_group.frag"},
    };
    plume_result r;
    if ((r = plume_build_program(&g->env, "plume draw group: prepare", &prepare, 1, NULL, &g->prepare_program)) ||
        (r = plume_build_program(&g->env, "plume draw group: gather", &gather, 1, records_written,
                                 &g->gather_program)) ||
        (r = plume_build_program(&g->env, "plume draw group: draw", draw, 2, records_read, &g->draw_program)))
        return r;
    if (g->has_trails) {
        plume_shader_stage trail_gather = {GL_COMPUTE_SHADER, "render/draw_group_trail_gather.comp"};
        r = plume_build_program(&g->env, "plume draw group: trail gather", &trail_gather, 1, records_written,
                                &g->trail_gather_program);
        if (r != PLUME_OK) return r;
        GLuint t = g->trail_gather_program;
        plume_find_uniform_locations(t, TRAIL_GATHER_UNIFORM_NAMES, g->at.trail_gather);
        particle_find_uniforms(t, &g->at.trail_gather_appearance);
        trail_find_uniforms(t, &g->at.trail_gather_trail);
    }
    GLuint p = g->gather_program, d = g->draw_program;
    plume_find_uniform_locations(g->prepare_program, PREPARE_UNIFORM_NAMES, g->at.prepare);
    plume_find_uniform_locations(p, GATHER_UNIFORM_NAMES, g->at.gather);
    plume_find_uniform_locations(d, DRAW_UNIFORM_NAMES, g->at.draw);
    particle_find_uniforms(p, &g->at.gather_appearance);
    glProgramUniform1i(d, g->at.draw[DRAW_SPRITES], 0);
    glProgramUniform1i(d, g->at.draw[DRAW_SCENE_DEPTH], 1);
    return PLUME_OK;
}


/* The sprites as layers of one array texture, every mip level copied (the
 * sprites are complete: uploaded with their mipmaps), and the systems'
 * table (render/draw_group_systems.glsl): each system's layer, flipbook,
 * lit and soft fade. Binds unit 0's GL_TEXTURE_2D_ARRAY and
 * GL_COPY_WRITE_BUFFER (the caller's scope restores them). */
static plume_result make_sprites_and_table(group_state *g, const particle_view *systems,
                                           const uint32_t sprite_size[2]) {
    uint32_t *table = plume_alloc(&g->env, (size_t)g->system_count * 4 * PLUME_GROUP_SYSTEM_WORDS);
    if (!table) return PLUME_ERROR_OUT_OF_MEMORY;
    GLint layers = 0;
    for (uint32_t i = 0; i < g->system_count; ++i) {
        const plume_system_desc *desc = systems[i].desc;
        uint32_t *row = table + (size_t)PLUME_GROUP_SYSTEM_WORDS * i;
        float fade = desc->appearance.soft_fade_distance;
        row[0] = (uint32_t)(systems[i].sprite_texture ? layers++ : -1);
        row[1] = desc->appearance.texture.columns | desc->appearance.texture.rows << 16;
        row[2] = desc->lit;
        memcpy(&row[3], &fade, sizeof fade);
        if (fade > g->largest_soft_fade) g->largest_soft_fade = fade;
    }
    g->systems_buffer = plume_make_gpu_buffer(&g->env, (GLsizeiptr)g->system_count * 4 * PLUME_GROUP_SYSTEM_WORDS,
                                              "plume draw group: systems");
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)g->system_count * 4 * PLUME_GROUP_SYSTEM_WORDS, table);
    if (layers > 0) {
        GLint most = 0;
        glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &most);
        if (layers > most) {
            plume_log(&g->env, PLUME_LOG_ERROR,
                      "plume draw group: %d textured systems; the GL's sprite array holds at most %d "
                      "(GL_MAX_ARRAY_TEXTURE_LAYERS)",
                      layers, most);
            plume_free(&g->env, table);
            return PLUME_ERROR_GL_UNSUPPORTED;
        }
        uint32_t levels = mip_levels(sprite_size[0], sprite_size[1]);
        glActiveTexture(GL_TEXTURE0);
        glGenTextures(1, &g->sprite_array);
        glBindTexture(GL_TEXTURE_2D_ARRAY, g->sprite_array);
        glTexStorage3D(GL_TEXTURE_2D_ARRAY, (GLsizei)levels, GL_RGBA8, (GLsizei)sprite_size[0],
                       (GLsizei)sprite_size[1], layers);
        plume_label_gl_object(&g->env, GL_TEXTURE, g->sprite_array, "plume draw group: sprites");
        for (uint32_t i = 0; i < g->system_count; ++i) {
            GLint layer = (GLint)table[(size_t)PLUME_GROUP_SYSTEM_WORDS * i];
            if (layer < 0) continue;
            for (uint32_t level = 0; level < levels; ++level) {
                GLsizei w = (GLsizei)(sprite_size[0] >> level), h = (GLsizei)(sprite_size[1] >> level);
                glCopyImageSubData(systems[i].sprite_texture, GL_TEXTURE_2D, (GLint)level, 0, 0, 0, g->sprite_array,
                                   GL_TEXTURE_2D_ARRAY, (GLint)level, 0, 0, layer, w > 0 ? w : 1, h > 0 ? h : 1, 1);
            }
        }
    }
    plume_free(&g->env, table);
    return PLUME_OK;
}

static plume_result create_objects(group_state *g, const particle_view *systems, const uint32_t sprite_size[2],
                                   const char *caller) {
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    uint64_t record_bytes = (uint64_t)g->total_capacity * GROUP_RECORD_BYTES;
    if (record_bytes > (uint64_t)block) {
        plume_log(&g->env, PLUME_LOG_ERROR,
                  "%s: the records of %u particles take %llu bytes; GL_MAX_SHADER_STORAGE_BLOCK_SIZE is %lld", caller,
                  g->total_capacity, (unsigned long long)record_bytes, (long long)block);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    plume_result r = build_programs(g, systems, g->system_count);
    if (r != PLUME_OK) return r;
    size_t state_bytes = group_state_bytes(g->system_count);
    g->state_buffer = plume_make_gpu_buffer(&g->env, (GLsizeiptr)state_bytes, "plume draw group: state");
    uint32_t *zero = plume_alloc(&g->env, state_bytes); /* read back before a draw: nothing drawn */
    if (!zero) return PLUME_ERROR_OUT_OF_MEMORY;
    memset(zero, 0, state_bytes);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)state_bytes, zero);
    plume_free(&g->env, zero);
    g->pairs_buffer = plume_make_gpu_buffer(&g->env, (GLsizeiptr)g->total_capacity * PLUME_PAIR_BYTES, "plume draw group: pairs");
    g->records_buffer = plume_make_gpu_buffer(&g->env, (GLsizeiptr)record_bytes, "plume draw group: records");
    draw_create_samplers(&g->sprite_sampler, &g->depth_sampler);
    glGenVertexArrays(1, &g->vertex_array);
    if ((r = make_sprites_and_table(g, systems, sprite_size)) != PLUME_OK) return r;
    if ((r = group_table_make(g, systems)) != PLUME_OK) return r;
    if ((r = plume_drain_gl_errors(&g->env, caller)) != PLUME_OK) return r;
    plume_sorter_desc sorter = {.capacity = g->total_capacity, .logger = g->env.logger, .allocator = g->env.allocator};
    if ((r = plume_sorter_create(g->context, &sorter, &g->sorter)) != PLUME_OK) return r;
    /* The low resolutions' sub-stages are timed in the group's draw
     * (group_view). */
    profiler_desc profiling = {0};
    if ((r = profiler_create(&g->env, &profiling, &g->profiler)) != PLUME_OK) return r;
    profiler_set_frame_finisher(g->profiler, finish_profiled_draw, g);
    return PLUME_OK;
}

plume_result group_make(plume_context *context, const plume_env *env, const plume_system *handles,
                        const particle_view *views, uint32_t count, bool by_distance, const uint32_t sprite_size[2],
                        const char *caller, group_state **out) {
    *out = NULL;
    /* The state and its per-system arrays in one block. */
    size_t bytes =
        sizeof(group_state) + (size_t)count * (sizeof(plume_system) + sizeof(particle_view) + 2 * sizeof(uint32_t));
    group_state *g = plume_alloc(env, bytes);
    if (!g) {
        plume_log(env, PLUME_LOG_ERROR, "%s: no memory for a group of %u systems", caller, count);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    memset(g, 0, bytes);
    g->env = *env;
    g->context = context;
    g->system_count = count;
    g->by_distance = by_distance;
    g->views = (particle_view *)(g + 1);
    g->systems = (plume_system *)(g->views + count);
    g->first_record = (uint32_t *)(g->systems + count);
    g->entries = g->first_record + count;
    for (uint32_t i = 0; i < count; ++i) {
        g->systems[i] = handles[i];
        g->first_record[i] = g->total_capacity;
        g->entries[i] = views[i].trail.entries ? views[i].trail.entries : 1;
        g->has_trails = g->has_trails || views[i].trail.entries > 0;
        g->total_capacity += (uint32_t)group_records_of(&views[i]);
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS | PLUME_SCOPE_TEXTURES);
    plume_result r = create_objects(g, views, sprite_size, caller);
    plume_gl_scope_end(&scope);
    if (r != PLUME_OK) {
        group_free(g);
        return r;
    }
    *out = g;
    return PLUME_OK;
}

plume_result plume_draw_group_create(plume_context *context, const plume_draw_group_desc *desc,
                                     plume_draw_group *out_group) {
    static const char *CALLER = "plume_draw_group_create";
    if (out_group) *out_group = (plume_draw_group){0};
    plume_env env;
    plume_result r = plume_object_env(context, CALLER, desc != NULL, out_group != NULL, desc ? &desc->logger : NULL,
                                      desc ? &desc->allocator : NULL, &env);
    if (r != PLUME_OK) return r;
    particle_view systems[PLUME_DRAW_GROUP_MAX_SYSTEMS];
    uint32_t sprite_size[2] = {0, 0};
    if ((r = check_desc(&env, context, CALLER, desc, systems, sprite_size)) != PLUME_OK) return r;
    if ((r = plume_check_host_state(&env, CALLER)) != PLUME_OK) return r;
    group_state *g;
    r = group_make(context, &env, desc->systems, systems, desc->system_count,
                   desc->sort_mode == PLUME_SORT_MODE_DISTANCE, sprite_size, CALLER, &g);
    if (r != PLUME_OK) return r;
    uint64_t id = 0;
    r = plume_context_file_or_free(context, &draw_group_class, g, r, &id);
    if (r == PLUME_OK) out_group->id = id;
    return r;
}

plume_result plume_draw_group_destroy(plume_context *context, plume_draw_group group) {
    return plume_context_destroy_object(context, group.id, &draw_group_class, "plume_draw_group_destroy");
}
