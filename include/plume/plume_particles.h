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
 * One update, on the GPU (the compute path; plume_system_desc.path):
 *   1. prepare   one invocation: how many of the requested particles fit (the
 *                dead list's size), their slots reserved off the dead list
 *                (no CPU bookkeeping of slots). A system with events
 *                waiting first emits their children (see plume_world);
 *   2. emit      initialises the new particles in those slots;
 *   3. simulate  walks every slot (free slots are skipped): ages, integrates
 *                (gravity, drag toward the wind, curl-noise turbulence, the
 *                world's force fields), collides (the world's colliders and
 *                the scene depth), kills, culls, and writes each slot's
 *                outcome (its sort key, or not drawn; whether it died or
 *                fired an event) and each workgroup's counts;
 *   4. compact   packs the drawn pairs {sort key, slot} into the live list,
 *                pushes the dead slots back on the dead list and writes the
 *                event records, all in slot order; the drawn count is the
 *                instance count of the indirect draw.
 *                Simulate's cost follows the capacity (about 0.1 ms for 1 M
 *                slots on an H100); the sort's and the draw's follow the
 *                drawn count;
 *   5. sort      plume_sort_indirect_bounded over the drawn count (unless
 *                disabled, additive, or sort_mode NONE); the CPU's bound on
 *                that count (the particles requested within the longest
 *                lifetime) decides which sort passes are issued, so a small
 *                live count in a large system costs little.
 * The draw (plume_draw_path) reads the sorted list: the raster path is one
 * glDrawArraysIndirect of quads instanced over it; dead and culled particles
 * never reach it.
 *
 * Determinism: a particle's random attributes depend only on the seed and its
 * emission number, and its motion only on the descriptor and the time steps,
 * so a given seed, descriptor and sequence of updates gives the same particles,
 * in the same slots and the same draw order: the update packs the live list,
 * returns dead slots and writes event records in slot order, never in the
 * order the GPU happens to run its invocations.
 *
 * GPU memory [since 1.3]: a system holds memory in proportion to its
 * capacity, the same on every draw path and resolution (measured on
 * llvmpipe: about 84 bytes per particle, its block of the context's
 * particle storage and its live list, and 8 KiB besides; so about 0.09 MB
 * for 1024 particles). Where its sort takes the radix passes over several
 * workgroups (on NVIDIA from 4097 particles; a count one workgroup sorts
 * needs none), at most 16 bytes per particle and 24 KiB more: the scratch
 * copies those passes write. Buffers a system does not use are not made: its
 * event buffer (32 bytes per record of world.event_capacity, 128 KiB at the
 * default, and a header) only once an event route reaches it (its own, or
 * another system's naming it as target_system); the buffers its updates
 * upload through (spawn batches, the instances' motion in local space, the
 * emitters set again by plume_system_set_emitter: up to 8 each, a few KiB)
 * only as it uses them.
 * What a draw needs in proportion to the screen, or only while it runs, is
 * the context's, one set shared by every system drawn with it and made on
 * the first draw that needs it: drawn tiled, about 16 bytes per pixel of
 * the largest viewport drawn, about 20 bytes per entry of the largest entry
 * budget of any system at the default tiles of 8 pixels (the chunks'
 * partials 4 of them, which grow with a tile's pixels: 16 at tiles of 16,
 * 64 at 32; at least 65536 entries: about 16 MB at 1280x720)
 * and 68 to 132 bytes per rank of the largest system drawn tiled (a
 * particle, or a trail's triangle drawn: its splat and count, by its look;
 * a trail system's ranks are made for a quad a pair of the particles it
 * may draw and grow to what its frames need, plus 4 bytes per pair of its
 * capacity); at
 * 1/2, 16 bytes per pixel of the 1/2 target (4 per pixel of the viewport),
 * at 1/4 1 per pixel of the viewport. It grows to the largest need and never
 * shrinks, except the low-resolution targets (the last viewport's size),
 * and is freed with the last system (or draw group) that drew with it.
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
 * which ran. Draw order: the sort_mode's (back to front by view depth by
 * default), equal keys by ascending slot, with either backend: the update
 * packs the list in slot order (two dispatches after simulate and an outcome
 * per slot, 8 bytes a slot), which the stable radix sort keeps between equal
 * keys.
 *
 * Threading: a system belongs to the GL context current at its creation; call
 * its functions only on a thread where that context is current, one thread at
 * a time per plume_context. Systems share nothing (no global state), so
 * several may live in one GL context or in several GL contexts, each with its
 * own plume_context, on several threads.
 *
 * GL state: any host state is allowed but transform feedback active and not
 * paused (PLUME_ERROR_HOST_STATE); every call restores what it binds, draws
 * into the host's draw framebuffer (draw buffer 0 only) with the host's
 * viewport, scissor and depth function, and issues no GL call where its
 * comment says so. Call by call, with the texture units each uses:
 * docs/host-gl-state.md.
 */
#ifndef PLUME_PARTICLES_H
#define PLUME_PARTICLES_H

#include <stdbool.h>

#include "plume_common.h"
#include "plume_context.h"
#include "plume_emitter.h"
#include "plume_look.h"
#include "plume_mesh.h"
#include "plume_profile.h"
#include "plume_sort.h"
#include "plume_world.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    /* ---- The look (blend, orientation, sort order, lighting) ----
     * Zero everywhere: premultiplied, camera-facing, sorted back to front by
     * view depth to 24 bits of the key (sort_key_bits), unlit. */
    /* A plume_blend_mode; default PLUME_BLEND_PREMULTIPLIED. [since 1.2] */
    uint32_t blend_mode;
    /* PLUME_BLEND_PREMULTIPLIED_ADDITIVE: the part of each particle's light
     * that adds instead of covering, over its life fraction, values 0 .. 1
     * (fire: 1 while young, glowing; 0 when old, smoke); default (no keys):
     * the constant 1. Read in that mode only. [since 1.2] */
    plume_curve additive_over_life;
    /* A plume_orientation; default PLUME_ORIENT_CAMERA_FACING. [since 1.2] */
    uint32_t orientation;
    /* PLUME_ORIENT_WORLD_AXIS: the quad's length axis; PLUME_ORIENT_WORLD_FACING:
     * its normal. Any length but 0 (normalised); required in those modes.
     * [since 1.2] */
    float orientation_axis[3];
    /* PLUME_ORIENT_VELOCITY_STRETCHED: the quad's length is its size times
     * clamp(1 + stretch_factor * speed, stretch_limits.min, stretch_limits.max)
     * (speed in world units per second; stretch_factor in seconds per world
     * unit, >= 0; default 0: no stretch); its width stays the size.
     * [since 1.2] */
    float stretch_factor;
    /* PLUME_ORIENT_VELOCITY_STRETCHED: 0 < min <= max, multiples of the
     * size; default {0, 0}: {1, 8}. The culling sphere grows with max.
     * [since 1.2] */
    plume_range stretch_limits;
    /* A plume_sort_mode: the order the update sorts the drawn particles in;
     * default PLUME_SORT_MODE_VIEW_DEPTH. [since 1.2] */
    uint32_t sort_mode;
    /* true: lit by the frame's directional light and ambient term
     * (plume_frame_desc.light_direction, light_color, ambient_color): a
     * pixel's colour is the particle's times ambient + light * max(0, n . l),
     * with n the normal of a half sphere bulging from the quad towards the
     * camera (the quad's centre faces the camera, its rim faces sideways: the
     * common cheap form) and l the direction to the light; default false:
     * unlit (the colour as given, whatever the frame's light). [since 1.2]
     * A lit system drawn in a frame with no light at all (ambient 0 and no
     * directional light) is black, and the draw warns once per system
     * [since 1.3]. */
    bool lit;
    /* Light the particle emits over its life fraction, added to its (lit)
     * colour under its alpha and sprite: rgb times a (a: strength); lit or
     * not. Keys as color_over_life, channels 0 .. 1; default (no keys): none.
     * [since 1.2] */
    plume_gradient emissive_over_life;
    plume_world world;          /* collisions, force fields, events; default: none [since 1.2] */
    /* A plume_gpu_path. PLUME_PATH_AUTO (default): compute where the context
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
     * (plume_draw_group_create). [since 1.2] */
    uint32_t path;
    /* The bits of the sort key (the sort_mode's plume_depth_key)
     * the update orders by, its top ones: 16 .. 32; 0 (default): 24.
     * Particles whose keys agree in those bits are drawn by ascending slot,
     * as equal keys are. 24 bits tell apart depths (or ages) that differ by
     * more than 2^-15 of their value (1 mm at 30 m) and sort in three radix
     * passes (whose sorter keeps a second scratch copy of 8 bytes a
     * particle); 32, exact float order, in four (plume_sort.h); 16 (2^-7)
     * in two. [since 1.2] */
    uint32_t sort_key_bits;
    /* Seconds the system is already into its life when it is created and
     * after each plume_system_reset: 0 (default) starts it empty; 0 .. 3600
     * otherwise. Applied as plume_system_prewarm does (fixed steps of
     * PLUME_PREWARM_STEP, at most PLUME_PREWARM_MAX_STEPS of them): a campfire
     * already burning when the level loads. [since 1.3] */
    float prewarm_time;
    /* Deaths, collisions and route triggers reported to the CPU
     * (plume_system_poll_events, plume_world.h); default: off [since 1.3]. */
    plume_cpu_events_desc cpu_events;
    /* The part of a placement's velocity (its motion over the last update:
     * plume_system_set_transform, plume_system_set_instances) its emitters'
     * particles start with, finite, 0 .. 4; default 0: none, 1: all. Needs
     * the compute path. [since 1.3] */
    float inherit_velocity;
    /* A plume_simulation_space: where live particles are; default
     * PLUME_SPACE_WORLD. Local needs the compute path (refused on the
     * fragment path with PLUME_ERROR_GL_UNSUPPORTED). [since 1.3] */
    uint32_t simulation_space;
    /* Trails: each particle's last positions drawn as a strip, sorted with
     * the particles (plume_look.h); default: none. Compute path only.
     * [since 1.3] */
    plume_trail_desc trail;
    /* Self-shadowing from the frame's light (plume_self_shadow_desc,
     * plume_look.h); default {0}: off. A strength over 0 needs lit (refused
     * otherwise) and the compute path (PLUME_ERROR_GL_UNSUPPORTED on the
     * fragment path). [since 1.3] */
    plume_self_shadow_desc self_shadow;
    /* Motion vectors for the sprite's flipbook (plume_look.h,
     * plume_flipbook_motion); default: none [since 1.3]. */
    plume_flipbook_motion flipbook_motion;
    /* Mesh particles (plume_mesh.h): each particle draws a mesh with a full
     * 3D orientation instead of a sprite; default (count 0): sprites. Needs
     * the compute path. Not in effect files. [since 1.3] */
    plume_mesh_particles meshes;
    /* The sprite from a GL texture the host owns, instead of
     * appearance.texture's path or pixels (plume_host_sprite, plume_look.h);
     * default {0}: none. Not in effect files. [since 1.3] */
    plume_host_sprite host_sprite;
} plume_system_desc;

