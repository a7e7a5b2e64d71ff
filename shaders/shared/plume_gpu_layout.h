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
#define PLUME_BINDING_LIVE_LIST 2    /* the {key, slot} pairs the compaction packs after simulate (the same buffer) */
#define PLUME_BINDING_STATE 3        /* SystemState: counters, draw arguments, dead list */
#define PLUME_BINDING_EMITTERS 4     /* Emitter records */
#define PLUME_BINDING_TRAITS 5       /* ParticleTraits records: fixed at birth */
#define PLUME_BINDING_SLOT_KEYS 6    /* simulate's outcome per slot: {depth key (PLUME_GPU_KEY_LAST: not drawn), PLUME_SLOT_* bits} */
#define PLUME_BINDING_GROUP_COUNTS 7 /* per simulate workgroup: drawn, deaths, children (own, other buffer); then their exclusive sums */
/* The emit pass's spawn batches, at a binding no later pass of the update
 * rebinds: on NVIDIA (580), binding another buffer at the index an
 * emit dispatch still in flight reads (simulate's slot keys at 6) changed
 * what it read, glMemoryBarrier(GL_ALL_BARRIER_BITS) or not
 * (notes/gpu-findings.md). GL 4.3 promises 8 bindings; the compute path
 * asks for 9 (every GL 4.3 driver we know has 32 or more). */
#define PLUME_BINDING_SPAWN_BATCHES 8
#define PLUME_BINDING_LOCAL_MOTION 2 /* simulate, local space: per instance its last and current placement (the live list's binding, which simulate leaves free) */

/* ---- Particle system: records ---- */
#define PLUME_MOTION_VEC4S 2         /* position, age | velocity, lifetime */
#define PLUME_MOTION_BYTES 32
#define PLUME_TRAITS_BYTES 32        /* size, rotation at birth, spin, id | instance, colour multiplier (2 words), reserved */
#define PLUME_PAIR_BYTES 8           /* {key, value}: a uvec2 */
#define PLUME_SLOT_DIED 1u           /* a slot's outcome bits: the particle died this update */
#define PLUME_SLOT_HIT 2u            /* it hit a collider or the scene (an impact: fires collision events) */
#define PLUME_GROUP_COUNT_BYTES 16   /* a uvec4 per simulate workgroup */
#define PLUME_EMITTER_VEC4S 6        /* see Emitter in particles/particle_birth.glsl */
#define PLUME_SPAWN_BATCH_VEC4S 10   /* see SpawnBatch in particles/particle_emit.comp */
#define PLUME_LOCAL_MOTION_VEC4S 6   /* see LocalMotion in particles/particle_simulate.comp */
#define PLUME_SPAWN_MAX_DELAY_MS 999 /* a sub-frame birth is at most this far into its step (milliseconds) */
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
#define PLUME_STATE_BOUNDS_MIN 16        /* 3 words: the live particles' box, its quads included, */
#define PLUME_STATE_BOUNDS_MAX 19        /* 3 words: as ordered uints (particle_bounds.glsl); min > max: none */
#define PLUME_STATE_HEADER_WORDS 24

/* ---- Particle system: workgroup sizes ---- */
#define PLUME_SIMULATE_GROUP_SIZE 256
#define PLUME_EMIT_GROUP_SIZE 64
#define PLUME_RESET_GROUP_SIZE 256

/* ---- Particle system: culling ---- */
#define PLUME_CULL_PLANES 6              /* the view frustum's, world space, pointing inwards */

/* ---- Tiled draw (render/tiled.c): shader storage bindings ----
 * Each pass binds what it uses; numbers repeat between passes that never
 * share a binding. The particle bindings above keep their numbers. */
