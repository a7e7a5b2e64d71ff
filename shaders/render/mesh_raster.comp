// Mesh draw (render/mesh_compute.c), the compute raster: the particles of
// one mesh's compute list (those small on screen, mesh_instances.comp), a
// triangle an invocation, each walking the pixel centres of its screen box,
// the mesh read from its own buffers in their layouts (as the raster draw's
// vertex arrays read them). Pass 0 keeps per pixel the nearest depth key
// (atomicMax: nearer is larger, 0 empty); pass 1 shades
// the pixels whose key is still the triangle's own: what the raster draw's
// early depth test does, without its back end, which small triangles leave
// mostly idle. The two passes run this one program, so a triangle's key is
// the same bits in both. Coverage is watertight: an edge shared by two
// triangles is evaluated from its two ends in one order whichever triangle
// asks (the same bits, opposite signs), and a pixel centre on it belongs to
// the triangle for which it is a top or left edge.
#include "shared/scene_depth.glsl"
#include "render/particle_appearance.glsl" // normal_lighting

layout(local_size_x = PLUME_MESH_RASTER_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MESH_INSTANCES) restrict readonly buffer Instances { vec4 instances[]; };
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict readonly buffer Lists { uint lists[]; };
// The lists' counts (word 1 of each command); the depth pass widens the
// box of the pixels it covered at u_box (x, y low, then high), which the
// resolve covers.
layout(std430, binding = PLUME_BINDING_MESH_ARGS) restrict buffer Arguments { uint arguments[]; };
// The mesh's buffers as words (one buffer may hold several of them).
layout(std430, binding = PLUME_BINDING_MESH_POSITIONS) readonly buffer Positions { uint position_words[]; };
layout(std430, binding = PLUME_BINDING_MESH_NORMALS) readonly buffer Normals { uint normal_words[]; };
layout(std430, binding = PLUME_BINDING_MESH_TEXCOORDS) readonly buffer Texcoords { uint texcoord_words[]; };
layout(std430, binding = PLUME_BINDING_MESH_INDICES) readonly buffer Indices { uint index_words[]; };
// u_pixels depth keys, then two words of colour a pixel.
layout(std430, binding = PLUME_BINDING_MESH_PIXELS) restrict buffer Pixels { uint pixel_words[]; };

uniform uint u_pass;           // 0: depth keys, 1: colours
uniform uint u_list;           // the mesh's compute list
uniform uint u_box;            // the word where the box of covered pixels starts
uniform uint u_list_room;      // the slots of a list
uniform uint u_triangles;      // the mesh's triangles
uniform uvec2 u_position_layout; // first word, words a vertex
uniform uvec2 u_normal_layout;   // the same; a stride of 0: none (+z)
uniform uvec2 u_texcoord_layout; // the same; a stride of 0: none (the texture's centre)
uniform uvec2 u_index_layout;    // bytes an index (0: not indexed), the first's byte
uniform uint u_pixels;           // the viewport's pixels: where the colours start
uniform mat4 u_view_projection;
uniform vec3 u_eye;            // the camera's place, world space
uniform ivec2 u_size;          // the viewport's pixels
uniform uint u_surface;        // plume_mesh_surface: 0 opaque, 1 alpha-tested
uniform float u_alpha_cutoff;
uniform bool u_cull_back_faces;
uniform sampler2D u_sprite;    // unit 0, premultiplied RGBA
uniform bool u_has_texture;
uniform bool u_lit;

// Twice the signed area of (a, b, p): positive where p is left of a -> b.
// Evaluated from the lesser end (x, then y), whichever way the edge is
// asked, so the two triangles of an edge get the same bits.
float edge_value(vec2 a, vec2 b, vec2 p) {
    bool swapped = a.x > b.x || (a.x == b.x && a.y > b.y);
    vec2 low = swapped ? b : a, high = swapped ? a : b;
    precise float value = (high.x - low.x) * (p.y - low.y) - (high.y - low.y) * (p.x - low.x);
    return swapped ? -value : value;
}

// Whether a pixel centre exactly on edge a -> b (interior on its left)
// belongs to it: a left edge (going down) or a top one (going left).
bool owns_edge(vec2 a, vec2 b) {
    vec2 d = b - a;
    return d.y < 0.0 || (d.y == 0.0 && d.x < 0.0);
}

bool inside_edge(float value, bool owned) { return value > 0.0 || (value == 0.0 && owned); }

// The nearer-is-larger key of a window depth (its bits, turned over unless
// the depth is reversed); PLUME_MESH_EMPTY_KEY (0) is farther than any.
uint depth_key(float window_depth) {
    uint bits = floatBitsToUint(window_depth);
    return depth_is_reversed() ? bits : ~bits;
}

vec3 vertex_position(uint v) {
    uint at = u_position_layout.x + v * u_position_layout.y;
    return vec3(uintBitsToFloat(position_words[at]), uintBitsToFloat(position_words[at + 1u]),
                uintBitsToFloat(position_words[at + 2u]));
}