/* Where a system's live particles are (plume_system_desc.simulation_space)
 * [since 1.3].
 *   WORLD: once born, a particle moves on its own; its placement moving
 *          leaves it behind (smoke, sparks).
 *   LOCAL: a particle stays attached to the placement (instance) that
 *          spawned it: each update first moves it, and turns its velocity,
 *          by that placement's change since the last update (translation,
 *          rotation and scale; a jump too), then simulates it (forces,
 *          collisions, sort and draw stay in world space). Births are at
 *          the new placement, never along the path (no sub-frame births,
 *          no inherited velocity to speak of: inherit_velocity still
 *          applies). Emits (plume_system_emit) and GPU events' children
 *          belong to instance 0, the system's own placement, and follow it
 *          from the update after their birth. */
typedef enum plume_simulation_space {
    PLUME_SPACE_WORLD = 0,
    PLUME_SPACE_LOCAL = 1
} plume_simulation_space;

/* How many pixels the draw shades (plume_frame_desc.draw_resolution)
 * [since 1.1]. The lower resolutions draw the particles into the module's own
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

/* How the draw composites the particles (plume_frame_desc.draw_path)
 * [since 1.2]; either path draws at any plume_draw_resolution.
 *   RASTER: one instanced draw of quads, back to front, blended by the ROPs
 *           (one blend per particle fragment).
 *   TILED:  compute shaders: each drawn particle is projected to the screen
 *           tiles (8x8 pixels by default) it touches; the (tile, rank)
 *           entries are sorted by tile, keeping the back-to-front order
 *           within each tile; one workgroup per tile composites its
 *           pixels front to back in registers and stops a pixel once it is
 *           nearly opaque (transmittance_threshold), and the tile once all
 *           its pixels are; the result, premultiplied, is blended onto the host's
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
/*   AUTOMATIC [since 1.3]: per draw, TILED where it can be made and pays
 *           (the compute path, a depth_texture given, and enough particles
 *           live to beat its fixed cost: the last update's bound on the
 *           drawn count at or over a threshold measured on the GPU; or
 *           particles covering the screen many times over, as the raster
 *           draw's samples, counted now and then by an occlusion query of
 *           the module's own (GL_SAMPLES_PASSED, only while the host runs
 *           no occlusion query of any kind) and read frames later, showed,
 *           in proportion to the count since), at draw_resolution, or at
 *           1/2 where draw_quality lets the draw lower it and the
 *           particles are many enough for that to pay; RASTER otherwise.
 *           A choice is kept until the count or fill that made it falls
 *           to three quarters of its threshold, so an effect near one
 *           does not flip between paths from frame to frame.
 *           plume_profile.draw_path and draw_resolution say what each
 *           frame drew with.
 * The default, zero, is AUTOMATIC for hosts built against 1.3 on; hosts
 * built against 1.0 - 1.2 (through the plugin table they asked for) pass
 * zero for the raster path and keep it. RASTER is its own value since 1.3
 * (it was zero before): a host recompiled against 1.3 that names it keeps
 * the raster path. */
