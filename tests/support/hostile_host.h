/* A hostile host for the module: a distinctive value in every piece of GL
 * state that could change what a module call means (docs/host-gl-state.md),
 * canary buffers and textures the module must never write, and a snapshot of
 * all of it to compare before and after each call. */
#ifndef PLUME_HOSTILE_HOST_H
#define PLUME_HOSTILE_HOST_H

#include <epoxy/gl.h>
#include <stdint.h>

enum { HOSTILE_MAX_VALUES = 256, HOSTILE_CANARY_BYTES = 4096 };
extern const unsigned char HOSTILE_CANARY;

typedef struct host_objects {
    GLuint query_canary, pack_canary, unpack_canary, feedback_canary, image_canary;
    GLuint volume; /* a 3D texture the host leaves bound on units 0 and 1 */
    GLuint layers; /* a 2D array texture the host leaves bound on units 0 .. 2 (draw groups bind one) */
    GLuint feedback, feedback_program, pipeline, separable_program, occlusion_query;
    int size;        /* of the host's square target */
    int drawn_width; /* the scissor's: the module draws into x < drawn_width only */
} host_objects;

/* Texture level 0 as bytes (RGBA8) or floats (RGBA32F), in a clean state. */
void read_texture(GLuint texture, GLenum type, void *out);

/* Every value make_hostile sets (and the bindings the module uses), as
 * numbers into v[HOSTILE_MAX_VALUES]; returns how many. */
int snapshot(GLint64 *v);

/* Fails the test, naming the value and `after_what`, where the state differs
 * from `before`. */
void assert_unchanged(const GLint64 *before, int count, const char *after_what);

/* Sets a distinctive value everywhere (PLUME_TEST_HOSTILE_ONLY=N: item N
 * alone, to find which one a driver trips over); transform feedback is left
 * active and paused (the state the module can work under). */
host_objects make_hostile(int size);

/* Back to GL's defaults, then checks that nothing of the host's was written. */
void end_hostile(host_objects *h);

#endif
