/* The demo application: orbit camera, scene, smoke, HUD, timings and CSV.
 * Windowed and offscreen runs drive it the same way, one frame at a time.
 * The HUD panel it draws each frame is in app_hud.c. */
#define _POSIX_C_SOURCE 200809L
#include <cglm/cglm.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "app_internal.h"
#include "draw_stage_names.h"
#include "demo.h"
#include "effect_show.h"
#include "hud.h"
#include "render_targets.h"
#include "scene.h"
#include "smoke_system.h"

double demo_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void sample_push(sample_list *list, double value) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 1024;
        double *values = realloc(list->values, capacity * sizeof *values);
        if (!values) return; /* a lost sample only thins the statistics */
        list->values = values;
        list->capacity = capacity;
    }
    list->values[list->count++] = value;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts the list in place. */
static double sample_median(sample_list *list) {
    if (list->count == 0) return 0;
    qsort(list->values, list->count, sizeof *list->values, compare_doubles);
    size_t mid = list->count / 2;
    return list->count % 2 ? list->values[mid] : 0.5 * (list->values[mid - 1] + list->values[mid]);
}

/* The sprite, found from the binary wherever the demo runs: next to the
 * sources (<binary>/../../../demo/assets: the binary lives in
 * build/<config>/bin), or installed (<binary>/../share/plume); else
 * demo/assets from the working folder, and a message saying where it looked. */
static void find_texture(const char *given, char *out, size_t size) {
    if (given) {
        snprintf(out, size, "%s", given);
        return;
    }
    static const char *const FROM_BINARY[] = {"../../../demo/assets/smoke_puff.png", "../share/plume/smoke_puff.png"};
    char exe[PATH_MAX];
    bool found = demo_binary_folder(exe, sizeof exe);
    if (found) {
        for (size_t i = 0; i < sizeof FROM_BINARY / sizeof FROM_BINARY[0]; ++i) {
            int length = snprintf(out, size, "%s/%s", exe, FROM_BINARY[i]);
            if (length > 0 && (size_t)length < size && access(out, R_OK) == 0) return;
        }
    }
    snprintf(out, size, "demo/assets/smoke_puff.png");
    if (access(out, R_OK) != 0)
        fprintf(stderr, "plume_demo: no smoke sprite next to the binary (%s/../../../demo/assets, %s/../share/plume) "
                        "nor in ./demo/assets; give one with --texture FILE\n",
                found ? exe : "?", found ? exe : "?");
}

/* --effect NAME where NAME is no file: the gallery's effect of that name,
 * demo/effects/NAME.json beside the sources (found from the binary as the
 * sprite is) or below the working folder; else NAME as given (which then
 * fails to load, with its message). */
static const char *find_effect(const char *given, char *out, size_t size) {
    if (!given || access(given, R_OK) == 0 || strchr(given, '/')) return given;
    char exe[PATH_MAX];
    if (demo_binary_folder(exe, sizeof exe)) {
        int length = snprintf(out, size, "%s/../../../demo/effects/%s.json", exe, given);
        if (length > 0 && (size_t)length < size && access(out, R_OK) == 0) return out;
    }
    int length = snprintf(out, size, "demo/effects/%s.json", given);
    return length > 0 && (size_t)length < size && access(out, R_OK) == 0 ? out : given;
}

/* The puff's motion vectors beside the default sprite (tools/make_sprites
 * writes both); "" for a sprite given with --texture, whose motion the demo
 * cannot know. */
static void find_motion(const char *given_texture, const char *texture, char *out, size_t size) {
    static const char SPRITE[] = "smoke_puff.png";
    size_t length = strlen(texture), sprite = sizeof SPRITE - 1;
    out[0] = '\0';
    if (given_texture || length < sprite || strcmp(texture + length - sprite, SPRITE) != 0) return;
    int written = snprintf(out, size, "%.*ssmoke_puff_motion.png", (int)(length - sprite), texture);
    if (written < 0 || (size_t)written >= size || access(out, R_OK) != 0) out[0] = '\0';
}