#define PLUME_BINDING_TILED_COUNTS 2     /* per rank: tiles touched, then their inclusive scan */
#define PLUME_BINDING_TILED_SPLATS 6     /* per rank: the particle on screen (TILED_SPLAT_VEC4S) */
#define PLUME_BINDING_TILED_CONTROL 7    /* the words below */
#define PLUME_BINDING_TILED_SCAN_SUMS 0  /* scan passes: one level's block totals */
#define PLUME_BINDING_TILED_ENTRIES 4    /* {tile, rank} pairs: written in rank order, sorted by tile */
#define PLUME_BINDING_TILED_RANGES 0     /* per tile: its first and past-last entry */
#define PLUME_BINDING_TILED_CHUNK_TABLE 1 /* chunked composite: per tile {first slot, chunks}, then per slot its tile */
#define PLUME_BINDING_TILED_PARTIALS 5   /* chunked composite: per slot and pixel, colour and cover (halves) */
#define PLUME_BINDING_TILED_COVER 3      /* ranges pass, blend and upsample: the tiles the blend covers */
#define PLUME_BINDING_TILED_GROUP_RECORDS 0 /* a draw group's projection: its records (the motions' number: it reads none) */
#define PLUME_BINDING_TILED_TRAIL_HEADERS 3 /* a trail system's projection: the trail history (the state's number: it reads none) */
#define PLUME_BINDING_TILED_TRAIL_POINTS 4  /* ... and its points (the entries' number: the entries pass binds them after) */
#define PLUME_BINDING_TILED_SPRITE_COVER 3  /* a system's camera-facing projection and entries: where its frames can show (the state's number: neither reads it; bound before each) */

/* ---- Tiled draw: records and sizes ---- */
#define PLUME_TILED_PROJECT_GROUP_SIZE 256
#define PLUME_TILED_SCAN_GROUP_SIZE 256
#define PLUME_TILED_SCAN_PER_INVOCATION 4
#define PLUME_TILED_SCAN_BLOCK 1024      /* group size x per invocation: elements one workgroup scans */
#define PLUME_TILED_RANGES_GROUP_SIZE 64
#define PLUME_TILED_CHUNK_ROW 32768      /* chunk workgroups per row of the composite's 2D dispatch */

/* ---- Tiled draw: words of the control buffer ----
 * Written on the GPU, never read by the CPU to decide: first (the prepare
 * pass, from the drawn count) the workgroups of the passes over the ranks,
 * none when nothing is drawn; then (the control pass, after the scan) how
 * many entries the frame needs, whether they fit the budget, and the
 * indirect arguments of every later pass of both paths, so that the GPU
 * picks the raster draw for a frame that overflows and a frame without
 * entries costs no pass over the tiles or the pixels. */
#define PLUME_TILED_ENTRY_COUNT 0        /* entries needed (saturates at 2^32 - 1) */
#define PLUME_TILED_OVERFLOW 1           /* 1: over the budget: this frame draws raster */
#define PLUME_TILED_SORT_COUNT 2         /* entries to sort: ENTRY_COUNT, or 0 on overflow */
#define PLUME_TILED_CHUNK_COUNT 3        /* chunked composite: the frame's chunks (the ranges pass counts them) */
#define PLUME_TILED_COMPOSITE_ARGS 4     /* x, y, z workgroups of the composite (x = 0 on overflow) */
#define PLUME_TILED_BLEND_ARGS 8         /* DrawArraysIndirectCommand {6, covered tiles, 0, 0} of the blend or upsample, a quad a tile */
#define PLUME_TILED_RASTER_ARGS 12       /* DrawArraysIndirectCommand {6, drawn or 0, 0, 0} of the fallback */
#define PLUME_TILED_CHUNK_ARGS 16       /* x, y, z workgroups of the chunked composite (x = 0 on overflow) */
#define PLUME_TILED_PROJECT_ARGS 20      /* x, y, z workgroups of project and entries: one per group of drawn ranks */
#define PLUME_TILED_RANGES_ARGS 23       /* x, y, z workgroups of the ranges (x = 0 without entries or on overflow) */
#define PLUME_TILED_RANGES_DONE 26       /* chunked composite: the ranges workgroups done (the last writes CHUNK_ARGS); 27, 28 spare */
#define PLUME_TILED_RESOLVE_ARGS 29      /* x, y, z workgroups of the resolve: the tiles, or x = 0 as the ranges */
#define PLUME_TILED_SCAN_ARGS 32         /* per scan level, x, y, z workgroups: its blocks of drawn ranks */
#define PLUME_TILED_SCAN_MAX_LEVELS 6    /* the scan's levels: 1024^5 counts is past any capacity */
/* A trail system's ranks are dense (render/tiled.c): each drawn pair's
 * ranks counted and scanned first, rank i the i-th triangle drawn. */
