/* plume_batch_draw (plume_batch.h): a batch of systems drawn as one draw
 * group of any size.
 *
 * The context keeps one batch (a context attachment): the group of the last
 * list drawn (draw_group_resources.c's group_make, its programs from the
 * context's cache), remade when a call lists other systems. A list is known
 * by a hash of its handles in order; each system remembers, in an
 * attachment of its own, the hash of the list that last drew it and its
 * update count then, so a second list in one frame (between two updates of
 * a system) is refused while one list drawn for several views is not. */
#include <string.h>

#include "plume/plume_batch.h"
#include "particles/batch_profile.h"
#include "render/draw_group_internal.h"

static const char *const CALLER = "plume_batch_draw";

typedef struct batch_draw_state {
    group_state *group;      /* the last list's; NULL before the first draw */
    uint64_t list_hash;      /* its handles' hash */
    uint64_t *live;          /* every live system's handle, for a call without a list */
    particle_view *checked;  /* a new list's views while it is checked and made */
    uint32_t live_capacity, checked_capacity;
} batch_draw_state;

static void release_batch(void *state, plume_context *context) {
    batch_draw_state *b = state;
    const plume_env *env = plume_context_env(context);
    group_free(b->group);
    plume_free(env, b->live);
    plume_free(env, b->checked);
    *b = (batch_draw_state){0};
}

static uint32_t list_batch_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const batch_draw_state *b = state;
    return b->group ? group_list_gl_objects(b->group, out, capacity) : 0;
}

static const plume_context_attachment_class BATCH_DRAW = {"batch draw", release_batch, list_batch_gl_objects};

/* Per system: the list that last drew it and the update it drew. */
typedef struct batch_mark {
    uint64_t list_hash, update_count;
} batch_mark;

static uint32_t list_mark_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    (void)state;
    (void)out;
    (void)capacity;
    return 0;
}

/* A system of the kept list destroyed: the kept group goes with it (the
 * next call remakes one), so no draw state outlives the systems it drew. */
static void release_mark(void *state, plume_context *context) {
    const batch_mark *mark = state;
    const batch_draw_state *b = plume_context_attachment(context, &BATCH_DRAW);
    if (b && b->group && mark->list_hash == b->list_hash) plume_context_detach(context, &BATCH_DRAW);
}

static const particle_attachment_class BATCH_MARK = {"batch mark", release_mark, list_mark_gl_objects};
_Static_assert(sizeof(batch_mark) <= PARTICLE_ATTACHMENT_BYTES / PARTICLE_MAX_ATTACHMENTS,
               "a system's batch mark fits its share of the attachment bytes");

/* FNV-1a over the handles, in order. */
static uint64_t hash_list(const plume_system *systems, uint32_t count) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < count; ++i)
        for (int byte = 0; byte < 8; ++byte) h = (h ^ ((systems[i].id >> (8 * byte)) & 0xFFu)) * 0x100000001b3ull;
    return h ^ count;
}

/* `*array` holding at least `count` elements of `size` bytes. */
static bool grow(const plume_env *env, void **array, uint32_t *capacity, uint32_t count, size_t size) {
    if (*capacity >= count) return true;
    void *larger = plume_alloc(env, (size_t)count * size);
    if (!larger) {
        plume_log(env, PLUME_LOG_ERROR, "%s: no memory for a list of %u systems", CALLER, count);
        return false;
    }
    plume_free(env, *array);
    *array = larger;
    *capacity = count;
    return true;
}

/* The list the call names: `systems`, or every live system (into b->live). */
static const plume_system *listed_systems(plume_context *context, const plume_env *env, batch_draw_state *b,
                                          const plume_system *systems, uint32_t *count) {
    if (systems) return systems;
    *count = particles_list_live_systems(context, NULL, 0);
    if (!grow(env, (void **)&b->live, &b->live_capacity, *count, sizeof *b->live)) return NULL;
    particles_list_live_systems(context, b->live, *count);
    _Static_assert(sizeof(plume_system) == sizeof(uint64_t), "a handle is its id");
    return (const plume_system *)b->live;
}

static bool same_list(const group_state *g, const plume_system *systems, uint32_t count) {
    if (!g || g->system_count != count) return false;
    for (uint32_t i = 0; i < count; ++i)
        if (g->systems[i].id != systems[i].id) return false;
    return true;
}

/* The views of the kept group's systems now (its list is `systems`):
 * the first checks the frame, each must still be live. */
static plume_result find_views(plume_context *context, group_state *g, const plume_frame_desc *frame, mat4 view,
                               mat4 projection) {
    for (uint32_t i = 0; i < g->system_count; ++i) {
        plume_result r = i == 0 ? particles_find_frame_view(context, g->systems[0], CALLER, frame, &g->views[0], view,
                                                            projection)
                                : particles_find_view(context, g->systems[i], CALLER, &g->views[i]);
        if (r == PLUME_OK) continue;
        if (!g->views[i].env)
            plume_log(&g->env, PLUME_LOG_ERROR, "%s: systems[%u] is not a live system of this context", CALLER, i);
        return r;
    }
    return PLUME_OK;
}

