/* The fragment path's particle objects (particles/fragment_update.c); its
 * draw (render/fragment_draw.c) reads them through the particle view
 * (particle_fragment_view). Not part of the API.
 *
 * Why textures and fragment passes for the particles, transform feedback
 * for the sort: with the particles in textures, one pass (multiple render
 * targets) emits into the ring and simulates every slot, a pass the raster
 * back end pays once per slot; the sort's passes would pay it ~50 times a
 * frame (sort/feedback_sort.c says why it records them instead), so its keys
 * are recorded into its buffer by a vertex pass reading the positions
 * texture, and the draw reads the sorted list through a buffer texture. The
 * module's transform feedback goes through its own object where the GL has
 * them (the host's capture, even paused, is left alone). */
#ifndef PLUME_PARTICLES_FRAGMENT_PARTICLES_H
#define PLUME_PARTICLES_FRAGMENT_PARTICLES_H

#include "particles_internal.h"

enum {
    /* The particle textures: slot s is the texel (s % width, s / width). */
    FRAGMENT_PARTICLE_WIDTH = 1024,
    /* position + age, velocity, traits (size, rotation, spin, lifetime), id */
    FRAGMENT_PARTICLE_TEXTURES = 4
};

/* The programs' uniform locations, named, over `at` in the order of their
 * name tables (fragment_update.c), filled once when the program is built. */
typedef union fragment_simulate_locations {
    struct {
        GLint width, capacity, emit_first, emit_count, emit_id_base, emitters, seed, emit_end;
        GLint dt, time, gravity, wind, drag, turbulence;
    };
    GLint at[14];
} fragment_simulate_locations;

typedef union fragment_keys_locations {
    struct {
        GLint particle_width, capacity, first_slot, view, sort_mode, sort_key_shift;
        GLint cull, cull_planes, cull_radius, eye, cull_distance;
    };
    GLint at[11];
} fragment_keys_locations;

typedef struct fragment_particles {
    uint32_t width, rows;
    GLuint textures[2][FRAGMENT_PARTICLE_TEXTURES]; /* two sets: a pass reads one, writes the other */
    GLuint framebuffers[2];
    uint32_t current;                 /* the set holding the last update's particles */
    GLuint sampler;                   /* nearest, base level */
    GLuint simulate_program, keys_program;
    fragment_simulate_locations simulate;
    fragment_keys_locations keys;
    /* The ring: the next update's emission starts at ring_head. */
    uint32_t ring_head;
    uint64_t emitted_total;
    /* The last update's list: list_count pairs (the live bound) in list_buffer
     * (one of the sort's buffers), drawn through the sort's buffer texture
     * over it (sort_key_input_pairs_texture); on OpenGL ES 3.0 (no buffer
     * textures, no recording sort) in list_texture (RG32UI, the particle
     * textures' size), written by a render pass and sorted in place. */
    uint32_t list_count;
    GLuint list_buffer;
    GLuint list_texture, list_framebuffer; /* 0 where the sort records */
    GLuint vertex_array;    /* empty: every pass and the draw pull from textures */
} fragment_particles;

#endif