typedef enum plume_draw_path {
    PLUME_DRAW_PATH_DEFAULT = 0,   /* AUTOMATIC [since 1.3]; before 1.3 the raster path */
    PLUME_DRAW_PATH_TILED = 1,
    PLUME_DRAW_PATH_AUTOMATIC = 2, /* [since 1.3] */
    PLUME_DRAW_PATH_RASTER = 3     /* [since 1.3; before, zero] */
} plume_draw_path;

/* What an AUTOMATIC draw (plume_frame_desc.draw_quality) may do to the
 * resolution [since 1.3]. */
typedef enum plume_draw_quality {
    PLUME_DRAW_QUALITY_FULL = 0,      /* default: draw_resolution as given */
    PLUME_DRAW_QUALITY_MAY_LOWER = 1  /* at PLUME_DRAW_FULL, 1/2 where it pays (and a depth_texture is given) */
} plume_draw_quality;

/* What update and draw need each frame. */
typedef struct plume_frame_desc {
    /* update: seconds since the previous update, finite and >= 0. 0 emits and
     * ages nothing but still re-keys and sorts for the camera. Over 1 s is
     * simulated as given (a pre-warm step) and warned about once per system
     * (a stall, or milliseconds passed for seconds) [since 1.3]. */
    float dt;
    /* Camera, column-major as OpenGL and cglm store them (memcpy a cglm
     * mat4). All zero: identity. The eye position and the view direction come
     * from `view`: a particle's depth is its distance in front of the eye
     * along the view axis, -(view * position).z. update keys the sort with
     * them, culls with the projection (see culling below) and collides with
     * the scene depth through both; draw projects the quads. */
    float view[16];
    float projection[16];
    /* update: false (default): the live particles are sorted back-to-front
     * for this camera; true: they are drawn in the GPU's order (so a user can
     * see why sorting matters). */
    bool disable_sort;
    /* The host's scene depth texture (a GL_TEXTURE_2D with a depth format,
     * depth range 0..1, same projection), in the host's depth convention:
     * the clip depth mode read from the GL (glClipControl's GL_ZERO_TO_ONE
     * or the default -1..1) and the direction from `projection` (reversed-Z,
     * near at the larger depth, an infinite far plane too) [since 1.3].
     * draw fades soft particles against it and the tiled path and low
     * resolutions test against it; update collides with it
     * (plume_depth_collision_desc); 0 (default): none. The
     * module reads it through its own sampler, so the texture's compare mode
     * and filters do not matter. A texture without a depth format (a colour
     * texture), or one attached to the depth of the framebuffer being drawn
     * (a GL feedback loop: pass a copy, docs/integration.md), is refused
     * with a message [since 1.3]. */
    uint32_t depth_texture;
    /* draw: the size in pixels of the framebuffer the depth texture covers;
     * default (0, 0): the width and height of the current GL_VIEWPORT;
     * negative: refused. A GL_VIEWPORT 0 wide or high (a minimised window)
     * draws nothing and is PLUME_OK [since 1.3]. */
    int32_t viewport_size[2];
    /* ---- Culling ----
     * When update is given a projection (not all zero), a live particle is
     * sorted and drawn only if its quad can touch the view frustum of view
     * and projection (tested as the sphere of the largest quad the system can
     * draw: the emitters' largest size times the size curve's largest value,
     * its half diagonal); the others live and move on but are neither sorted
     * nor drawn (plume_profile.drawn_count counts the drawn). Draw with the
     * camera update culled for. */
    /* update: true: no culling (every live particle is sorted and drawn,
     * whatever the projection). [since 1.1] */
    bool disable_culling;
    /* update: with culling, particles farther than this from the eye (world
     * units, >= 0, less their quad's radius) are not drawn either; default 0:
     * no limit. [since 1.1] */
    float cull_distance;
    /* draw: a plume_draw_resolution; default PLUME_DRAW_FULL. [since 1.1] */
    uint32_t draw_resolution;
    /* draw: a plume_draw_path; default (0): PLUME_DRAW_PATH_AUTOMATIC [since
     * 1.3; before, the raster path]. [since 1.2] */
    uint32_t draw_path;
    /* draw, PLUME_DRAW_PATH_TILED: a pixel stops compositing particles once
     * the light it still lets through (its transmittance) is below this,
     * 0 .. 1; default 0: 1/255. What is skipped changes a pixel by less than
     * the threshold in each channel. [since 1.2] */
    float transmittance_threshold;
    /* draw, PLUME_DRAW_PATH_TILED: true: every particle is composited, however
     * opaque the pixel already is (for comparisons with the raster path).
     * [since 1.2] */
    bool disable_early_termination;
    /* ---- The light of lit systems (plume_system_desc.lit) ---- */
    /* draw: the direction towards a directional light, world space, any
     * length (normalised); all zero (default): no directional light.
     * [since 1.2] */
    float light_direction[3];
    /* draw: the directional light's and the ambient term's colours, finite
     * and >= 0 (over 1 for bright light); default 0: black. Unlit systems
     * ignore all three. [since 1.2] */
    float light_color[3];
    float ambient_color[3];
    /* draw, PLUME_DRAW_PATH_AUTOMATIC: a plume_draw_quality; default
     * PLUME_DRAW_QUALITY_FULL (the resolution is draw_resolution). Other
     * values are refused with a message. [since 1.3] */
    uint32_t draw_quality;
} plume_frame_desc;

