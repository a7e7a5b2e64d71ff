/*
 * plume_draw_group.h — several particle systems drawn in one back-to-front
 * order (since 1.2).
 *
 * Each system's draw sorts its own particles. Two systems that overlap on
 * screen (smoke drifting through a fire) then blend wrongly where they
 * interleave: whichever system is drawn second covers the first wherever
 * they overlap, even where its particles are behind. A draw group merges the
 * drawn particles of several systems of one context into one sort and draws
 * them in that order, in one draw:
 *
 *     plume_system systems[2] = {fire, smoke};
 *     plume_draw_group_desc desc = {.systems = systems, .system_count = 2};
 *     plume_draw_group group;
 *     if (plume_draw_group_create(context, &desc, &group) != PLUME_OK) { ... }
 *     // every frame: update each system as usual, then instead of their draws
 *     plume_system_update(context, fire, &frame);
 *     plume_system_update(context, smoke, &frame);
 *     plume_draw_group_draw(context, group, &frame);
 *     ...
 *     plume_draw_group_destroy(context, group);  // before or after its systems
 *
 * The group draw, all on the GPU (nothing is read back, and every pass takes
 * its size from the systems' drawn counts):
 *   1. per system, one compute pass over its drawn particles (an indirect
 *      dispatch from the drawn count the update left) evaluates what each
 *      looks like now (its system's colours, size, opacity and additive part
 *      over life, flipbook frame, orientation, light) into a record, and
 *      appends one {key, value} pair to the group's list: the key orders by
 *      the group's sort_mode for this frame's camera, the value says which
 *      system and which slot (system index << 28 | slot);
 *   2. the list (the sum of the drawn counts) is sorted by a sorter of the
 *      group's, sized on the CPU by the sum of the systems' bounds on their
 *      drawn counts (plume_sort_indirect_bounded). Equal keys come out by
 *      system index, then within a system by slot (the bitonic network
 *      orders them by value) or in the system's own draw order (the radix
 *      sort is stable; that is slot order too when the system sorts by view
 *      depth or not at all): an order that depends only on the seeds,
 *      descriptors and steps, so nothing flickers;
 *   3. one instanced draw of the records in that order, blended as each
 *      system's plume_blend_mode says (every mode is the same GL blend, so
 *      one draw blends them all), with each system's sprite, soft fade and
 *      lighting.
 * The systems' own update is unchanged: each still sorts its own list
 * unless the frame's disable_sort is set, and the group, which re-sorts,
 * reads that list in any order, so a system drawn only through a group can
 * be updated with disable_sort and save its sort. A system drawn both on its
 * own and through a group is drawn twice.
 *
 * Which systems can join, and what happens to the others:
 *   - every blend mode joins. ADDITIVE systems, which skip their own sort,
 *     are sorted with the rest here: light behind smoke must be covered by
 *     it, which only one order over both gives;
 *   - every sort mode joins, but the group orders everything by its own
 *     sort_mode (view depth or distance to the eye): a system's age order
 *     means nothing against another system's particles; and by whole float
 *     keys (32 bits), whatever each system's sort_key_bits, so particles that
 *     a system alone draws by slot (their keys equal to its precision) the
 *     group may draw by depth;
 *   - sprites: the group copies its systems' sprites into one texture array
 *     at creation (sprites never change after a system's creation), so every
 *     textured system of a group must have a sprite of one size (width and
 *     height; their flipbook layouts may differ). Systems without a sprite
 *     join any group. Sprites of different sizes are refused at creation
 *     with PLUME_ERROR_INVALID_ARGUMENT and a message naming both systems
 *     and sizes: resize them, or draw such systems in separate groups;
 *   - draw paths: the group draws with the raster path at full, half and
 *     quarter resolution (plume_frame_desc.draw_resolution; the low
 *     resolutions need the frame's depth_texture, as for a system's draw,
 *     and without one draw at full resolution, saying so once). The tiled
 *     path (PLUME_DRAW_PATH_TILED) is not supported for a group:
 *     plume_draw_group_draw returns PLUME_ERROR_INVALID_ARGUMENT with a
 *     message and draws nothing.
 *
 * Cost: a pass of 96 bytes written and read per drawn particle, the sort of
 * all drawn particles together (about the sum of the separate sorts, or
 * less: one larger sort has fewer dispatches than several small ones), and
 * one draw. notes/draw-at-scale.md has the H100's figures.
 *
 * GL state contract: as plume_system_draw's (plume_particles.h), plus the
 * GL_TEXTURE_2D_ARRAY binding of texture units 0 .. 2 (the sprites are read
 * from an array texture on unit 0), which it restores. Create also binds
 * and restores those, GL_COPY_READ_BUFFER and GL_COPY_WRITE_BUFFER; read_back
 * GL_COPY_READ_BUFFER. destroy deletes objects and binds nothing.
 *
 * Handles: a plume_draw_group is a checked handle of its context, as a
 * system's (plume_context.h). A group names its systems by their handles:
 * destroying a system leaves the group in place, and a later draw of it
 * fails with PLUME_ERROR_INVALID_ARGUMENT and a message naming the system.
 * Threading: as the systems'.
 */
