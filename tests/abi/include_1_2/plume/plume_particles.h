/*
 * plume_particles.h — a GPU particle system: emit, simulate, sort back-to-front
 * and draw, with nothing read back to the CPU in a frame.
 *
 * Usage (a plume_context first, see plume_context.h):
 *
 *     plume_system_desc desc = {
 *         .capacity = 100000,
 *         .emitters[0] = { .rate = 2000, .lifetime = {2, 4}, .speed = {0.5f, 1},
 *                          .spread = 0.3f, .size = {0.2f, 0.4f} },
 *         .forces = { .gravity = {0, -1, 0}, .drag = 0.5f },
 *         .appearance.texture.path = "smoke.png",
 *     };
 *     plume_system system;                      // a checked handle: a value, copy it freely
 *     if (plume_system_create(context, &desc, &system) != PLUME_OK) { ... }
 *     // every frame, after the opaque scene:
 *     plume_frame_desc frame = { .dt = dt, .depth_texture = scene_depth };
 *     memcpy(frame.view, view, sizeof frame.view);              // cglm mat4
 *     memcpy(frame.projection, projection, sizeof frame.projection);
 *     plume_system_update(context, system, &frame);
 *     plume_system_draw(context, system, &frame);
 *     ...
 *     plume_system_destroy(context, system);
 *
 * Descriptors are zero-initialisable: a field left 0 takes the default its
 * comment names (sokol style); plume_system_get_desc() returns the descriptor
 * with every default filled in.
 *
 * One update, on the GPU:
 *   1. prepare   one invocation: how many of the requested particles fit (the
 *                dead list's size);
 *   2. emit      pops slots off the dead list (atomic counters, no CPU
 *                bookkeeping of slots) and initialises them;
 *   3. simulate  walks every slot in order (free slots are skipped): ages,
 *                integrates (gravity, drag toward the wind, curl-noise
 *                turbulence, the world's force fields), collides (the
 *                world's colliders and the scene depth), kills (the slot goes
 *                back on the dead list), appends the events deaths and
 *                collisions fire to their target's event buffer, and
 *                appends each survivor's sort pair {depth key, slot}; the
 *                append counter is the instance count of the indirect draw.
 *                (Before prepare, a system with events waiting emits their
 *                children: see plume_world.)
 *                Its cost follows the capacity (about 0.08 ms for 1 M slots
 *                on an H100); the sort's and the draw's follow the live count;
 *   4. sort      plume_sort_indirect_bounded over the live count (unless
 *                disabled); the CPU's bound on that count (the particles
 *                requested within the longest lifetime) decides which sort
 *                passes are issued, so a small live count in a large system
 *                costs little.
 * The draw is one glDrawArraysIndirect of quads (camera-facing by default: plume_orientation), instanced over
 * the sorted pairs: dead particles never reach it.
 *
 * Determinism: a particle's random attributes depend only on the seed and its
 * emission number, and its motion only on the descriptor and the time steps,
 * so a given seed, descriptor and sequence of updates gives the same particles,
 * in the same slots and the same draw order: the update packs the live list,
 * returns dead slots and writes event records in slot order, never in the
 * order the GPU happens to run its invocations.
 *
 * Handles: every function taking a plume_system checks it against the
 * context; a destroyed system, a handle of another context or a garbage value
 * gives PLUME_ERROR_INVALID_ARGUMENT and a message through the context's
 * logger, never a crash. {0} is never a valid system.
 *
 * The system's sort: each system creates a plume_sorter of its capacity in
 * the same plume_context (so plume_context_list_gl_objects lists its GL
 * objects with the system's, and a context destroyed with the system still
 * alive frees both) and destroys it with the system. Its handle is not given
 * out. The sorter picks its backend automatically (plume_sort.h) from the
 * update's bound on the drawn count; plume_system_get_sort_algorithm says
 * which ran. Draw order: descending view depth, equal depths (equal keys) by
 * ascending slot, with either backend: the update packs the list in slot
 * order (two dispatches after simulate and an outcome per slot, 8 bytes a
 * slot), which the stable radix sort keeps between equal keys.
 *
 * Threading: a system belongs to the GL context current at its creation; call
 * its functions only on a thread where that context is current, one thread at
 * a time per plume_context. Systems share nothing (no global state), so
 * several may live in one GL context or in several GL contexts, each with its
 * own plume_context, on several threads.
 *
 * GL state contract. Any host state is allowed, except transform feedback
 * active and not paused: create, update, draw and reset refuse it with
 * PLUME_ERROR_HOST_STATE (since 1.1) and do nothing (it would capture the
 * module's draw, and no program can be made current under it). Paused
 * transform feedback is fine. Every function restores what it binds:
 *   - update: the current program, the indexed GL_SHADER_STORAGE_BUFFER
 *     bindings 0..7, the generic GL_SHADER_STORAGE_BUFFER and
 *     GL_DISPATCH_INDIRECT_BUFFER bindings; issues glMemoryBarrier so that its
 *     results are visible to the draw. With depth collision or a vector
 *     field (plume_world, since 1.2) also the active texture unit and the
 *     GL_TEXTURE_2D, GL_TEXTURE_3D and sampler bindings of units 0 .. 2
 *     (it samples the depth texture on unit 0 and the field on unit 1).
 *   - draw: additionally the vertex array binding, GL_DRAW_INDIRECT_BUFFER,
 *     the active texture unit, the GL_TEXTURE_2D and sampler bindings of
 *     texture units 0 and 1, draw buffer 0's blending (GL_BLEND, functions,
 *     equations), GL_DEPTH_TEST, the depth write mask, and everything it
 *     turns off. It draws into the host's draw framebuffer, draw buffer 0
 *     only. During the draw: blending on for draw buffer 0 with
 *     (GL_ONE, GL_ONE_MINUS_SRC_ALPHA) for colour and alpha and GL_FUNC_ADD
 *     (premultiplied alpha); depth test on with the host's glDepthFunc
 *     (reversed-Z hosts keep theirs), depth writes off; colour writes on for
 *     all four channels of draw buffer 0 and off for every other draw buffer
 *     (so a G-buffer's other attachments are never written); polygon mode
 *     GL_FILL; off: GL_RASTERIZER_DISCARD, GL_CLIP_DISTANCE0..7, GL_CULL_FACE,
 *     GL_STENCIL_TEST, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE,
 *     GL_SAMPLE_COVERAGE, GL_SAMPLE_MASK, GL_DEPTH_CLAMP, GL_COLOR_LOGIC_OP,
 *     GL_POLYGON_OFFSET_FILL, GL_PRIMITIVE_RESTART(_FIXED_INDEX) (NVIDIA
 *     applies restart to non-indexed draws). The host's viewport and scissor apply (a split
 *     screen draws into its part), as do GL_FRAMEBUFFER_SRGB (with an sRGB
 *     target, blending happens in linear space) and conditional rendering
 *     (a draw inside the host's glBeginConditionalRender obeys it; update's
 *     compute work does not). Other draw buffers' blend state is untouched.
 *     The tiled path (plume_draw_path, since 1.2) also binds and restores
 *     image unit 0, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER and
 *     GL_DISPATCH_INDIRECT_BUFFER, and runs compute work before its blend
 *     (which the host's conditional rendering does not govern).
 *   - create: the current program, the indexed GL_SHADER_STORAGE_BUFFER
 *     bindings 0..7, the generic GL_SHADER_STORAGE_BUFFER and
 *     GL_DISPATCH_INDIRECT_BUFFER bindings, GL_COPY_READ_BUFFER,
 *     GL_COPY_WRITE_BUFFER, and (with a texture) the active texture unit,
 *     the GL_TEXTURE_2D and sampler bindings of units 0 and 1,
 *     GL_PIXEL_UNPACK_BUFFER and the unpack alignment, row length and skips.
 *   - state that none of the module's commands reads makes no difference:
 *     the read framebuffer, pixel pack state, image units (but the tiled
 *     draw's unit 0, restored), uniform, atomic
 *     counter and transform feedback buffer bindings, the host's program
 *     pipeline (the module's programs are made current with
 *     glUseProgram, which takes precedence, and the host's program is current
 *     again afterwards). The sprite upload sets its own unpack state (see
 *     create).
 *   - reset: as update. set_emitter: GL_COPY_WRITE_BUFFER. read_back:
 *     GL_COPY_READ_BUFFER (and it waits for the GPU). set_profiling:
 *     GL_COPY_WRITE_BUFFER. destroy deletes objects and binds nothing.
 *     get_desc, set_forces, get_profile and get_frame_profiles make no GL
 *     call.
 *   - with profiling on (see Profiling below), update also binds and restores
 *     GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER and GL_QUERY_BUFFER (0 while
 *     it reads its timer queries, so a host's query buffer is never written),
 *     and update and draw push and pop balanced KHR_debug groups.
 * While a call runs, KHR_debug messages go to the system's logger; the
 * host's debug callback is put back before it returns.
 */
