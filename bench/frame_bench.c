/* Frame benchmark: the full particle pipeline (update = simulate + sort, then
 * the draw into an offscreen framebuffer) at several particle counts, timed
 * by the system's own profiler (GL timestamp queries read frames later, never
 * waited on). Per count: a fixed number of frames in the steady state (or
 * after a fixed warm-up, --warmup N), and the
 * median GPU milliseconds of each stage.
 *
 * Each count is one system holding exactly that many particles (one burst of
 * long-lived particles in a ball, drifting under drag and curl noise) seen by
 * a camera circling the ball, so every frame's keys change and the sort has
 * real work. Like a swap chain, the benchmark lets at most two frames queue on
 * the GPU. After the timed frames the draw order is read back once and checked
 * to be back-to-front (outside the timed frames).
 *
 * Usage: plume_frame_bench [--counts 16384,65536,262144,1048576] [--frames N]
 *                          [--warmup N|steady] [--max-warmup N] [--size WxH] [--csv FILE]
 *                          [--frames-csv FILE] [--turbulence S] [--look-away]
 *                          [--no-cull] [--resolution full|half|quarter]
 *                          [--path raster|tiled|automatic] [--tile 8|16|32] [--chunk K|unchunked]
 *                          [--min-alpha A] [--batch N] [--whole-splat-batch] [--footprint F] [--cover-every-tile]
 *                          [--no-termination]
 *                          [--blend premultiplied|additive|premultiplied_additive]
 *                          [--orientation camera_facing|velocity_stretched|velocity_aligned|world_axis|world_facing]
 *                          [--sort-mode view_depth|distance|oldest_first|youngest_first|none] [--lit] [--smoke]
 *                          [--world off|on|both] [--radix-threads 256|512|1024]
 *                          [--sort-key-bits 16..32]
 *   --warmup      steady (the default): each count's measured frames begin
 *                 once its live count and coverage (the tiled path's entries,
 *                 else the drawn count) stop growing (host/steady_state.h),
 *                 said under its row, at most --max-warmup frames (default
 *                 1800) later; N: after a fixed N frames
 * Under each row: the steady state, and the median entries and the pixels
 * the draw blends (frame_bench_measure.h: the quads' pixels after the last
 * frame) per millisecond of draw, at the target's size (--size: 1280x720,
 * 1920x1080, 3840x2160; bench/compositor_knobs.sh runs all three).
 *   --csv         the table, one row per count
 *   --frames-csv  one row per measured frame: frame, live count, simulate,
 *                 sort and draw GPU ms, CPU ms of the update and draw calls
 *                 (tools/plot_profile.sh turns it into a PNG)
 *   --turbulence  the curl noise's strength (default 1; 0 skips the noise, to
 *                 see what it costs)
 *   --look-away   the camera turned away from the ball: culling leaves
 *                 nothing to sort or draw (what a particle system out of view
 *                 costs)
 *   --no-cull     every live particle is sorted and drawn (disable_culling)
 *   --resolution  the draw path's plume_draw_resolution (default full)
 *   --path        the plume_draw_path (default raster); the table then gives
 *                 the tiled path's largest entry count and its frames that
 *                 overflowed the entry budget (and drew raster)
 *   --tile        the tiled path's tile size in pixels (default 8)
 *   --chunk       the entries a composite workgroup walks at most (default
 *                 128; "unchunked": a tile's whole run)
 *   --min-alpha, --batch, --whole-splat-batch, --footprint, --cover-every-tile, --hit-lists
 *                 the compositor's lab knobs (plume_lab_tiled_knobs: the
 *                 opacity cull, the composite's batch, a batch of whole
 *                 splats instead of their maps, the sprite's alpha
 *                 footprint, the blend over every tile, shading each
 *                 pixel's hits or each splat as tested; default 0, the
 *                 product's)
 * Where the draw has sub-stages (the tiled path; 1/2 and 1/4), a second line
 * per count gives their medians (plume_draw_stage). Both --tile and --chunk
 * reach the module through the lab (plume_lab_tiled_configure,
 * lab/plume_lab.h): the module reads no environment.
 *   --world       on: the same particles meet a world (plume_world): four
 *                 bouncing colliders (a floor plane, a solid ball and a box
 *                 inside the cloud, a container ball round it), collision
 *                 with the scene depth, a point attractor and a vortex, and
 *                 two event routes (collisions and deaths spawn short-lived
 *                 particles of a second emitter; with every slot taken most
 *                 are dropped, counted in the events columns); both: each
 *                 count off and then on, with the ratio of their simulate
 *                 medians (default off)
 *   --radix-threads  the radix sort's tile passes at most that wide
 *                 (the lab's tile_threads setting, lab/plume_lab.h): the
 *                 frame's sort at another width (default: the module's)
 *   --sort-key-bits  the system's sort_key_bits (default 0: the module's, 24)
 *   --smoke       puffs emitted over 3-5 s lives instead of one burst that
 *                 never dies, fading in and out (opacity over life), smaller
 *                 and fainter the more there are, as the demo's smoke: the
 *                 live count and coverage grow before the steady state, and
 *                 faint particles are what the opacity cull leaves out; a
 *                 soft puff sprite whose alpha footprint is 0.42 of the quad
 *                 (--footprint 0.42: the tight bounds)
 *   --no-termination  the tiled path composites every particle
 *   --blend, --orientation, --sort-mode, --lit  the system's look
 *                 (plume_system_desc, ABI 1.2; docs/look.md): what each costs
 *                 against the default look, in the same run; a mode without
 *                 a sort is checked for slot order instead
 *                 (disable_early_termination)
 * GPU times need a GPU: on Mesa's llvmpipe they are CPU times and the draw's
 * are not meaningful. */