/* Creates a system in `context` and the current GL context (4.3 core or newer
 * with compute shaders for the compute path, 3.3 core for the fragment path:
 * see plume_system_desc.path), all particles dead.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context, desc or out_system NULL;
 * capacity 0 or over the GL limit; a negative, NaN or infinite parameter; a
 * range with min > max; lifetime or size min not above 0; spread over pi;
 * keys out of order or out of 0..1; too many keys; a zero direction after
 * defaults; both a texture path and pixels, or pixels without a size; a
 * flipbook with more frames than pixels; a partial allocator; an unknown
 * blend_mode, orientation or sort_mode, an additive part over 1, a zero
 * orientation_axis where the orientation needs it, a negative
 * stretch_factor or bad stretch_limits, an emissive colour outside 0 .. 1;
 * a bad world field or route target), PLUME_ERROR_IO (the texture file is missing
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

/* Checks `desc` as plume_system_create does before it touches the GL, without
 * a context or a GL context: every field's value, as create refuses it (the
 * effects library judges its files with it). Not checked here, but at
 * creation: the capacity against the GL's limits, `path` against what the GL
 * has, the texture (its file opened and decoded, a flipbook's frames against
 * its pixels) and event routes' target systems.
 * out_resolved (NULL: not wanted) receives the descriptor with every default
 * filled in (pointers as given, path as given); on an error it is zeroed.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (desc NULL, a bad field, a partial
 * allocator), with one message through desc->logger (stderr when it is {0}):
 * "plume_system_desc_check: FIELD why", FIELD the field's path in the
 * descriptor without spaces ("emitters[0].lifetime", "world.colliders[2].radius").
 * Threading: any thread; no GL call, no state. [since 1.3] */