#ifndef PLUME_PARTICLES_H
#define PLUME_PARTICLES_H

#include <stdbool.h>

#include "plume_common.h"
#include "plume_context.h"
#include "plume_profile.h"
#include "plume_sort.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A particle system, named by a checked handle (plume_context.h). */
typedef struct plume_system {
    uint64_t id;
} plume_system;

enum {
    PLUME_MAX_EMITTERS = 8,     /* emitters per system */
    PLUME_MAX_CURVE_KEYS = 8    /* keys per curve or gradient */
};

/* A value drawn uniformly from [min, max] for each particle at its birth.
 * min == max gives a constant. */
typedef struct plume_range {
    float min;
    float max;
} plume_range;

typedef enum plume_emitter_shape {
    PLUME_SHAPE_POINT = 0,   /* default: every particle starts at `position` */
    PLUME_SHAPE_SPHERE = 1,  /* uniformly inside a ball of radius extents[0] */
    PLUME_SHAPE_BOX = 2,     /* uniformly inside an axis-aligned box of half-sizes extents[0..2] */
    PLUME_SHAPE_CONE = 3     /* uniformly on a disc of radius extents[0] facing `direction`;
                                with `spread` the velocities fill a cone around it */
} plume_emitter_shape;

/* One emitter. Its particles start with speed `speed` in a direction drawn
 * uniformly inside the cone of half-angle `spread` around `direction`.
 * An emitter whose rate and burst count are 0 emits nothing (the default). */
typedef struct plume_emitter_desc {
    plume_emitter_shape shape;  /* default: PLUME_SHAPE_POINT */
    float position[3];          /* world units; default: the origin */
    float extents[3];           /* world units, >= 0; see the shapes; default: 0 (a point) */
    float direction[3];         /* any length but 0; normalised; default: {0, 1, 0} (all zero) */
    float spread;               /* radians, 0 .. pi (pi: every direction); default: 0 */
    float rate;                 /* particles per second, >= 0; default: 0. Fractions carry over
                                   between updates: rate 1000 over updates of 1/60 s emits
                                   16, 17, 17, 16, ... */
    uint32_t burst_count;       /* particles per burst; default: 0 (no bursts) */
    float burst_interval;       /* seconds between bursts, >= 0; default: 0 = a single burst.
                                   Bursts fall at times 0, interval, 2 * interval, ... after
                                   creation or reset; an update from t0 to t1 fires those in
                                   [t0, t1) (an update of dt 0 fires none) */
    plume_range lifetime;       /* seconds, 0 < min <= max; default: {1, 1} (both 0) */
    plume_range speed;          /* world units per second, 0 <= min <= max; default: {0, 0} */
    plume_range size;           /* quad edge in world units at birth, 0 < min <= max;
                                   default: {0.1, 0.1} (both 0). The drawn size is this
                                   times appearance.size_over_life */
    plume_range rotation;       /* radians at birth; default: {0, 0} */
    plume_range spin;           /* radians per second; default: {0, 0} */
} plume_emitter_desc;

/* dv/dt = gravity + turbulence - drag * (v - wind), integrated exactly for
 * forces constant over a step (so the result barely depends on the step). */
