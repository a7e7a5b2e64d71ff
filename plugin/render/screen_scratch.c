/* The screen-sized scratch every draw of a context shares
 * (screen_scratch.h says what it holds, why sharing it is safe, and how it
 * grows and goes). */
#include <string.h>

#include "render/screen_scratch.h"

enum { SCRATCH_GL_OBJECTS = 12 + 5 * SCREEN_SCRATCH_LOWRES_FACTORS };

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const screen_scratch *shared = state;
    plume_gl_object all[SCRATCH_GL_OBJECTS] = {
        {GL_TEXTURE, shared->tiled_target},     {GL_BUFFER, shared->ranges_buffer},
        {GL_BUFFER, shared->chunk_table_buffer}, {GL_BUFFER, shared->partials_buffer},
        {GL_BUFFER, shared->entries_buffer},    {GL_BUFFER, shared->counts_buffer},
        {GL_BUFFER, shared->splats_buffer},     {GL_BUFFER, shared->scan_sums_buffer},
        {GL_BUFFER, shared->control_buffer},    {GL_BUFFER, shared->readback_buffer},
        {GL_BUFFER, shared->lowres_args_buffer}, {GL_BUFFER, shared->cover_buffer},
    };
    uint32_t n = 12;
    for (int i = 0; i < SCREEN_SCRATCH_LOWRES_FACTORS; ++i) {
        const lowres_targets *t = &shared->lowres[i];
        all[n++] = (plume_gl_object){GL_FRAMEBUFFER, t->depth_framebuffer};
        all[n++] = (plume_gl_object){GL_FRAMEBUFFER, t->particle_framebuffer};
        all[n++] = (plume_gl_object){GL_TEXTURE, t->particles};
        all[n++] = (plume_gl_object){GL_TEXTURE, t->depth};
        all[n++] = (plume_gl_object){GL_TEXTURE, t->depth_copy};
    }
    return plume_list_named_gl_objects(all, n, out, capacity);
}

static void delete_lowres_targets(lowres_targets *t) {
    GLuint framebuffers[2] = {t->depth_framebuffer, t->particle_framebuffer};
    glDeleteFramebuffers(2, framebuffers);
    GLuint textures[3] = {t->particles, t->depth, t->depth_copy};
    glDeleteTextures(3, textures);
    memset(t, 0, sizeof *t);
}

static void release(void *state, plume_context *context) {
    screen_scratch *shared = state;
    for (int i = 0; i < ENTRY_SORTER_KINDS; ++i) plume_sorter_destroy(context, shared->entry_sorters[i]);
    plume_gl_object owned[SCRATCH_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(shared, owned, SCRATCH_GL_OBJECTS));
}

static const plume_context_attachment_class SCREEN_SCRATCH = {"screen-sized draw scratch", release, list_gl_objects};

screen_scratch *screen_scratch_join(plume_context *context, bool *joined) {
    screen_scratch *shared = plume_context_attach(context, &SCREEN_SCRATCH, sizeof(screen_scratch));
    if (shared && !*joined) {
        ++shared->users;
        *joined = true;
    }
    return shared;
}

void screen_scratch_leave(plume_context *context, bool *joined) {
    if (!*joined) return;
    *joined = false;
    screen_scratch *shared = plume_context_attachment(context, &SCREEN_SCRATCH);
    if (shared && --shared->users == 0) plume_context_detach(context, &SCREEN_SCRATCH);
}

uint32_t screen_scratch_list_all_gl_objects(const plume_context *context, plume_gl_object *out, uint32_t capacity) {
    const screen_scratch *shared = plume_context_attachment(context, &SCREEN_SCRATCH);
    if (!shared) return 0;
    uint32_t n = list_gl_objects(shared, out, capacity);
    for (int i = 0; i < ENTRY_SORTER_KINDS; ++i)
        n += plume_context_list_object_gl_objects(context, shared->entry_sorters[i].id, n < capacity ? out + n : NULL,
                                                  n < capacity ? capacity - n : 0);
    return n;
}

/* ---- The tiled path's ------------------------------------------------------- */

plume_result screen_scratch_ensure_tiled_target(screen_scratch *shared, const plume_env *env, int width, int height) {
    if (shared->tiled_target && shared->tiled_width >= width && shared->tiled_height >= height) return PLUME_OK;
    if (shared->tiled_width > width) width = shared->tiled_width;
    if (shared->tiled_height > height) height = shared->tiled_height;
    glDeleteTextures(1, &shared->tiled_target);
    glActiveTexture(GL_TEXTURE0); /* the host's active unit may be one the scope does not restore */
    glGenTextures(1, &shared->tiled_target);
    glBindTexture(GL_TEXTURE_2D, shared->tiled_target);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA16F, width, height);
    plume_label_gl_object(env, GL_TEXTURE, shared->tiled_target, "plume draw: tiled particles");
    shared->tiled_width = width;
    shared->tiled_height = height;
    return plume_drain_gl_errors(env, "plume_system_draw (tiled target)");
}

