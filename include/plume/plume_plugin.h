/*
 * plume_plugin.h — the versioned plugin ABI: one exported entry point that
 * hands a host the table of every plume function.
 *
 * Usage (loading libplume.so at run time):
 *
 *     #include <dlfcn.h>
 *     #include <plume/plume_plugin.h>
 *
 *     void *library = dlopen("libplume.so.1", RTLD_NOW | RTLD_LOCAL);
 *     plume_get_api_fn get_api;
 *     *(void **)&get_api = dlsym(library, PLUME_GET_API_SYMBOL);
 *     const plume_api *plume = NULL;
 *     plume_logger logger = {my_log, my_engine};
 *     if (!get_api || get_api(PLUME_ABI_MAJOR, PLUME_ABI_MINOR, &logger, &plume) != PLUME_OK) {
 *         ... // refused: the reason went to my_log
 *     }
 *     plume_context *context;
 *     plume_context_desc desc = {.logger = logger};
 *     plume->context_create(&desc, &context);
 *     plume_system system;
 *     plume_system_desc system_desc = {.capacity = 100000, .emitters[0] = {.rate = 2000}};
 *     plume->system_create(context, &system_desc, &system);
 *     plume->system_update(context, system, &frame);   // every frame
 *     plume->system_draw(context, system, &frame);
 *     plume->system_destroy(context, system);
 *     plume->context_destroy(context);
 *     dlclose(library);
 *
 * Linking the static library instead, call the same functions by their names
 * (plume_system_update(...), declared in plume_particles.h etc.);
 * plume_get_api() is there too, for hosts that want one code path for both.
 *
 * What the shared library exports: plume_get_api and nothing else (it is built
 * with -fvisibility=hidden); its soname is libplume.so.<PLUME_ABI_MAJOR>. On
 * Windows the plugin is plume.dll, which exports the same one symbol
 * (LoadLibrary, then GetProcAddress(library, PLUME_GET_API_SYMBOL)).
 *
 * ABI rules (GDExtension's: the ABI only grows):
 *   - Within a major version, fields of plume_api are only ever added at the
 *     end, under a "---- since 1.N ----" line naming the minor that added
 *     them, and the minor goes up by one. Nothing is removed, reordered or
 *     retyped; a function whose signature must change gets a new field with
 *     a new name (sort2) and the old one stays, marked deprecated.
 *   - Structs passed through the table grow only at their end, each new
 *     field tagged "[since 1.N]" (plume_common.h). The minor a host asks
 *     plume_get_api for is the one its headers have: the table it gets reads
 *     and writes only the
 *     part of each struct that minor knows (zero, or that minor's behaviour,
 *     for the rest), so an older host's smaller structs keep working. A host
 *     linking the library statically has the library's own headers.
 *   - Result codes and enum values are only added.
 *   - Anything else (removal, reordering, a changed meaning) is a new major:
 *     a new soname, and hosts built for the old major are refused.
 *   - Table fields are named as the plain functions without "plume_":
 *     plume->sort is plume_sort, plume->system_update plume_system_update.
 */
#ifndef PLUME_PLUGIN_H
#define PLUME_PLUGIN_H

#include <stddef.h>

#include "plume_common.h"
#include "plume_context.h"
#include "plume_draw_group.h"
#include "plume_particles.h"
#include "plume_sort.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version these headers describe. A host passes them to
 * plume_get_api(); the library compares them with its own. */
#define PLUME_ABI_MAJOR 1
#define PLUME_ABI_MINOR 3

/* The one exported symbol, for dlsym. */
#define PLUME_GET_API_SYMBOL "plume_get_api"

/* Exported from the shared library only. A DLL exports what is marked
 * dllexport (and then nothing else); ELF and Mach-O export what has default
 * visibility, the rest being hidden by -fvisibility=hidden. */
#if defined(PLUME_SHARED_BUILD) && defined(_WIN32)
#define PLUME_PLUGIN_ENTRY __declspec(dllexport)
#elif defined(PLUME_SHARED_BUILD) && defined(__GNUC__)
#define PLUME_PLUGIN_ENTRY __attribute__((visibility("default")))
#else
#define PLUME_PLUGIN_ENTRY
#endif

/* Every plume function, by version. The library's table is read-only and
 * lives as long as the library is loaded. */