static void camera_matrices(const demo_app *app, mat4 view, mat4 projection, vec3 eye) {
    const orbit_camera *c = &app->camera;
    vec3 offset = {cosf(c->pitch) * sinf(c->yaw), sinf(c->pitch), cosf(c->pitch) * cosf(c->yaw)};
    glm_vec3_scale(offset, c->distance, offset);
    glm_vec3_add((float *)c->target, offset, eye);
    vec3 looked_at;
    /* Looking away: from the same eye, straight away from the smoke. */
    if (app->options.look_away) glm_vec3_add(eye, offset, looked_at);
    else glm_vec3_copy((float *)c->target, looked_at);
    glm_lookat(eye, looked_at, (vec3){0, 1, 0}, view);
    glm_perspective(glm_rad(50.0f), (float)app->width / (float)app->height, 0.1f, 200.0f, projection);
}

static void open_csv(demo_app *app) {
    if (!app->options.profile_csv) return;
    app->csv = fopen(app->options.profile_csv, "w");
    if (!app->csv) {
        fprintf(stderr, "plume_demo: cannot write %s\n", app->options.profile_csv);
        return;
    }
    fprintf(app->csv, "frame,live_count,simulate_gpu_ms,sort_gpu_ms,draw_gpu_ms,cpu_ms,update_gpu_ms,capacity,"
                      "sorting\n");
}

/* The GPU medians wait for the current system's steady state: at least
 * its longest lifetime, and half an offscreen run at most (so that a short
 * run still measures, said as not steady), a minute in a window. */
static void start_steady_state(demo_app *app) {
    double dt = app->options.dt > 0.0f ? app->options.dt : 1.0 / 60.0;
    uint32_t longest = app->options.frames ? app->options.frames / 2 : 3600;
    steady_state_init(&app->steady, steady_state_lifetime_frames(smoke_system_longest_lifetime(app->smoke), dt), longest);
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) app->gpu_ms[s].count = 0;
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d) app->draw_stage_ms[d].count = 0;
}

bool demo_app_create(const demo_options *options, int width, int height, demo_app **out) {
    *out = NULL;
    demo_app *app = calloc(1, sizeof *app);
    if (!app) return false;
    app->options = *options;
    app->width = width;
    app->height = height;
    app->sorting = options->sort;
    app->show_hud = options->hud;
    app->camera = (orbit_camera){{2.2f, 3.3f, -0.4f}, 0.38f, 0.14f, 12.5f};
    if (options->camera_given) {
        const float *c = options->camera;
        app->camera = (orbit_camera){{c[0], c[1], c[2]}, glm_rad(c[3]), glm_rad(c[4]), c[5]};
    }
    find_texture(options->texture_path, app->texture_path, sizeof app->texture_path);
    find_motion(options->texture_path, app->texture_path, app->motion_path, sizeof app->motion_path);

    smoke_settings settings = {.capacity = options->particles, .texture_path = app->texture_path,
                               .motion_path = app->motion_path[0] ? app->motion_path : NULL, .seed = 7,
                               .tile_size = options->tile_size, .chunk_entries = options->chunk_entries,
                               .unlit = options->unlit, .no_self_shadow = options->no_self_shadow || options->gl33,
                               .builtin = options->effect,
                               .grinder_position = {-1.5f, 1.15f, 1.1f}, .fire = options->fire,
                               .joint = !options->separate,
                               .gpu_path = options->gl33 ? PLUME_PATH_FRAGMENT : PLUME_PATH_AUTO};
    scene_chimney_top(settings.emitter_position);
    char effect_path[PATH_MAX];
    app->effect = effect_show_create(find_effect(options->effect_path, effect_path, sizeof effect_path));
    scene_use_night(options->night);
    if (app->effect && options->effect == DEMO_EFFECT_SPARKS)
        effect_show_name_built_in(app->effect, "the built-in grinder sparks");
    if (app->effect && (settings.effect = effect_show_first(app->effect)) != NULL && !options->particles_given)
        settings.capacity = 0;  /* the file's */
    const plume_effect_group *group = app->effect ? effect_show_group(app->effect) : NULL;
    if (group) settings.companions = group->systems + 1, settings.companion_count = group->system_count - 1;
    /* Offscreen runs are scripted: an effect file that does not load fails them. */
    bool effect_ok = app->effect && (!options->effect_path || settings.effect || !options->offscreen);
    bool ok = effect_ok && scene_create(&app->scene) && render_targets_create(&app->targets, width, height) &&
              hud_create(&app->hud) && smoke_system_create(&settings, &app->smoke) &&
              (!options->gameplay || gameplay_create(app->texture_path, &app->gameplay)) &&
              (!options->many_effects || many_effects_create(app->texture_path, &app->many));
    if (!ok) {
        demo_app_destroy(app);
        return false;
    }
    open_csv(app);
    start_steady_state(app);
    *out = app;
    return true;
}