typedef struct plume_forces {
    float gravity[3];           /* acceleration, world units / s^2; default: {0, 0, 0} */
    float wind[3];              /* the air's velocity; it acts through drag (with drag 0 the
                                   wind has no effect); default: {0, 0, 0} */
    float drag;                 /* 1 / s, >= 0; default: 0 */
    float turbulence;           /* strength of a curl-noise acceleration (divergence free),
                                   world units / s^2, >= 0; default: 0 (off) */
    float turbulence_scale;     /* spatial frequency of the noise, 1 / world units, > 0;
                                   default: 1 */
    float turbulence_speed;     /* how fast the noise field evolves, 1 / s, >= 0; default: 0
                                   (a still field) */
} plume_forces;

/* A piecewise-linear function of the particle's life fraction age/lifetime
 * in [0, 1]: keys with non-decreasing times in [0, 1]; before the first key
 * its value holds, after the last key the last value. */
typedef struct plume_curve_key {
    float time;                 /* life fraction, 0 .. 1 */
    float value;
} plume_curve_key;

typedef struct plume_curve {
    uint32_t key_count;         /* 0 .. PLUME_MAX_CURVE_KEYS; default: 0 = the constant 1 */
    plume_curve_key keys[PLUME_MAX_CURVE_KEYS];
} plume_curve;

typedef struct plume_color_key {
    float time;                 /* life fraction, 0 .. 1 */
    float rgba[4];              /* straight (not premultiplied) colour, each 0 .. 1 */
} plume_color_key;

typedef struct plume_gradient {
    uint32_t key_count;         /* 0 .. PLUME_MAX_CURVE_KEYS; default: 0 = constant white,
                                   opaque {1, 1, 1, 1} */
    plume_color_key keys[PLUME_MAX_CURVE_KEYS];
} plume_gradient;

/* The sprite: a file, or RGBA8 pixels in memory, or neither (each quad is then
 * a solid square). Either one may be a flipbook atlas of columns x rows
 * frames, read left to right, top to bottom, played once over each
 * particle's life. */
typedef struct plume_texture_desc {
    const char *path;           /* an image file stb_image decodes (PNG, TGA, JPEG, ...), read
                                   during create only; default: NULL (none) */
    const void *pixels;         /* RGBA8, straight alpha, rows from the top, width * height * 4
                                   bytes, read during create only; with `path` NULL only;
                                   default: NULL (none) */
    uint32_t width;             /* pixels' size; required with `pixels` */
    uint32_t height;
    uint32_t columns;           /* flipbook frames across; default: 1 */
    uint32_t rows;              /* flipbook frames down; default: 1 */
    bool disable_frame_blend;   /* default: false = consecutive frames are cross-faded by age;
                                   true: each frame shows whole */
} plume_texture_desc;

typedef struct plume_appearance {
    plume_curve size_over_life;     /* multiplies the birth size; default: constant 1 */
    plume_gradient color_over_life; /* default: constant opaque white */
    plume_curve opacity_over_life;  /* multiplies the colour's alpha; default: constant 1 */
    plume_texture_desc texture;     /* default: none (solid squares) */
    /* Soft particles: a fragment fades out over this distance (world units,
     * > 0) in front of the scene depth the draw is given; default: 0.5. */
    float soft_fade_distance;
} plume_appearance;

/* ---- since 1.2: particles that meet the world ------------------------------
 * Collisions with analytic shapes and with the host's depth buffer, force
 * fields (attractors, vortices, a 3D vector-field texture) and GPU events
 * (death and collision spawn particles of another emitter). All in
 * plume_system_desc.world, changeable at run time with plume_system_set_world.
 * Compute path only: on the fragment path (plume_system_desc.path) a world
 * that asks for anything (a collider, depth collision, an attractor, a
 * vector field, an event route) is refused with PLUME_ERROR_GL_UNSUPPORTED
 * and a message naming the field, at creation and in plume_system_set_world;
 * event_capacity alone is accepted (nothing fires). */
enum {
    PLUME_MAX_COLLIDERS = 8,        /* analytic colliders per system */
    PLUME_MAX_ATTRACTORS = 8,       /* point attractors and vortices per system */
    PLUME_MAX_EVENT_ROUTES = 4      /* event routes per system */
};

typedef enum plume_collider_shape {
    PLUME_COLLIDER_NONE = 0,        /* default: off */
    PLUME_COLLIDER_PLANE = 1,       /* the half-space behind a plane through `position` facing
                                       `normal` is solid: particles stay in front */
    PLUME_COLLIDER_SPHERE = 2,      /* a ball of `radius` round `position` */
    PLUME_COLLIDER_BOX = 3          /* an axis-aligned box of half-sizes `extents` round `position` */
} plume_collider_shape;

typedef enum plume_collision_response {
    PLUME_COLLISION_BOUNCE = 0,     /* default: reflect with restitution and friction */
    PLUME_COLLISION_STICK = 1,      /* stop at the contact point (velocity 0; forces still act,
                                       so a particle stuck on a slope slides down it) */
    PLUME_COLLISION_KILL = 2        /* the particle dies at the contact (its collision and death
                                       events fire) */
} plume_collision_response;

/* What a particle does when it hits a collider or the depth buffer. */
typedef struct plume_collision_desc {
    uint32_t response;              /* a plume_collision_response; default: bounce */
    float restitution;              /* bounce: normal speed out / normal speed in, 0 .. 1;
                                       default: 0 (no bounce) */
    float friction;                 /* bounce: Coulomb coefficient >= 0: the tangential speed
                                       loses friction x the normal speed change at each contact
                                       (a particle resting on a plane under gravity g slows by
                                       friction x g); default: 0 */
    float rest_speed;               /* bounce: a normal speed out below this (world units / s,
                                       >= 0) becomes 0, so bouncing ends; default: 0 */
} plume_collision_desc;

typedef struct plume_collider_desc {
    uint32_t shape;                 /* a plume_collider_shape; default: none (off) */
    float position[3];              /* plane: a point on it; sphere, box: the centre */
    float normal[3];                /* plane: the side particles stay on, any length but 0;
                                       normalised; default: {0, 1, 0} (all zero) */
    float radius;                   /* sphere: > 0 */
    float extents[3];               /* box: half-sizes, each > 0 */
    bool inside;                    /* sphere, box: false (default): solid, particles stay
                                       outside; true: a container, particles stay inside */
    plume_collision_desc collision;
} plume_collider_desc;