typedef struct plume_api {
    /* ---- header, fixed for every version ---- */
    uint32_t size;           /* sizeof(plume_api) in the library: fields past it do not exist */
    uint32_t version_major;  /* the library's ABI version, >= the one asked for */
    uint32_t version_minor;
    uint32_t reserved;       /* 0 */

    /* ---- since 1.0 ---- */
    const char *(*result_string)(plume_result result);
    plume_result (*context_create)(const plume_context_desc *desc, plume_context **out_context);
    void (*context_destroy)(plume_context *context);
    plume_result (*context_list_gl_objects)(const plume_context *context, plume_gl_object *out, uint32_t capacity,
                                            uint32_t *out_count);
    plume_result (*sorter_create)(plume_context *context, const plume_sorter_desc *desc, plume_sorter *out_sorter);
    plume_result (*sorter_destroy)(plume_context *context, plume_sorter sorter);
    plume_result (*sorter_get_desc)(const plume_context *context, plume_sorter sorter, plume_sorter_desc *out_desc);
    plume_result (*sort)(plume_context *context, plume_sorter sorter, uint32_t pairs_buffer, uint32_t count);
    plume_result (*sort_indirect)(plume_context *context, plume_sorter sorter, uint32_t pairs_buffer,
                                  uint32_t count_buffer, uint32_t count_offset);
    plume_result (*sort_indirect_bounded)(plume_context *context, plume_sorter sorter, uint32_t pairs_buffer,
                                          uint32_t count_buffer, uint32_t count_offset, uint32_t max_count);
    uint32_t (*sorter_pass_count)(const plume_context *context, plume_sorter sorter, uint32_t count);
    uint32_t (*depth_key)(float depth, plume_sort_order order);
    /* particle systems (plume_particles.h) */
    plume_result (*system_create)(plume_context *context, const plume_system_desc *desc, plume_system *out_system);
    plume_result (*system_destroy)(plume_context *context, plume_system system);
    plume_result (*system_get_desc)(const plume_context *context, plume_system system, plume_system_desc *out_desc);
    plume_result (*system_update)(plume_context *context, plume_system system, const plume_frame_desc *frame);
    plume_result (*system_draw)(plume_context *context, plume_system system, const plume_frame_desc *frame);
    plume_result (*system_reset)(plume_context *context, plume_system system);
    plume_result (*system_set_emitter)(plume_context *context, plume_system system, uint32_t index,
                                       const plume_emitter_desc *emitter);
    plume_result (*system_set_forces)(plume_context *context, plume_system system, const plume_forces *forces);
    plume_result (*system_read_back)(plume_context *context, plume_system system, plume_readback *readback);
    plume_result (*system_set_profiling)(plume_context *context, plume_system system, bool enabled);
    plume_result (*system_get_profile)(const plume_context *context, plume_system system, plume_profile *out);
    uint32_t (*system_get_frame_profiles)(const plume_context *context, plume_system system, uint64_t first_frame,
                                          plume_frame_profile *out, uint32_t max);

    /* ---- since 1.2 ---- */
    plume_sort_algorithm (*sorter_algorithm_for)(const plume_context *context, plume_sorter sorter, uint32_t count);
    plume_sort_algorithm (*system_get_sort_algorithm)(const plume_context *context, plume_system system);
    plume_result (*system_set_world)(plume_context *context, plume_system system, const plume_world *world);
    /* draw groups (plume_draw_group.h) */
    plume_result (*draw_group_create)(plume_context *context, const plume_draw_group_desc *desc,
                                      plume_draw_group *out_group);
    plume_result (*draw_group_destroy)(plume_context *context, plume_draw_group group);
    plume_result (*draw_group_draw)(plume_context *context, plume_draw_group group, const plume_frame_desc *frame);
    plume_result (*draw_group_read_back)(plume_context *context, plume_draw_group group,
                                         plume_draw_group_entry *entries, uint32_t capacity, uint32_t *out_count);
    /* sort pairs in a texture (plume_sort_texture) */
    plume_result (*sort_texture)(plume_context *context, plume_sorter sorter, uint32_t texture, uint32_t count);
    /* a draw group's profile (plume_draw_group.h) */
    plume_result (*draw_group_set_profiling)(plume_context *context, plume_draw_group group, bool enabled);
    plume_result (*draw_group_get_profile)(const plume_context *context, plume_draw_group group, plume_profile *out);

    /* ---- since 1.3 ---- */
    /* a descriptor checked without a context or GL (plume_particles.h) */
    plume_result (*system_desc_check)(const plume_system_desc *desc, plume_system_desc *out_resolved);
    /* the tiled draw path's tile size and chunk entries (plume_particles.h) */
    plume_result (*system_set_tiled_options)(plume_context *context, plume_system system, uint32_t tile_size,
                                             uint32_t chunk_entries);
    /* prewarm and bounds (plume_particles.h) */
    plume_result (*system_prewarm)(plume_context *context, plume_system system, float seconds);
    plume_result (*system_get_bounds)(plume_context *context, plume_system system, plume_bounds *out);
    plume_result (*system_desc_bounds)(const plume_system_desc *desc, plume_bounds *out);
    /* events to the CPU (plume_world.h) */
    plume_result (*system_poll_events)(plume_context *context, plume_system system, plume_particle_event *out,
                                       uint32_t max, plume_event_poll_info *info);
    /* emission on demand, placements and instances (plume_particles.h) */
    plume_result (*system_emit)(plume_context *context, plume_system system, const plume_emit_desc *emit);
    plume_result (*system_set_transform)(plume_context *context, plume_system system,
                                         const plume_transform *transform, bool jump);
    plume_result (*system_set_instances)(plume_context *context, plume_system system, uint32_t first,
                                         uint32_t count, const plume_instance_desc *instances);
    /* a look's programs built ahead of its systems (plume_particles.h) */
    plume_result (*context_warm_programs)(plume_context *context, const plume_system_desc *desc, uint32_t draws);
    /* many systems updated in one call (plume_batch.h) */
    plume_result (*batch_update)(plume_context *context, const plume_system *systems, uint32_t system_count,
                                 const plume_frame_desc *frame);
    /* many systems drawn in one order by one call (plume_batch.h) */
    plume_result (*batch_draw)(plume_context *context, const plume_system *systems, uint32_t system_count,
                               const plume_frame_desc *frame);
    /* light from particles (plume_lights.h) */
    plume_result (*system_write_lights)(plume_context *context, plume_system system, const plume_lights_desc *desc);
    /* the batch calls' profile (plume_batch.h) */
    plume_result (*batch_set_profiling)(plume_context *context, bool enabled);
    plume_result (*batch_get_profile)(const plume_context *context, plume_batch_profile *out);

    /* New fields go here, under a "---- since 1.N ----" line. */
} plume_api;