#define PLUME_TILED_DRAWN_RANKS 50       /* the ranks the passes run over (prepare; 0 where they outgrow the capacity) */
#define PLUME_TILED_DRAWN_ITEMS 51       /* dense: the drawn pairs (prepare) */
#define PLUME_TILED_RANKS_NEEDED 52      /* dense: the ranks the frame's pairs need (read back: the capacity grows) */
#define PLUME_TILED_RANK_OVERFLOW 53     /* dense: 1: past the ranks made: this frame draws raster */
#define PLUME_TILED_ITEM_ARGS 54         /* dense: x, y, z workgroups of the pairs' count: one per group of drawn pairs */
#define PLUME_TILED_ITEM_SCAN_ARGS 57    /* dense: per level of the pairs' scan, as SCAN_ARGS */
#define PLUME_TILED_CONTROL_WORDS 75     /* ITEM_SCAN_ARGS + 3 x SCAN_MAX_LEVELS */

/* Which tiles the blend onto the host's framebuffer (or the low-resolution
 * upsample) covers, each drawn as a quad (render/tile_cover.vert): at full
 * resolution the tiles with entries (every other pixel of the target is
 * clear); at low resolution those and their neighbours (the upsample of a
 * pixel reads the target's texels up to one away); the lab's baseline, every
 * tile. The ranges pass's u_cover_mode. */
#define PLUME_TILED_COVER_OWN 0
#define PLUME_TILED_COVER_NEIGHBOURS 1
#define PLUME_TILED_COVER_EVERY 2

/* ---- Low-resolution draw (render/lowres.c) ---- */
#define PLUME_BINDING_LOWRES_ARGS 0      /* DrawArraysIndirectCommand {3, 1 or 0, 0, 0} of its full-screen passes */
/* ---- Particle system: the world (collisions, force fields, events) ----
 * A system's event buffer: a header, then one record per child to spawn,
 * appended by the simulate pass of every system whose routes target it and
 * consumed by its own next update (events_prepare, then events_emit). */
/* Free in every pass that binds them: the draw list (1) is the draw's, the
 * emitters (4) the emit passes' (simulate has neither), and simulate's slot
 * order takes 6 and 7; GL 4.3 promises 8 storage blocks a compute shader. */
#define PLUME_BINDING_EVENTS_OWN 1       /* the event buffer of the system being updated */
#define PLUME_BINDING_EVENTS_OTHER 4     /* another system's, which this one's routes target */
#define PLUME_GPU_MAX_COLLIDERS 8        /* = PLUME_MAX_COLLIDERS */
#define PLUME_GPU_MAX_ATTRACTORS 8       /* = PLUME_MAX_ATTRACTORS */
#define PLUME_GPU_MAX_EVENT_ROUTES 4     /* = PLUME_MAX_EVENT_ROUTES */
#define PLUME_COLLIDER_VEC4S 3           /* see particle_world.glsl */
#define PLUME_ATTRACTOR_VEC4S 2
#define PLUME_EVENT_RECORD_BYTES 32      /* position, packed route | inherited velocity, parent id */
#define PLUME_EVENT_HEADER_WORDS 8       /* one record's size */
#define PLUME_EVENT_REQUESTED 0          /* children appended since the last consumption (may pass capacity) */
#define PLUME_EVENT_CONSUMING 1          /* children the current update emits */
#define PLUME_EVENT_EMIT_BASE 2          /* their slots: dead list [emit base ..] */
#define PLUME_EVENT_ID_BASE 3            /* their first emission number */
#define PLUME_EVENT_LAST_REQUESTED 4     /* the last consumption's requested children (the profile's) */
#define PLUME_EVENT_LAST_DROPPED 5       /* and of those, dropped */
#define PLUME_EVENT_MAX_CHILDREN 64      /* children per event */
#define PLUME_EVENT_EMIT_GROUP_SIZE 64
#define PLUME_TEXTURE_UNIT_SCENE_DEPTH 0 /* simulate's depth texture (depth collision) */
#define PLUME_TEXTURE_UNIT_VECTOR_FIELD 1 /* simulate's 3D vector field */
#define PLUME_TEXTURE_UNIT_FLIPBOOK_MOTION 7 /* the draws' flipbook motion (plume_flipbook_motion) */
#define PLUME_TEXTURE_UNIT_SPRITE_ARRAY 6 /* the draws' sprite when the host's is a GL_TEXTURE_2D_ARRAY (units 0 .. 5 are taken on the fragment path) */