/* Collisions with the host's scene depth: plume_frame_desc.depth_texture
 * with the frame's view and projection (GL depth range 0..1, depth test
 * GL_LESS: larger is farther) given to update. A particle whose new position
 * projects inside the viewport, in front of the eye, and lies behind the
 * scene's depth by less than `thickness` collides; the normal comes from the
 * depth of the neighbouring texels. Particles off-screen, behind the eye or
 * farther behind a surface than `thickness` do not collide, and a particle
 * faster than thickness per step can pass through a surface (the depth
 * buffer holds only the front faces). Without a depth_texture in the frame,
 * nothing collides with it. */
typedef struct plume_depth_collision_desc {
    bool enabled;                   /* default: false */
    float thickness;                /* world units > 0 assumed behind each visible surface;
                                       default: 0.5 */
    plume_collision_desc collision;
} plume_depth_collision_desc;

typedef enum plume_attractor_kind {
    PLUME_ATTRACTOR_NONE = 0,       /* default: off */
    PLUME_ATTRACTOR_POINT = 1,      /* acceleration `strength` toward `position` (negative: away) */
    PLUME_ATTRACTOR_VORTEX = 2      /* acceleration `strength` round the line through `position`
                                       along `axis`, turning by the right-hand rule about it
                                       (counter-clockwise seen from the axis' tip) */
} plume_attractor_kind;

/* A force centre: the acceleration's size is |strength| x (1 - d / radius)
 * within `radius` of it (d: the distance to the point, or to the axis of a
 * vortex) and 0 beyond; radius 0: |strength| everywhere. */
typedef struct plume_attractor_desc {
    uint32_t kind;                  /* a plume_attractor_kind; default: none (off) */
    float position[3];
    float axis[3];                  /* vortex: any length but 0; normalised; default: {0, 1, 0} */
    float strength;                 /* world units / s^2, finite */
    float radius;                   /* world units >= 0; default: 0 (no falloff) */
} plume_attractor_desc;

/* An acceleration field from a 3D texture the host owns (any format
 * sampling to floats: RGB = acceleration in world units / s^2, times
 * `strength`), stretched over the box bounds_min .. bounds_max and sampled
 * trilinearly with edges clamped; outside the box it adds nothing. The module
 * samples it with its own sampler; the host keeps the texture alive while
 * the system uses it. */
typedef struct plume_vector_field_desc {
    uint32_t texture;               /* a GL_TEXTURE_3D name; default: 0 (off) */
    float bounds_min[3];
    float bounds_max[3];            /* each above bounds_min */
    float strength;                 /* default: 0 = 1 */
} plume_vector_field_desc;

typedef enum plume_event_trigger {
    PLUME_EVENT_NONE = 0,           /* default: off */
    PLUME_EVENT_DEATH = 1,          /* the particle dies (age, or killed by a collider) */
    PLUME_EVENT_COLLISION = 2       /* the particle hits a collider or the depth buffer: a kill,
                                       or a contact with a normal speed in above that
                                       collision's rest_speed (so a particle resting on a
                                       surface, touching it every step, fires nothing) */
} plume_event_trigger;

/* A GPU event route: each particle of the source emitters that triggers it
 * spawns `count` particles of emitter `target_emitter` of `target_system`
 * (this system when {0}) at its position: the target emitter's attributes
 * (its shape round the parent's position, its speed, direction, spread,
 * lifetime, size, ...) with the parent's velocity times `inherit_velocity`
 * added. Events go into the target system's event buffer
 * (world.event_capacity children) and are emitted at the target's next
 * update; children that do not fit (buffer or particles full) are dropped
 * and counted (plume_profile.event_children_dropped). Nothing is read back.
 * A system's routes reach at most one system besides itself.
 * Which emitter a particle came from: while its system has routes, a
 * particle's lifetime carries its emitter's index in its three lowest
 * mantissa bits (a change of at most 7 ulp); particles born while the system
 * had no routes are matched by those bits as they are.
 * Determinism: a child's attributes depend on the seed, its parent's
 * emission number, the route and its number among the parent's children;
 * the children of one update are numbered (`id`) in their parents' slot
 * order (route, then child, within a parent), several systems' children in
 * one buffer in the order their updates ran, and when a buffer or the
 * particles overflow, the children kept are the first in that order. So the
 * same steps give the same particles in the same slots, whatever order the
 * GPU runs its invocations in. */
typedef struct plume_event_route_desc {
    uint32_t trigger;               /* a plume_event_trigger; default: none (off) */
    uint32_t source_emitters;       /* bit e set: particles of emitter e fire it; default: 0 = all */
    plume_system target_system;     /* default: {0} = this system */
    uint32_t target_emitter;        /* 0 .. PLUME_MAX_EMITTERS - 1 */
    uint32_t count;                 /* children per event, 1 .. 64; default: 0 = 1 */
    float inherit_velocity;         /* finite; default: 0 */
} plume_event_route_desc;

typedef struct plume_world {
    plume_collider_desc colliders[PLUME_MAX_COLLIDERS];   /* applied in order */
    plume_depth_collision_desc depth_collision;
    plume_attractor_desc attractors[PLUME_MAX_ATTRACTORS];
    plume_vector_field_desc vector_field;
    plume_event_route_desc events[PLUME_MAX_EVENT_ROUTES];
    /* Children this system's event buffer holds between two of its updates,
     * 1 .. 2^21; read at creation only; default: 0 = 4096. */
    uint32_t event_capacity;
} plume_world;

