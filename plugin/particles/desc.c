/* The particle system descriptor: defaults for zero fields, and the checks
 * that turn a bad field into PLUME_ERROR_INVALID_ARGUMENT plus one message
 * naming it. No GL here (the GL limits are checked at creation). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "particles_internal.h"

static const float PI = 3.14159265358979f;
static const float DEFAULT_LIFETIME = 1.0f;
static const float DEFAULT_SIZE = 0.1f;
static const float DEFAULT_TURBULENCE_SCALE = 1.0f;
static const float DEFAULT_SOFT_FADE_DISTANCE = 0.5f;
/* The sort key's bits: 24 sort in three radix passes, not four, and still
 * tell apart depths 2^-15 of their value apart. */
static const uint32_t DEFAULT_SORT_KEY_BITS = 24;
static const uint32_t MIN_SORT_KEY_BITS = 16;

/* "caller: field why": plume_system_desc_check promises this form (the
 * effects library reads the field back from the first word after "caller: "
 * to place the error in the effect file), so `field` names the descriptor's
 * path ("emitters[0].lifetime") without spaces. */
static plume_result refuse(const plume_env *env, const char *caller, const char *field, const char *why) {
    plume_log(env, PLUME_LOG_ERROR, "%s: %s %s", caller, field, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

static bool all_finite(const float *values, int count) {
    for (int i = 0; i < count; ++i)
        if (!isfinite(values[i])) return false;
    return true;
}

typedef enum range_rule {
    RANGE_ANY,        /* any finite numbers */
    RANGE_NON_NEGATIVE,
    RANGE_POSITIVE    /* min > 0 */
} range_rule;

/* {0, 0} takes `fallback` (when given); then min <= max and the rule. */
static plume_result resolve_range(const plume_env *env, const char *caller, const char *field, plume_range *range,
                                  const plume_range *fallback, range_rule rule) {
    char why[160];
    if (!isfinite(range->min) || !isfinite(range->max)) return refuse(env, caller, field, "must be finite numbers");
    if (fallback && range->min == 0.0f && range->max == 0.0f) *range = *fallback;
    if (range->min > range->max) {
        snprintf(why, sizeof why, "has min %g over max %g", range->min, range->max);
        return refuse(env, caller, field, why);
    }
    if (rule == RANGE_POSITIVE && !(range->min > 0.0f)) {
        snprintf(why, sizeof why, "min is %g; it must be above 0", range->min);
        return refuse(env, caller, field, why);
    }
    if (rule == RANGE_NON_NEGATIVE && range->min < 0.0f) {
        snprintf(why, sizeof why, "min is %g; it must not be negative", range->min);
        return refuse(env, caller, field, why);
    }
    return PLUME_OK;
}

static plume_result check_non_negative(const plume_env *env, const char *caller, const char *field, float value) {
    if (!isfinite(value) || value < 0.0f) {
        char why[96];
        snprintf(why, sizeof why, "is %g; it must be a finite number >= 0", value);
        return refuse(env, caller, field, why);
    }
    return PLUME_OK;
}

plume_result plume_particles_resolve_emitter(const plume_env *env, const char *caller, uint32_t index,
                                             const plume_emitter_desc *in, plume_emitter_desc *out) {
    *out = *in;
    char field[64];
    plume_result r;
#define FIELD(name) (snprintf(field, sizeof field, "emitters[%u]." name, index), field)
    if ((unsigned)out->shape > PLUME_SHAPE_CONE) return refuse(env, caller, FIELD("shape"), "is not a plume_emitter_shape");
    if (!all_finite(out->position, 3)) return refuse(env, caller, FIELD("position"), "must be finite");
    if (!all_finite(out->extents, 3) || out->extents[0] < 0 || out->extents[1] < 0 || out->extents[2] < 0)
        return refuse(env, caller, FIELD("extents"), "must be finite and >= 0");
    if (!all_finite(out->direction, 3)) return refuse(env, caller, FIELD("direction"), "must be finite");
    float length = sqrtf(out->direction[0] * out->direction[0] + out->direction[1] * out->direction[1] +
                         out->direction[2] * out->direction[2]);
    if (length == 0.0f) {
        out->direction[0] = 0.0f, out->direction[1] = 1.0f, out->direction[2] = 0.0f;
    } else if (!isfinite(1.0f / length)) {
        return refuse(env, caller, FIELD("direction"), "is too short to normalise");
    } else {
        for (int i = 0; i < 3; ++i) out->direction[i] /= length;
    }
    if (!isfinite(out->spread) || out->spread < 0.0f || out->spread > PI + 1e-6f)
        return refuse(env, caller, FIELD("spread"), "must be an angle in radians from 0 to pi");
    if ((r = check_non_negative(env, caller, FIELD("rate"), out->rate)) != PLUME_OK) return r;
    if ((r = check_non_negative(env, caller, FIELD("burst_interval"), out->burst_interval)) != PLUME_OK) return r;
    const plume_range default_lifetime = {DEFAULT_LIFETIME, DEFAULT_LIFETIME};
    const plume_range default_size = {DEFAULT_SIZE, DEFAULT_SIZE};
    if ((r = resolve_range(env, caller, FIELD("lifetime"), &out->lifetime, &default_lifetime, RANGE_POSITIVE)) ||
        (r = resolve_range(env, caller, FIELD("speed"), &out->speed, NULL, RANGE_NON_NEGATIVE)) ||
        (r = resolve_range(env, caller, FIELD("size"), &out->size, &default_size, RANGE_POSITIVE)) ||
        (r = resolve_range(env, caller, FIELD("rotation"), &out->rotation, NULL, RANGE_ANY)) ||
        (r = resolve_range(env, caller, FIELD("spin"), &out->spin, NULL, RANGE_ANY)))
        return r;
#undef FIELD
    return PLUME_OK;
}

plume_result plume_particles_resolve_forces(const plume_env *env, const char *caller, const plume_forces *in,
                                            plume_forces *out) {
    *out = *in;
    plume_result r;
    if (!all_finite(out->gravity, 3)) return refuse(env, caller, "forces.gravity", "must be finite");
    if (!all_finite(out->wind, 3)) return refuse(env, caller, "forces.wind", "must be finite");
    if ((r = check_non_negative(env, caller, "forces.drag", out->drag)) ||
        (r = check_non_negative(env, caller, "forces.turbulence", out->turbulence)) ||
        (r = check_non_negative(env, caller, "forces.turbulence_scale", out->turbulence_scale)) ||
        (r = check_non_negative(env, caller, "forces.turbulence_speed", out->turbulence_speed)))
        return r;
    if (out->turbulence_scale == 0.0f) out->turbulence_scale = DEFAULT_TURBULENCE_SCALE;
    return PLUME_OK;
}

/* ---- The world (since 1.2) ---- */

static const float DEFAULT_DEPTH_THICKNESS = 0.5f;
static const uint32_t DEFAULT_EVENT_CAPACITY = 4096;
/* The emit pass has one invocation per slot, in groups of 64 along x (at
 * least 65535 groups in every GL). */
static const uint32_t MAX_EVENT_CAPACITY = 1u << 21;

/* A finite direction, normalised; all zero takes {0, 1, 0}. */
static plume_result resolve_direction(const plume_env *env, const char *caller, const char *field, float v[3]) {
    if (!all_finite(v, 3)) return refuse(env, caller, field, "must be finite");
    float length = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (length == 0.0f) {
        v[0] = 0.0f, v[1] = 1.0f, v[2] = 0.0f;
        return PLUME_OK;
    }
    if (!isfinite(1.0f / length) || !isfinite(length)) return refuse(env, caller, field, "cannot be normalised");
    for (int i = 0; i < 3; ++i) v[i] /= length;
    return PLUME_OK;
}

static plume_result resolve_collision(const plume_env *env, const char *caller, const char *prefix,
                                      plume_collision_desc *c) {
    char field[80];
    plume_result r;
#define FIELD(name) (snprintf(field, sizeof field, "%s.collision." name, prefix), field)
    if (c->response > PLUME_COLLISION_KILL)
        return refuse(env, caller, FIELD("response"), "is not a plume_collision_response");
    if (!isfinite(c->restitution) || c->restitution < 0.0f || c->restitution > 1.0f)
        return refuse(env, caller, FIELD("restitution"), "must be a number from 0 to 1");
    if ((r = check_non_negative(env, caller, FIELD("friction"), c->friction)) ||
        (r = check_non_negative(env, caller, FIELD("rest_speed"), c->rest_speed)))
        return r;
#undef FIELD
    return PLUME_OK;
}

static plume_result resolve_collider(const plume_env *env, const char *caller, uint32_t index,
                                     plume_collider_desc *c) {
    char prefix[40], field[80];
    snprintf(prefix, sizeof prefix, "world.colliders[%u]", index);
#define FIELD(name) (snprintf(field, sizeof field, "%s." name, prefix), field)
    if (c->shape > PLUME_COLLIDER_BOX) return refuse(env, caller, FIELD("shape"), "is not a plume_collider_shape");
    if (c->shape == PLUME_COLLIDER_NONE) return PLUME_OK;
    if (!all_finite(c->position, 3)) return refuse(env, caller, FIELD("position"), "must be finite");
    plume_result r = resolve_direction(env, caller, FIELD("normal"), c->normal);
    if (r != PLUME_OK) return r;
    if (c->shape == PLUME_COLLIDER_SPHERE && !(isfinite(c->radius) && c->radius > 0.0f))
        return refuse(env, caller, FIELD("radius"), "must be a finite number above 0 for a sphere");
    if (c->shape == PLUME_COLLIDER_BOX &&
        !(all_finite(c->extents, 3) && c->extents[0] > 0.0f && c->extents[1] > 0.0f && c->extents[2] > 0.0f))
        return refuse(env, caller, FIELD("extents"), "must be finite numbers above 0 for a box");
#undef FIELD
    return resolve_collision(env, caller, prefix, &c->collision);
}

static plume_result resolve_attractor(const plume_env *env, const char *caller, uint32_t index,
                                      plume_attractor_desc *a) {
    char field[64];
#define FIELD(name) (snprintf(field, sizeof field, "world.attractors[%u]." name, index), field)
    if (a->kind > PLUME_ATTRACTOR_VORTEX) return refuse(env, caller, FIELD("kind"), "is not a plume_attractor_kind");
    if (a->kind == PLUME_ATTRACTOR_NONE) return PLUME_OK;
    if (!all_finite(a->position, 3)) return refuse(env, caller, FIELD("position"), "must be finite");
    if (!isfinite(a->strength)) return refuse(env, caller, FIELD("strength"), "must be finite");
    plume_result r = resolve_direction(env, caller, FIELD("axis"), a->axis);
    if (r == PLUME_OK) r = check_non_negative(env, caller, FIELD("radius"), a->radius);
#undef FIELD
    return r;
}

static plume_result resolve_vector_field(const plume_env *env, const char *caller, plume_vector_field_desc *f) {
    if (f->texture == 0) return PLUME_OK;
    if (!all_finite(f->bounds_min, 3) || !all_finite(f->bounds_max, 3))
        return refuse(env, caller, "world.vector_field.bounds_min/bounds_max", "must be finite");
    for (int i = 0; i < 3; ++i)
        if (!(f->bounds_max[i] > f->bounds_min[i]) || !isfinite(f->bounds_max[i] - f->bounds_min[i]))
            return refuse(env, caller, "world.vector_field.bounds_max", "must be above bounds_min on every axis");
    if (!isfinite(f->strength)) return refuse(env, caller, "world.vector_field.strength", "must be finite");
    if (f->strength == 0.0f) f->strength = 1.0f;
    return PLUME_OK;
}

static plume_result resolve_route(const plume_env *env, const char *caller, uint32_t index,
                                  plume_event_route_desc *e) {
    char field[64], why[96];
#define FIELD(name) (snprintf(field, sizeof field, "world.events[%u]." name, index), field)
    if (e->trigger > PLUME_EVENT_COLLISION) return refuse(env, caller, FIELD("trigger"), "is not a plume_event_trigger");
    if (e->trigger == PLUME_EVENT_NONE) return PLUME_OK;
    if (e->source_emitters >> PLUME_MAX_EMITTERS) {
        snprintf(why, sizeof why, "has bits above the %d emitters", PLUME_MAX_EMITTERS);
        return refuse(env, caller, FIELD("source_emitters"), why);
    }
    if (e->target_emitter >= PLUME_MAX_EMITTERS) {
        snprintf(why, sizeof why, "is %u; it must be below %d", e->target_emitter, PLUME_MAX_EMITTERS);
        return refuse(env, caller, FIELD("target_emitter"), why);
    }
    if (e->count > PLUME_EVENT_MAX_CHILDREN) {
        snprintf(why, sizeof why, "is %u; at most %d children per event", e->count, PLUME_EVENT_MAX_CHILDREN);
        return refuse(env, caller, FIELD("count"), why);
    }
    if (e->count == 0) e->count = 1;
    if (!isfinite(e->inherit_velocity)) return refuse(env, caller, FIELD("inherit_velocity"), "must be finite");
#undef FIELD
    return PLUME_OK;
}

plume_result plume_particles_resolve_world(const plume_env *env, const char *caller, const plume_world *in,
                                           plume_world *out) {
    *out = *in;
    plume_result r;
    for (uint32_t i = 0; i < PLUME_MAX_COLLIDERS; ++i)
        if ((r = resolve_collider(env, caller, i, &out->colliders[i])) != PLUME_OK) return r;
    plume_depth_collision_desc *depth = &out->depth_collision;
    if ((r = check_non_negative(env, caller, "world.depth_collision.thickness", depth->thickness)) ||
        (r = resolve_collision(env, caller, "world.depth_collision", &depth->collision)))
        return r;
    if (depth->thickness == 0.0f) depth->thickness = DEFAULT_DEPTH_THICKNESS;
    for (uint32_t i = 0; i < PLUME_MAX_ATTRACTORS; ++i)
        if ((r = resolve_attractor(env, caller, i, &out->attractors[i])) != PLUME_OK) return r;
    if ((r = resolve_vector_field(env, caller, &out->vector_field)) != PLUME_OK) return r;
    for (uint32_t i = 0; i < PLUME_MAX_EVENT_ROUTES; ++i)
        if ((r = resolve_route(env, caller, i, &out->events[i])) != PLUME_OK) return r;
    if (out->event_capacity > MAX_EVENT_CAPACITY) {
        char why[96];
        snprintf(why, sizeof why, "is %u; at most %u", out->event_capacity, MAX_EVENT_CAPACITY);
        return refuse(env, caller, "world.event_capacity", why);
    }
    if (out->event_capacity == 0) out->event_capacity = DEFAULT_EVENT_CAPACITY;
    return PLUME_OK;
}

/* Key times in 0..1, non-decreasing, at most PLUME_MAX_CURVE_KEYS keys. */
static plume_result check_key_times(const plume_env *env, const char *caller, const char *field, uint32_t count,
                                    const float *times, size_t stride_floats) {
    char why[128];
    if (count > PLUME_MAX_CURVE_KEYS) {
        snprintf(why, sizeof why, "has %u keys; at most %d", count, PLUME_MAX_CURVE_KEYS);
        return refuse(env, caller, field, why);
    }
    float previous = 0.0f;
    for (uint32_t k = 0; k < count; ++k) {
        float t = times[k * stride_floats];
        if (!isfinite(t) || t < 0.0f || t > 1.0f || t < previous) {
            snprintf(why, sizeof why, "key %u has time %g; times must rise through 0 .. 1", k, t);
            return refuse(env, caller, field, why);
        }
        previous = t;
    }
    return PLUME_OK;
}

/* A curve of values >= 0 (sizes, opacities); no keys: the constant 1. */
static plume_result resolve_curve(const plume_env *env, const char *caller, const char *field, plume_curve *curve) {
    plume_result r = check_key_times(env, caller, field, curve->key_count, &curve->keys[0].time,
                                     sizeof(plume_curve_key) / sizeof(float));
    if (r != PLUME_OK) return r;
    for (uint32_t k = 0; k < curve->key_count; ++k)
        if (!isfinite(curve->keys[k].value) || curve->keys[k].value < 0.0f)
            return refuse(env, caller, field, "has a value that is not a finite number >= 0");
    if (curve->key_count == 0) *curve = (plume_curve){.key_count = 1, .keys[0] = {0.0f, 1.0f}};
    return PLUME_OK;
}

static plume_result resolve_gradient(const plume_env *env, const char *caller, const char *field,
                                     plume_gradient *gradient) {
    plume_result r = check_key_times(env, caller, field, gradient->key_count, &gradient->keys[0].time,
                                     sizeof(plume_color_key) / sizeof(float));
    if (r != PLUME_OK) return r;
    for (uint32_t k = 0; k < gradient->key_count; ++k)
        for (int c = 0; c < 4; ++c) {
            float v = gradient->keys[k].rgba[c];
            if (!isfinite(v) || v < 0.0f || v > 1.0f) return refuse(env, caller, field, "has a colour outside 0 .. 1");
        }
    if (gradient->key_count == 0) *gradient = (plume_gradient){.key_count = 1, .keys[0] = {0.0f, {1, 1, 1, 1}}};
    return PLUME_OK;
}

static plume_result resolve_host_sprite(const plume_env *env, const char *caller, const plume_texture_desc *texture,
                                        plume_host_sprite *host) {
    if (host->texture && (texture->path || texture->pixels))
        return refuse(env, caller, "host_sprite.texture",
                      "is given with appearance.texture's path or pixels; give one of the three");
    if (host->target != 0 && host->target != GL_TEXTURE_2D && host->target != GL_TEXTURE_2D_ARRAY)
        return refuse(env, caller, "host_sprite.target",
                      "is neither GL_TEXTURE_2D nor GL_TEXTURE_2D_ARRAY (0: GL_TEXTURE_2D)");
    if (host->target != 0 && !host->texture)
        return refuse(env, caller, "host_sprite.target", "is given without a host_sprite.texture");
    if (host->target == GL_TEXTURE_2D_ARRAY && (texture->columns > 1 || texture->rows > 1))
        return refuse(env, caller, "appearance.texture.columns",
                      "and rows must be 0 or 1 with a GL_TEXTURE_2D_ARRAY: its layers are the frames");
    if (host->texture && host->target == 0) host->target = GL_TEXTURE_2D;
    return PLUME_OK;
}

static plume_result resolve_texture(const plume_env *env, const char *caller, plume_texture_desc *texture,
                                    plume_host_sprite *host) {
    plume_result r = resolve_host_sprite(env, caller, texture, host);
    if (r != PLUME_OK) return r;
    if (texture->path && texture->pixels)
        return refuse(env, caller, "appearance.texture", "has both a path and pixels; give one");
    if (texture->pixels && (texture->width == 0 || texture->height == 0))
        return refuse(env, caller, "appearance.texture", "has pixels but a zero width or height");
    if (texture->columns == 0) texture->columns = 1;
    if (texture->rows == 0) texture->rows = 1;
    return PLUME_OK;
}

/* The flipbook's motion: one source, a flipbook of several 2D frames that
 * blend; its size against the sprite's is checked at create (the sprite's
 * may come from a file). */
static plume_result resolve_flipbook_motion(const plume_env *env, const char *caller, const plume_texture_desc *sprite,
                                            const plume_host_sprite *host, plume_flipbook_motion *motion) {
    int sources = (motion->path != NULL) + (motion->pixels != NULL) + (motion->host_texture != 0);
    if (sources == 0) {
        *motion = (plume_flipbook_motion){0};
        return PLUME_OK;
    }
    if (sources > 1)
        return refuse(env, caller, "flipbook_motion", "has more than one of path, pixels and host_texture; give one");
    if (motion->pixels && (motion->width == 0 || motion->height == 0))
        return refuse(env, caller, "flipbook_motion", "has pixels but a zero width or height");
    if (!sprite->path && !sprite->pixels && !host->texture)
        return refuse(env, caller, "flipbook_motion", "is given without a sprite (appearance.texture or host_sprite)");
    if (host->target == GL_TEXTURE_2D_ARRAY)
        return refuse(env, caller, "flipbook_motion",
                      "is given with a GL_TEXTURE_2D_ARRAY sprite; it needs a flipbook atlas (GL_TEXTURE_2D)");
    if (sprite->columns * sprite->rows < 2)
        return refuse(env, caller, "flipbook_motion",
                      "is given without a flipbook (appearance.texture.columns x rows is one frame)");
    if (sprite->disable_frame_blend)
        return refuse(env, caller, "flipbook_motion",
                      "is given with appearance.texture.disable_frame_blend: the motion moves blended frames");
    plume_result r = check_non_negative(env, caller, "flipbook_motion.strength", motion->strength);
    if (r != PLUME_OK) return r;
    if (motion->strength == 0.0f) motion->strength = 1.0f;
    return PLUME_OK;
}

/* The since-1.2 fields: enums known, curves in range; defaults filled. */
static plume_result resolve_look(const plume_env *env, const char *caller, plume_system_desc *d) {
    if (d->blend_mode > PLUME_BLEND_PREMULTIPLIED_ADDITIVE)
        return refuse(env, caller, "blend_mode", "is not a plume_blend_mode (0 .. 2)");
    plume_result r = resolve_curve(env, caller, "additive_over_life", &d->additive_over_life);
    if (r != PLUME_OK) return r;
    for (uint32_t k = 0; k < d->additive_over_life.key_count; ++k)
        if (d->additive_over_life.keys[k].value > 1.0f)
            return refuse(env, caller, "additive_over_life", "has a value over 1; the additive part is 0 .. 1");
    if (d->orientation > PLUME_ORIENT_WORLD_FACING)
        return refuse(env, caller, "orientation", "is not a plume_orientation (0 .. 4)");
    if (!all_finite(d->orientation_axis, 3)) return refuse(env, caller, "orientation_axis", "must be finite");
    float *axis = d->orientation_axis;
    float length = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    if (d->orientation == PLUME_ORIENT_WORLD_AXIS || d->orientation == PLUME_ORIENT_WORLD_FACING) {
        if (!(length > 0.0f) || !isfinite(1.0f / length))
            return refuse(env, caller, "orientation_axis", "is zero (or too short to normalise); this orientation needs it");
        for (int i = 0; i < 3; ++i) axis[i] /= length;
    }
    /* No keys: no light emitted (not resolve_gradient's opaque white). */
    if (d->emissive_over_life.key_count == 0) d->emissive_over_life = (plume_gradient){.key_count = 1};
    else if ((r = resolve_gradient(env, caller, "emissive_over_life", &d->emissive_over_life)) != PLUME_OK)
        return r;
    if (d->sort_mode > PLUME_SORT_MODE_NONE) return refuse(env, caller, "sort_mode", "is not a plume_sort_mode (0 .. 4)");
    if (d->sort_key_bits == 0) d->sort_key_bits = DEFAULT_SORT_KEY_BITS;
    if (d->sort_key_bits < MIN_SORT_KEY_BITS || d->sort_key_bits > 32)
        return refuse(env, caller, "sort_key_bits", "is outside 16 .. 32 (0: 24)");
    if (!(d->inherit_velocity >= 0.0f && d->inherit_velocity <= 4.0f))
        return refuse(env, caller, "inherit_velocity", "is outside 0 .. 4");
    if (d->simulation_space > PLUME_SPACE_LOCAL)
        return refuse(env, caller, "simulation_space", "is not a plume_simulation_space (0 world, 1 local)");
    if ((r = check_non_negative(env, caller, "stretch_factor", d->stretch_factor)) != PLUME_OK) return r;
    const plume_range default_limits = {1.0f, 8.0f};
    return resolve_range(env, caller, "stretch_limits", &d->stretch_limits, &default_limits, RANGE_POSITIVE);
}

static plume_result resolve_cpu_events(const plume_env *env, const char *caller, plume_cpu_events_desc *e) {
    const uint32_t all_kinds = PLUME_PARTICLE_EVENT_DEATH | PLUME_PARTICLE_EVENT_COLLISION | PLUME_PARTICLE_EVENT_ROUTE;
    if (e->kinds & ~all_kinds)
        return refuse(env, caller, "cpu_events.kinds", "has bits that are no plume_particle_event_kind");
    if (e->source_emitters >> PLUME_MAX_EMITTERS)
        return refuse(env, caller, "cpu_events.source_emitters", "names an emitter past PLUME_MAX_EMITTERS");
    if (e->budget > PLUME_CPU_EVENT_MAX_BUDGET)
        return refuse(env, caller, "cpu_events.budget", "is over 65536 records an update");
    if (e->source_emitters == 0) e->source_emitters = (1u << PLUME_MAX_EMITTERS) - 1u;
    if (e->budget == 0) e->budget = PLUME_CPU_EVENT_DEFAULT_BUDGET;
    return PLUME_OK;
}

/* Trails (plume_trail_desc): nothing asked, nothing checked; otherwise the
 * point count, spacing, curves and texture mode, and a sort the segments
 * can be ordered by (their keys are their own depths, never an age). */
static plume_result resolve_trail(const plume_env *env, const char *caller, plume_system_desc *d) {
    plume_trail_desc *t = &d->trail;
    if (t->points == 0) return PLUME_OK;
    char why[128];
    if (t->points < 2 || t->points > PLUME_MAX_TRAIL_POINTS) {
        snprintf(why, sizeof why, "is %u; a trail has 2 .. %d points (0: none)", t->points, PLUME_MAX_TRAIL_POINTS);
        return refuse(env, caller, "trail.points", why);
    }
    if ((uint64_t)d->capacity * t->points > (1u << 30))
        return refuse(env, caller, "trail.points", "times the capacity is over the sort's 2^30 pairs");
    if (t->ribbon && t->points != 2)
        return refuse(env, caller, "trail.points", "must be 2 with trail.ribbon (a segment a particle)");
    if (t->ribbon && t->spacing_mode != PLUME_TRAIL_SPACING_TIME)
        return refuse(env, caller, "trail.spacing_mode", "must be time with trail.ribbon (the longest birth gap)");
    if (t->spacing_mode > PLUME_TRAIL_SPACING_DISTANCE)
        return refuse(env, caller, "trail.spacing_mode", "is not a plume_trail_spacing (0 time, 1 distance)");
    if (!(isfinite(t->spacing) && t->spacing > 0.0f))
        return refuse(env, caller, "trail.spacing", "must be finite and > 0 (seconds or world units)");
    if (t->uv_mode > PLUME_TRAIL_UV_TILE)
        return refuse(env, caller, "trail.uv_mode", "is not a plume_trail_uv (0 stretch, 1 tile)");
    if (t->uv_tile_length == 0.0f) t->uv_tile_length = 1.0f;
    if (!(isfinite(t->uv_tile_length) && t->uv_tile_length > 0.0f))
        return refuse(env, caller, "trail.uv_tile_length", "must be finite and > 0 (0: 1)");
    const plume_texture_desc *texture = &d->appearance.texture;
    if (t->uv_mode == PLUME_TRAIL_UV_TILE && texture->columns * texture->rows > 1)
        return refuse(env, caller, "trail.uv_mode", "TILE repeats the sprite; a flipbook of several frames cannot");
    if (d->sort_mode == PLUME_SORT_MODE_OLDEST_FIRST || d->sort_mode == PLUME_SORT_MODE_YOUNGEST_FIRST)
        return refuse(env, caller, "sort_mode",
                      "orders by age, which a trail's segments share: a trail needs VIEW_DEPTH, DISTANCE or NONE");
    plume_result r;
    if ((r = resolve_curve(env, caller, "trail.width_over_length", &t->width_over_length)) ||
        (r = resolve_curve(env, caller, "trail.opacity_over_length", &t->opacity_over_length)))
        return r;
    return resolve_gradient(env, caller, "trail.color_over_length", &t->color_over_length);
}

/* Off (all zero) stays all zero; on, the map's defaults filled in. */
static plume_result resolve_self_shadow(const plume_env *env, const char *caller, plume_system_desc *d) {
    plume_self_shadow_desc *s = &d->self_shadow;
    if (!(isfinite(s->strength) && s->strength >= 0.0f && s->strength <= 64.0f))
        return refuse(env, caller, "self_shadow.strength", "is outside 0 .. 64 (0: off)");
    if (s->strength == 0.0f) {
        if (s->map_size != 0) return refuse(env, caller, "self_shadow.map_size", "is set but strength is 0 (off)");
        if (s->slices != 0) return refuse(env, caller, "self_shadow.slices", "is set but strength is 0 (off)");
        return PLUME_OK;
    }
    if (!d->lit)
        return refuse(env, caller, "self_shadow.strength",
                      "is over 0 but lit is false; self-shadowing darkens the frame's light (set lit)");
    if (s->map_size == 0) s->map_size = PLUME_SELF_SHADOW_DEFAULT_MAP_SIZE;
    if (s->slices == 0) s->slices = PLUME_SELF_SHADOW_DEFAULT_SLICES;
    if (s->map_size < 8 || s->map_size > 256)
        return refuse(env, caller, "self_shadow.map_size", "is outside 8 .. 256 (0: 64)");
    if (s->slices < 2 || s->slices > 16) return refuse(env, caller, "self_shadow.slices", "is outside 2 .. 16 (0: 8)");
    return PLUME_OK;
}

/* The longest quad edge over its size: the stretch's upper limit where the
 * mode stretches. */
float particles_largest_stretch(const plume_system_desc *desc) {
    return desc->orientation == PLUME_ORIENT_VELOCITY_STRETCHED ? desc->stretch_limits.max : 1.0f;
}

plume_result plume_particles_resolve_desc(const plume_env *env, const char *caller, const plume_system_desc *in,
                                          plume_system_desc *out) {
    *out = *in;
    if (out->capacity == 0) return refuse(env, caller, "capacity", "is 0; a system needs room for 1 particle or more");
    plume_result r;
    for (uint32_t e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if ((r = plume_particles_resolve_emitter(env, caller, e, &in->emitters[e], &out->emitters[e])) != PLUME_OK)
            return r;
    /* A burst emits what fits (the rest is dropped, as any emission into a
     * full system): legal, but more than the capacity is never seen, so
     * said once, here, where create and plume_system_desc_check both pass. */
    for (uint32_t e = 0; e < PLUME_MAX_EMITTERS; ++e)
        if (out->emitters[e].burst_count > out->capacity)
            plume_log(env, PLUME_LOG_WARNING,
                      "%s: emitters[%u].burst_count is %u, over the capacity %u; a burst emits at most what fits",
                      caller, e, out->emitters[e].burst_count, out->capacity);
    if ((r = plume_particles_resolve_forces(env, caller, &in->forces, &out->forces)) != PLUME_OK) return r;
    plume_appearance *a = &out->appearance;
    if ((r = resolve_curve(env, caller, "appearance.size_over_life", &a->size_over_life)) ||
        (r = resolve_curve(env, caller, "appearance.opacity_over_life", &a->opacity_over_life)) ||
        (r = resolve_gradient(env, caller, "appearance.color_over_life", &a->color_over_life)) ||
        (r = resolve_texture(env, caller, &a->texture, &out->host_sprite)) ||
        (r = check_non_negative(env, caller, "appearance.soft_fade_distance", a->soft_fade_distance)))
        return r;
    if (a->soft_fade_distance == 0.0f) a->soft_fade_distance = DEFAULT_SOFT_FADE_DISTANCE;
    if ((r = resolve_look(env, caller, out)) != PLUME_OK) return r;
    if ((r = resolve_flipbook_motion(env, caller, &a->texture, &out->host_sprite, &out->flipbook_motion)) != PLUME_OK)
        return r;
    if ((r = particles_check_prewarm(env, caller, "prewarm_time", out->prewarm_time)) != PLUME_OK) return r;
    if ((r = resolve_cpu_events(env, caller, &out->cpu_events)) != PLUME_OK) return r;
    if ((r = resolve_trail(env, caller, out)) != PLUME_OK) return r;
    if ((r = resolve_self_shadow(env, caller, out)) != PLUME_OK) return r;
    if ((r = particles_resolve_meshes(env, caller, out)) != PLUME_OK) return r;
    return plume_particles_resolve_world(env, caller, &in->world, &out->world);
}

plume_result particles_check_prewarm(const plume_env *env, const char *caller, const char *field, float seconds) {
    if (isfinite(seconds) && seconds >= 0.0f && seconds <= PLUME_PREWARM_MAX_SECONDS) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR, "%s: %s is %g; it must be finite and in 0 .. %g seconds", caller, field, seconds,
              PLUME_PREWARM_MAX_SECONDS);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

plume_result plume_system_desc_check(const plume_system_desc *desc, plume_system_desc *out_resolved) {
    static const char CALLER[] = "plume_system_desc_check";
    if (out_resolved) *out_resolved = (plume_system_desc){0};
    plume_env env;
    if (!desc) {
        plume_env_init(&env, NULL, NULL);
        plume_log(&env, PLUME_LOG_ERROR, "%s: desc must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    plume_result r = plume_env_init(&env, &desc->logger, &desc->allocator);
    plume_system_desc resolved;
    if (r == PLUME_OK) r = plume_particles_resolve_desc(&env, CALLER, desc, &resolved);
    if (r == PLUME_OK && out_resolved) *out_resolved = resolved;
    return r;
}

/* ---- The look (since 1.2) ------------------------------------------------------ */

/* The additive part k of each blend mode as a curve: constant 0
 * (premultiplied), constant 1 (additive), or the descriptor's curve. */
plume_curve particles_additive_curve(const plume_system_desc *desc) {
    if (desc->blend_mode == PLUME_BLEND_PREMULTIPLIED_ADDITIVE) return desc->additive_over_life;
    float k = desc->blend_mode == PLUME_BLEND_ADDITIVE ? 1.0f : 0.0f;
    return (plume_curve){.key_count = 1, .keys[0] = {0.0f, k}};
}

float particles_largest_additive(const plume_system_desc *desc) {
    plume_curve curve = particles_additive_curve(desc);
    float largest = 0.0f;
    for (uint32_t k = 0; k < curve.key_count; ++k)
        if (curve.keys[k].value > largest) largest = curve.keys[k].value;
    return largest;
}

uint32_t particles_sort_key_shift(const plume_system_desc *desc) { return 32u - desc->sort_key_bits; }

bool particles_sort_skipped(const plume_system_desc *desc) {
    /* Opaque and alpha-tested meshes write depth: the depth test orders them. */
    bool depth_ordered = desc->meshes.count > 0 && desc->meshes.surface != PLUME_MESH_TRANSPARENT;
    return desc->blend_mode == PLUME_BLEND_ADDITIVE || desc->sort_mode == PLUME_SORT_MODE_NONE || depth_ordered;
}

uint32_t particles_look_features(const plume_system_desc *desc) {
    uint32_t features = 0;
    if (desc->orientation != PLUME_ORIENT_CAMERA_FACING) features |= LOOK_ORIENTED;
    if (desc->lit) features |= LOOK_LIT;
    for (uint32_t k = 0; k < desc->emissive_over_life.key_count; ++k) {
        const float *rgba = desc->emissive_over_life.keys[k].rgba;
        if ((rgba[0] > 0.0f || rgba[1] > 0.0f || rgba[2] > 0.0f) && rgba[3] > 0.0f) features |= LOOK_EMISSIVE;
    }
    if (particles_largest_additive(desc) > 0.0f) features |= LOOK_ADDITIVE;
    if (desc->self_shadow.strength > 0.0f) features |= LOOK_SELF_SHADOW;
    return features;
}

void particles_look_defines(uint32_t features, char out[LOOK_DEFINES_SIZE]) {
    static const char *const DEFINES[] = {"#define PLUME_LOOK_ORIENTED\n", "#define PLUME_LOOK_LIT\n",
                                          "#define PLUME_LOOK_EMISSIVE\n", "#define PLUME_LOOK_ADDITIVE\n",
                                          "#define PLUME_LOOK_SELF_SHADOW\n"};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof DEFINES / sizeof DEFINES[0]; ++i)
        if (features & (1u << i)) strcat(out, DEFINES[i]);
}
