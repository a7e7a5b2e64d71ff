/* The demo application: orbit camera, scene, smoke, HUD, timings and CSV.
 * Windowed and offscreen runs drive it the same way, one frame at a time.
 * The HUD panel it draws each frame is in app_hud.c, the timings, the CSV
 * and the run's summary in app_timings.c. */
#define _POSIX_C_SOURCE 200809L
#include <cglm/cglm.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "app_internal.h"
#include "demo.h"
#include "effect_show.h"
#include "hud.h"
#include "render_targets.h"
#include "scene.h"
#include "smoke_system.h"

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
    demo_app_open_csv(app);
    demo_app_start_steady_state(app);
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
    demo_app_start_steady_state(app);
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
    demo_app_collect_profile(app);
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
        sample_list_push(&app->frame_ms, frame_ms);
    }
    demo_app_record_graph(app, frame_ms);
    if (app->show_hud) demo_app_draw_hud(app, framebuffer);

    /* Leave no program of ours current: a later glDeleteProgram would only
     * flag it, and whoever saves and restores the binding would get a dead name. */
    glUseProgram(0);
    app->last_cpu_ms = demo_now_ms() - start;
    app->pending[app->frame % PENDING_FRAMES].cpu_ms = app->last_cpu_ms;
    sample_list_push(&app->cpu_ms, app->last_cpu_ms);
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