#define _POSIX_C_SOURCE 200809L
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cglm/cglm.h>

#include "draw_stage_names.h"
#include "frame_pacer.h"
#include "gl_texture.h"
#include "headless_gl.h"
#include "plume/plume_particles.h"
#include "plume_lab.h"
#include "bench_time.h"
#include "frame_bench_measure.h"
#include "frame_bench_options.h"
#include "steady_state.h"

enum { FRAMES_IN_FLIGHT = 2 };

/* The offscreen frame: colour, the depth buffer the draw tests against, and a
 * separate "scene depth" texture for soft particles (sampling the attached
 * depth buffer itself would be a feedback loop). */
typedef struct offscreen {
    GLuint framebuffer, color, depth, scene_depth;
} offscreen;

/* What one count gave. */
typedef struct count_result {
    uint32_t count, measured, skipped;
    double median_ms[PLUME_STAGE_COUNT];
    double median_draw_stage_ms[PLUME_DRAW_STAGE_COUNT]; /* NAN: not run */
    double median_simulate_plus_sort_ms, median_cpu_ms;
    uint32_t sort_passes, sort_padded, drawn;
    plume_sort_algorithm sort_algorithm; /* the last frame's */
    uint32_t tiled_entries, tiled_overflows; /* the largest count, the frames over the budget */
    uint32_t event_children, event_dropped; /* the last measured frame's */
    bool world, order_ok;
    steady_state steady;  /* when the measured frames began */
    double median_entries, blended_pixels; /* blended: after the last frame (frame_bench_measure.h) */
} count_result;


static bool offscreen_create(offscreen *o, int width, int height) {
    o->color = host_texture_2d(GL_RGBA8, width, height, NULL);
    o->depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, NULL);
    o->scene_depth = host_texture_2d(GL_DEPTH_COMPONENT32F, width, height, NULL);
    glGenFramebuffers(1, &o->framebuffer);
    /* The scene depth: an empty scene, everything at the far plane. */
    glBindFramebuffer(GL_FRAMEBUFFER, o->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, o->scene_depth, 0);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, o->color, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, o->depth, 0);
    glViewport(0, 0, width, height);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static void offscreen_destroy(offscreen *o) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &o->framebuffer);
    GLuint textures[3] = {o->color, o->depth, o->scene_depth};
    glDeleteTextures(3, textures);
}

/* What --world adds (see the usage). */
static plume_world bench_world(void) {
    const plume_collision_desc bounce = {.restitution = 0.5f, .friction = 0.3f, .rest_speed = 0.05f};
    plume_world w = {
        .colliders = {{.shape = PLUME_COLLIDER_PLANE, .position = {0, -4, 0}, .collision = bounce},
                      {.shape = PLUME_COLLIDER_SPHERE, .radius = 3, .collision = bounce},
                      {.shape = PLUME_COLLIDER_BOX, .position = {5, 0, 0}, .extents = {1, 2, 1}, .collision = bounce},
                      {.shape = PLUME_COLLIDER_SPHERE, .radius = 10.5f, .inside = true, .collision = bounce}},
        .depth_collision = {.enabled = true, .collision = bounce},
        .attractors = {{.kind = PLUME_ATTRACTOR_POINT, .strength = 0.5f, .radius = 12},
                       {.kind = PLUME_ATTRACTOR_VORTEX, .strength = 0.5f, .radius = 12}},
        .events = {{.trigger = PLUME_EVENT_COLLISION, .source_emitters = 1u << 0, .target_emitter = 1, .count = 2,
                    .inherit_velocity = 0.5f},
                   {.trigger = PLUME_EVENT_DEATH, .target_emitter = 1}},
    };
    return w;
}