/* ---- Particle system: events to the CPU (plugin/particles/cpu_events.c) ----
 * Three passes after the compaction, over simulate's workgroups and its
 * slot outcomes: count each workgroup's records, scan (one workgroup), write
 * them in slot order. The record buffer: a header, then at most the budget's
 * records; the update copies all of it into a readback buffer. */
#define PLUME_BINDING_CPU_EVENTS 1       /* the record buffer (the draw list's number: no draw list here) */
#define PLUME_CPU_EVENT_RECORD_BYTES 32  /* position, emission number | velocity, kind | emitter << 4 | route << 8 | instance << 12 */
#define PLUME_CPU_EVENT_HEADER_WORDS 8   /* one record's size */
#define PLUME_CPU_EVENT_REQUESTED 0      /* the last update's records, written or not */
#define PLUME_CPU_EVENT_SKIPPED 1        /* records of updates not copied (every readback in flight), summed since reset */
#define PLUME_CPU_EVENT_DEATH 1u         /* = PLUME_PARTICLE_EVENT_DEATH: kinds as bits */
#define PLUME_CPU_EVENT_COLLISION 2u     /* = PLUME_PARTICLE_EVENT_COLLISION */
#define PLUME_CPU_EVENT_ROUTE 4u         /* = PLUME_PARTICLE_EVENT_ROUTE */

/* ---- Mesh particles (plugin/particles/mesh.c, render/mesh_draw.c, since 1.3) ----
 * A mesh system's orientations: per slot a ParticleSpin (particle_spin.glsl):
 * quaternion | angular velocity, the emission number + 1 it was made for.
 * Simulate reads and writes them; the mesh draw reads them. A binding no
 * other pass uses (the GL state scope restores it). */
#define PLUME_BINDING_SPIN 9
#define PLUME_SPIN_BYTES 32
#define PLUME_GPU_MAX_MESHES 4           /* = PLUME_MAX_MESHES */
/* The mesh draw's compaction (several opaque meshes): per mesh its indirect
 * command (8 words, instance count at word 1) and its list of slots. */
#define PLUME_BINDING_MESH_ARGS 6
#define PLUME_BINDING_MESH_LISTS 7
#define PLUME_MESH_ARGS_WORDS 8
#define PLUME_MESH_COMPACT_GROUP_SIZE 256
/* The mesh draw's instance pass (mesh_instances.comp): per drawn particle,
 * at its place in the draw list, what every vertex of its mesh needs,
 * PLUME_MESH_INSTANCE_VEC4S vec4s (mesh space to world with the scale, the
 * normals' matrix, the colour, the mesh). Read by mesh_instance_draw.vert. */
#define PLUME_BINDING_MESH_INSTANCES 2
#define PLUME_MESH_INSTANCE_VEC4S 8
/* Levels of detail (plume_mesh_lod): lists (and indirect commands) 0 .. 3
 * each mesh's full mesh, 4 .. 7 its coarse mesh, 8 the impostors of all. */
#define PLUME_MESH_IMPOSTOR_LIST (2 * PLUME_GPU_MAX_MESHES)
#define PLUME_MESH_LEVEL_LISTS (2 * PLUME_GPU_MAX_MESHES + 1)
/* The compute raster (render/mesh_compute.c): after the lists above that
 * the system uses (its meshes' full lists, or all of the levels' lists),
 * one list a mesh of the particles rasterized in compute (their count at
 * word 1; the first's words 4 .. 7, which no draw reads, the box of pixels
 * the depth pass covered: low x, y, high x, y), read by mesh_raster.comp,
 * which reads the mesh from its own buffers (words, in their layouts) and
 * writes per pixel of the viewport a depth key (the nearest the largest:
 * atomicMax; 0 empty) and, after the keys, the nearest's colour (two halves
 * a channel pair), read by mesh_resolve.frag. */