void demo_app_destroy(demo_app *app) {
    if (!app) return;
    if (app->smoke && app->options.save_effect) {
        plume_effect_error error;
        if (smoke_system_save(app->smoke, app->options.save_effect, &error))
            printf("wrote %s\n", app->options.save_effect);
        else
            fprintf(stderr, "plume_demo: %s\n", error.message);
    }
    gameplay_destroy(app->gameplay);
    many_effects_destroy(app->many);
    smoke_system_destroy(app->smoke);
    effect_show_destroy(app->effect);
    hud_destroy(app->hud);
    if (app->targets.present_program) render_targets_destroy(&app->targets);
    scene_destroy(app->scene);
    if (app->csv) fclose(app->csv);
    free(app->cpu_ms.values);
    free(app->frame_ms.values);
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) free(app->gpu_ms[s].values);
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d) free(app->draw_stage_ms[d].values);
    free(app);
}

void demo_app_resize(demo_app *app, int width, int height) {
    if (width <= 0 || height <= 0) return; /* minimised */
    if (render_targets_resize(&app->targets, width, height)) {
        app->width = width;
        app->height = height;
    }
}

/* A new system (another capacity or effect): its profile starts afresh. */
static void set_capacity_done(demo_app *app) {
    start_steady_state(app);
    app->system_first_frame = app->frame;
    app->next_profile_frame = 0;
    app->live_count = 0;
}

static void set_capacity(demo_app *app, uint32_t capacity) {
    if (capacity == smoke_system_capacity(app->smoke)) return;
    if (!smoke_system_set_capacity(app->smoke, capacity)) return;
    set_capacity_done(app);
}

static uint32_t next_level(uint32_t capacity, bool up) {
    if (up) {
        for (int k = 0; k < DEMO_COUNT_LEVEL_COUNT; ++k)
            if (DEMO_COUNT_LEVELS[k] > capacity) return DEMO_COUNT_LEVELS[k];
        return capacity;
    }
    for (int k = DEMO_COUNT_LEVEL_COUNT - 1; k >= 0; --k)
        if (DEMO_COUNT_LEVELS[k] < capacity) return DEMO_COUNT_LEVELS[k];
    return capacity;
}

void demo_app_act(demo_app *app, demo_action action) {
    switch (action) {
    case DEMO_TOGGLE_PAUSE: app->paused = !app->paused; break;
    case DEMO_MORE_PARTICLES: set_capacity(app, next_level(smoke_system_capacity(app->smoke), true)); break;
    case DEMO_FEWER_PARTICLES: set_capacity(app, next_level(smoke_system_capacity(app->smoke), false)); break;
    case DEMO_TOGGLE_SORT: app->sorting = !app->sorting; break;
    case DEMO_RESET: smoke_system_reset(app->smoke); break;
    case DEMO_TOGGLE_HUD: app->show_hud = !app->show_hud; break;
    case DEMO_NEXT_RESOLUTION: app->options.resolution = (app->options.resolution + 1) % 3; break;
    case DEMO_NEXT_PATH: {
        uint32_t next = 0;
        for (uint32_t p = 0; p < DEMO_PATH_COUNT; ++p)
            if (DEMO_PATHS[p] == app->options.path) next = (p + 1) % DEMO_PATH_COUNT;
        app->options.path = DEMO_PATHS[next];
        break;
    }
    case DEMO_NEXT_EFFECT:
        if (effect_show_next(app->effect, app->smoke)) set_capacity_done(app);
        break;
    case DEMO_TOGGLE_JOINT: smoke_system_set_joint(app->smoke, !smoke_system_joint(app->smoke)); break;
    case DEMO_TOGGLE_MANY:
        if (app->many) {
            many_effects_destroy(app->many);
            app->many = NULL;
        } else if (!many_effects_create(app->texture_path, &app->many)) {
            app->many = NULL;
        }
        break;
    }
}

demo_status demo_app_status(const demo_app *app) {
    return (demo_status){smoke_system_capacity(app->smoke), app->sorting, app->paused, app->show_hud, app->frame};
}

void demo_app_set_level(demo_app *app, int level) {
    if (level >= 0 && level < DEMO_COUNT_LEVEL_COUNT) set_capacity(app, DEMO_COUNT_LEVELS[level]);
}