typedef struct plume_system_desc {
    /* The most particles alive at once. Required: 1 .. the GL limit
     * (GL_MAX_SHADER_STORAGE_BLOCK_SIZE / 32 bytes per particle, and the
     * compute dispatch limits); plume_system_create says which limit. */
    uint32_t capacity;
    uint32_t seed;              /* randomness of every particle; default: 0 (a valid seed) */
    plume_emitter_desc emitters[PLUME_MAX_EMITTERS]; /* default: all off */
    plume_forces forces;
    plume_appearance appearance;
    plume_logger logger;        /* default ({0}): the context's */
    plume_allocator allocator;  /* default ({0}): the context's; all three functions or none.
                                   stb_image decodes the texture file with its own
                                   malloc/free */
    /* ---- since 1.2: the look (blend, orientation, sort order, lighting) ----
     * Zero everywhere: today's look (premultiplied, camera-facing, sorted
     * back to front by view depth, unlit), the depths sorted to 24 bits
     * (sort_key_bits below; 1.1 sorted whole keys). */
    /* A plume_blend_mode; default PLUME_BLEND_PREMULTIPLIED. */
    uint32_t blend_mode;
    /* PLUME_BLEND_PREMULTIPLIED_ADDITIVE: the part of each particle's light
     * that adds instead of covering, over its life fraction, values 0 .. 1
     * (fire: 1 while young, glowing; 0 when old, smoke); default (no keys):
     * the constant 1. Read in that mode only. */
    plume_curve additive_over_life;
    /* A plume_orientation; default PLUME_ORIENT_CAMERA_FACING. */
    uint32_t orientation;
    /* PLUME_ORIENT_WORLD_AXIS: the quad's length axis; PLUME_ORIENT_WORLD_FACING:
     * its normal. Any length but 0 (normalised); required in those modes. */
    float orientation_axis[3];
    /* PLUME_ORIENT_VELOCITY_STRETCHED: the quad's length is its size times
     * clamp(1 + stretch_factor * speed, stretch_limits.min, stretch_limits.max)
     * (speed in world units per second; stretch_factor in seconds per world
     * unit, >= 0; default 0: no stretch); its width stays the size. */
    float stretch_factor;
    /* 0 < min <= max, multiples of the size; default {0, 0}: {1, 8}. The
     * culling sphere grows with max. */
    plume_range stretch_limits;
    /* A plume_sort_mode: the order the update sorts the drawn particles in;
     * default PLUME_SORT_MODE_VIEW_DEPTH. */
    uint32_t sort_mode;
    /* true: lit by the frame's directional light and ambient term
     * (plume_frame_desc.light_direction, light_color, ambient_color): a
     * pixel's colour is the particle's times ambient + light * max(0, n . l),
     * with n the normal of a half sphere bulging from the quad towards the
     * camera (the quad's centre faces the camera, its rim faces sideways: the
     * common cheap form) and l the direction to the light; default false:
     * unlit (the colour as given, whatever the frame's light). */
    bool lit;
    /* Light the particle emits over its life fraction, added to its (lit)
     * colour under its alpha and sprite: rgb times a (a: strength); lit or
     * not. Keys as color_over_life, channels 0 .. 1; default (no keys): none. */
    plume_gradient emissive_over_life;
    /* ---- since 1.2 ---- */
    plume_world world;          /* collisions, force fields, events; default: none */
    /* since 1.2: a plume_gpu_path. PLUME_PATH_AUTO (default): compute where the context
     * has GL 4.3, else the fragment path (GL 3.3 core; macOS's 4.1): the
     * particles in float textures updated by fragment passes, the sort as
     * vertex passes recorded by transform feedback, a draw that fetches the
     * sorted slots with texelFetch. Its capacity is also bounded by
     * GL_MAX_TEXTURE_BUFFER_SIZE (the sort's buffers are read as buffer
     * textures of the capacity's power of two). The same
     * seed gives the same particles on both paths. Where the fragment path
     * differs: a full system's new particles replace the oldest (the compute
     * path drops them); plume_profile's live and drawn counts are 0 (the
     * counts stay on the GPU; plume_system_read_back counts them); a frame's
     * draw_resolution other than full draws at full resolution, with one
     * warning. plume_system_get_desc reports the path taken. Every look
     * (blend_mode, orientation, sort_mode, lit, emissive_over_life) draws
     * on both paths; an unsorted system (additive, or sort_mode NONE) draws
     * in ascending slot order on both. A world (see plume_world) is refused
     * on the fragment path with PLUME_ERROR_GL_UNSUPPORTED and a message
     * naming the field, and so is a draw group of a fragment-path system
     * (plume_draw_group_create). */
    uint32_t path;
    /* since 1.2: the bits of the sort key (the sort_mode's plume_depth_key)
     * the update orders by, its top ones: 16 .. 32; 0 (default): 24.
     * Particles whose keys agree in those bits are drawn by ascending slot,
     * as equal keys are. 24 bits tell apart depths (or ages) that differ by
     * more than 2^-15 of their value (1 mm at 30 m) and sort in three radix
     * passes (whose sorter keeps a second scratch copy of 8 bytes a
     * particle); 32, exact float order, in four (plume_sort.h); 16 (2^-7)
     * in two. */
    uint32_t sort_key_bits;
} plume_system_desc;

/* The draw order of a system's particles (plume_system_desc.sort_mode,
 * since 1.2); the first drawn is at the back. Every mode is a total order:
 * equal keys are drawn by ascending slot, so nothing trades places between
 * frames. The readback's draw_keys hold each mode's key (plume_depth_key of
 * the value named, PLUME_ORDER_DESCENDING unless said), to the system's
 * sort_key_bits.
 *   VIEW_DEPTH      (default) back to front along the view axis:
 *                   -(view * position).z;
 *   DISTANCE        back to front by the distance to the eye (spherical:
 *                   right across wide fields of view, where two particles
 *                   at one view depth can be at different distances);
 *   OLDEST_FIRST    by age, the oldest drawn first (under the younger);
 *   YOUNGEST_FIRST  by age, the youngest drawn first (PLUME_ORDER_ASCENDING
 *                   keys of the age);
 *   NONE            no sort: the update skips it and draws in ascending slot
 *                   order, as it does for PLUME_BLEND_ADDITIVE whatever the
 *                   mode (additive light needs no order). */
typedef enum plume_sort_mode {
    PLUME_SORT_MODE_VIEW_DEPTH = 0,
    PLUME_SORT_MODE_DISTANCE = 1,
    PLUME_SORT_MODE_OLDEST_FIRST = 2,
    PLUME_SORT_MODE_YOUNGEST_FIRST = 3,
    PLUME_SORT_MODE_NONE = 4
} plume_sort_mode;