void screen_scratch_ensure_ranges(screen_scratch *shared, const plume_env *env, uint32_t tiles) {
    if (shared->ranges_buffer && shared->range_capacity >= tiles) return;
    glDeleteBuffers(1, &shared->ranges_buffer);
    glDeleteBuffers(1, &shared->cover_buffer);
    shared->ranges_buffer = plume_make_gpu_buffer(env, (GLsizeiptr)tiles * 8, "plume draw: tiled ranges");
    shared->cover_buffer = plume_make_gpu_buffer(env, (GLsizeiptr)tiles * 4, "plume draw: tiled cover");
    shared->range_capacity = tiles;
}

plume_result screen_scratch_ensure_chunks(screen_scratch *shared, const plume_env *env, uint32_t slots,
                                          uint64_t slot_bytes, uint32_t words) {
    if (shared->partials_buffer && shared->slot_capacity >= slots && shared->chunk_table_words >= words)
        return PLUME_OK;
    if (shared->slot_capacity > slots) slots = shared->slot_capacity;
    if (shared->chunk_table_words > words) words = shared->chunk_table_words;
    glDeleteBuffers(1, &shared->partials_buffer);
    glDeleteBuffers(1, &shared->chunk_table_buffer);
    shared->partials_buffer = plume_make_gpu_buffer(env, (GLsizeiptr)(slots * slot_bytes), "plume draw: tiled chunk partials");
    shared->chunk_table_buffer = plume_make_gpu_buffer(env, (GLsizeiptr)words * 4, "plume draw: tiled chunk table");
    shared->slot_capacity = slots;
    shared->chunk_table_words = words;
    plume_result result = plume_drain_gl_errors(env, "plume_system_draw (tiled chunks)");
    if (result != PLUME_OK) shared->slot_capacity = shared->chunk_table_words = 0;
    return result;
}

plume_result screen_scratch_ensure_entries(screen_scratch *shared, const particle_view *s, uint32_t budget,
                                           plume_sort_algorithm algorithm, uint32_t key_bits, plume_sorter *out) {
    if (!shared->entries_buffer || shared->entry_capacity < budget) {
        glDeleteBuffers(1, &shared->entries_buffer);
        shared->entries_buffer = plume_make_gpu_buffer(s->env, (GLsizeiptr)budget * PLUME_PAIR_BYTES, "plume draw: tiled entries");
        shared->entry_capacity = budget;
        plume_result result = plume_drain_gl_errors(s->env, "plume_system_draw (tiled entries)");
        if (result != PLUME_OK) {
            glDeleteBuffers(1, &shared->entries_buffer);
            shared->entries_buffer = 0;
            shared->entry_capacity = 0;
            return result;
        }
    }
    int kind = (int)algorithm * 2 + (key_bits > 16 ? 1 : 0);
    plume_sorter *sorter = &shared->entry_sorters[kind];
    if (!sorter->id || shared->entry_sorter_capacity[kind] < shared->entry_capacity) {
        plume_sorter_destroy(s->context, *sorter);
        *sorter = (plume_sorter){0};
        shared->entry_sorter_capacity[kind] = 0;
        plume_sorter_desc desc = {.capacity = shared->entry_capacity, .logger = s->env->logger,
                                  .allocator = s->env->allocator, .key_bits = key_bits, .algorithm = algorithm};
        plume_result result = plume_sorter_create(s->context, &desc, sorter);
        if (result != PLUME_OK) return result;
        shared->entry_sorter_capacity[kind] = shared->entry_capacity;
    }
    *out = *sorter;
    return PLUME_OK;
}

/* `*buffer` of at least `bytes` (a larger one is kept). */
static void grow_buffer(const plume_env *env, GLuint *buffer, GLsizeiptr *size, GLsizeiptr bytes, const char *label) {
    if (*buffer && *size >= bytes) return;
    glDeleteBuffers(1, buffer);
    *buffer = plume_make_gpu_buffer(env, bytes, label);
    *size = bytes;
}