PLUME_API plume_result plume_system_desc_check(const plume_system_desc *desc, plume_system_desc *out_resolved);

/* Frees the system, its sorter and every GL object they created, in the GL
 * context current now (the one current at creation, or one sharing its
 * objects). Its handle is invalid afterwards. {0} is a no-op (PLUME_OK).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context NULL, a handle that names no
 * live system of the context).
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_destroy(plume_context *context, plume_system system);

/* The creation descriptor with every default filled in and the emitters and
 * forces as last set. The texture's path and pixels come back NULL (they are
 * not kept); its width and height are those of the loaded image (or of the
 * host's texture, whose name and kind stay [since 1.3]).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad handle, out_desc NULL; *out_desc
 * is then zeroed when not NULL).
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_get_desc(const plume_context *context, plume_system system,
                                             plume_system_desc *out_desc);

/* Advances the simulation by frame->dt: emits (rate and bursts of each
 * emitter at each enabled instance, then the emits queued since the last
 * update: see "Gameplay" below), ages, integrates, collides and kills,
 * culls, then sorts the drawn particles in the sort_mode's order for
 * frame->view (unless frame->disable_sort). Uses dt, view, projection (culling and depth
 * collision), disable_sort, disable_culling and cull_distance, and with
 * depth collision depth_texture.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, frame
 * NULL, dt negative, NaN or infinite, a non-finite matrix element, a
 * depth_texture that is not a 2D depth texture); nothing is changed then.
 * A dt over 1 s: a warning once per system. PLUME_ERROR_GL if GL raised an
 * error during the call (logged).
 * Nothing is read back from the GPU; with events to the CPU
 * (desc.cpu_events) it copies the update's records into a readback buffer
 * and takes those whose fence has signalled, without waiting [since 1.3].
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_update(plume_context *context, plume_system system,
                                           const plume_frame_desc *frame);

/* Draws the drawn particles of the last update into the currently bound
 * framebuffer, in the order that update sorted them. Uses view, projection,
 * depth_texture, viewport_size, draw_resolution, draw_path and its
 * settings, and for a lit system the light (a non-finite light or a
 * negative colour is PLUME_ERROR_INVALID_ARGUMENT). GL state:
 * docs/host-gl-state.md.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, frame
 * NULL, a non-finite matrix element, a depth_texture that is not a 2D
 * texture with a depth format or is the draw framebuffer's depth attachment,
 * a negative viewport_size; nothing drawn then), PLUME_ERROR_GL. A
 * GL_VIEWPORT without pixels (0x0: a minimised window) draws nothing, binds
 * nothing and returns PLUME_OK. Warnings, once per system: a lit system in
 * a frame without light.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_draw(plume_context *context, plume_system system,
                                         const plume_frame_desc *frame);

/* plume_system_set_tiled_options's chunk_entries for one compute workgroup
 * per tile walking the tile's whole run [since 1.3]. */