/* Which way a system's quads face (plume_system_desc.orientation, since
 * 1.2). Each quad is centred on its particle, `size` wide; with the view
 * plane's axes right and up and the view direction (the camera's back axis):
 *   CAMERA_FACING       (default) the view plane's axes, turned by the
 *                       particle's rotation;
 *   VELOCITY_STRETCHED  the length along the velocity, stretched by speed
 *                       (stretch_factor, stretch_limits), the width across
 *                       the velocity and the view direction (the quad turns
 *                       about its velocity to face the camera as far as it
 *                       can): sparks, rain;
 *   VELOCITY_ALIGNED    as VELOCITY_STRETCHED, unstretched (size x size);
 *   WORLD_AXIS          the length along orientation_axis, turned about it
 *                       to face the camera: grass-like quads;
 *   WORLD_FACING        in the plane of normal orientation_axis, its width
 *                       along cross(Y, normal) (cross(Z, normal) for a
 *                       normal along Y), turned by the rotation: quads on
 *                       the ground or a wall.
 * The velocity modes ignore the rotation; a length axis along the view
 * direction (or a particle at rest) falls back to the view plane's axes. The
 * sprite, flipbook and soft fade follow the quad in every mode, on every draw
 * path. */
typedef enum plume_orientation {
    PLUME_ORIENT_CAMERA_FACING = 0,
    PLUME_ORIENT_VELOCITY_STRETCHED = 1,
    PLUME_ORIENT_VELOCITY_ALIGNED = 2,
    PLUME_ORIENT_WORLD_AXIS = 3,
    PLUME_ORIENT_WORLD_FACING = 4
} plume_orientation;

/* How a system's particles blend onto what is behind them
 * (plume_system_desc.blend_mode, since 1.2). With c the particle's straight
 * colour and a its alpha (texture, colour and opacity over life, soft fade),
 * every mode is one premultiplied blend, dst = c a + (1 - a (1 - k)) dst,
 * with k the additive part:
 *   PREMULTIPLIED           k = 0: "over" (default);
 *   ADDITIVE                k = 1: light added, nothing covered. The order
 *                           does not change the picture, so update does not
 *                           sort (the profile's sort_padded_count and
 *                           sort_passes are 0, plume_system_get_sort_algorithm
 *                           says AUTOMATIC) and the draw order is ascending
 *                           slot (a total order: nothing flickers);
 *   PREMULTIPLIED_ADDITIVE  k = additive_over_life at the particle's age: in
 *                           one draw, a fire's young core adds light and its
 *                           old smoke covers; sorted like PREMULTIPLIED.
 * The GL blend state is the same (GL_ONE, GL_ONE_MINUS_SRC_ALPHA) in every
 * mode, so each draw path and resolution draws each mode. */
typedef enum plume_blend_mode {
    PLUME_BLEND_PREMULTIPLIED = 0,
    PLUME_BLEND_ADDITIVE = 1,
    PLUME_BLEND_PREMULTIPLIED_ADDITIVE = 2
} plume_blend_mode;

/* How many pixels the draw shades (plume_frame_desc.draw_resolution, since
 * 1.1). The lower resolutions draw the particles into the module's own
 * targets at 1/2 or 1/4 of the viewport's width and height against the
 * farthest depth of each block of the host's depth texture, then blend them
 * onto the host's framebuffer once per pixel with a depth-aware upsample
 * (bilinear where the depths agree, the nearest depth at a depth edge, so
 * particles behind an edge do not bleed onto the nearer surface). Fill, the
 * particle module's main cost, falls with the pixel count; fine detail and
 * edges soften. They need the frame's depth_texture (it is the only depth the
 * module can read): without one the draw is at full resolution and says so
 * once in the log. */
typedef enum plume_draw_resolution {
    PLUME_DRAW_FULL = 0,     /* default: every pixel, into the host's framebuffer directly */
    PLUME_DRAW_HALF = 1,     /* 1/2 of the width and height: a quarter of the pixels */
    PLUME_DRAW_QUARTER = 2   /* 1/4: a sixteenth */
} plume_draw_resolution;

/* How the draw composites the particles (plume_frame_desc.draw_path, since
 * 1.2); either path draws at any plume_draw_resolution.
 *   RASTER: one instanced draw of quads, back to front, blended by the ROPs
 *           (one blend per particle fragment).
 *   TILED:  compute shaders: each drawn particle is projected to the screen
 *           tiles (16x16 pixels) it touches; the (tile, rank) entries are
 *           sorted by tile, keeping the back-to-front order within each
 *           tile; one workgroup per tile composites its pixels front to
 *           back in registers and stops a pixel once it is nearly opaque
 *           (transmittance_threshold), and the tile once all its pixels
 *           are; the result, premultiplied, is blended onto the host's
 *           framebuffer once per pixel by a full-screen pass (the same
 *           blend as the raster path's: any colour format GL blends, as
 *           with RASTER). The same sprite, flipbook, colours over life and
 *           soft fade as RASTER; particles are depth-tested against the
 *           frame's depth_texture (with the host's depth function), so the
 *           path needs one: without it the draw is RASTER and says so once
 *           in the log, as it does where the GL lacks what the path needs.
 *           The entries live in a buffer sized from a budget that grows
 *           (from a count read back frames later, never waited on) to what
 *           the frames need; a frame whose entries do not fit draws with
 *           RASTER instead, chosen on the GPU (plume_profile counts those
 *           frames). */
typedef enum plume_draw_path {
    PLUME_DRAW_PATH_RASTER = 0, /* default */
    PLUME_DRAW_PATH_TILED = 1
} plume_draw_path;