static bool make_system(plume_context *context, uint32_t count, const options *o, bool world,
                        plume_system *out_system) {
    uint8_t *sprite = NULL; /* --smoke's */
    float turbulence = o->turbulence;
    plume_system_desc desc = {.capacity = count, .seed = 12345, .blend_mode = o->blend_mode,
                              .orientation = o->orientation, .orientation_axis = {0.3f, 1.0f, 0.2f},
                              .stretch_factor = 2.0f, .sort_mode = o->sort_mode, .lit = o->lit,
                              .sort_key_bits = o->sort_key_bits};
    /* Fire-like where the additive part is over life: the young add. */
    desc.additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.0f}}};
    desc.emitters[0] = (plume_emitter_desc){.shape = PLUME_SHAPE_SPHERE,
                                            .extents = {10.0f},
                                            .spread = 3.14159265f,
                                            .burst_count = count,
                                            .lifetime = {1.0e6f, 1.0e6f},
                                            .speed = {0.0f, 0.5f},
                                            .size = {0.05f, 0.15f}};
    desc.forces =
        (plume_forces){.drag = 0.2f, .turbulence = turbulence, .turbulence_scale = 0.3f, .turbulence_speed = 0.5f};
    if (o->smoke) {
        /* Puffs emitted over 3-5 s lives (the live count settles just under
         * the count), fading in and out like the demo's smoke, smaller and
         * fainter with more of them (the demo's count^-0.2 and ^-0.45). */
        float ratio = fminf(1.0f, 16384.0f / (float)count);
        desc.emitters[0].burst_count = 0;
        desc.emitters[0].rate = 0.97f * (float)count / 4.0f;
        desc.emitters[0].lifetime = (plume_range){3.0f, 5.0f};
        desc.emitters[0].size = (plume_range){0.5f * powf(ratio, 0.2f), 1.0f * powf(ratio, 0.2f)};
        desc.appearance.opacity_over_life = (plume_curve){3, {{0.0f, 0.0f}, {0.2f, 0.35f * powf(ratio, 0.45f)}, {1.0f, 0.0f}}};
        sprite = frame_bench_smoke_sprite();
        desc.appearance.texture = (plume_texture_desc){
            .pixels = sprite, .width = FRAME_BENCH_SPRITE_SIZE, .height = FRAME_BENCH_SPRITE_SIZE};
    }
    if (world) {
        desc.emitters[1] = (plume_emitter_desc){.spread = 3.14159265f, .speed = {0.5f, 1}, .lifetime = {0.5f, 0.5f},
                                                .size = {0.02f, 0.04f}};
        desc.world = bench_world();
    }
    bool made = plume_system_create(context, &desc, out_system) == PLUME_OK;
    free(sprite);
    return made;
}

/* A camera circling the ball at `angle`, looking at it or away from it. */
static plume_frame_desc make_frame(const options *o, double angle, float aspect, GLuint scene_depth) {
    plume_frame_desc frame = {.dt = 1.0f / 60.0f, .depth_texture = scene_depth, .disable_culling = o->no_cull,
                              .draw_resolution = o->resolution, .draw_path = o->path,
                              .disable_early_termination = o->no_termination,
                              .light_direction = {0.45f, 1.0f, 0.3f}, .light_color = {1.0f, 0.92f, 0.8f},
                              .ambient_color = {0.2f, 0.25f, 0.3f}};
    vec3 eye = {30.0f * (float)cos(angle), 8.0f, 30.0f * (float)sin(angle)}, center = {0, 0, 0}, up = {0, 1, 0};
    if (o->look_away) glm_vec3_scale(eye, 2.0f, center);
    mat4 view, projection;
    glm_lookat(eye, center, up, view);
    glm_perspective(glm_rad(60.0f), aspect, 0.1f, 200.0f, projection);
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    return frame;
}