void demo_app_orbit(demo_app *app, double dx_pixels, double dy_pixels) {
    app->camera.yaw -= (float)dx_pixels * 0.006f;
    app->camera.pitch = glm_clamp(app->camera.pitch + (float)dy_pixels * 0.006f, -0.05f, 1.45f);
}

void demo_app_zoom(demo_app *app, double steps) {
    app->camera.distance = glm_clamp(app->camera.distance * powf(0.9f, (float)steps), 2.0f, 60.0f);
}

/* ---- Timings --------------------------------------------------------------- */

static void write_csv_number(FILE *csv, bool known, const char *format, double value) {
    if (known) fprintf(csv, format, value);
    else fputs("nan", csv);
}

/* One CSV row: `gpu` NULL when the module gave no profile for the frame, `cpu`
 * NULL when the frame is too old for its CPU figures to be kept. */
static void write_csv_row(demo_app *app, uint64_t frame, const plume_frame_profile *gpu, const pending_frame *cpu) {
    FILE *csv = app->csv;
    if (!csv) return;
    static const plume_stage COLUMNS[4] = {PLUME_STAGE_SIMULATE, PLUME_STAGE_SORT, PLUME_STAGE_DRAW,
                                           PLUME_STAGE_UPDATE};
    bool measured[4];
    for (int c = 0; c < 4; ++c) measured[c] = gpu && (gpu->stage_mask & (1u << COLUMNS[c]));
    fprintf(csv, "%llu,", (unsigned long long)frame);
    write_csv_number(csv, gpu != NULL, "%.0f", gpu ? gpu->live_count : 0);
    for (int c = 0; c < 3; ++c) {
        fputc(',', csv);
        write_csv_number(csv, measured[c], "%.4f", gpu ? gpu->stage_ms[COLUMNS[c]] : 0);
    }
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.4f", cpu ? cpu->cpu_ms : 0);
    fputc(',', csv);
    write_csv_number(csv, measured[3], "%.4f", gpu ? gpu->stage_ms[PLUME_STAGE_UPDATE] : 0);
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.0f", cpu ? cpu->capacity : 0);
    fputc(',', csv);
    write_csv_number(csv, cpu != NULL, "%.0f", cpu ? cpu->sorting : 0);
    fputc('\n', csv);
}

/* Reads the module's profile for the HUD, and every frame it completed since
 * the last call for the CSV and the statistics (each matched with the CPU
 * figures recorded when it was issued, a few frames ago). */
static void collect_profile(demo_app *app) {
    app->profile_available = smoke_system_get_profile(app->smoke, &app->profile);
    /* Drawn by a group, the smoke's draw is the group's: the HUD shows that. */
    plume_profile group = {0};
    if (app->profile_available && smoke_system_get_group_profile(app->smoke, &group)) {
        app->profile.stages[PLUME_STAGE_DRAW] = group.stages[PLUME_STAGE_DRAW];
        memcpy(app->profile.draw_stages, group.draw_stages, sizeof group.draw_stages);
    }
    /* Without a profile from the module, or on the fragment path (whose
     * profile counts no particles: its counts are in textures), count the
     * live particles now and then (a synchronous read): the first a few
     * frames in, once the column has begun. */
    bool sample = !app->profile_available || app->options.gl33;
    uint64_t age = app->frame - app->system_first_frame;
    if (sample && (age + LIVE_SAMPLE_PERIOD - LIVE_SAMPLE_FIRST) % LIVE_SAMPLE_PERIOD == 0)
        app->live_count = smoke_system_count_live(app->smoke);
    if (!app->profile_available) {
        /* Log the CPU time alone. */
        if (app->frame > 0) write_csv_row(app, app->frame - 1, NULL, &app->pending[(app->frame - 1) % PENDING_FRAMES]);
        return;
    }
    plume_frame_profile completed[16];
    uint32_t count;
    /* A draw group draws the systems (--fire): their frames hold no draw of
     * their own, so the draw column takes the group's latest measured draw. */
    bool grouped = smoke_system_get_group_profile(app->smoke, &group) && group.stages[PLUME_STAGE_DRAW].samples > 0;
    while ((count = smoke_system_frame_profiles(app->smoke, app->next_profile_frame, completed, 16)) > 0) {
        for (uint32_t k = 0; k < count; ++k) {
            plume_frame_profile *f = &completed[k];
            if (grouped) {
                f->stage_ms[PLUME_STAGE_DRAW] = group.stages[PLUME_STAGE_DRAW].last_ms;
                f->stage_mask |= 1u << PLUME_STAGE_DRAW;
            }
            uint64_t demo_frame = app->system_first_frame + f->frame;
            bool recent = app->frame - demo_frame < PENDING_FRAMES;
            write_csv_row(app, demo_frame, f, recent ? &app->pending[demo_frame % PENDING_FRAMES] : NULL);
            bool measured = app->steady.reached;
            steady_state_push(&app->steady, f->live_count, f->tiled_entries ? f->tiled_entries : f->drawn_count);
            for (int s = 0; measured && s < PLUME_STAGE_COUNT; ++s)
                if (f->stage_mask & (1u << s)) sample_push(&app->gpu_ms[s], f->stage_ms[s]);
            for (int d = 0; measured && !grouped && d < PLUME_DRAW_STAGE_COUNT; ++d)
                if (f->draw_stage_mask & (1u << d)) sample_push(&app->draw_stage_ms[d], f->draw_stage_ms[d]);
            if (!sample) app->live_count = f->live_count;
            app->next_profile_frame = f->frame + 1;
        }
    }
}