/* What update and draw need each frame. */
typedef struct plume_frame_desc {
    /* update: seconds since the previous update, finite and >= 0. 0 emits and
     * ages nothing but still re-keys and sorts for the camera. */
    float dt;
    /* Camera, column-major as OpenGL and cglm store them (memcpy a cglm
     * mat4). All zero: identity. The eye position and the view direction come
     * from `view`: a particle's depth is its distance in front of the eye
     * along the view axis, -(view * position).z. */
    float view[16];
    float projection[16];
    /* update: false (default): the live particles are sorted back-to-front
     * for this camera; true: they are drawn in the GPU's order (so a user can
     * see why sorting matters). */
    bool disable_sort;
    /* draw: the host's scene depth texture (a GL_TEXTURE_2D with a depth
     * format, depth range 0..1, same projection) for soft particles; 0
     * (default): no fade. The module reads it through its own sampler, so the
     * texture's compare mode and filters do not matter. */
    uint32_t depth_texture;
    /* draw: the size in pixels of the framebuffer the depth texture covers;
     * default (0, 0): the width and height of the current GL_VIEWPORT. */
    int32_t viewport_size[2];
    /* ---- since 1.1 ----
     * Culling. When update is given a projection (not all zero), a live
     * particle is sorted and drawn only if its quad can touch the view
     * frustum of view and projection (tested as the sphere of the largest
     * quad the system can draw: the emitters' largest size times the size
     * curve's largest value, its half diagonal); the others live and move on
     * but are neither sorted nor drawn (plume_profile.drawn_count counts the
     * drawn). Draw with the camera update culled for. */
    /* update: true: no culling (every live particle is sorted and drawn,
     * whatever the projection). */
    bool disable_culling;
    /* update: with culling, particles farther than this from the eye (world
     * units, >= 0, less their quad's radius) are not drawn either; default 0:
     * no limit. */
    float cull_distance;
    /* draw: a plume_draw_resolution; default PLUME_DRAW_FULL. */
    uint32_t draw_resolution;
    /* ---- since 1.2 ----
     * The draw path (see plume_draw_path). */
    /* draw: a plume_draw_path; default PLUME_DRAW_PATH_RASTER. */
    uint32_t draw_path;
    /* draw, PLUME_DRAW_PATH_TILED: a pixel stops compositing particles once
     * the light it still lets through (its transmittance) is below this,
     * 0 .. 1; default 0: 1/255. What is skipped changes a pixel by less than
     * the threshold in each channel. */
    float transmittance_threshold;
    /* draw, PLUME_DRAW_PATH_TILED: true: every particle is composited, however
     * opaque the pixel already is (for comparisons with the raster path). */
    bool disable_early_termination;
    /* ---- since 1.2: the light of lit systems (plume_system_desc.lit) ----
     * draw: the direction towards a directional light, world space, any
     * length (normalised); all zero (default): no directional light. */
    float light_direction[3];
    /* draw: the directional light's and the ambient term's colours, finite
     * and >= 0 (over 1 for bright light); default 0: black. Unlit systems
     * ignore all three. */
    float light_color[3];
    float ambient_color[3];
} plume_frame_desc;

/* Creates a system in `context` and the current GL context (4.3 core or newer
 * with compute shaders for the compute path, 3.3 core for the fragment path:
 * see plume_system_desc.path), all particles dead.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context, desc or out_system NULL;
 * a bad world field or route target (plume_world, since 1.2);
 * capacity 0 or over the GL limit; a negative, NaN or infinite parameter; a range with min > max;
 * lifetime or size min not above 0; spread over pi; keys out of order or out
 * of 0..1; too many keys; a zero direction after defaults; both a texture path
 * and pixels, or pixels without a size; a flipbook with more frames than
 * pixels; a partial allocator; since 1.2: an unknown blend_mode, orientation
 * or sort_mode, an additive part over 1, a zero orientation_axis where the
 * orientation needs it, a negative stretch_factor or bad stretch_limits, an
 * emissive colour outside 0 .. 1), PLUME_ERROR_IO (the texture file is missing
 * or is not an image stb_image decodes), PLUME_ERROR_GL_UNSUPPORTED (no GL 3.3
 * core; or no GL 4.3 where path asks for compute; on the fragment path a world:
 * see path), PLUME_ERROR_SHADER,
 * PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_CAPACITY (the context's handle table is full).
 * Each error also logs one message naming the field. On failure *out_system
 * is {0} and no memory or GL object is left behind. Pointers in `desc` are
 * read during the call only.
 * Threading: where the GL context is current; one thread at a time per
 * plume_context. */
PLUME_API plume_result plume_system_create(plume_context *context, const plume_system_desc *desc,
                                           plume_system *out_system);

/* Frees the system, its sorter and every GL object they created, in the GL
 * context current now (the one current at creation, or one sharing its
 * objects). Its handle is invalid afterwards. {0} is a no-op (PLUME_OK).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context NULL, a handle that names no
 * live system of the context).
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_destroy(plume_context *context, plume_system system);

/* The creation descriptor with every default filled in and the emitters and
 * forces as last set. The texture's path and pixels come back NULL (they are
 * not kept); its width and height are those of the loaded image.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad handle, out_desc NULL; *out_desc
 * is then zeroed when not NULL).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_get_desc(const plume_context *context, plume_system system,
                                             plume_system_desc *out_desc);

/* Advances the simulation by frame->dt: emits (rate and bursts of each
 * emitter), ages, integrates and kills, then sorts the live particles
 * back-to-front for frame->view (unless frame->disable_sort). Uses dt, view,
 * projection (unused today; reserved for culling) and disable_sort.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, frame
 * NULL, dt negative, NaN or infinite, a non-finite matrix element); nothing is
 * changed then. PLUME_ERROR_GL if GL raised an error during the call (logged).
 * Nothing is read back from the GPU.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_update(plume_context *context, plume_system system,
                                           const plume_frame_desc *frame);

/* Draws the live particles of the last update into the currently bound
 * framebuffer, in the order that update sorted them. Uses view, projection,
 * depth_texture and viewport_size (see the GL state contract above), and for
 * a lit system the light (since 1.2; a non-finite light or a negative colour
 * is PLUME_ERROR_INVALID_ARGUMENT).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, frame
 * NULL, a non-finite matrix element, a depth_texture that is not a texture
 * name), PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_draw(plume_context *context, plume_system system,
                                         const plume_frame_desc *frame);

/* Kills every particle and restarts time, emission fractions, burst timers
 * and emission numbering: after a reset the system behaves as if just
 * created (with the emitters and forces as last set).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle),
 * PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_reset(plume_context *context, plume_system system);

/* Replaces emitter `index` (0 .. PLUME_MAX_EMITTERS - 1) from the next update
 * on; particles already alive keep their attributes. The emitter's fraction
 * and burst clock carry on. Zero fields take the defaults of
 * plume_emitter_desc; a zero descriptor switches the emitter off.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * emitter NULL, index out of range, fields as for create); the emitter is
 * unchanged then.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_set_emitter(plume_context *context, plume_system system, uint32_t index,
                                                const plume_emitter_desc *emitter);

/* Replaces the forces from the next update on (defaults as in plume_forces).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * forces NULL, fields as for create); the forces are unchanged then.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_set_forces(plume_context *context, plume_system system,
                                               const plume_forces *forces);

/* Since 1.2. Replaces the system's world (colliders, depth collision,
 * attractors, vector field, event routes) from the next update on; the
 * world's event_capacity stays the creation's. Zero fields take the defaults
 * of plume_world. A route to a system destroyed later is skipped (with one
 * warning). Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system
 * handle, world NULL, fields as for create, a route's target system that is
 * not a live system of the context or runs the fragment path, routes
 * reaching two other systems), PLUME_ERROR_GL_UNSUPPORTED (a world that asks
 * for anything on the fragment path); the world is unchanged then.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_set_world(plume_context *context, plume_system system,
                                              const plume_world *world);

/* ---- Debug readback (tests and tools) --------------------------------------
 * One particle: its motion and its traits (the GPU keeps them in two arrays,
 * 32 and 16 bytes a particle). */