/* Every particle lives (without the world or --smoke: with them particles
 * die) and the draw order after the last update is the look's: keys
 * ascending where it sorts, slots ascending where it does not (additive
 * blending, sort mode none). */
static bool check_order(plume_context *context, plume_system system, uint32_t count, const options *o, bool world) {
    plume_readback rb = {0};
    rb.draw_keys = malloc(sizeof(uint32_t) * count);
    rb.draw_order = malloc(sizeof(uint32_t) * count);
    bool ok = rb.draw_keys && rb.draw_order && plume_system_read_back(context, system, &rb) == PLUME_OK &&
              (world || o->smoke || rb.live_count == count);
    bool sorted = o->blend_mode != PLUME_BLEND_ADDITIVE && o->sort_mode != PLUME_SORT_MODE_NONE;
    for (uint32_t i = 1; ok && i < rb.drawn_count; ++i)
        ok = sorted ? rb.draw_keys[i - 1] <= rb.draw_keys[i] : rb.draw_order[i - 1] < rb.draw_order[i];
    free(rb.draw_keys);
    free(rb.draw_order);
    return ok;
}

static void write_frame_row(FILE *file, uint64_t row, const plume_frame_profile *f, double cpu_ms) {
    fprintf(file, "%llu,%u", (unsigned long long)row, f->live_count);
    static const plume_stage columns[] = {PLUME_STAGE_SIMULATE, PLUME_STAGE_SORT, PLUME_STAGE_DRAW};
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; ++c) {
        if (f->stage_mask & (1u << columns[c])) fprintf(file, ",%.6f", f->stage_ms[columns[c]]);
        else fprintf(file, ",nan");
    }
    fprintf(file, ",%.6f\n", cpu_ms);
}

