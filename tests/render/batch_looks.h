/* The looks the batch draw's tests give their systems (test_batch_draw.c,
 * test_batch_draw_table.c): descriptor adjusters for render_cloud_with. */
#ifndef PLUME_TESTS_RENDER_BATCH_LOOKS_H
#define PLUME_TESTS_RENDER_BATCH_LOOKS_H

#include "plume/plume_particles.h"

/* Every look sorts by whole 32-bit keys, as the batch does, so a system's
 * own order and the batch's agree where its particles overlap each other. */
static inline void plain(plume_system_desc *d) {
    d->sort_key_bits = 32;
}

static inline void additive_stretched(plume_system_desc *d) {
    plain(d);
    d->blend_mode = PLUME_BLEND_ADDITIVE;
    d->orientation = PLUME_ORIENT_VELOCITY_STRETCHED;
    d->stretch_factor = 0.5f;
    d->stretch_limits = (plume_range){1.0f, 1.5f};
    d->emitters[0].speed = (plume_range){1.0f, 3.0f};
    d->emitters[0].spread = 3.14159f;
}

static inline void fire_like(plume_system_desc *d) {
    plain(d);
    d->blend_mode = PLUME_BLEND_PREMULTIPLIED_ADDITIVE;
    d->additive_over_life = (plume_curve){2, {{0.0f, 1.0f}, {1.0f, 0.3f}}};
    d->appearance.soft_fade_distance = 0.5f;
}

static inline void lit(plume_system_desc *d) {
    plain(d);
    d->lit = true;
}

#endif