#define PLUME_TILED_UNCHUNKED UINT32_MAX

/* The tiled draw path's (PLUME_DRAW_PATH_TILED) tile size, 8, 16 or 32
 * pixels (0: the default, 8), and the most particle entries one compute
 * workgroup composites, 1 .. 2^24 (0: the default, 128, or a tile's whole
 * run for a trail system whose additive part stays under 1;
 * PLUME_TILED_UNCHUNKED: a tile's whole run in one workgroup; longer runs
 * are cut into chunks combined afterwards), before the system's first tiled
 * draw. The picture is the same either way (up to rounding); the speed is
 * not (notes/draw-at-scale.md has the measurements).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, a
 * value out of range, the system already drew with the tiled path);
 * nothing changes then.
 * Threading: any thread using the context; issues no GL call. [since 1.3] */
PLUME_API plume_result plume_system_set_tiled_options(plume_context *context, plume_system system,
                                                      uint32_t tile_size, uint32_t chunk_entries);

/* Kills every particle and restarts time, emission fractions, burst timers
 * and emission numbering: after a reset the system behaves as if just
 * created (with the emitters and forces as last set), prewarm_time included
 * [since 1.3]. Emits queued since the last update are dropped, and every
 * placement starts again where it is set (no path from before the reset)
 * [since 1.3].
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle),
 * PLUME_ERROR_GL.
 * Threading: where the system's GL context is current. */
