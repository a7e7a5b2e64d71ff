/* GPU profiler: a ring of GL timestamp queries, read without waiting
 * (profiler.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"

enum { BEGIN = 0, END = 1 };

/* Debug group names; labels use the part after "plume ". */
static const char *const STAGE_GROUP_NAMES[PLUME_STAGE_COUNT] = {"plume simulate", "plume sort", "plume draw",
                                                                  "plume update"};
enum { GROUP_NAME_PREFIX = sizeof "plume " - 1 };
/* The query labels of the spans after the stages: the draw's sub-stages. */
static const char *const DRAW_STAGE_LABELS[PLUME_DRAW_STAGE_COUNT] = {
    "draw project", "draw scan",      "draw entries", "draw tile sort",  "draw ranges",
    "draw composite", "draw resolve", "draw blend",   "draw downsample", "draw upsample"};

static const char *span_label(int span) {
    return span < PLUME_STAGE_COUNT ? STAGE_GROUP_NAMES[span] + GROUP_NAME_PREFIX
                                    : DRAW_STAGE_LABELS[span - PLUME_STAGE_COUNT];
}

typedef enum slot_state {
    SLOT_FREE = 0,    /* no frame: queries and readback buffer reusable */
    SLOT_RECORDING,   /* the open frame */
    SLOT_IN_FLIGHT    /* closed, fenced, waiting for the GPU */
} slot_state;

typedef struct profiler_slot {
    slot_state state;
    uint64_t frame_index;
    GLuint queries[PROFILER_SPAN_COUNT][2]; /* [span][BEGIN/END] timestamps: stages, then draw sub-stages */
    uint32_t begun_mask, ended_mask;        /* spans whose timestamps were issued */
    uint64_t labeled_mask;                  /* bit 2*span+end: query labeled */
    GLuint readback_buffer;                /* PROFILER_VALUE_COUNT uints */
    uint32_t captured_mask;                /* values copied on the GPU this frame */
    uint32_t cpu_value_mask;
    uint32_t cpu_values[PROFILER_VALUE_COUNT];
    GLsync fence;                          /* behind the frame's last command */
} profiler_slot;

struct plume_profiler {
    plume_env env;
    uint32_t ring_depth, window;
    bool enabled;
    bool timer_available;
    bool flush_timestamps;             /* CPU rasterizer: see issue_timestamp */
    int timer_bits;
    GLint max_debug_depth;
    profiler_slot *slots;
    uint32_t fifo_head, fifo_count;    /* recording and in-flight slots, oldest first */
    bool recording;                    /* fifo's newest slot is the open frame */
    uint32_t pushed_groups;            /* stages whose debug group is open */
    profiler_frame *history;           /* circular, `window` frames */
    uint32_t history_next, history_count;
    double *samples, *scratch;         /* `window` doubles each, for statistics */
    profiler_counters counters;
    profiler_frame_finisher finisher;
    void *finisher_user;
};

/* ---- Pure helpers -------------------------------------------------------- */

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void profiler_timing_from_samples(const double *samples, uint32_t count, double *scratch, plume_stage_timing *out) {
    memset(out, 0, sizeof *out);
    if (count == 0) return;
    memcpy(scratch, samples, sizeof(double) * count);
    qsort(scratch, count, sizeof(double), compare_doubles);
    double sum = 0.0;
    for (uint32_t i = 0; i < count; ++i) sum += scratch[i];
    /* Nearest rank: the ceil(0.95 n)-th smallest, in integers so that 0.95 n
     * landing on a whole number does not round up through float error. */
    uint32_t rank = (uint32_t)(((uint64_t)count * 95 + 99) / 100);
    out->mean_ms = sum / count;
    out->min_ms = scratch[0];
    out->max_ms = scratch[count - 1];
    out->p95_ms = scratch[rank - 1];
    out->samples = count;
}

