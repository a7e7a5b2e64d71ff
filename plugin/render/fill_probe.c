/* The automatic draw path's fill probe (fill_probe.h). */
#include "render/fill_probe.h"

#include "render/draw_path.h"

static void collect(fill_probe *p, plume_gl_scope *scope) {
    /* From the next to begin, the oldest: the reads' ring ends with the newest. */
    for (uint32_t k = 0; k < FILL_PROBE_QUERIES; ++k) {
        uint32_t i = (p->next + k) % FILL_PROBE_QUERIES;
        if (!p->pixels[i]) continue;
        /* A host's query buffer would take the results (at the pointer's
         * value as an offset): 0 while they are read. */
        plume_gl_scope_save(scope, PLUME_SCOPE_QUERY_BUFFER);
        GLuint available = GL_FALSE, samples = 0;
        glGetQueryObjectuiv(p->queries[i], GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) continue;
        glGetQueryObjectuiv(p->queries[i], GL_QUERY_RESULT, &samples);
        p->fills[p->read_next] = (float)samples / (float)p->pixels[i];
        p->fill_bounds[p->read_next] = p->bounds[i];
        p->read_next = (p->read_next + 1) % FILL_PROBE_READS;
        p->pixels[i] = 0;
    }
}

static float estimate(const fill_probe *p, uint32_t drawn_bound) {
    float largest = 0.0f;
    for (int i = 0; i < FILL_PROBE_READS; ++i) {
        float fill = p->fill_bounds[i] ? p->fills[i] * (float)drawn_bound / (float)p->fill_bounds[i] : p->fills[i];
        if (fill > largest) largest = fill;
    }
    return largest;
}

bool fill_probe_counts(const plume_frame_desc *frame) {
    return draw_path_is_automatic(frame) && frame->depth_texture != 0;
}

float fill_probe_fill_for(fill_probe *p, const plume_frame_desc *frame, uint32_t drawn_bound, plume_gl_scope *scope) {
    if (!fill_probe_counts(frame)) return 0.0f;
    collect(p, scope);
    return estimate(p, drawn_bound);
}

bool fill_probe_begin(fill_probe *p, int viewport_pixels, uint32_t drawn_bound) {
    if (viewport_pixels <= 0) return false;
    if (p->until_turn > 0) {
        --p->until_turn;
        return false;
    }
    /* This draw's turn, taken or not (the asks below cost a wait on a
     * threaded driver: once a turn). About one draw in eight; a cycle of 41
     * draws, a prime, so that views drawn in a fixed order each fall on
     * turns, whatever their number. */
    static const uint8_t SPACING[] = {5, 6, 7, 8, 10};
    p->until_turn = SPACING[p->turns++ % (sizeof SPACING / sizeof SPACING[0])];
    if (p->pixels[p->next]) return false;
    /* One occlusion query runs at a time, of any of the three kinds (they
     * share one binding point: GL 4.6 core, 4.2, BeginQuery's errors), each
     * asked for its own kind: the host's own, if any, goes on. */
    static const GLenum OCCLUSION[] = {GL_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED_CONSERVATIVE};
    for (size_t i = 0; i < sizeof OCCLUSION / sizeof OCCLUSION[0]; ++i) {
        GLint running = 0;
        glGetQueryiv(OCCLUSION[i], GL_CURRENT_QUERY, &running);
        if (running) return false;
    }
    /* Made as it is first begun: a name never begun is no query yet. */
    if (!p->queries[p->next]) glGenQueries(1, &p->queries[p->next]);
    glBeginQuery(GL_SAMPLES_PASSED, p->queries[p->next]);
    p->pixels[p->next] = (uint32_t)viewport_pixels;
    p->bounds[p->next] = drawn_bound;
    p->next = (p->next + 1) % FILL_PROBE_QUERIES;
    return true;
}

void fill_probe_end(void) { glEndQuery(GL_SAMPLES_PASSED); }

void fill_probe_release(fill_probe *p, const plume_env *env) {
    plume_gl_object owned[FILL_PROBE_QUERIES];
    plume_delete_gl_objects(env, owned, fill_probe_list(p, owned, FILL_PROBE_QUERIES));
    *p = (fill_probe){0};
}

uint32_t fill_probe_list(const fill_probe *p, plume_gl_object *out, uint32_t capacity) {
    plume_gl_object all[FILL_PROBE_QUERIES];
    for (int i = 0; i < FILL_PROBE_QUERIES; ++i) all[i] = (plume_gl_object){GL_QUERY, p->queries[i]};
    return plume_list_named_gl_objects(all, FILL_PROBE_QUERIES, out, capacity);
}