static void record_graph(demo_app *app, double frame_ms) {
    graph_sample *g = &app->graph[app->graph_next];
    g->frame_ms = frame_ms;
    static const plume_stage STAGES[3] = {PLUME_STAGE_SIMULATE, PLUME_STAGE_SORT, PLUME_STAGE_DRAW};
    for (int k = 0; k < 3; ++k)
        g->stage_ms[k] = app->profile_available ? app->profile.stages[STAGES[k]].last_ms : 0;
    app->graph_next = (app->graph_next + 1) % GRAPH_FRAMES;
    if (app->graph_count < GRAPH_FRAMES) ++app->graph_count;
}

void demo_app_fire_at(demo_app *app, double x_pixels, double y_pixels) {
    if (!app->gameplay) return;
    mat4 view, projection, view_projection, inverse;
    vec3 eye;
    camera_matrices(app, view, projection, eye);
    glm_mat4_mul(projection, view, view_projection);
    glm_mat4_inv(view_projection, inverse);
    /* The pixel's point on the far plane, back in the world. */
    vec4 clip = {(float)(2.0 * x_pixels / app->width - 1.0), (float)(1.0 - 2.0 * y_pixels / app->height), 1.0f, 1.0f};
    vec4 far;
    glm_mat4_mulv(inverse, clip, far);
    vec3 direction = {far[0] / far[3] - eye[0], far[1] / far[3] - eye[1], far[2] / far[3] - eye[2]};
    glm_vec3_normalize(direction);
    float point[3], normal[3];
    if (scene_ray_hit(eye, direction, point, normal)) gameplay_fire_impact(app->gameplay, point, normal);
}

/* The fire's and the effect's brightest particles as point lights of the
 * scene (plume_system_write_lights): the fire's many dim flames a little
 * each, a spark or a firefly more. A source with nothing to write lights
 * nothing. */
static bool publish_particle_lights(demo_app *app) {
    plume_lights_desc fire = scene_light_range(app->scene, 0), shown = scene_light_range(app->scene, 1);
    fire.intensity = 0.3f;
    fire.radius = 7.0f;
    shown.intensity = 0.6f;
    shown.radius = 4.0f;
    bool wrote[SCENE_LIGHT_SOURCES];
    bool ok = smoke_system_write_lights(app->smoke, &fire, &shown, wrote);
    for (int k = 0; k < SCENE_LIGHT_SOURCES; ++k)
        if (!wrote[k]) scene_clear_lights(app->scene, k);
    return ok;
}

/* ---- Frame ----------------------------------------------------------------- */