#define PLUME_MESH_MOST_LISTS (PLUME_MESH_LEVEL_LISTS + PLUME_GPU_MAX_MESHES)
#define PLUME_BINDING_MESH_POSITIONS 0
#define PLUME_BINDING_MESH_NORMALS 1
#define PLUME_BINDING_MESH_PIXELS 3
#define PLUME_BINDING_MESH_INDICES 4
#define PLUME_BINDING_MESH_TEXCOORDS 5
#define PLUME_MESH_RASTER_GROUP_SIZE 64
#define PLUME_MESH_EMPTY_KEY 0u

/* ---- The scene depth's convention (u_depth_convention, scene_depth.glsl) ---- */
#define PLUME_DEPTH_ZERO_TO_ONE 1u /* clip control's GL_ZERO_TO_ONE: window depth = NDC z */
#define PLUME_DEPTH_REVERSED 2u    /* the projection maps near to the larger depth */

/* ---- Sort: shader storage bindings ---- */
#define PLUME_BINDING_SORT_PAIRS 0       /* the host's {key, value} pairs */
#define PLUME_BINDING_SORT_STATE 1       /* the count, then each pass's dispatch arguments */
#define PLUME_BINDING_SORT_HOST_COUNT 2  /* the host's count (indirect sorts) */
#define PLUME_BINDING_SORT_PASS_TABLE 3  /* per pass: group bits, level height */

/* ---- Sort: the state buffer and the pass table ---- */
#define PLUME_SORT_STATE_HEADER_WORDS 4  /* the count and padding, 16 bytes */
#define PLUME_SORT_DISPATCH_ARGS_WORDS 3 /* x, y, z workgroups of one pass (glDispatchComputeIndirect) */
#define PLUME_SORT_PASS_TABLE_WORDS 2    /* group bits, level height: a uvec2 */

/* ---- Sort, radix backend (plugin/sort/radix.c, shaders/sort/radix_*) ----
 * Bindings: the pass's source is PLUME_BINDING_SORT_PAIRS, its state
 * PLUME_BINDING_SORT_STATE, the host's count PLUME_BINDING_SORT_HOST_COUNT. */
/* Reduce-then-scan: per digit, per tile: pairs, then the exclusive sum over
 * tiles. Onesweep: the look-back words, per digit pass, per tile, per digit. */
#define PLUME_BINDING_RADIX_TILE_COUNTS 3
#define PLUME_BINDING_RADIX_DESTINATION 4 /* where a pass writes: the sorter's scratch or the host's pairs */
#define PLUME_RADIX_MAX_DIGIT_BITS 8     /* a pass orders by at most 8 key bits */
#define PLUME_RADIX_DIGITS 256           /* 2^PLUME_RADIX_MAX_DIGIT_BITS */
#define PLUME_RADIX_THREADS 256          /* invocations per workgroup: one per digit where a pass scans digits */
#define PLUME_RADIX_LANES 32             /* pairs ranked together: a subgroup where the GL has 32-wide ballots */
/* Words of the radix state buffer. */
#define PLUME_RADIX_STATE_COUNT 0        /* pairs this sort orders: the count, clamped; 0 when under 2 */
#define PLUME_RADIX_STATE_TILES 1        /* tiles of the count */
#define PLUME_RADIX_STATE_DISPATCH 4     /* (tiles, 1, 1): the tile passes' indirect arguments */
#define PLUME_RADIX_STATE_DIGIT_TOTALS 8 /* pairs per digit in the current pass (PLUME_RADIX_DIGITS words) */
/* Onesweep: per digit pass, the next tile a workgroup takes. */
#define PLUME_RADIX_STATE_TICKETS 264
/* Onesweep: per digit pass, per digit, the pairs of the whole count
 * (PLUME_RADIX_MAX_PASSES x PLUME_RADIX_DIGITS words), zeroed before each
 * sort's histogram. */