double profiler_median(double *values, uint32_t count) {
    if (count == 0) return 0.0;
    qsort(values, count, sizeof(double), compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

bool profiler_timestamp_delta(uint64_t begin, uint64_t end, int bits, uint64_t *out_ns) {
    if (bits >= 64) {
        if (end < begin) return false;
        *out_ns = end - begin;
        return true;
    }
    uint64_t mask = bits <= 0 ? 0 : (UINT64_C(1) << bits) - 1;
    *out_ns = (end - begin) & mask;
    return true;
}

/* ---- Creation ------------------------------------------------------------ */

plume_result profiler_create(const plume_env *env, const profiler_desc *desc, plume_profiler **out_profiler) {
    if (out_profiler) *out_profiler = NULL;
    if (!env) return PLUME_ERROR_INVALID_ARGUMENT;
    if (!desc || !out_profiler) {
        plume_log(env, PLUME_LOG_ERROR, "profiler_create: desc and out_profiler must not be NULL");
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    uint32_t depth = desc->ring_depth ? desc->ring_depth : PROFILER_DEFAULT_RING_DEPTH;
    uint32_t window = desc->window ? desc->window : PROFILER_DEFAULT_WINDOW;
    if (depth < PROFILER_MIN_RING_DEPTH || depth > PROFILER_MAX_RING_DEPTH || window > PROFILER_MAX_WINDOW) {
        plume_log(env, PLUME_LOG_ERROR, "profiler_create: ring depth %u (%d .. %d) or window %u (1 .. %d) out of range",
                  depth, PROFILER_MIN_RING_DEPTH, PROFILER_MAX_RING_DEPTH, window, PROFILER_MAX_WINDOW);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_profiler *p = plume_alloc(env, sizeof *p);
    if (!p) return PLUME_ERROR_OUT_OF_MEMORY;
    p->env = *env;
    p->ring_depth = depth;
    p->window = window;
    p->slots = plume_alloc(env, sizeof(profiler_slot) * depth);
    p->history = plume_alloc(env, sizeof(profiler_frame) * window);
    p->samples = plume_alloc(env, sizeof(double) * window);
    p->scratch = plume_alloc(env, sizeof(double) * window);
    if (!p->slots || !p->history || !p->samples || !p->scratch) {
        profiler_destroy(p);
        return PLUME_ERROR_OUT_OF_MEMORY;
    }
    *out_profiler = p;
    return PLUME_OK;
}

enum { SLOT_GL_OBJECTS = 2 * PROFILER_SPAN_COUNT + 1, PROFILER_GL_OBJECTS = PROFILER_MAX_RING_DEPTH * SLOT_GL_OBJECTS };

uint32_t profiler_list_gl_objects(const plume_profiler *p, plume_gl_object *out, uint32_t capacity) {
    if (!p) return 0;
    plume_gl_object all[PROFILER_GL_OBJECTS];
    uint32_t count = 0;
    for (uint32_t i = 0; i < p->ring_depth; ++i) {
        const profiler_slot *slot = &p->slots[i];
        /* A generated query name is an object only from its first use (a
         * sub-stage the draw never ran has none): those labeled. */
        for (int span = 0; span < PROFILER_SPAN_COUNT; ++span)
            for (int end = BEGIN; end <= END; ++end)
                if (slot->labeled_mask & (UINT64_C(1) << (2 * span + end)))
                    all[count++] = (plume_gl_object){GL_QUERY, slot->queries[span][end]};
        all[count++] = (plume_gl_object){GL_BUFFER, slot->readback_buffer};
    }
    return plume_list_named_gl_objects(all, count, out, capacity);
}

static void delete_gl_objects(plume_profiler *p) {
    plume_gl_object owned[PROFILER_GL_OBJECTS];
    plume_delete_gl_objects(&p->env, owned, profiler_list_gl_objects(p, owned, PROFILER_GL_OBJECTS));
    for (uint32_t i = 0; i < p->ring_depth; ++i) {
        profiler_slot *slot = &p->slots[i];
        if (p->timer_available) glDeleteQueries(2 * PROFILER_SPAN_COUNT, &slot->queries[0][0]); /* the unused names */
        if (slot->fence) glDeleteSync(slot->fence);
        memset(slot, 0, sizeof *slot);
    }
    p->counters.queries_alive = 0;
    p->fifo_head = p->fifo_count = 0;
    p->recording = false;
}

static plume_result create_gl_objects(plume_profiler *p) {
    GLint bits = 0;
    glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
    p->timer_bits = bits;
    p->timer_available = bits > 0;
    if (!p->timer_available)
        plume_log(&p->env, PLUME_LOG_WARNING,
                  "profiler: this GL has no timer (GL_QUERY_COUNTER_BITS of GL_TIMESTAMP is 0); no GPU times will be "
                  "reported");
    /* No KHR_debug (GL 3.3, WebGL 2): no groups, and no stack to ask of. */
    p->max_debug_depth = 0;
    if (plume_env_gl_caps(&p->env).debug_output) glGetIntegerv(GL_MAX_DEBUG_GROUP_STACK_DEPTH, &p->max_debug_depth);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    p->flush_timestamps = renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe"));
    GLint previous = 0;
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
    for (uint32_t i = 0; i < p->ring_depth; ++i) {
        profiler_slot *slot = &p->slots[i];
        if (p->timer_available) {
            glGenQueries(2 * PROFILER_SPAN_COUNT, &slot->queries[0][0]);
            p->counters.queries_alive += 2 * PROFILER_SPAN_COUNT;
        }
        char label[64];
        snprintf(label, sizeof label, "plume profiler: values, slot %u", i);
        slot->readback_buffer =
            plume_make_buffer(&p->env, sizeof(uint32_t) * PROFILER_VALUE_COUNT, NULL, GL_STREAM_READ, label);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)previous);
    return plume_drain_gl_errors(&p->env, "profiler: creating queries and readback buffers");
}

void profiler_destroy(plume_profiler *profiler) {
    if (!profiler) return;
    if (profiler->enabled) delete_gl_objects(profiler);
    plume_env env = profiler->env;
    plume_free(&env, profiler->slots);
    plume_free(&env, profiler->history);
    plume_free(&env, profiler->samples);
    plume_free(&env, profiler->scratch);
    plume_free(&env, profiler);
}

plume_result profiler_set_enabled(plume_profiler *p, bool enabled) {
    if (!p) return PLUME_ERROR_INVALID_ARGUMENT;
    if (enabled == p->enabled) return PLUME_OK;
    if (!enabled) {
        delete_gl_objects(p);
        p->enabled = false;
        return PLUME_OK;
    }
    plume_result result = create_gl_objects(p);
    if (result != PLUME_OK) {
        delete_gl_objects(p);
        return PLUME_ERROR_GL;
    }
    p->enabled = true;
    p->history_next = p->history_count = 0;
    return PLUME_OK;
}

bool profiler_is_enabled(const plume_profiler *p) { return p && p->enabled; }
bool profiler_timer_available(const plume_profiler *p) { return p && p->timer_available; }
void profiler_set_frame_finisher(plume_profiler *p, profiler_frame_finisher finisher, void *user) {
    if (!p) return;
    p->finisher = finisher;
    p->finisher_user = user;
}

profiler_counters profiler_get_counters(const plume_profiler *p) {
    profiler_counters none = {0};
    return p ? p->counters : none;
}

/* ---- Frames -------------------------------------------------------------- */

static profiler_slot *open_slot(plume_profiler *p) {
    if (!p->enabled || !p->recording) return NULL;
    return &p->slots[(p->fifo_head + p->fifo_count - 1) % p->ring_depth];
}

void profiler_frame_end(plume_profiler *p) {
    profiler_slot *slot = p ? open_slot(p) : NULL;
    if (!slot) return;
    slot->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    slot->state = SLOT_IN_FLIGHT;
    p->recording = false;
}

static bool span_mask_available(const profiler_slot *slot, uint32_t mask) {
    for (int span = 0; span < PROFILER_SPAN_COUNT; ++span) {
        if (!(mask & (1u << span))) continue;
        for (int end = BEGIN; end <= END; ++end) {
            GLuint available = GL_FALSE;
            glGetQueryObjectuiv(slot->queries[span][end], GL_QUERY_RESULT_AVAILABLE, &available);
            if (!available) return false;
        }
    }
    return true;
}

/* Reads a slot whose fence has signalled and whose queries are all available
 * into the history. */
static void record_slot(plume_profiler *p, profiler_slot *slot, uint32_t timed_mask, plume_gl_scope *scope) {
    profiler_frame frame = {.index = slot->frame_index};
    for (int span = 0; span < PROFILER_SPAN_COUNT; ++span) {
        if (!(timed_mask & (1u << span))) continue;
        GLuint64 begin = 0, end = 0;
        glGetQueryObjectui64v(slot->queries[span][BEGIN], GL_QUERY_RESULT, &begin);
        glGetQueryObjectui64v(slot->queries[span][END], GL_QUERY_RESULT, &end);
        uint64_t ns = 0;
        if (!profiler_timestamp_delta(begin, end, p->timer_bits, &ns)) {
            ++p->counters.samples_rejected;
        } else if (span < PLUME_STAGE_COUNT) {
            frame.stage_mask |= 1u << span;
            frame.stage_ms[span] = (double)ns * 1e-6;
        } else {
            frame.draw_stage_mask |= 1u << (span - PLUME_STAGE_COUNT);
            frame.draw_stage_ms[span - PLUME_STAGE_COUNT] = (double)ns * 1e-6;
        }
    }
    if (slot->captured_mask) {
        uint32_t gpu_values[PROFILER_VALUE_COUNT];
        plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS);
        glBindBuffer(GL_COPY_READ_BUFFER, slot->readback_buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof gpu_values, gpu_values);
        for (int v = 0; v < PROFILER_VALUE_COUNT; ++v)
            if (slot->captured_mask & (1u << v)) frame.values[v] = gpu_values[v];
    }
    for (int v = 0; v < PROFILER_VALUE_COUNT; ++v)
        if (slot->cpu_value_mask & (1u << v)) frame.values[v] = slot->cpu_values[v];
    frame.value_mask = slot->captured_mask | slot->cpu_value_mask;
    if (p->finisher) p->finisher(p->finisher_user, &frame);
    p->history[p->history_next] = frame;
    p->history_next = (p->history_next + 1) % p->window;
    if (p->history_count < p->window) ++p->history_count;
    ++p->counters.frames_completed;
}

void profiler_collect(plume_profiler *p, plume_gl_scope *scope) {
    if (!p || !p->enabled) return;
    while (p->fifo_count > 0) {
        profiler_slot *slot = &p->slots[p->fifo_head];
        if (slot->state != SLOT_IN_FLIGHT) break;
        /* glGetQueryObject* would write into a host's query buffer. */
        plume_gl_scope_save(scope, PLUME_SCOPE_QUERY_BUFFER);
        /* Timeout 0: a status check, never a wait. The flush bit makes sure
         * the fence reaches the GPU, or it might never signal. */
        GLenum status = glClientWaitSync(slot->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
        if (status == GL_TIMEOUT_EXPIRED) break;
        uint32_t timed_mask = p->timer_available ? slot->begun_mask & slot->ended_mask : 0;
        if (status != GL_WAIT_FAILED && !span_mask_available(slot, timed_mask)) break;
        if (status == GL_WAIT_FAILED) {
            plume_log(&p->env, PLUME_LOG_WARNING, "profiler: a frame's fence failed; its results are dropped");
            plume_drain_gl_errors(&p->env, "profiler: glClientWaitSync");
        } else {
            record_slot(p, slot, timed_mask, scope);
        }
        glDeleteSync(slot->fence);
        slot->fence = NULL;
        slot->state = SLOT_FREE;
        p->fifo_head = (p->fifo_head + 1) % p->ring_depth;
        --p->fifo_count;
    }
}

void profiler_frame_begin(plume_profiler *p, uint64_t index, plume_gl_scope *scope) {
    if (!p || !p->enabled) return;
    profiler_frame_end(p);
    profiler_collect(p, scope);
    ++p->counters.frames_begun;
    if (p->fifo_count == p->ring_depth) {
        /* Every slot still waits for the GPU: reusing one would mean reading
         * (waiting on) it now. This frame goes unmeasured instead. */
        ++p->counters.frames_skipped;
        return;
    }
    profiler_slot *slot = &p->slots[(p->fifo_head + p->fifo_count) % p->ring_depth];
    ++p->fifo_count;
    p->recording = true;
    slot->state = SLOT_RECORDING;
    slot->frame_index = index;
    slot->begun_mask = slot->ended_mask = 0;
    slot->captured_mask = slot->cpu_value_mask = 0;
    ++p->counters.frames_measured;
}

/* ---- Stages -------------------------------------------------------------- */

static void issue_timestamp(plume_profiler *p, profiler_slot *slot, int span, int end) {
    GLuint query = slot->queries[span][end];
    glQueryCounter(query, GL_TIMESTAMP);
    /* Mesa's CPU rasterizers run compute inside the dispatch call but take a
     * timestamp only when their rasterizer threads reach it in a flushed
     * batch: unflushed, both ends of a compute stage are stamped after the
     * work and measure nothing. There a flush per timestamp costs little; a
     * GPU driver never gets one. */
    if (p->flush_timestamps) glFlush();
    /* A generated name becomes a query object only at its first use, and
     * only an existing object can take a label. */
    uint64_t bit = UINT64_C(1) << (2 * span + end);
    if (!(slot->labeled_mask & bit)) {
        char label[64];
        snprintf(label, sizeof label, "plume profiler: %s %s, slot %u", span_label(span), end ? "end" : "begin",
                 (unsigned)(slot - p->slots));
        plume_label_gl_object(&p->env, GL_QUERY, query, label);
        slot->labeled_mask |= bit;
    }
}

/* The span's first timestamp of the open frame (a span is timed once a frame). */
static void begin_span(plume_profiler *p, int span) {
    profiler_slot *slot = open_slot(p);
    if (!slot || !p->timer_available || (slot->begun_mask & (1u << span))) return;
    issue_timestamp(p, slot, span, BEGIN);
    slot->begun_mask |= 1u << span;
}

static void end_span(plume_profiler *p, int span) {
    profiler_slot *slot = open_slot(p);
    uint32_t bit = 1u << span;
    if (slot && p->timer_available && (slot->begun_mask & bit) && !(slot->ended_mask & bit)) {
        issue_timestamp(p, slot, span, END);
        slot->ended_mask |= bit;
    }
}

void profiler_draw_stage_begin(plume_profiler *p, plume_draw_stage stage) {
    if (p && p->enabled && (unsigned)stage < PLUME_DRAW_STAGE_COUNT) begin_span(p, PLUME_STAGE_COUNT + (int)stage);
}

void profiler_draw_stage_end(plume_profiler *p, plume_draw_stage stage) {
    if (p && (unsigned)stage < PLUME_DRAW_STAGE_COUNT) end_span(p, PLUME_STAGE_COUNT + (int)stage);
}

void profiler_stage_begin(plume_profiler *p, plume_stage stage) {
    if (!p || !p->enabled || (unsigned)stage >= PLUME_STAGE_COUNT) return;
    GLint depth = 0;
    if (p->max_debug_depth > 0) glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth);
    /* The host's own groups may fill the stack; overflowing it is a GL error. */
    if (depth + 1 < p->max_debug_depth && !(p->pushed_groups & (1u << stage))) {
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, (GLuint)stage, -1, STAGE_GROUP_NAMES[stage]);
        p->pushed_groups |= 1u << stage;
    }
    begin_span(p, (int)stage);
}

void profiler_stage_end(plume_profiler *p, plume_stage stage) {
    if (!p || (unsigned)stage >= PLUME_STAGE_COUNT) return;
    end_span(p, (int)stage);
    uint32_t bit = 1u << stage;
    /* Popped even if profiling was switched off in between: the group was
     * pushed into the host's stack and must not stay there. */
    if (p->pushed_groups & bit) {
        glPopDebugGroup();
        p->pushed_groups &= ~bit;
    }
}

void profiler_capture_u32(plume_profiler *p, profiler_value value, GLuint source_buffer, GLintptr offset,
                          plume_gl_scope *scope) {
    profiler_slot *slot = p ? open_slot(p) : NULL;
    if (!slot || (unsigned)value >= PROFILER_VALUE_COUNT) return;
    plume_gl_scope_save(scope, PLUME_SCOPE_COPY_BUFFERS);
    glBindBuffer(GL_COPY_READ_BUFFER, source_buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, slot->readback_buffer);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, offset, (GLintptr)(sizeof(uint32_t) * value),
                        sizeof(uint32_t));
    slot->captured_mask |= 1u << value;
    slot->cpu_value_mask &= ~(1u << value);
}

