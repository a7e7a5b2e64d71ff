// Shared by the tiled draw's passes (render/tiled.c).
//
// A splat is a drawn particle as the screen sees it, written per rank (its
// position in the back-to-front list) by the projection pass and read by the
// composite, PLUME_TILED_SPLAT_VEC4S vec4s:
//   [0] xy: the target pixel position of the quad's corner (-0.5, -0.5);
//       z: view depth; w: window depth (the quad spans the view plane, so
//       one depth serves all of it)
//   [1] the inverse of the quad's two screen axes, column-major:
//       (s, t) = mat2([1]) * (pixel - [0].xy) runs over 0..1 on the quad
//   [2] colour, straight alpha, opacity applied
//   [3] x: first tile (x | y << 16), y: last tile, z: flipbook frames
//       (frame | next << 16), as uint bits; w: the frames' cross-fade
layout(std430, binding = PLUME_BINDING_TILED_CONTROL) buffer TiledControl { uint control[]; };

const uint TILE_SIZE = uint(TILED_TILE_SIZE);  // pixels across a tile (a define of the build)