/* Runs one count; appends its frames to `frames_csv` (numbered from *row). */
static bool run_count(plume_context *context, const options *o, uint32_t count, bool world, offscreen *target,
                      FILE *frames_csv, uint64_t *row, count_result *out) {
    memset(out, 0, sizeof *out);
    out->count = count;
    out->world = world;
    plume_system system;
    if (!make_system(context, count, o, world, &system)) return false;
    if ((o->tile_size || o->entry_sort || o->chunk_entries) &&
        plume_lab_tiled_configure(context, system, o->tile_size, 0, false, o->entry_sort, o->chunk_entries) != PLUME_OK) {
        plume_system_destroy(context, system);
        return false;
    }
    if (plume_lab_tiled_set_knobs(context, system, &o->knobs) != PLUME_OK ||
        plume_system_set_profiling(context, system, true) != PLUME_OK) {
        plume_system_destroy(context, system);
        return false;
    }
    /* Frames past the measured ones let the last measured frames complete. */
    const uint32_t tail = PLUME_LAB_PROFILER_RING_DEPTH + 2;
    /* The measured frames begin at a fixed warm-up, or once the particles'
     * live count and coverage stop growing (host/steady_state.h). */
    bool fixed = o->warmup != FRAME_BENCH_WARMUP_STEADY;
    uint32_t longest_warmup = fixed ? o->warmup : o->max_warmup;
    uint64_t measure_from = fixed ? o->warmup : UINT64_MAX;
    steady_state_init(&out->steady, steady_state_lifetime_frames(o->smoke ? 5.0 : world ? 0.5 : 1.0e6, 1.0 / 60.0), longest_warmup);
    const uint32_t total = longest_warmup + o->frames + tail;
    double *cpu_ms = calloc(total, sizeof(double));
    /* Per stage, simulate + sort, then per draw sub-stage. */
    enum { SUMMED = PLUME_STAGE_COUNT, FIRST_DRAW_STAGE = PLUME_STAGE_COUNT + 1,
           SERIES = FIRST_DRAW_STAGE + PLUME_DRAW_STAGE_COUNT };
    double *samples[SERIES];
    for (int s = 0; s < SERIES; ++s) samples[s] = calloc(o->frames, sizeof(double));
    uint32_t sample_count[SERIES] = {0};
    double *cpu_samples = calloc(o->frames, sizeof(double)), *entry_samples = calloc(o->frames, sizeof(double));
    bool allocated = cpu_ms && cpu_samples && entry_samples;
    for (int s = 0; s < SERIES; ++s) allocated &= samples[s] != NULL;
    if (!allocated) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    frame_pacer pacer;
    frame_pacer_init(&pacer, FRAMES_IN_FLIGHT);
    const float aspect = (float)o->width / (float)o->height;
    plume_frame_profile profiles[16];
    uint64_t next_frame = 0;
    plume_frame_desc frame = {0};

    for (uint32_t k = 0; k < total && (measure_from == UINT64_MAX || next_frame < measure_from + o->frames); ++k) {
        frame_pacer_begin_frame(&pacer); /* the host's own throttle, like a swap chain */
        frame = make_frame(o, 0.01 * k, aspect, target->scene_depth);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        double t0 = bench_now_ms();
        plume_system_update(context, system, &frame);
        plume_system_draw(context, system, &frame);
        cpu_ms[k] = bench_now_ms() - t0;
        frame_pacer_end_frame(&pacer);

        uint32_t got;
        while ((got = plume_system_get_frame_profiles(context, system, next_frame, profiles, 16)) > 0) {
            for (uint32_t i = 0; i < got; ++i) {
                const plume_frame_profile *f = &profiles[i];
                next_frame = f->frame + 1;
                if (!fixed && measure_from == UINT64_MAX &&
                    steady_state_push(&out->steady, f->live_count, f->tiled_entries ? f->tiled_entries : f->drawn_count))
                    measure_from = f->frame + 1;
                if (f->frame < measure_from || f->frame >= measure_from + o->frames) continue;
                ++out->measured;
                out->sort_passes = f->sort_passes;
                out->sort_padded = f->sort_padded_count;
                out->drawn = f->drawn_count;
                if (f->tiled_entries > out->tiled_entries) out->tiled_entries = f->tiled_entries;
                entry_samples[out->measured - 1] = f->tiled_entries;
                out->tiled_overflows += f->tiled_entries > f->tiled_entry_budget;
                out->event_children = f->event_children;
                out->event_dropped = f->event_children_dropped;
                for (int s = 0; s < PLUME_STAGE_COUNT; ++s)
                    if (f->stage_mask & (1u << s)) samples[s][sample_count[s]++] = f->stage_ms[s];
                const uint32_t both = (1u << PLUME_STAGE_SIMULATE) | (1u << PLUME_STAGE_SORT);
                if ((f->stage_mask & both) == both)
                    samples[SUMMED][sample_count[SUMMED]++] =
                        f->stage_ms[PLUME_STAGE_SIMULATE] + f->stage_ms[PLUME_STAGE_SORT];
                for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
                    if (f->draw_stage_mask & (1u << d))
                        samples[FIRST_DRAW_STAGE + d][sample_count[FIRST_DRAW_STAGE + d]++] = f->draw_stage_ms[d];
                cpu_samples[out->measured - 1] = cpu_ms[f->frame];
                if (frames_csv) write_frame_row(frames_csv, (*row)++, f, cpu_ms[f->frame]);
            }
        }
    }
    frame_pacer_destroy(&pacer);
    out->skipped = o->frames - out->measured;
    /* No sample (no timer): no figure, not a zero. */
    for (int s = 0; s < SERIES; ++s) {
        double median = sample_count[s] ? plume_lab_median(samples[s], sample_count[s]) : NAN;
        if (s < PLUME_STAGE_COUNT) out->median_ms[s] = median;
        else if (s == SUMMED) out->median_simulate_plus_sort_ms = median;
        else out->median_draw_stage_ms[s - FIRST_DRAW_STAGE] = median;
    }
    out->median_cpu_ms = plume_lab_median(cpu_samples, out->measured);
    out->median_entries = plume_lab_median(entry_samples, out->measured);
    out->blended_pixels =
        frame_bench_blended_pixels(context, system, count, &frame, o->width, o->height, 1 << o->resolution);
    out->sort_algorithm = plume_system_get_sort_algorithm(context, system);
    out->order_ok = check_order(context, system, count, o, world);
    plume_system_destroy(context, system);
    free(cpu_ms);
    free(cpu_samples);
    free(entry_samples);
    for (int s = 0; s < SERIES; ++s) free(samples[s]);
    return true;
}

/* The draw's sub-stages (plume_draw_stage order), as columns. */
static const char DRAW_STAGE_CSV[] = "project_ms,scan_ms,entries_ms,tile_sort_ms,ranges_ms,composite_ms,resolve_ms,"
                                     "blend_ms,downsample_ms,upsample_ms";