/* A system drawn by another list since its last update: refused, named. */
static plume_result check_one_batch_a_frame(const plume_env *env, const particle_view *views, uint32_t count,
                                            uint64_t list_hash) {
    for (uint32_t i = 0; i < count; ++i) {
        const batch_mark *mark = particle_view_attachment(&views[i], &BATCH_MARK);
        if (!mark || mark->list_hash == list_hash || mark->update_count != views[i].update_count) continue;
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: systems[%u] was drawn by another batch since its last update: a system joins one batch a "
                  "frame (draw it through one list, or update it first)",
                  CALLER, i);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

/* A new list: checked as a group's, its group made (the kept one is freed
 * once the new one stands). */
static plume_result remake_group(plume_context *context, const plume_env *env, batch_draw_state *b,
                                 const plume_system *systems, uint32_t count, const plume_frame_desc *frame) {
    if (!grow(env, (void **)&b->checked, &b->checked_capacity, count, sizeof *b->checked))
        return PLUME_ERROR_OUT_OF_MEMORY;
    uint32_t sprite_size[2] = {0, 0};
    plume_result r = group_check_systems(env, context, CALLER, systems, count, UINT32_MAX, b->checked, sprite_size);
    mat4 view, projection;
    particle_view first;
    if (r == PLUME_OK) r = particles_find_frame_view(context, systems[0], CALLER, frame, &first, view, projection);
    if (r == PLUME_OK) r = plume_check_host_state(env, CALLER);
    uint64_t list_hash = hash_list(systems, count);
    if (r == PLUME_OK) r = check_one_batch_a_frame(env, b->checked, count, list_hash);
    group_state *g = NULL;
    if (r == PLUME_OK) r = group_make(context, env, systems, b->checked, count, false, sprite_size, CALLER, &g);
    if (r != PLUME_OK) return r;
    group_free(b->group);
    b->group = g;
    b->list_hash = list_hash;
    return PLUME_OK;
}

/* The kept group's profiler on where the batch's profiling is (a remade
 * group starts off). */
static plume_result follow_batch_profiling(const plume_context *context, group_state *g) {
    bool wanted = particles_batch_profiling(context);
    if (profiler_is_enabled(g->profiler) == wanted) return PLUME_OK;
    return profile_switch(g->profiler, &g->env, wanted);
}

static void mark_drawn(const group_state *g, uint64_t list_hash) {
    for (uint32_t i = 0; i < g->system_count; ++i) {
        batch_mark *mark = particle_view_attach(&g->views[i], &BATCH_MARK, sizeof *mark);
        if (mark) *mark = (batch_mark){list_hash, g->views[i].update_count};
    }
}

plume_result plume_batch_draw(plume_context *context, const plume_system *systems, uint32_t system_count,
                              const plume_frame_desc *frame) {
    const plume_env *env = plume_context_env(context);
    plume_result checked = particles_check_batch_call(context, CALLER, systems, system_count, frame);
    if (checked != PLUME_OK) return checked;
    if (systems && system_count == 0) return PLUME_OK;
    batch_draw_state *b = plume_context_attach(context, &BATCH_DRAW, sizeof *b);
    if (!b) return PLUME_ERROR_OUT_OF_MEMORY;
    uint32_t count = system_count;
    const plume_system *list = listed_systems(context, env, b, systems, &count);
    if (!list) return PLUME_ERROR_OUT_OF_MEMORY;
    if (count == 0) return PLUME_OK;
    plume_result r = PLUME_OK;
    if (!same_list(b->group, list, count)) r = remake_group(context, env, b, list, count, frame);
    mat4 view, projection;
    if (r == PLUME_OK) r = find_views(context, b->group, frame, view, projection);
    if (r == PLUME_OK) r = draw_check_host_inputs(env, CALLER, frame);
    if (r == PLUME_OK) r = plume_check_host_state(env, CALLER);
    if (r == PLUME_OK) r = check_one_batch_a_frame(env, b->group->views, count, b->list_hash);
    if (r == PLUME_OK) r = follow_batch_profiling(context, b->group);
    if (r != PLUME_OK) return r;
    mark_drawn(b->group, b->list_hash);
    return group_draw_frame(b->group, frame, view, projection, CALLER);
}

plume_result plume_batch_set_profiling(plume_context *context, bool enabled) {
    static const char *SET = "plume_batch_set_profiling";
    const plume_env *env = plume_context_env(context);
    if (!context) {
        plume_log(env, PLUME_LOG_ERROR, "%s: context must not be NULL", SET);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (plume_check_gl_context(env, SET) != PLUME_OK) return PLUME_ERROR_GL_UNSUPPORTED;
    plume_result r = particles_batch_set_profiling(context, enabled);
    batch_draw_state *b = plume_context_attachment(context, &BATCH_DRAW);
    if (r == PLUME_OK && b && b->group) r = follow_batch_profiling(context, b->group);
    return r;
}

plume_result plume_batch_get_profile(const plume_context *context, plume_batch_profile *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!context || !out) {
        plume_log(plume_context_env(context), PLUME_LOG_ERROR, "plume_batch_get_profile: context and out must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    particles_batch_counts counts;
    particles_batch_get_update_profile(context, &out->update, &counts);
    out->systems = counts.systems;
    out->systems_in_tables = counts.systems_in_tables;
    out->table_pages = counts.table_pages;
    out->systems_alone = counts.systems_alone;
    const batch_draw_state *b = plume_context_attachment(context, &BATCH_DRAW);
    if (b && b->group) {
        profiler_get_profile(b->group->profiler, &out->draw);
        out->drawn_systems = b->group->system_count;
    }
    return PLUME_OK;
}

#ifdef PLUME_LAB
#include "plume_lab.h"
plume_result plume_lab_batch_draw_counts_of(const plume_context *context, plume_lab_batch_draw_counts *out) {
    if (!context || !out) return PLUME_ERROR_INVALID_ARGUMENT;
    *out = (plume_lab_batch_draw_counts){0};
    const batch_draw_state *b = plume_context_attachment(context, &BATCH_DRAW);
    if (!b || !b->group) return PLUME_OK;
    const group_gather_counts *c = &b->group->gathered;
    *out = (plume_lab_batch_draw_counts){b->group->system_count, c->dispatches, c->own_systems, c->table_pages,
                                         c->table_systems};
    return PLUME_OK;
}
#endif