bool demo_app_frame(demo_app *app, float dt, double frame_ms, GLuint framebuffer) {
    double start = demo_now_ms();
    if (effect_show_poll(app->effect, app->smoke)) set_capacity_done(app);
    /* Frames the GPU has finished since the last call (earlier frames only:
     * the CSV rows get the CPU figures of complete frames). */
    collect_profile(app);
    app->pending[app->frame % PENDING_FRAMES] = (pending_frame){0, smoke_system_capacity(app->smoke), app->sorting};
    mat4 view, projection, view_projection;
    vec3 eye;
    camera_matrices(app, view, projection, eye);
    glm_mat4_mul(projection, view, view_projection);

    smoke_frame frame = {
        .dt = app->paused ? 0.0f : dt,
        .sort = app->sorting,
        .depth_texture = app->targets.depth_copy,
        .width = app->width,
        .height = app->height,
        .resolution = app->options.resolution,
        .path = app->options.path,
        .quality = app->options.quality,
    };
    memcpy(frame.view, view, sizeof frame.view);
    memcpy(frame.projection, projection, sizeof frame.projection);
    scene_light(frame.light_direction, frame.light_color, frame.ambient_color);
    bool ok = smoke_system_update(app->smoke, &frame) && publish_particle_lights(app);
    if (app->gameplay) {
        /* Offscreen runs are scripted: an impact every 20 frames at a point
         * of the picture that moves round (the same run gives the same picture). */
        if (app->options.offscreen && app->frame % 20 == 5) {
            double turn = 2.399963 * (double)(app->frame / 20); /* the golden angle: points spread evenly */
            demo_app_fire_at(app, app->width * (0.5 + 0.3 * cos(turn)), app->height * (0.62 + 0.22 * sin(turn)));
        }
        ok = gameplay_update(app->gameplay, &frame) && ok;
    }
    if (app->many) ok = many_effects_update(app->many, &frame) && ok;

    float sky[3];
    scene_sky_color(sky);
    render_targets_begin_scene(&app->targets, sky);
    scene_draw(app->scene, (const float *)view_projection, eye);
    render_targets_copy_depth(&app->targets);
    ok = smoke_system_draw(app->smoke, &frame) && ok;
    if (app->gameplay) ok = gameplay_draw(app->gameplay, &frame) && ok;
    if (app->many) ok = many_effects_draw(app->many, &frame) && ok;
    render_targets_present(&app->targets, framebuffer);

    if (frame_ms > 0) {
        app->last_frame_ms = frame_ms;
        sample_push(&app->frame_ms, frame_ms);
    }
    record_graph(app, frame_ms);
    if (app->show_hud) demo_app_draw_hud(app, framebuffer);

    /* Leave no program of ours current: a later glDeleteProgram would only
     * flag it, and whoever saves and restores the binding would get a dead name. */
    glUseProgram(0);
    app->last_cpu_ms = demo_now_ms() - start;
    app->pending[app->frame % PENDING_FRAMES].cpu_ms = app->last_cpu_ms;
    sample_push(&app->cpu_ms, app->last_cpu_ms);
    ++app->frame;
    return ok;
}

/* Makes the folders above `path` that are missing ("build/" of the default
 * output, from whatever folder the demo runs in). */
static void make_parent_folders(const char *path) {
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", path);
    for (char *p = folder + 1; *p; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        demo_make_folder(folder); /* an existing folder is fine; a real failure shows when the file is written */
        *p = '/';
    }
}

bool demo_app_write_png(const demo_app *app, GLuint framebuffer, const char *path) {
    make_parent_folders(path);
    size_t row = (size_t)app->width * 4;
    unsigned char *pixels = malloc(row * (size_t)app->height);
    unsigned char *flipped = malloc(row * (size_t)app->height);
    bool ok = pixels && flipped;
    if (ok) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
        glReadBuffer(framebuffer ? GL_COLOR_ATTACHMENT0 : GL_BACK);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, app->width, app->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        /* GL's rows run bottom-up, PNG's top-down; the HUD's blending leaves
         * alpha below 1, and the image is opaque. */
        for (int y = 0; y < app->height; ++y) {
            unsigned char *dst = flipped + row * (size_t)y;
            memcpy(dst, pixels + row * (size_t)(app->height - 1 - y), row);
            for (int x = 0; x < app->width; ++x) dst[4 * x + 3] = 255;
        }
        ok = stbi_write_png(path, app->width, app->height, 4, flipped, (int)row) != 0;
        if (!ok) fprintf(stderr, "plume_demo: cannot write %s\n", path);
    }
    free(pixels);
    free(flipped);
    return ok;
}