#ifndef PLUME_DRAW_GROUP_H
#define PLUME_DRAW_GROUP_H

#include "plume_common.h"
#include "plume_context.h"
#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- since 1.2 ---- */

enum {
    PLUME_DRAW_GROUP_MAX_SYSTEMS = 16,          /* systems one group draws (since 1.2) */
    PLUME_DRAW_GROUP_MAX_SYSTEM_CAPACITY = 1 << 28 /* a grouped system's capacity at most (since 1.2):
                                                      its slots fit the value's 28 bits */
};

/* A draw group, named by a checked handle (since 1.2). */
typedef struct plume_draw_group {
    uint64_t id;
} plume_draw_group;

/* Since 1.2. */
typedef struct plume_draw_group_desc {
    /* The systems, system_count of them (1 .. PLUME_DRAW_GROUP_MAX_SYSTEMS),
     * each a live system of the context, each once, with a capacity of at
     * most PLUME_DRAW_GROUP_MAX_SYSTEM_CAPACITY; their capacities add up to
     * at most 2^30 (the sort's limit). Read during create only; the group
     * keeps the handles. Their index in this array is their index in the
     * group (the value's top four bits, equal keys' order). */
    const plume_system *systems;
    uint32_t system_count;
    /* The group's order: PLUME_SORT_MODE_VIEW_DEPTH (default: back to front
     * along the view axis) or PLUME_SORT_MODE_DISTANCE (back to front by the
     * distance to the eye); the age modes and NONE are refused. */
    uint32_t sort_mode;
    plume_logger logger;        /* default ({0}): the context's */
    plume_allocator allocator;  /* default ({0}): the context's; all three functions or none */
} plume_draw_group_desc;

/* One particle of a group's draw, as plume_draw_group_read_back gives them
 * (since 1.2). */
typedef struct plume_draw_group_entry {
    uint32_t system_index;      /* its system's index in the group's desc.systems */
    uint32_t slot;              /* its slot in that system (plume_readback.particles[slot]) */
    uint32_t key;               /* the sort key: plume_depth_key of its view depth (or distance),
                                   PLUME_ORDER_DESCENDING, for the last draw's camera */
} plume_draw_group_entry;