typedef struct plume_particle {
    float position[3];          /* world units */
    float age;                  /* seconds since birth */
    float velocity[3];          /* world units per second */
    float lifetime;             /* seconds; the particle dies when age >= lifetime */
    float size;                 /* birth size; drawn: size * size_over_life(age / lifetime) */
    float rotation;             /* radians, now: at birth + spin * age */
    float spin;                 /* radians per second */
    uint32_t id;                /* emission number since creation or reset: stable across
                                   runs, unlike the slot */
} plume_particle;

/* Arrays the caller provides (NULL: not read back), each with room for the
 * system's capacity; the counts are always filled. */
typedef struct plume_readback {
    plume_particle *particles;  /* out: indexed by slot; slots that are not live hold stale data */
    uint32_t *draw_order;       /* out: the slots the draw uses, in its order (back-to-front
                                   unless the last update disabled sorting): drawn_count of
                                   them (through a 1.0 plugin table, which never culls:
                                   live_count) */
    uint32_t *draw_keys;        /* out: sort keys matching draw_order (see plume_depth_key,
                                   PLUME_ORDER_DESCENDING; of the value plume_sort_mode
                                   names, since 1.2), the bits below the system's
                                   sort_key_bits zero (since 1.2: a NaN's is then
                                   PLUME_KEY_NAN with those bits cleared) */
    uint32_t *dead_slots;       /* out: dead_count slots on the dead list */
    uint32_t live_count;        /* out: particles alive after the last update */
    uint32_t dead_count;        /* out: slots on the dead list; live + dead = capacity */
    uint32_t emitted_total;     /* out: particles emitted since creation or reset (wraps at 2^32) */
    uint32_t drawn_count;       /* since 1.1, out: of live_count, those not culled by the last
                                   update: the length of draw_order and draw_keys */
} plume_readback;

/* Reads the system's GPU state back synchronously. It waits for the GPU to
 * finish all queued work: a debugging and testing aid, never for use every
 * frame. Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * readback NULL), PLUME_ERROR_OUT_OF_MEMORY, PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_read_back(plume_context *context, plume_system system,
                                              plume_readback *readback);

/* The sort backend the last plume_system_update ran (PLUME_SORT_BITONIC or
 * PLUME_SORT_RADIX: the system's sorter picks by the bound on its live count,
 * plume_sort.h); PLUME_SORT_AUTOMATIC when it sorted nothing (no update yet,
 * disable_sort) or for a bad handle, with a message (since 1.2).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_sort_algorithm plume_system_get_sort_algorithm(const plume_context *context, plume_system system);

/* ---- Profiling (plume_profile.h) -------------------------------------------
 * GPU time of each stage (simulate, sort, update = both, draw), measured with
 * GL timestamp queries in a ring several frames deep and read only once the
 * GPU has finished them: the CPU never waits, and the figures are a few
 * frames old. A frame that finds every slot of the ring still in flight is
 * not measured rather than waited for. Off by default; off, profiling makes
 * no GL call and holds no GL object. On, each stage is also a KHR_debug group
 * ("plume simulate", "plume sort", "plume draw", inside "plume update") so
 * RenderDoc and Nsight captures show named passes, and update additionally
 * binds (and restores) GL_COPY_READ_BUFFER / GL_COPY_WRITE_BUFFER to copy the
 * live count into a readback buffer on the GPU. On Mesa's CPU rasterizers
 * (llvmpipe, softpipe) each timestamp is followed by a glFlush, without which
 * their timestamps do not bracket compute work. */

/* Switches profiling on or off. Switching on starts empty statistics; off
 * deletes the queries, dropping frames in flight. A context whose
 * GL_QUERY_COUNTER_BITS is 0 has no timer: profiling then reports the live
 * count and sort sizes but no times (timer_available false, samples 0).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle),
 * PLUME_ERROR_GL (queries could not be created; profiling stays off).
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_set_profiling(plume_context *context, plume_system system, bool enabled);

/* The last completed frame and statistics over the last 120 completed frames
 * (reads nothing from the GPU: call it any time). A stage without samples
 * reports samples 0 and zero times; so does every stage until the first
 * frame's results have come back, and every stage when the context has no
 * timer. Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system
 * handle, out NULL; *out is zeroed when out is not NULL).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_get_profile(const plume_context *context, plume_system system,
                                                plume_profile *out);

/* Copies the completed frames still in the statistics window whose update
 * index is at least `first_frame`, oldest first, at most `max`, and returns
 * how many (0 for out NULL, and 0 with a message for a bad context or system
 * handle). Call it every few frames with one past the last frame received to
 * log every measured frame.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API uint32_t plume_system_get_frame_profiles(const plume_context *context, plume_system system,
                                                   uint64_t first_frame, plume_frame_profile *out, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
