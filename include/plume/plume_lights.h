/* Light from particles (part of plume_particles.h, which includes this
 * header): a system's brightest emissive particles (fire, sparks, fireflies)
 * written each frame into the host's GL buffer as point lights, for its
 * clustered or forward lighting to read on the GPU. Nothing comes back to the
 * CPU. [since 1.3]
 *
 *     plume_system_update(context, fire, &frame);
 *     plume_lights_desc lights = { .buffer = light_buffer, .max_lights = 16 };
 *     plume_system_write_lights(context, fire, &lights);  // then the scene's lit passes read it
 *
 * The buffer's layout at `offset` (std430; GLSL below), 16 + 32 x max_lights
 * bytes (plume_lights_bytes):
 *
 *     layout(std430, binding = N) readonly buffer PlumeLights {
 *         uint count;          // lights written, 0 .. max_lights, brightest first
 *         uint max_lights;     // the call's max_lights
 *         uint reserved[2];    // 0
 *         vec4 lights[];       // per light: {position xyz, radius}, {colour rgb, 0}
 *     };
 *
 * Records past `count` are zero (radius 0, black), so a shader may loop over
 * max_lights without reading count. A light's position is its particle's
 * after the last update, in the system's simulation space (world space; for
 * PLUME_SIMULATION_LOCAL the space of the system's own placements); its
 * colour is the light the particle gives off at its age: its
 * emissive_over_life (rgb x a) plus, where its blend mode adds
 * (PLUME_BLEND_ADDITIVE, or PLUME_BLEND_PREMULTIPLIED_ADDITIVE by its
 * additive_over_life), its colour x alpha x that additive part, all times
 * `intensity`; its radius the host's `radius`, or ten times the particle's
 * drawn size. How it falls off within the radius is the host's shading.
 *
 * Which particles: the slots are taken in groups of 256; the brightest live
 * particle of each group (brightness: the colour's largest channel; ties to
 * the lower slot) whose brightness is above min_brightness is a candidate,
 * and the max_lights brightest candidates are the lights, brightest first.
 * Taking one a group spreads the lights over the effect (slots born together
 * sit together) and costs one pass over the slots and one small selection,
 * with no sort and no atomics; the same particles give the same lights.
 *
 * Synchronisation: the call ends with glMemoryBarrier(GL_SHADER_STORAGE_
 * BARRIER_BIT | GL_UNIFORM_BARRIER_BIT), so the host's later shaders read
 * the lights as a storage or uniform block with no barrier of their own.
 * Other reads of the buffer need the host's barrier first: as vertex
 * attributes GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT, as a texture buffer
 * GL_TEXTURE_FETCH_BARRIER_BIT, by glGetBufferSubData, glCopyBufferSubData
 * or a mapping GL_BUFFER_UPDATE_BARRIER_BIT, as indirect arguments
 * GL_COMMAND_BARRIER_BIT. The host must not write the range between the call
 * and its reads. */
#ifndef PLUME_LIGHTS_H
#define PLUME_LIGHTS_H

#include <stdint.h>

#include "plume_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most lights one call writes. */
#define PLUME_MAX_PARTICLE_LIGHTS 1024
/* The buffer's header and each light, in bytes. */
#define PLUME_LIGHTS_HEADER_BYTES 16
#define PLUME_LIGHT_BYTES 32

/* Bytes of a buffer of `max_lights` lights. */
#define plume_lights_bytes(max_lights) (PLUME_LIGHTS_HEADER_BYTES + (size_t)(max_lights) * PLUME_LIGHT_BYTES)

/* Where and how many (see above). Zero-initialised but for buffer and
 * max_lights: every particle that gives off light may be one, at its own
 * colour, ten times its size across. */
typedef struct plume_lights_desc {
    uint32_t buffer;        /* the host's GL buffer object (GLuint) */
    uint32_t offset;        /* bytes; a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT */
    uint32_t max_lights;    /* 1 .. PLUME_MAX_PARTICLE_LIGHTS */
    float radius;           /* world units, > 0; 0: ten times each particle's drawn size */
    float intensity;        /* a factor of each light's colour, > 0; 0: 1 */
    float min_brightness;   /* a particle whose brightness (after intensity) is not above it is no light; >= 0 */
} plume_lights_desc;

/* Writes `system`'s lights into the host's buffer (see above), from its
 * particles as the last plume_system_update (or batch update) left them: call
 * it after the update, once per frame or per view that wants them. Runs two
 * compute dispatches; the system keeps a small buffer of candidates (8 bytes
 * per 256 slots), made at the first call. The host's GL state is restored
 * (the indexed storage buffer bindings 0 .. 7, the program, the texture units
 * 0 .. 7 included).
 * Errors: PLUME_ERROR_INVALID_ARGUMENT (a bad handle, `desc` NULL, buffer 0
 * or not a buffer, max_lights 0 or above PLUME_MAX_PARTICLE_LIGHTS, offset
 * misaligned, the buffer shorter than offset + plume_lights_bytes(max_lights),
 * radius, intensity or min_brightness negative or not finite: one message
 * naming the field, nothing written), PLUME_ERROR_GL_UNSUPPORTED (a system of
 * the fragment path: its particles live in textures; or no GL context
 * current), PLUME_ERROR_HOST_STATE (transform feedback active),
 * PLUME_ERROR_OUT_OF_MEMORY.
 * Threading: where the context's GL context is current. [since 1.3] */
PLUME_API plume_result plume_system_write_lights(plume_context *context, plume_system system,
                                                 const plume_lights_desc *desc);

#ifdef __cplusplus
}
#endif

#endif