plume_result screen_scratch_ensure_ranks(screen_scratch *shared, const plume_env *env, GLsizeiptr counts_bytes,
                                         GLsizeiptr splats_bytes, GLsizeiptr scan_sums_bytes) {
    grow_buffer(env, &shared->counts_buffer, &shared->counts_bytes, counts_bytes, "plume draw: tiled counts");
    grow_buffer(env, &shared->splats_buffer, &shared->splats_bytes, splats_bytes, "plume draw: tiled splats");
    grow_buffer(env, &shared->scan_sums_buffer, &shared->scan_sums_bytes, scan_sums_bytes,
                "plume draw: tiled scan sums");
    if (!shared->control_buffer)
        shared->control_buffer = plume_make_gpu_buffer(env, 4 * PLUME_TILED_CONTROL_WORDS, "plume draw: tiled control");
    plume_result result = plume_drain_gl_errors(env, "plume_system_draw (tiled ranks)");
    if (result != PLUME_OK) shared->counts_bytes = shared->splats_bytes = shared->scan_sums_bytes = 0;
    return result;
}

uint32_t screen_scratch_next_readback(screen_scratch *shared, const plume_env *env, uint64_t *serial) {
    if (!shared->readback_buffer)
        shared->readback_buffer =
            plume_make_gpu_buffer(env, 4 * SCREEN_SCRATCH_READBACK_WORDS, "plume draw: tiled entry count readbacks");
    else
        glBindBuffer(GL_COPY_WRITE_BUFFER, shared->readback_buffer);
    if (!shared->readback_buffer) return UINT32_MAX;
    *serial = shared->readbacks++;
    return (uint32_t)(*serial % SCREEN_SCRATCH_READBACK_WORDS);
}

bool screen_scratch_read_readback(const screen_scratch *shared, uint64_t serial, uint32_t *out) {
    if (!shared->readback_buffer || shared->readbacks - serial > SCREEN_SCRATCH_READBACK_WORDS) return false;
    glBindBuffer(GL_COPY_READ_BUFFER, shared->readback_buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)(4 * (serial % SCREEN_SCRATCH_READBACK_WORDS)), 4, out);
    return true;
}

/* ---- The low-resolution wrapper's ------------------------------------------- */

static GLuint make_target(const plume_env *env, GLenum format, int width, int height, const char *label) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, format, width, height);
    plume_label_gl_object(env, GL_TEXTURE, texture, label);
    return texture;
}

plume_result screen_scratch_ensure_lowres(screen_scratch *shared, const plume_env *env, int factor_index, int w,
                                          int h) {
    lowres_targets *t = &shared->lowres[factor_index];
    if (!shared->lowres_args_buffer) {
        GLint host_binding = 0; /* the draw's scope leaves the copy buffers to whoever binds them */
        glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &host_binding);
        shared->lowres_args_buffer = plume_make_gpu_buffer(env, 4 * 4, "plume draw: low-resolution arguments");
        glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)host_binding);
    }
    if (t->particles && t->width == w && t->height == h) return PLUME_OK;
    delete_lowres_targets(t);
    glActiveTexture(GL_TEXTURE0); /* the host's active unit may be one the scope does not restore */
    t->particles = make_target(env, GL_RGBA16F, w, h, "plume draw: low-resolution particles");
    t->depth = make_target(env, GL_DEPTH_COMPONENT32F, w, h, "plume draw: low-resolution depth");
    t->depth_copy = make_target(env, GL_R32F, w, h, "plume draw: low-resolution depth (sampled)");
    glGenFramebuffers(1, &t->depth_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->depth_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->depth_copy, 0);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t->depth, 0);
    bool complete = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glGenFramebuffers(1, &t->particle_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->particle_framebuffer);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->particles, 0);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t->depth, 0);
    complete = complete && glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    t->width = w;
    t->height = h;
    if (!complete) {
        plume_log(env, PLUME_LOG_ERROR, "plume_system_draw: the low-resolution targets (%dx%d) are incomplete", w, h);
        delete_lowres_targets(t);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    return plume_drain_gl_errors(env, "plume_system_draw (low-resolution targets)");
}

void screen_cover_bind(const screen_cover *cover, GLuint program, const GLint at[SCREEN_COVER_UNIFORMS], int factor,
                       const GLint viewport[4]) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_CONTROL, cover->control_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TILED_COVER, cover->cover_buffer);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, cover->control_buffer);
    glProgramUniform1ui(program, at[SCREEN_COVER_TILES_ACROSS], cover->tiles_across);
    glProgramUniform1i(program, at[SCREEN_COVER_TILE_PIXELS], (GLint)cover->tile * factor);
    glProgramUniform2i(program, at[SCREEN_COVER_VIEWPORT_SIZE], viewport[2], viewport[3]);
}

void screen_cover_draw(void) {
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)(4 * PLUME_TILED_BLEND_ARGS));
}
