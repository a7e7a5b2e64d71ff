// Shared by the tiled draw's passes (render/tiled.c).
//
// A splat is a drawn particle as the screen sees it, written per rank (its
// position in the back-to-front list) by the projection pass and read by the
// composite, PLUME_TILED_SPLAT_VEC4S vec4s. With (s, t) the quad's own
// coordinates (0..1 from its corner (-0.5, -0.5)) and w the clip w, a pixel
// p maps to h = to_quad * (p.x, p.y, 1) = (s, t, 1) / w (projective: the
// quad need not face the camera):
//   [0], [1], [2] xyz: the rows of to_quad; w: the row of clip z, so that
//       clip z / w = dot(([0].w, [1].w, [2].w), h)
//   [3] xyz: the row of view depth, view depth = dot([3].xyz, h) / h.z;
//       w: the frames' cross-fade and the blend mode's additive part,
//       packUnorm2x16 bits
//   [4] colour, straight alpha, opacity applied
//   [5] x: first tile (x | y << 16), y: last tile, z: flipbook frames
//       (frame | next << 16), as uint bits
//   [6] xyz: the light's direction in the quad's frame (quad_light); w:
//       packUnorm4x8 bits of the emitted light (rgb) and whether the
//       particle is lit (a)
//   [7], [8], [9] xyz: the rows of to_quad for the corners snapped as a
//       rasteriser snaps them: which pixels the quad covers. Rows [0]-[2]
//       map from the exact corners: where in the quad a pixel falls
layout(std430, binding = PLUME_BINDING_TILED_CONTROL) buffer TiledControl { uint control[]; };

const uint SPLAT_TILES = 5u;    // the splat's vec4 of tiles and frames
const uint SPLAT_COVERED = 7u;  // the first row of the snapped map

const uint TILE_SIZE = uint(TILED_TILE_SIZE);  // pixels across a tile (a define of the build)
