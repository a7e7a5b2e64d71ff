/* Writes the smoke demo's sprite: a 4x4 flipbook of soft, noisy smoke puffs
 * (RGBA8, straight alpha) that start as a dense, compact puff and spread out
 * and thin over the 16 frames, which the particle system plays once over each
 * particle's life.
 *     make_smoke_puff [out.png]       (default demo/assets/smoke_puff.png)
 * The output is committed; rerun this only to change the look. Deterministic:
 * the noise is stb_perlin's fixed permutation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

enum { FRAME_SIZE = 128, COLUMNS = 4, ROWS = 4, FRAMES = COLUMNS * ROWS };

static float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

static float smoothstep(float edge0, float edge1, float x) {
    float t = clamp01((x - edge0) / (edge1 - edge0));
    return t * t * (3 - 2 * t);
}

/* Fractal noise in about [-1, 1]. */
static float fbm(float x, float y, float z) { return stb_perlin_fbm_noise3(x, y, z, 2.0f, 0.5f, 5); }

/* Density 0..1 of frame `frame` at (u, v) in [-0.5, 0.5]^2 of the frame. */
static float puff_density(int frame, float u, float v) {
    float t = (float)frame / (FRAMES - 1);   /* 0: birth .. 1: end of life */
    /* Warp the lookup with low-frequency noise that drifts with t, so the
     * outline billows rather than staying a disc. */
    float z = 0.9f * t;
    float warp_u = 0.07f * fbm(u * 3.0f + 11.0f, v * 3.0f, z);
    float warp_v = 0.07f * fbm(u * 3.0f, v * 3.0f + 23.0f, z);
    float wu = u + warp_u, wv = v + warp_v;
    float radius = 0.40f + 0.06f * t;          /* the puff grows ... */
    float r = sqrtf(wu * wu + wv * wv) / radius;
    float body = expf(-3.0f * r * r) * (1.0f - smoothstep(0.7f, 1.0f, r));
    float detail = clamp01(0.5f + 0.9f * fbm(wu * 5.0f, wv * 5.0f, 5.0f + z));
    /* ... and erodes: more of the thin parts are cut away later. */
    float erosion = 0.04f + 0.14f * t;
    float density = clamp01((body * (0.35f + 0.9f * detail) - erosion) / (1.0f - erosion));
    /* Never reach the frame's edge (neighbouring frames must not bleed in). */
    float edge = fmaxf(fabsf(u), fabsf(v));
    return density * (1.0f - smoothstep(0.42f, 0.49f, edge)) * (1.0f - 0.35f * t);
}

int main(int argc, char **argv) {
    const char *out_path = argc > 1 ? argv[1] : "demo/assets/smoke_puff.png";
    const int width = FRAME_SIZE * COLUMNS, height = FRAME_SIZE * ROWS;
    unsigned char *pixels = malloc((size_t)width * height * 4);
    if (!pixels) return 1;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int frame = (y / FRAME_SIZE) * COLUMNS + x / FRAME_SIZE;
            float u = ((float)(x % FRAME_SIZE) + 0.5f) / FRAME_SIZE - 0.5f;
            float v = ((float)(y % FRAME_SIZE) + 0.5f) / FRAME_SIZE - 0.5f;
            float density = puff_density(frame, u, v);
            /* Thick parts a little darker than the wisps: cheap self-shadowing
             * that reads as volume (the colour gradient tints it). */
            float shade = 1.0f - 0.3f * smoothstep(0.2f, 0.9f, density);
            unsigned char *p = pixels + ((size_t)y * width + x) * 4;
            p[0] = p[1] = p[2] = (unsigned char)lroundf(255.0f * shade);
            p[3] = (unsigned char)lroundf(255.0f * clamp01(density));
        }
    int ok = stbi_write_png(out_path, width, height, 4, pixels, width * 4);
    free(pixels);
    if (!ok) {
        fprintf(stderr, "make_smoke_puff: cannot write %s\n", out_path);
        return 1;
    }
    printf("wrote %s (%dx%d, %dx%d frames)\n", out_path, width, height, COLUMNS, ROWS);
    return 0;
}