/* Since 1.2. Creates a group of systems drawn in one order (see above): its
 * list, records and sorter sized by the sum of the systems' capacities, its
 * programs, and the texture array of their sprites.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (context, desc or out_group NULL;
 * systems NULL, system_count 0 or over PLUME_DRAW_GROUP_MAX_SYSTEMS; a
 * handle that names no live system of this context (a destroyed system, or
 * one of another context: groups never mix contexts); a system listed twice;
 * a capacity over PLUME_DRAW_GROUP_MAX_SYSTEM_CAPACITY or capacities adding
 * up to over 2^30; sort_mode other than VIEW_DEPTH or DISTANCE; sprites of
 * different sizes; a partial allocator), PLUME_ERROR_GL_UNSUPPORTED (the
 * records of all capacities over GL_MAX_SHADER_STORAGE_BLOCK_SIZE; a system
 * on the fragment path, plume_system_desc.path: groups are compute-path only),
 * PLUME_ERROR_SHADER, PLUME_ERROR_OUT_OF_MEMORY, PLUME_ERROR_CAPACITY (the
 * context's handle table is full). Each error logs one message; on failure
 * *out_group is {0} and nothing is left behind.
 * Threading: where the systems' GL context is current. */
PLUME_API plume_result plume_draw_group_create(plume_context *context, const plume_draw_group_desc *desc,
                                               plume_draw_group *out_group);

/* Since 1.2. Frees the group's GL objects and memory (not its systems). {0}
 * is a no-op (PLUME_OK). Errors: PLUME_ERROR_INVALID_ARGUMENT (context NULL,
 * a handle that names no live group of the context). */
PLUME_API plume_result plume_draw_group_destroy(plume_context *context, plume_draw_group group);

/* Since 1.2. Draws the drawn particles of the group's systems, as their last
 * updates left them, in one order for `frame`'s camera, into the currently
 * bound framebuffer. Reads what plume_system_draw reads of the frame (view,
 * projection, depth_texture, viewport_size, draw_resolution, the light);
 * draw_path must be PLUME_DRAW_PATH_RASTER.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or group handle, frame
 * NULL, a non-finite matrix element or light, a depth_texture that is not a
 * texture, the tiled draw path, a system of the group destroyed since its
 * creation), PLUME_ERROR_HOST_STATE, PLUME_ERROR_GL; nothing is drawn then.
 * Threading: where the systems' GL context is current. */
PLUME_API plume_result plume_draw_group_draw(plume_context *context, plume_draw_group group,
                                             const plume_frame_desc *frame);

/* Since 1.2. The last draw's order, back to front: at most `capacity`
 * entries into `entries` (NULL with capacity 0: only the count), and into
 * *out_count how many the draw drew (0 before the first draw). Waits for
 * the GPU: a testing and debugging aid, never for every frame.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or group handle,
 * out_count NULL, entries NULL with a capacity), PLUME_ERROR_OUT_OF_MEMORY,
 * PLUME_ERROR_GL. */
PLUME_API plume_result plume_draw_group_read_back(plume_context *context, plume_draw_group group,
                                                  plume_draw_group_entry *entries, uint32_t capacity,
                                                  uint32_t *out_count);

/* Since 1.2. Switches the timing of the group's draws on or off, as
 * plume_system_set_profiling does for a system (GL timer queries in a ring
 * several draws deep, read without waiting; off by default, and off it makes
 * no GL call). A system drawn only through its group has no draw time of its
 * own: the group's profile has it. Errors: PLUME_ERROR_INVALID_ARGUMENT (a
 * bad context or group handle), PLUME_ERROR_GL (queries could not be
 * created; profiling stays off). */
PLUME_API plume_result plume_draw_group_set_profiling(plume_context *context, plume_draw_group group, bool enabled);

/* Since 1.2. The group's draws as plume_profile records them (frame: the
 * group's draw number, from 1): PLUME_STAGE_SORT the gather of the systems'
 * drawn particles and the group's sort (sort_padded_count, sort_passes),
 * PLUME_STAGE_DRAW the draw (at 1/2 or 1/4 with its DOWNSAMPLE and UPSAMPLE
 * draw stages), drawn_count the particles drawn; no simulate or update
 * stage, live_count 0; path PLUME_PATH_COMPUTE. No GL call.
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad context or group handle, out
 * NULL; *out is zeroed where it is not NULL). */
PLUME_API plume_result plume_draw_group_get_profile(const plume_context *context, plume_draw_group group,
                                                    plume_profile *out);

#ifdef __cplusplus
}
#endif

#endif