/* Under a count's row, the medians of the draw sub-stages it ran. */
static void print_draw_stages(const count_result *r) {
    bool any = false;
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d) any |= !isnan(r->median_draw_stage_ms[d]);
    if (!any) return;
    printf("%9s draw sub-stages, median ms:", "");
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
        if (!isnan(r->median_draw_stage_ms[d])) printf(" %s %.4f", HOST_DRAW_STAGE_NAMES[d], r->median_draw_stage_ms[d]);
    printf("\n");
}

/* Under a count's row: whether it was measured in steady state, and the
 * entries and blended pixels per millisecond of draw. */
static void print_rates(const count_result *r, const options *o) {
    char steady[160] = "fixed warm-up";
    if (o->warmup == FRAME_BENCH_WARMUP_STEADY) steady_state_describe(&r->steady, steady, sizeof steady);
    double draw_ms = r->median_ms[PLUME_STAGE_DRAW];
    printf("%9s %s; per ms of draw: %.3g M entries (median %.0f), %.3g M blended pixels (%.3g M a frame, %dx%d)\n",
           "", steady, frame_bench_per_ms(r->median_entries, draw_ms) * 1e-6, r->median_entries,
           frame_bench_per_ms(r->blended_pixels, draw_ms) * 1e-6, r->blended_pixels * 1e-6, o->width >> o->resolution,
           o->height >> o->resolution);
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) {
        usage();
        return 2;
    }
    headless_gl gl;
    char error[256];
    if (!headless_gl_create(&gl, false, NULL, error, sizeof error)) {
        fprintf(stderr, "no headless GL context: %s\n", error);
        return 1;
    }
    GLint timer_bits = 0;
    glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &timer_bits);
    char warmup[96];
    if (o.warmup == FRAME_BENCH_WARMUP_STEADY)
        snprintf(warmup, sizeof warmup, "in steady state (detected per count, at most %u warm-up frames)", o.max_warmup);
    else snprintf(warmup, sizeof warmup, "after a fixed %u warm-up frames (steady state not checked)", o.warmup);
    printf("GL: %s\ntimer bits %d; %u frames per count %s; offscreen %dx%d; turbulence %g; median GPU ms\n",
           headless_gl_describe(), timer_bits, o.frames, warmup, o.width, o.height, (double)o.turbulence);
    if (timer_bits == 0) printf("this GL has no timer: no GPU times\n");

    plume_context *context = NULL;
    if (plume_context_create(NULL, &context) != PLUME_OK) return 1; /* stderr logger, malloc */
    const plume_lab_sort_settings sort_settings = {.tile_threads = o.radix_threads};
    if (plume_lab_set_sort_settings(context, &sort_settings) != PLUME_OK) return 1;
    offscreen target = {0};
    if (!offscreen_create(&target, o.width, o.height)) {
        fprintf(stderr, "the offscreen framebuffer is incomplete\n");
        return 1;
    }
    glEnable(GL_DEPTH_TEST);
    glClearColor(0.05f, 0.05f, 0.08f, 1.0f);
    FILE *csv = o.csv_path ? fopen(o.csv_path, "w") : NULL;
    FILE *frames_csv = o.frames_csv_path ? fopen(o.frames_csv_path, "w") : NULL;
    if ((o.csv_path && !csv) || (o.frames_csv_path && !frames_csv)) {
        fprintf(stderr, "cannot write %s\n", o.csv_path && !csv ? o.csv_path : o.frames_csv_path);
        return 1;
    }
    if (csv)
        fprintf(csv, "count,frames_measured,simulate_ms,sort_ms,simulate_plus_sort_ms,update_ms,draw_ms,cpu_ms,"
                     "sort_passes,sort_padded_count,order_ok,drawn_count,sort_algorithm,tiled_entries,"
                     "tiled_overflow_frames,world,event_children,event_dropped,%s,steady,measured_from,median_entries,"
                     "blended_pixels,entries_per_draw_ms,blended_pixels_per_draw_ms\n",
                DRAW_STAGE_CSV);
    if (frames_csv) fprintf(frames_csv, "frame,live_count,sim_ms,sort_ms,draw_ms,cpu_ms\n");
    printf("path %s, resolution %u%s%s%s%s%s%s%s; min alpha %g, batch %u%s, footprint %g\n",
           o.path == PLUME_DRAW_PATH_TILED ? "tiled" : o.path == PLUME_DRAW_PATH_AUTOMATIC ? "automatic" : "raster", o.resolution,
           o.no_termination ? ", no early termination" : "", o.tile_size ? ", tile size set" : "",
           o.chunk_entries ? ", chunk entries set" : "",
           o.knobs.cover_every_tile ? ", the blend over every tile" : "",
           o.knobs.box_tiles ? ", every tile of a splat's box listed" : "",
           o.knobs.whole_tile_lists ? ", every pixel walks the whole batch" : "",
           o.knobs.hit_lists > 0   ? ", hit lists"
           : o.knobs.hit_lists < 0 ? ", each splat shaded as tested"
                                   : "",
           (double)o.knobs.min_alpha,
           o.knobs.batch, o.knobs.whole_splat_batch ? " (whole splats)" : "",
           (double)o.knobs.footprint);
    printf("\n%9s %5s %7s %9s %9s %9s %9s %9s %8s %6s %5s %9s %8s %10s %8s %9s %9s\n", "particles", "world", "frames",
           "simulate", "sort", "sim+sort", "update", "draw", "cpu ms", "passes", "order", "drawn", "sorted by",
           "entries", "overflow", "events", "dropped");

    int failures = 0;
    uint64_t row = 0;
    for (uint32_t c = 0; c < o.count_total; ++c) {
        double simulate_off = NAN;
        for (int world = o.world_first; world <= o.world_last; ++world) {
            count_result r;
            if (!run_count(context, &o, o.counts[c], world, &target, frames_csv, &row, &r)) {
                printf("%9u  could not create or profile a system of this size\n", o.counts[c]);
                ++failures;
                continue;
            }
            failures += !r.order_ok;
            const char *sorted_by = r.sort_algorithm == PLUME_SORT_RADIX     ? "radix"
                                    : r.sort_algorithm == PLUME_SORT_BITONIC ? "bitonic"
                                                                             : "none";
            printf("%9u %5s %7u %9.4f %9.4f %9.4f %9.4f %9.4f %8.3f %6u %5s %9u %8s %10u %8u %9u %9u\n", r.count,
                   world ? "on" : "off", r.measured, r.median_ms[PLUME_STAGE_SIMULATE], r.median_ms[PLUME_STAGE_SORT],
                   r.median_simulate_plus_sort_ms, r.median_ms[PLUME_STAGE_UPDATE], r.median_ms[PLUME_STAGE_DRAW],
                   r.median_cpu_ms, r.sort_passes, r.order_ok ? "ok" : "WRONG", r.drawn, sorted_by, r.tiled_entries,
                   r.tiled_overflows, r.event_children, r.event_dropped);
            print_draw_stages(&r);
            print_rates(&r, &o);
            if (!world) simulate_off = r.median_ms[PLUME_STAGE_SIMULATE];
            else if (o.world_first == 0)
                printf("%9u simulate with the world / without: %.2fx\n", r.count,
                       r.median_ms[PLUME_STAGE_SIMULATE] / simulate_off);
            fflush(stdout);
            if (csv) {
                fprintf(csv, "%u,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%u,%u,%d,%u,%s,%u,%u,%d,%u,%u", r.count, r.measured,
                        r.median_ms[PLUME_STAGE_SIMULATE], r.median_ms[PLUME_STAGE_SORT], r.median_simulate_plus_sort_ms,
                        r.median_ms[PLUME_STAGE_UPDATE], r.median_ms[PLUME_STAGE_DRAW], r.median_cpu_ms, r.sort_passes,
                        r.sort_padded, r.order_ok ? 1 : 0, r.drawn, sorted_by, r.tiled_entries, r.tiled_overflows,
                        world, r.event_children, r.event_dropped);
                for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d) fprintf(csv, ",%.6f", r.median_draw_stage_ms[d]);
                double draw_ms = r.median_ms[PLUME_STAGE_DRAW];
                fprintf(csv, ",%d,%u,%.0f,%.0f,%.1f,%.1f", r.steady.steady, r.steady.reached_at, r.median_entries,
                        r.blended_pixels, frame_bench_per_ms(r.median_entries, draw_ms),
                        frame_bench_per_ms(r.blended_pixels, draw_ms));
                fputc('\n', csv);
            }
        }
    }
    if (csv) fclose(csv);
    if (frames_csv) fclose(frames_csv);
    offscreen_destroy(&target);
    plume_context_destroy(context);
    headless_gl_destroy(&gl);
    return failures ? 1 : 0;
}