#define PLUME_RADIX_STATE_PASS_DIGITS 268
#define PLUME_RADIX_MAX_PASSES 4         /* 32 key bits in digits of 8 */
#define PLUME_RADIX_STATE_WORDS (268 + 4 * 256)
/* Onesweep look-back word: the flag in the top two bits, a count below. */
#define PLUME_RADIX_LOOKBACK_AGGREGATE 0x40000000u /* the count is the tile's pairs of the digit */
#define PLUME_RADIX_LOOKBACK_INCLUSIVE 0x80000000u /* ... of this tile and every tile before it */
#define PLUME_RADIX_LOOKBACK_COUNT_MASK 0x3FFFFFFFu
/* Benchmarks only (the lab's phase_clocks setting): per Onesweep workgroup, a
 * record of PLUME_RADIX_PHASE_WORDS words at
 * (pass x PLUME_RADIX_PHASE_MAX_TILES + tile) x PLUME_RADIX_PHASE_WORDS, the
 * histogram pass's as pass PLUME_RADIX_MAX_PASSES: its SM + 1, then its SM's
 * clock at its start and at the end of each phase (radix_common.glsl). */
#define PLUME_BINDING_RADIX_PHASE_CLOCKS 5
#define PLUME_RADIX_PHASE_WORDS 8
#define PLUME_RADIX_PHASE_MAX_TILES 4096
/* ---- Sort, fragment path: stages one pass runs at most (a local sort of
 * 2^4 pairs runs 1 + 2 + 3 + 4) ---- */
#define PLUME_FRAGMENT_SORT_MAX_STAGES 10
/* ---- Sort through transform feedback: runs of a vertex's index bits that
 * place its group in a pass's layout (feedback_sort.c's plans need at most
 * three) ---- */
#define PLUME_FEEDBACK_SORT_MAX_RUNS 4

/* ---- Keys ---- */
#define PLUME_GPU_KEY_NAN 0xFFFFFFFEu    /* = PLUME_KEY_NAN: every NaN depth */
#define PLUME_GPU_KEY_LAST 0xFFFFFFFFu   /* = PLUME_KEY_LAST: never produced; sorts behind all */

/* ---- Draw groups and batches (render/draw_group.c, since 1.2) ----
 * Several systems' drawn particles in one list, one sort, one draw. The
 * group's state buffer begins as a system's does (the draw's arguments, the
 * drawn count at PLUME_STATE_DRAWN_COUNT: the sort's count and the
 * low-resolution passes' test), then per system the gather's indirect
 * dispatch and where its pairs begin (before the prepare pass: its drawn
 * count, copied from its state). A pair's value is its record's index (the
 * system's first record plus its slot), so equal keys come out by system,
 * then by slot, and any number of systems fits. */
#define PLUME_BINDING_GROUP_STATE 7      /* the group's words below */
#define PLUME_BINDING_GROUP_PAIRS 2      /* {key, record}: the gather appends, the sort orders */
#define PLUME_BINDING_GROUP_RECORDS 6    /* per system and slot: what the particle looks like this frame */
#define PLUME_BINDING_GROUP_SYSTEMS 3    /* per system: PLUME_GROUP_SYSTEM_WORDS (render/draw_group_systems.glsl) */
#define PLUME_BINDING_TILED_GROUP_SYSTEMS 4 /* the same, in the tiled projection (its state is at 3) */
#define PLUME_BINDING_GROUP_TRAIL_HEADERS 3 /* a trail system's gather: its history (the state's number: it reads none) */
#define PLUME_BINDING_GROUP_TRAIL_POINTS 4  /* ... and its points */
#define PLUME_GROUP_SLOT_BITS 28         /* a grouped system's slots: its capacity's limit */
#define PLUME_GROUP_RECORD_VEC4S 6       /* see Record in render/draw_group_common.glsl */
#define PLUME_GROUP_GATHER_GROUP_SIZE 256
#define PLUME_GROUP_PREPARE_GROUP_SIZE 256 /* the prepare pass's one workgroup scans this many systems a step */
#define PLUME_GROUP_STATE_SYSTEMS 8      /* per system: x, y, z workgroups of its gather, its first pair */
#define PLUME_GROUP_STATE_SYSTEM_WORDS 4
#define PLUME_GROUP_SYSTEM_WORDS 4       /* sprite layer (-1: none), flipbook columns | rows << 16, lit, soft fade bits */