void profiler_set_u32(plume_profiler *p, profiler_value value, uint32_t number) {
    profiler_slot *slot = p ? open_slot(p) : NULL;
    if (!slot || (unsigned)value >= PROFILER_VALUE_COUNT) return;
    slot->cpu_values[value] = number;
    slot->cpu_value_mask |= 1u << value;
    slot->captured_mask &= ~(1u << value);
}

/* ---- Reporting ----------------------------------------------------------- */

static const profiler_frame *history_at(const plume_profiler *p, uint32_t age) { /* 0: oldest */
    uint32_t first = (p->history_next + p->window - p->history_count) % p->window;
    return &p->history[(first + age) % p->window];
}

void profiler_get_profile(const plume_profiler *p, plume_profile *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!p) return;
    out->enabled = p->enabled;
    out->timer_available = p->enabled && p->timer_available;
    if (!p->enabled || p->history_count == 0) return;
    const profiler_frame *newest = history_at(p, p->history_count - 1);
    out->frame = newest->index;
    out->live_count = newest->values[PROFILER_VALUE_LIVE_COUNT];
    out->drawn_count = newest->values[PROFILER_VALUE_DRAWN_COUNT];
    out->event_children = newest->values[PROFILER_VALUE_EVENT_CHILDREN];
    out->event_children_dropped = newest->values[PROFILER_VALUE_EVENT_DROPPED];
    out->sort_padded_count = newest->values[PROFILER_VALUE_SORT_PADDED_COUNT];
    out->sort_passes = newest->values[PROFILER_VALUE_SORT_PASSES];
    out->tiled_entries = newest->values[PROFILER_VALUE_TILED_ENTRIES];
    out->tiled_entry_budget = newest->values[PROFILER_VALUE_TILED_BUDGET];
    out->draw_path = newest->values[PROFILER_VALUE_DRAW_PATH];
    out->draw_resolution = newest->values[PROFILER_VALUE_DRAW_RESOLUTION];
    for (uint32_t age = 0; age < p->history_count; ++age) {
        const profiler_frame *frame = history_at(p, age);
        out->tiled_overflow_frames += frame->values[PROFILER_VALUE_TILED_ENTRIES] >
                                          frame->values[PROFILER_VALUE_TILED_BUDGET] ||
                                      frame->values[PROFILER_VALUE_TILED_OVERFLOW] != 0;
    }
    for (int span = 0; span < PROFILER_SPAN_COUNT; ++span) {
        bool draw = span >= PLUME_STAGE_COUNT;
        int index = draw ? span - PLUME_STAGE_COUNT : span;
        uint32_t count = 0;
        for (uint32_t age = 0; age < p->history_count; ++age) {
            const profiler_frame *frame = history_at(p, age);
            if (((draw ? frame->draw_stage_mask : frame->stage_mask) >> index) & 1u)
                p->samples[count++] = draw ? frame->draw_stage_ms[index] : frame->stage_ms[index];
        }
        plume_stage_timing *timing = draw ? &out->draw_stages[index] : &out->stages[index];
        profiler_timing_from_samples(p->samples, count, p->scratch, timing);
        if (count) timing->last_ms = p->samples[count - 1];
    }
}

uint32_t profiler_frames_from(const plume_profiler *p, uint64_t first_index, profiler_frame *out, uint32_t max) {
    if (!p || !out) return 0;
    uint32_t written = 0;
    for (uint32_t age = 0; age < p->history_count && written < max; ++age) {
        const profiler_frame *frame = history_at(p, age);
        if (frame->index >= first_index) out[written++] = *frame;
    }
    return written;
}