// The vertex number of corner `k` of `triangle`.
uint corner_vertex(uint triangle, uint k) {
    uint i = 3u * triangle + k, size = u_index_layout.x;
    if (size == 0u) return i;
    uint byte = u_index_layout.y + i * size;
    uint word = index_words[byte >> 2];
    return size == 4u ? word : (word >> ((byte & 3u) * 8u)) & (size == 1u ? 0xFFu : 0xFFFFu);
}

vec3 vertex_normal(uint v) {
    if (u_normal_layout.y == 0u) return vec3(0.0, 0.0, 1.0);
    uint at = u_normal_layout.x + v * u_normal_layout.y;
    return vec3(uintBitsToFloat(normal_words[at]), uintBitsToFloat(normal_words[at + 1u]),
                uintBitsToFloat(normal_words[at + 2u]));
}

vec2 vertex_texcoord(uint v) {
    if (u_texcoord_layout.y == 0u) return vec2(0.5);
    uint at = u_texcoord_layout.x + v * u_texcoord_layout.y;
    return vec2(uintBitsToFloat(texcoord_words[at]), uintBitsToFloat(texcoord_words[at + 1u]));
}

shared uint group_box[4];

void main() {
    if (gl_LocalInvocationIndex == 0u) group_box = uint[4](0xFFFFFFFFu, 0xFFFFFFFFu, 0u, 0u);
    ivec2 covered_low = ivec2(0x7FFFFFFF), covered_high = ivec2(-1);
    uint count = arguments[u_list * uint(PLUME_MESH_ARGS_WORDS) + 1u];
    uint total = count * u_triangles;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint job = gl_GlobalInvocationID.x; job < total; job += stride) {
        uint record = lists[u_list * u_list_room + job / u_triangles];
        uint triangle = job % u_triangles;
        uint at = record * uint(PLUME_MESH_INSTANCE_VEC4S);
        vec4 row0 = instances[at], row1 = instances[at + 1u], row2 = instances[at + 2u];

        // The triangle on screen: its corners in pixels, their window
        // depths and 1 / w. Everything a pixel's depth key comes from is
        // precise, so that the depth pass and the colour pass, whatever a
        // compiler makes of each, get the same bits.
        precise vec2 corner[3];
        precise float corner_depth[3], corner_inverse_w[3];
        precise vec3 world[3];
        uint vertex[3];
        bool behind = false;
        for (int k = 0; k < 3; ++k) {
            vertex[k] = corner_vertex(triangle, uint(k));
            vec4 position = vec4(vertex_position(vertex[k]), 1.0);
            world[k] = vec3(dot(row0, position), dot(row1, position), dot(row2, position));
            precise vec4 clip = u_view_projection * vec4(world[k], 1.0);
            behind = behind || clip.w <= 1e-6;
            corner_inverse_w[k] = 1.0 / clip.w;
            precise vec3 ndc = clip.xyz * corner_inverse_w[k];
            corner[k] = (ndc.xy * 0.5 + 0.5) * vec2(u_size);
            corner_depth[k] = window_depth_of_ndc(ndc.z);
        }
        if (behind) continue; // the instance pass sends what reaches the eye's plane to the raster draw
        precise float area = edge_value(corner[0], corner[1], corner[2]);
        if (area == 0.0 || (u_cull_back_faces && area < 0.0)) continue;
        if (area < 0.0) { // wound clockwise: turned round, so that the inside is left of every edge
            vec2 c = corner[1]; corner[1] = corner[2]; corner[2] = c;
            float d = corner_depth[1]; corner_depth[1] = corner_depth[2]; corner_depth[2] = d;
            float w = corner_inverse_w[1]; corner_inverse_w[1] = corner_inverse_w[2]; corner_inverse_w[2] = w;
            uint v = vertex[1]; vertex[1] = vertex[2]; vertex[2] = v;
            vec3 p = world[1]; world[1] = world[2]; world[2] = p;
            area = -area;
        }
        vec2 low = min(corner[0], min(corner[1], corner[2]));
        vec2 high = max(corner[0], max(corner[1], corner[2]));
        // The pixels whose centres (x + 0.5, y + 0.5) the box holds.
        ivec2 first = max(ivec2(ceil(low - 0.5)), ivec2(0));
        ivec2 last = min(ivec2(floor(high - 0.5)), u_size - 1);
        if (any(greaterThan(first, last))) continue;
        covered_low = min(covered_low, first);
        covered_high = max(covered_high, last);
        bool owned0 = owns_edge(corner[1], corner[2]);
        bool owned1 = owns_edge(corner[2], corner[0]);
        bool owned2 = owns_edge(corner[0], corner[1]);

        // What the pixels need beyond their depth: the corners' texture
        // coordinates and normals (turned by the particle's normal matrix),
        // and what the texture's level of detail needs: the change a pixel
        // along x and y of the weights over w (dw_x, dw_y) and of the
        // coordinates over w (duv_x, duv_y).
        vec4 n0 = instances[at + 3u], n1 = instances[at + 4u], n2 = instances[at + 5u];
        vec4 color = instances[at + 6u];
        vec2 uv[3];
        vec3 normal[3];
        for (int k = 0; k < 3; ++k) {
            uv[k] = vertex_texcoord(vertex[k]);
            vec3 n = vertex_normal(vertex[k]);
            normal[k] = vec3(dot(n0.xyz, n), dot(n1.xyz, n), dot(n2.xyz, n));
        }
        vec3 inverse_w = vec3(corner_inverse_w[0], corner_inverse_w[1], corner_inverse_w[2]);
        vec3 dw_x = vec3(corner[1].y - corner[2].y, corner[2].y - corner[0].y, corner[0].y - corner[1].y) *
                    inverse_w / area;
        vec3 dw_y = vec3(corner[2].x - corner[1].x, corner[0].x - corner[2].x, corner[1].x - corner[0].x) *
                    inverse_w / area;
        vec2 duv_x = dw_x.x * uv[0] + dw_x.y * uv[1] + dw_x.z * uv[2];
        vec2 duv_y = dw_y.x * uv[0] + dw_y.y * uv[1] + dw_y.z * uv[2];
        bool textured = u_has_texture, tested = u_surface == 1u;

        for (int y = first.y; y <= last.y; ++y) {
            for (int x = first.x; x <= last.x; ++x) {
                vec2 centre = vec2(float(x) + 0.5, float(y) + 0.5);
                float e0 = edge_value(corner[1], corner[2], centre);
                float e1 = edge_value(corner[2], corner[0], centre);
                float e2 = edge_value(corner[0], corner[1], centre);
                if (!inside_edge(e0, owned0) || !inside_edge(e1, owned1) || !inside_edge(e2, owned2)) continue;
                precise vec3 screen_weight = vec3(e0, e1, e2) / area;
                precise float depth = dot(screen_weight, vec3(corner_depth[0], corner_depth[1], corner_depth[2]));
                if (!ndc_depth_inside(ndc_depth_of_window(depth))) continue; // the near and far planes clip
                uint key = depth_key(depth);
                uint pixel = uint(y * u_size.x + x);
                if (u_pass == 0u && key <= pixel_words[pixel]) continue; // a nearer one is there
                if (u_pass == 1u && key != pixel_words[pixel]) continue;
                // Perspective-correct weights for what varies over the triangle.
                vec3 over_w = screen_weight * inverse_w;
                float sum = over_w.x + over_w.y + over_w.z;
                vec3 weight = over_w / sum;
                vec4 texel = vec4(1.0);
                if (textured) {
                    // The coordinate's change a pixel: the quotient's derivative
                    // (what a 2 x 2 quad's differences approximate).
                    vec2 coordinate = weight.x * uv[0] + weight.y * uv[1] + weight.z * uv[2];
                    vec2 along_x = (duv_x - coordinate * (dw_x.x + dw_x.y + dw_x.z)) / sum;
                    vec2 along_y = (duv_y - coordinate * (dw_y.x + dw_y.y + dw_y.z)) / sum;
                    texel = textureGrad(u_sprite, coordinate, along_x, along_y);
                }
                if (tested && texel.a * color.a < u_alpha_cutoff) continue;
                if (u_pass == 0u) {
                    atomicMax(pixel_words[pixel], key);
                    continue;
                }
                vec3 shade = color.rgb;
                if (u_lit) {
                    vec3 n = normalize(weight.x * normal[0] + weight.y * normal[1] + weight.z * normal[2]);
                    vec3 to_eye = u_eye - (weight.x * world[0] + weight.y * world[1] + weight.z * world[2]);
                    if (dot(n, to_eye) < 0.0) n = -n; // the side facing the eye is lit
                    shade *= normal_lighting(n, u_light_direction);
                }
                shade += vec3(n0.w, n1.w, n2.w);
                shade = shade * texel.rgb / max(texel.a, 1e-6);
                pixel_words[u_pixels + 2u * pixel] = packHalf2x16(shade.rg);
                pixel_words[u_pixels + 2u * pixel + 1u] = packHalf2x16(vec2(shade.b, 1.0));
            }
        }
    }
    // The depth pass's box: the workgroup's, then one atomic a word.
    if (u_pass != 0u) return;
    barrier();
    if (covered_high.x >= 0) {
        atomicMin(group_box[0], uint(covered_low.x));
        atomicMin(group_box[1], uint(covered_low.y));
        atomicMax(group_box[2], uint(covered_high.x));
        atomicMax(group_box[3], uint(covered_high.y));
    }
    barrier();
    if (gl_LocalInvocationIndex != 0u || group_box[2] < group_box[0]) return;
    atomicMin(arguments[u_box], group_box[0]);
    atomicMin(arguments[u_box + 1u], group_box[1]);
    atomicMax(arguments[u_box + 2u], group_box[2]);
    atomicMax(arguments[u_box + 3u], group_box[3]);
}