void demo_app_summary(demo_app *app, demo_summary *out) {
    memset(out, 0, sizeof *out);
    out->frames = (uint32_t)app->frame;
    out->median_cpu_ms = sample_median(&app->cpu_ms);
    out->median_frame_ms = sample_median(&app->frame_ms);
    out->gpu_samples = (uint32_t)app->gpu_ms[PLUME_STAGE_SORT].count;
    out->gpu_times = app->gpu_ms[PLUME_STAGE_UPDATE].count > 0;
    for (int s = 0; s < PLUME_STAGE_COUNT; ++s) out->median_gpu_ms[s] = sample_median(&app->gpu_ms[s]);
    for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
        if (app->draw_stage_ms[d].count) {
            out->median_draw_stage_ms[d] = sample_median(&app->draw_stage_ms[d]);
            out->draw_stage_mask |= 1u << d;
        }
    steady_state_describe(&app->steady, out->steady, sizeof out->steady);
    out->live_count = smoke_system_count_live(app->smoke);
    out->capacity = smoke_system_capacity(app->smoke);
    out->sort = smoke_system_sort_name(app->smoke);
    plume_profile group;
    if (smoke_system_get_group_profile(app->smoke, &group)) {
        out->group_samples = group.stages[PLUME_STAGE_DRAW].samples;
        out->group_sort_ms = group.stages[PLUME_STAGE_SORT].mean_ms;
        out->group_draw_ms = group.stages[PLUME_STAGE_DRAW].mean_ms;
    }
    out->companion_count = smoke_system_companion_gpu_ms(app->smoke, out->companion_ms);
    if (app->profile_available) {
        out->drawn_count = app->profile.drawn_count;
        out->drew_path = app->profile.draw_path;
        out->drew_resolution = app->profile.draw_resolution;
        out->tiled_entries = app->profile.tiled_entries;
        out->tiled_entry_budget = app->profile.tiled_entry_budget;
        out->tiled_overflow_frames = app->profile.tiled_overflow_frames;
    }
    if (app->csv) fflush(app->csv);
}

void demo_summary_print(const demo_summary *s) {
    printf("frames: %u, particles: %u live of %u capacity (%u drawn in the last profiled frame), sort: %s\n",
           s->frames, s->live_count, s->capacity, s->drawn_count, s->sort);
    if (s->drew_path != 0)
        printf("the last profiled frame drew %s at %s resolution\n", demo_path_name(s->drew_path),
               demo_resolution_name(s->drew_resolution));
    printf("CPU per frame (median): %.2f ms issuing, %.2f ms between frames\n", s->median_cpu_ms,
           s->median_frame_ms);
    if (s->gpu_times)
        printf("GPU per frame (median of %u frames, %s): simulate %.3f ms, sort %.3f ms, draw %.3f ms, update %.3f "
               "ms\n",
               s->gpu_samples, s->steady, s->median_gpu_ms[PLUME_STAGE_SIMULATE], s->median_gpu_ms[PLUME_STAGE_SORT],
               s->median_gpu_ms[PLUME_STAGE_DRAW], s->median_gpu_ms[PLUME_STAGE_UPDATE]);
    else
        printf("GPU per frame: no stage times (no profiler in the module, or no GL timer)\n");
    if (s->draw_stage_mask) {
        printf("the draw by stage (medians over the same frames, each of those that ran it):");
        const char *separator = " ";
        for (int d = 0; d < PLUME_DRAW_STAGE_COUNT; ++d)
            if (s->draw_stage_mask & (1u << d)) {
                printf("%s%s %.3f ms", separator, HOST_DRAW_STAGE_NAMES[d], s->median_draw_stage_ms[d]);
                separator = ", ";
            }
        printf("\n");
    }
    if (s->group_samples > 0)
        printf("draw group (fire and smoke in one order; the systems' draw above is 0): gather and sort %.3f ms, "
               "draw %.3f ms (mean of its last %u draws)\n",
               s->group_sort_ms, s->group_draw_ms, s->group_samples);
    if (s->companion_count > 0)
        printf("GPU per frame, the effect's other %u systems (means of their profiles): simulate %.3f ms, sort %.3f "
               "ms, draw %.3f ms, update %.3f ms\n",
               s->companion_count, s->companion_ms[PLUME_STAGE_SIMULATE], s->companion_ms[PLUME_STAGE_SORT],
               s->companion_ms[PLUME_STAGE_DRAW], s->companion_ms[PLUME_STAGE_UPDATE]);
    if (s->tiled_entry_budget > 0)
        printf("tiled path: %u entries of a budget of %u in the last frame; %u frames of the profile's window "
               "overflowed it\n",
               s->tiled_entries, s->tiled_entry_budget, s->tiled_overflow_frames);
}