/* ---- Trails (plugin/particles/trails.c, render/trail_draw.c) ----
 * Per particle a header {emission number, newest point, point count, age at
 * the newest point (float bits)} and a ring of K - 1 points {position, path
 * length at it}; per drawn particle K - 1 segment pairs (and one for its own
 * quad) {key, slot x entries + segment} sorted after the update. */
#define PLUME_BINDING_TRAIL_HEADERS 6    /* record, keys and draw: one uvec4 a slot */
#define PLUME_BINDING_TRAIL_POINTS 7     /* record, keys and draw: K - 1 vec4s a slot */
#define PLUME_BINDING_TRAIL_PAIRS 4      /* keys pass: the segment pairs it writes (the draw reads them at DRAW_LIST) */
#define PLUME_BINDING_TRAIL_CONTROL 2    /* keys pass: the words below */
#define PLUME_TRAIL_SORT_COUNT 0         /* pairs to sort: drawn x entries */
#define PLUME_TRAIL_DRAW_ARGS 4          /* DrawArraysIndirectCommand {6 x SUBDIVISIONS, pairs, 0, 0} */
#define PLUME_TRAIL_CONTROL_WORDS 8
#define PLUME_TRAIL_GROUP_SIZE 256
#define PLUME_GPU_TRAIL_SUBDIVISIONS 4   /* = PLUME_TRAIL_SUBDIVISIONS: the most quads a segment */
/* A segment's quads by its curve's deviation from its chord on the screen
 * (render/trail_curve.glsl's trail_subdivisions; the tests' CPU reference
 * decides with the same): one below this many pixels, two below the next,
 * else PLUME_GPU_TRAIL_SUBDIVISIONS. */
#define PLUME_GPU_TRAIL_ONE_QUAD_PIXELS 0.5
#define PLUME_GPU_TRAIL_TWO_QUADS_PIXELS 2.0
#define PLUME_TRAIL_NO_PARTICLE 0xFFFFFFFFu /* a header's emission number before any particle */

/* Self-shadowing (render/self_shadow.c, self_shadow_map.comp): one buffer
 * per system, the light-space frame (header words) then map_size^2 x slices
 * words of optical depth, indexed (slice * size + y) * size + x: fixed-point
 * sums (units of 1/FIXED_POINT) while splatted, then floats (the depth in
 * front of each texel's slice centre) once resolved. Bound for the draws at
 * BINDING_SELF_SHADOW (the scope saves slots 0 .. 8). */
#define PLUME_BINDING_SELF_SHADOW 8
#define PLUME_SELF_SHADOW_HEADER_WORDS 16 /* axes u, v, w (xyz) and their origins (w); scales, valid */
#define PLUME_SELF_SHADOW_FIXED_POINT 4096
#define PLUME_SELF_SHADOW_GROUP_SIZE 256
#define PLUME_SELF_SHADOW_DEFAULT_MAP_SIZE 64
#define PLUME_SELF_SHADOW_DEFAULT_SLICES 8

/* Light from particles (render/particle_lights.c, particle_lights.comp):
 * the first pass takes, per workgroup of LIGHTS_GROUP_SIZE slots, its
 * brightest live particle as a candidate {brightness bits, ~slot} into the
 * system's candidate buffer; the second, one workgroup, takes the brightest
 * candidates in turn into the host's buffer (plume_lights.h's layout: a
 * header of LIGHTS_HEADER_WORDS, then LIGHT_VEC4S vec4s a light). */
#define PLUME_BINDING_LIGHT_CANDIDATES 1 /* the draw list's number: the passes read none */
#define PLUME_BINDING_LIGHTS 2           /* the host's buffer, at its offset */
#define PLUME_LIGHTS_GROUP_SIZE 256
#define PLUME_LIGHTS_HEADER_WORDS 4      /* count, max_lights, 0, 0 */
#define PLUME_LIGHT_VEC4S 2              /* {position, radius}, {rgb, 0} */
#define PLUME_MAX_LIGHTS_PER_CALL 1024   /* = PLUME_MAX_PARTICLE_LIGHTS */

#endif
