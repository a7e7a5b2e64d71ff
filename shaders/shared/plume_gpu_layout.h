/* What the module's C code and its shaders share: buffer binding points,
 * record sizes, the words of the state buffers, workgroup sizes and key
 * constants. It is the one home of each number: C includes this file, and
 * plume_build_program (plugin/core/shader.c) puts it ahead of every GLSL
 * program it builds. Only preprocessor lines of integer literals, so that it
 * is C and GLSL alike. Where C has its own
 * copy of a number (a public limit, a struct's size), a static assertion
 * beside that code checks that the two agree. */
#ifndef PLUME_GPU_LAYOUT_H
#define PLUME_GPU_LAYOUT_H

/* ---- Particle system: shader storage bindings ---- */
#define PLUME_BINDING_MOTION 0       /* ParticleMotion records: what simulate reads and writes */
#define PLUME_BINDING_DRAW_LIST 1    /* the sorted {key, slot} pairs the draw reads */
#define PLUME_BINDING_LIVE_LIST 2    /* the {key, slot} pairs simulate appends (the same buffer) */
#define PLUME_BINDING_STATE 3        /* SystemState: counters, draw arguments, dead list */
#define PLUME_BINDING_EMITTERS 4     /* Emitter records */
#define PLUME_BINDING_TRAITS 5       /* ParticleTraits records: fixed at birth */

/* ---- Particle system: records ---- */
#define PLUME_MOTION_VEC4S 2         /* position, age | velocity, lifetime */
#define PLUME_MOTION_BYTES 32
#define PLUME_TRAITS_BYTES 16        /* size, rotation at birth, spin, id */
#define PLUME_PAIR_BYTES 8           /* {key, value}: a uvec2 */
#define PLUME_EMITTER_VEC4S 6        /* see Emitter in particles/particle_emit.comp */
#define PLUME_GPU_MAX_EMITTERS 8     /* = PLUME_MAX_EMITTERS */
#define PLUME_GPU_MAX_CURVE_KEYS 8   /* = PLUME_MAX_CURVE_KEYS */

/* ---- Particle system: words of the state buffer's header ----
 * Its head is the DrawArraysIndirectCommand of the draw, whose instance count
 * is the live counter that simulate appends with; then the dead-list counter
 * and the emission bookkeeping; the dead list follows the header. */
#define PLUME_STATE_DRAW_VERTEX_COUNT 0  /* 6: one quad */
#define PLUME_STATE_DRAWN_COUNT 1        /* the draw's instance count and the sort's count: live and not culled */
#define PLUME_STATE_DRAW_FIRST_VERTEX 2
#define PLUME_STATE_DRAW_BASE_INSTANCE 3
#define PLUME_STATE_DEAD_COUNT 4         /* slots on the dead list */
#define PLUME_STATE_EMIT_BASE 5          /* this update's emitted slots: dead list [emit base ..] */
#define PLUME_STATE_EMIT_COUNT 6         /* particles emitted this update (<= requested) */
#define PLUME_STATE_EMITTED_TOTAL 7      /* emission numbers handed out so far */
#define PLUME_STATE_EMIT_ID_BASE 8       /* the first emission number of this update */
#define PLUME_STATE_LIVE_COUNT 9         /* particles alive after this update, culled or not */
#define PLUME_STATE_HEADER_WORDS 16

/* ---- Particle system: workgroup sizes ---- */
#define PLUME_SIMULATE_GROUP_SIZE 256
#define PLUME_EMIT_GROUP_SIZE 64
#define PLUME_RESET_GROUP_SIZE 256

/* ---- Particle system: culling ---- */
#define PLUME_CULL_PLANES 6              /* the view frustum's, world space, pointing inwards */

/* ---- Sort: shader storage bindings ---- */
#define PLUME_BINDING_SORT_PAIRS 0       /* the host's {key, value} pairs */
#define PLUME_BINDING_SORT_STATE 1       /* the count, then each pass's dispatch arguments */
#define PLUME_BINDING_SORT_HOST_COUNT 2  /* the host's count (indirect sorts) */
#define PLUME_BINDING_SORT_PASS_TABLE 3  /* per pass: group bits, level height */

/* ---- Sort: the state buffer and the pass table ---- */
#define PLUME_SORT_STATE_HEADER_WORDS 4  /* the count and padding, 16 bytes */
#define PLUME_SORT_DISPATCH_ARGS_WORDS 3 /* x, y, z workgroups of one pass (glDispatchComputeIndirect) */
#define PLUME_SORT_PASS_TABLE_WORDS 2    /* group bits, level height: a uvec2 */

/* ---- Sort, fragment path: stages one pass runs at most (a local sort of
 * 2^4 pairs runs 1 + 2 + 3 + 4) ---- */
#define PLUME_FRAGMENT_SORT_MAX_STAGES 10

/* ---- Keys ---- */
#define PLUME_GPU_KEY_NAN 0xFFFFFFFEu    /* = PLUME_KEY_NAN: every NaN depth */
#define PLUME_GPU_KEY_LAST 0xFFFFFFFFu   /* = PLUME_KEY_LAST: never produced; sorts behind all */

#endif