PLUME_API plume_result plume_system_reset(plume_context *context, plume_system system);

/* Replaces emitter `index` (0 .. PLUME_MAX_EMITTERS - 1) from the next update
 * on; particles already alive keep their attributes. The emitter's fraction
 * and burst clock carry on, except that bursts other than the emitter's
 * current ones (burst_count or burst_interval changed) restart their clock
 * at the next update: a single burst set at any time fires on the next
 * update that moves time, a repeating one then and every interval after
 * [since 1.3; before, a single burst set after time 0 never fired]. Zero fields take the defaults of
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

/* Replaces the system's world (colliders, depth collision,
 * attractors, vector field, event routes) from the next update on; the
 * world's event_capacity stays the creation's. Zero fields take the defaults
 * of plume_world. A route to a system destroyed later is skipped (with one
 * warning). Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system
 * handle, world NULL, fields as for create, a route's target system that is
 * not a live system of the context or runs the fragment path, routes
 * reaching two other systems), PLUME_ERROR_GL_UNSUPPORTED (a world that asks
 * for anything on the fragment path); the world is unchanged then.
 * Threading: any thread using the context; issues no GL call. [since 1.2] */
PLUME_API plume_result plume_system_set_world(plume_context *context, plume_system system,
                                              const plume_world *world);

/* ---- Debug readback (tests and tools) --------------------------------------
 * One particle: its motion and its traits (the GPU keeps them in two arrays,
 * 32 and 32 bytes a particle). */
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
    uint32_t *draw_order;       /* out: the slots the draw uses, in its order (the sort_mode's
                                   unless the last update disabled sorting): drawn_count of
                                   them */
    uint32_t *draw_keys;        /* out: sort keys matching draw_order (plume_depth_key of the
                                   value plume_sort_mode names), the bits below the system's
                                   sort_key_bits zero (a NaN's is PLUME_KEY_NAN with those
                                   bits cleared) */
    uint32_t *dead_slots;       /* out: dead_count slots on the dead list */
    uint32_t live_count;        /* out: particles alive after the last update */
    uint32_t dead_count;        /* out: slots on the dead list; live + dead = capacity */
    uint32_t emitted_total;     /* out: particles emitted since creation or reset (wraps at 2^32) */
    uint32_t drawn_count;       /* out: of live_count, those not culled by the last update: the
                                   length of draw_order and draw_keys [since 1.1] */
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
 * disable_sort) or for a bad handle, with a message.
 * Threading: any thread using the context; issues no GL call. [since 1.2] */
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

/* ---- Gameplay: emission on demand, placements, instances [since 1.3] ----
 * The compute path only: on the fragment path these calls return
 * PLUME_ERROR_GL_UNSUPPORTED with a message. What every update emits goes to
 * the GPU as one table of spawn batches (one upload, one pass): the rates
 * and bursts of each emitter at each enabled instance, then the emits queued
 * since the last update in call order. Emission numbers and random streams
 * follow that order, so the same calls give the same particles. When the
 * pool has fewer free slots than the batches ask for, the last batches get
 * fewer particles (as a burst over the capacity does). */

/* The most plume_system_emit calls queued between two updates. */
enum { PLUME_MAX_EMITS_PER_UPDATE = 4096 };
/* The most instances of a system (plume_system_set_instances). */
enum { PLUME_MAX_INSTANCES = 65536 };