/* True when the library's table has `field`: a host built against newer
 * headers than the library checks this before calling a field added after the
 * minor it asked for (or compares api->version_minor). */
#define PLUME_API_HAS(api, field) \
    ((api)->size >= offsetof(plume_api, field) + sizeof(((const plume_api *)0)->field))

/* Returns the function table for ABI `requested_major`.`requested_minor`.
 *
 * Granted when requested_major is the library's major and requested_minor is
 * at most the library's minor: *out_api then points to a table of the
 * library's whose version_minor may be higher than asked, whose first fields
 * are exactly those the host's headers describe for the version asked, and
 * whose functions read and write the structs as that version lays them out
 * (1.0: plume_frame_desc up to viewport_size, no culling; plume_readback up
 * to emitted_total; plume_profile and plume_frame_profile up to sort_passes;
 * 1.0 and 1.1: plume_system_desc up to allocator: no look, no world, the path
 * automatic, sort_key_bits 32; plume_sorter_desc up to allocator, the path
 * automatic; 1.1: plume_profile and plume_frame_profile up to drawn_count;
 * 1.2: plume_system_desc up to sort_key_bits, plume_frame_desc and
 * plume_profile up to their 1.2 ends).
 * From 1.2 on every host gets the current table, every field filled (newer
 * fields are there for a host that checks them); the tables of 1.0 and 1.1
 * hosts leave the fields after their minor's NULL.
 *
 * Errors: PLUME_ERROR_VERSION (another major, or a minor newer than the
 * library's: the message names both versions), PLUME_ERROR_INVALID_ARGUMENT
 * (out_api NULL). On an error *out_api is NULL (when not NULL itself) and one
 * message goes to `logger` (NULL or a {0} logger: stderr).
 *
 * Threading: any thread, any time; touches no GL and no state. */
PLUME_PLUGIN_ENTRY plume_result plume_get_api(uint32_t requested_major, uint32_t requested_minor,
                                              const plume_logger *logger, const plume_api **out_api);

/* plume_get_api's type, for the pointer dlsym returns. */
typedef plume_result (*plume_get_api_fn)(uint32_t requested_major, uint32_t requested_minor,
                                         const plume_logger *logger, const plume_api **out_api);

#ifdef __cplusplus
}
#endif

#endif