/* Queues `emit->count` particles of emitter `emit->emitter` at
 * `emit->transform`; the next update spawns them at the start of its step
 * (they age and move by its whole dt). Any number of particles a call.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle, emit
 * NULL, emitter out of range, count 0 or over the capacity, a non-finite
 * number, a scale <= 0 in some axis when not all zero, size_scale negative,
 * a color channel outside 0 .. 65504),
 * PLUME_ERROR_CAPACITY (PLUME_MAX_EMITS_PER_UPDATE
 * calls already queued), PLUME_ERROR_GL_UNSUPPORTED (the fragment path);
 * nothing is queued then and the queue is unchanged. A reset drops the queue.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_emit(plume_context *context, plume_system system, const plume_emit_desc *emit);

/* Places the system's own emitters (instance 0, enabled from creation) for
 * the next update. The update's rates and bursts spawn along the way from
 * the last update's placement to this one: particle k of the step is born at
 * its time within the step at the placement interpolated there (position and
 * scale linear, rotation by normalised linear interpolation of the
 * quaternions) and aged the rest of the step, so a fast emitter leaves an
 * even stream. A placement never set is the identity. `jump` true (and the
 * first update, and the first after a reset): no path, born at this
 * placement. The system's inherit_velocity times the placement's velocity
 * (its move over the step / dt) is added to its particles.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * transform NULL, a non-finite number, a scale <= 0 in some axis when not all
 * zero), PLUME_ERROR_GL_UNSUPPORTED (the fragment path); nothing changes then.
 * Threading: any thread using the context; issues no GL call. */
PLUME_API plume_result plume_system_set_transform(plume_context *context, plume_system system,
                                                  const plume_transform *transform, bool jump);

/* Sets instances first .. first + count - 1 (instance 0 is the system's own
 * placement, plume_system_set_transform's): each is a placement of every
 * emitter, spawning into the same pool (one simulate, one sort, one draw for
 * all). Setting an instance past the last one adds it (and any between,
 * disabled at the identity); an instance is never removed, only disabled,
 * and its particles live on (in local space they keep following it). A game
 * moving 1000 torches sets all 1000 in one call a frame. Each instance moves as plume_system_set_transform says
 * (jump, inherited velocity).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or system handle,
 * instances NULL with count > 0, a transform as for set_transform, first +
 * count over PLUME_MAX_INSTANCES), PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_GL_UNSUPPORTED (the fragment path); nothing changes then.
 * Threading: any thread using the context; issues no GL call. [since 1.3] */
PLUME_API plume_result plume_system_set_instances(plume_context *context, plume_system system, uint32_t first,
                                                  uint32_t count, const plume_instance_desc *instances);
/* The draws plume_context_warm_programs prepares (bits; 0: all three). */
typedef enum plume_warm_draws {
    PLUME_WARM_RASTER = 1u << 0,         /* PLUME_DRAW_PATH_RASTER at full resolution */
    PLUME_WARM_TILED = 1u << 1,          /* PLUME_DRAW_PATH_TILED (compute path) */
    PLUME_WARM_LOW_RESOLUTION = 1u << 2  /* PLUME_DRAW_HALF and PLUME_DRAW_QUARTER of the paths above */
} plume_warm_draws;

/* For a loading screen: builds ahead of time the GL programs that systems of
 * `desc` (its look: an effect file's descriptor as plume_effect_load gives
 * it) need for their updates and for the draws `draws` names (plume_warm_draws
 * bits; 0: all), so that creating, updating and drawing such a system later
 * builds no program. A context builds each program once and shares it among
 * its systems of the same look whatever their other values (capacity, seed,
 * forces, colours); a system's first draw of a path otherwise builds that
 * path's programs then. What it builds stays with the context until
 * plume_context_destroy, whether or not systems use it. It creates a
 * system of `desc` for the time of the call, updates it once and draws it
 * into a small framebuffer of its own (the host's framebuffer, viewport and
 * bound textures are as they were); its warnings are not logged, its errors
 * are. On the fragment path (plume_system_desc.path) only the raster draw
 * at full resolution exists and is prepared.
 * Errors: as plume_system_create's for `desc` (nothing is kept then),
 * PLUME_ERROR_INVALID_ARGUMENT (a bit outside plume_warm_draws in `draws`).
 * Threading: where the context's GL context is current. [since 1.3] */
PLUME_API plume_result plume_context_warm_programs(plume_context *context, const plume_system_desc *desc,
                                                   uint32_t draws);

#ifdef __cplusplus
}
#endif

/* Prewarm and bounds [since 1.3]: their own header, part of this one. */
#include "plume_prewarm.h"
/* A frame of many systems [since 1.3]: its own header, part of this one. */
#include "plume_batch.h"
/* Light from particles [since 1.3]: its own header, part of this one. */
#include "plume_lights.h"

#endif
