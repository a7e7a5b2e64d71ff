/* Writes the demo's sprites (RGBA8, straight alpha, white or grey: the
 * effects' colour gradients tint them), each a flipbook of columns x rows
 * frames that the particle system plays once over each particle's life:
 *   smoke_puff.png  4x4 soft, noisy puffs that start dense and compact and
 *                   spread out and thin (the smoke column's);
 *   flame.png       4x4 licks of flame that rise, stretch and break up (fire);
 *   spark.png       a hot core in a soft halo (sparks);
 *   glow.png        a Gaussian falloff with no edge (the halo round a light:
 *                   a firefly's, a candle's);
 *   snowflake.png   a six-armed flake with a soft edge (snow);
 *   droplet.png     a round drop, lit from above (the fountain);
 *   fireball.png    4x4 billows of fire that swell, cool from a white-hot core
 *                   to darker edges, and break up (an explosion's fireball);
 *   shockwave_ring.png  a thin bright ring with a soft inner haze, broken
 *                   up by noise (an explosion's shockwave, laid on the ground);
 *   candle_wax.png  the candle's wax (demo/assets/candle.obj's texture
 *                   coordinates: v up the side): dim at the foot, glowing
 *                   near the top where the flame shines through it; a dark
 *                   corner for the wick;
 *   smoke_puff_motion.png  the puff flipbook's motion (plume_flipbook_motion,
 *                   strength MOTION_STRENGTH): where each texel's content is
 *                   in the next frame, by a Lucas-Kanade flow estimate
 *                   between consecutive frames' density.
 *     make_sprites [folder]        (default demo/assets)
 * The outputs are committed; rerun this only to change the look.
 * Deterministic: the noise is stb_perlin's fixed permutation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

enum { SMOKE_FRAMES = 16 };

static float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

static float smoothstep(float edge0, float edge1, float x) {
    float t = clamp01((x - edge0) / (edge1 - edge0));
    return t * t * (3 - 2 * t);
}

/* Fractal noise in about [-1, 1]. */
static float fbm(float x, float y, float z) { return stb_perlin_fbm_noise3(x, y, z, 2.0f, 0.5f, 5); }

/* Density 0..1 of frame `frame` at (u, v) in [-0.5, 0.5]^2 of the frame. */
static float puff_density(int frame, float u, float v) {
    float t = (float)frame / (SMOKE_FRAMES - 1);   /* 0: birth .. 1: end of life */
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

/* Never reach the frame's edge (neighbouring frames must not bleed in). */
static float frame_edge(float u, float v) { return 1.0f - smoothstep(0.42f, 0.49f, fmaxf(fabsf(u), fabsf(v))); }

/* A sprite's texel at (u, v) in [-0.5, 0.5]^2 of frame `frame` (of `frames`),
 * v down: straight grey level and alpha, each 0..1. */
typedef void (*texel_fn)(int frame, int frames, float u, float v, float *grey, float *alpha);

static void smoke_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frames;
    float density = puff_density(frame, u, v);
    /* Thick parts a little darker than the wisps: cheap self-shadowing that
     * reads as volume (the colour gradient tints it). */
    *grey = 1.0f - 0.3f * smoothstep(0.2f, 0.9f, density);
    *alpha = clamp01(density);
}

/* A tongue of flame: a teardrop, pointed upwards, that rises, stretches and
 * breaks up into wisps as the frames go on; hottest (brightest) at its core. */
static void flame_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    float t = (float)frame / (float)(frames - 1);
    float z = 1.3f * t;
    float wu = u + 0.10f * fbm(u * 4.0f + 3.0f, v * 4.0f - 2.0f * t, z);
    float wv = v + 0.06f * fbm(u * 4.0f, v * 4.0f + 17.0f, z);
    float up = -(wv - 0.12f + 0.08f * t);                      /* height above the base, v down */
    float half_width = 0.24f * (1.0f - 0.25f * t) * clamp01(0.55f - 0.9f * up) + 0.02f;
    float across = fabsf(wu) / half_width;
    float along = up > 0 ? up / (0.30f + 0.10f * t) : -up / 0.12f;
    float r = sqrtf(across * across + along * along);
    float body = 1.0f - smoothstep(0.55f, 1.0f, r);
    float detail = clamp01(0.55f + 0.8f * fbm(wu * 7.0f, wv * 7.0f - 3.0f * t, 9.0f + z));
    float erosion = 0.05f + 0.35f * t;
    float density = clamp01((body * (0.45f + 0.75f * detail) - erosion) / (1.0f - erosion));
    *alpha = density * frame_edge(u, v);
    *grey = 0.75f + 0.25f * smoothstep(0.3f, 0.9f, density);
}

static void spark_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float r = sqrtf(u * u + v * v) / 0.5f;
    float core = 1.0f - smoothstep(0.25f, 0.5f, r);
    float halo = 0.3f * expf(-6.0f * r * r) * (1.0f - smoothstep(0.8f, 1.0f, r));
    *alpha = clamp01(core + halo);
    *grey = 1.0f;
}

static void glow_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float r = sqrtf(u * u + v * v) / 0.5f;
    *alpha = expf(-5.0f * r * r) * (1.0f - smoothstep(0.8f, 1.0f, r));
    *grey = 1.0f;
}

static void snowflake_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float r = sqrtf(u * u + v * v) / 0.5f;
    float angle = atan2f(v, u);
    /* Six arms: distance to the nearest arm's axis, with short side branches. */
    float sector = fabsf(fmodf(angle + 3.14159265f * 2.0f, 3.14159265f / 3.0f) - 3.14159265f / 6.0f);
    float to_arm = r * sinf(3.14159265f / 6.0f - sector);
    float arm = (1.0f - smoothstep(0.035f, 0.07f, to_arm)) * (1.0f - smoothstep(0.8f, 0.95f, r));
    float branch_at = fabsf(r - 0.55f);
    float branch = (1.0f - smoothstep(0.03f, 0.06f, branch_at)) * (1.0f - smoothstep(0.05f, 0.18f, to_arm));
    float centre = 1.0f - smoothstep(0.12f, 0.22f, r);
    float glow = 0.25f * expf(-6.0f * r * r);
    *alpha = clamp01(fmaxf(fmaxf(arm, branch), centre) + glow);
    *grey = 1.0f;
}

static void droplet_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float r = sqrtf(u * u + v * v) / 0.5f;
    float body = 1.0f - smoothstep(0.6f, 0.95f, r);
    /* Lit from above: a highlight up and to the left, a darker rim. */
    float highlight = expf(-40.0f * ((u + 0.1f) * (u + 0.1f) + (v + 0.12f) * (v + 0.12f)));
    *alpha = clamp01(body * (0.55f + 0.45f * highlight));
    *grey = clamp01(0.7f + 0.3f * highlight - 0.15f * smoothstep(0.5f, 0.9f, r));
}

/* A billowing ball of fire: lumps of ridged noise on a warped disc that
 * swells and erodes over the frames; grey is its heat, white at the core and
 * darker at the lumpy edge, cooling as the frames go on. */
static void fireball_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    float t = (float)frame / (float)(frames - 1);
    float z = 1.1f * t;
    float wu = u + 0.09f * fbm(u * 3.0f + 31.0f, v * 3.0f, z);
    float wv = v + 0.09f * fbm(u * 3.0f, v * 3.0f + 41.0f, z);
    float r = sqrtf(wu * wu + wv * wv) / (0.32f + 0.11f * t);
    float billows = 1.0f - fabsf(fbm(wu * 4.5f + 7.0f, wv * 4.5f, 3.0f + 1.5f * z));
    float body = 1.0f - smoothstep(0.6f, 1.0f, r);
    float erosion = 0.05f + 0.4f * t * t;
    float density = clamp01((body * (0.35f + 0.75f * billows) - erosion) / (1.0f - erosion));
    *alpha = density * frame_edge(u, v);
    float heat = (1.0f - smoothstep(0.0f, 0.95f, r)) * (1.0f - 0.6f * t) + 0.25f * billows;
    *grey = clamp01(0.25f + 0.85f * heat);
}

/* A blast's shockwave seen from above: a ring, sharp outside and fading
 * inwards into dusty haze, its brightness broken up along its length. */
static void shockwave_ring_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float r = sqrtf(u * u + v * v) / 0.5f;
    float angle = atan2f(v, u);
    float breakup = clamp01(0.6f + 0.8f * fbm(cosf(angle) * 2.5f + 5.0f, sinf(angle) * 2.5f, r * 3.0f));
    float band = expf(-powf((r - 0.84f) / 0.05f, 2.0f));
    float haze = 0.15f * smoothstep(0.45f, 0.84f, r) * (1.0f - smoothstep(0.84f, 0.9f, r));
    *alpha = clamp01((band + haze) * breakup) * (1.0f - smoothstep(0.92f, 0.98f, r));
    *grey = 0.8f + 0.2f * band;
}

/* Wax lit from within by the flame above it: grey rises up the candle (v is
 * the height, 0 at the foot, 0.85 at the rim), brightest in a band under the
 * rim; the corner past 0.9, 0.9 is the wick's soot. */
static void candle_wax_texel(int frame, int frames, float u, float v, float *grey, float *alpha) {
    (void)frame, (void)frames;
    float x = u + 0.5f, height = 0.5f - v; /* the image's rows run down, v up */
    *alpha = 1.0f;
    if (x > 0.9f && height > 0.9f) {
        *grey = 0.03f;
        return;
    }
    float rise = smoothstep(0.0f, 0.85f, height);
    *grey = 0.22f + 0.5f * rise * rise + 0.28f * smoothstep(0.6f, 0.82f, height);
}

typedef struct sprite {
    const char *file;
    int frame_size, columns, rows;
    texel_fn texel;
} sprite;

static const sprite SPRITES[] = {
    {"smoke_puff.png", 128, 4, 4, smoke_texel},
    {"flame.png", 128, 4, 4, flame_texel},
    {"spark.png", 64, 1, 1, spark_texel},
    {"glow.png", 64, 1, 1, glow_texel},
    {"snowflake.png", 64, 1, 1, snowflake_texel},
    {"droplet.png", 64, 1, 1, droplet_texel},
    {"fireball.png", 128, 4, 4, fireball_texel},
    {"shockwave_ring.png", 128, 1, 1, shockwave_ring_texel},
    {"candle_wax.png", 64, 1, 1, candle_wax_texel},
};

static int write_sprite(const sprite *s, const char *folder) {
    const int width = s->frame_size * s->columns, height = s->frame_size * s->rows;
    unsigned char *pixels = malloc((size_t)width * height * 4);
    if (!pixels) return 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int frame = (y / s->frame_size) * s->columns + x / s->frame_size;
            float u = ((float)(x % s->frame_size) + 0.5f) / (float)s->frame_size - 0.5f;
            float v = ((float)(y % s->frame_size) + 0.5f) / (float)s->frame_size - 0.5f;
            float grey = 1.0f, alpha = 0.0f;
            s->texel(frame, s->columns * s->rows, u, v, &grey, &alpha);
            unsigned char *p = pixels + ((size_t)y * width + x) * 4;
            p[0] = p[1] = p[2] = (unsigned char)lroundf(255.0f * clamp01(grey));
            p[3] = (unsigned char)lroundf(255.0f * clamp01(alpha));
        }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, s->file);
    int ok = stbi_write_png(path, width, height, 4, pixels, width * 4);
    free(pixels);
    if (!ok) fprintf(stderr, "make_sprites: cannot write %s\n", path);
    else printf("wrote %s (%dx%d, %dx%d frames)\n", path, width, height, s->columns, s->rows);
    return ok;
}

/* ---- The puff's motion ------------------------------------------------------- */

enum { FLOW_RADIUS = 6 };          /* the window: (2 r + 1)^2 texels, Gaussian-weighted */
#define MOTION_STRENGTH 0.0625f    /* a byte of 255: 1/16 of a frame (8 of 128 texels) */

/* The flow from frame `a` to frame `a + 1` at texel (x, y) of frames of
 * `size` texels, in texels: one Lucas-Kanade step over the window (the
 * frames move by a texel or two), regularised so flat, empty texels stay
 * still. */
static void flow_at(const float *density, int size, int x, int y, float *dx, float *dy) {
    const float *f0 = density, *f1 = density + (size_t)size * size;
    double xx = 0, xy = 0, yy = 0, xt = 0, yt = 0;
    for (int j = -FLOW_RADIUS; j <= FLOW_RADIUS; ++j)
        for (int i = -FLOW_RADIUS; i <= FLOW_RADIUS; ++i) {
            int u = x + i, v = y + j;
            if (u < 1 || v < 1 || u >= size - 1 || v >= size - 1) continue;
            float w = expf(-(float)(i * i + j * j) / (0.5f * FLOW_RADIUS * FLOW_RADIUS));
#define AVG(a, b) (0.5f * (f0[(size_t)(b) * size + (a)] + f1[(size_t)(b) * size + (a)]))
            float gx = 0.5f * (AVG(u + 1, v) - AVG(u - 1, v)), gy = 0.5f * (AVG(u, v + 1) - AVG(u, v - 1));
#undef AVG
            float gt = f1[(size_t)v * size + u] - f0[(size_t)v * size + u];
            xx += w * gx * gx, xy += w * gx * gy, yy += w * gy * gy, xt += w * gx * gt, yt += w * gy * gt;
        }
    const double lambda = 1e-3;
    xx += lambda, yy += lambda;
    double det = xx * yy - xy * xy;
    *dx = (float)((-yy * xt + xy * yt) / det);
    *dy = (float)((xy * xt - xx * yt) / det);
}

static int write_puff_motion(const char *folder) {
    const int size = 128, columns = 4, width = size * columns, height = size * (SMOKE_FRAMES / columns);
    unsigned char *pixels = malloc((size_t)width * height * 4);
    float *density = malloc(sizeof(float) * 2 * size * size);
    if (!pixels || !density) return free(pixels), free(density), 0;
    for (int frame = 0; frame < SMOKE_FRAMES; ++frame) {
        for (int k = 0; k < 2; ++k)
            for (int y = 0; y < size; ++y)
                for (int x = 0; x < size; ++x) {
                    float u = ((float)x + 0.5f) / size - 0.5f, v = ((float)y + 0.5f) / size - 0.5f;
                    int of = frame + k < SMOKE_FRAMES ? frame + k : frame;
                    density[((size_t)k * size + y) * size + x] = puff_density(of, u, v);
                }
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                float dx = 0, dy = 0;
                if (frame + 1 < SMOKE_FRAMES) flow_at(density, size, x, y, &dx, &dy);
                int px = (frame % columns) * size + x, py = (frame / columns) * size + y;
                unsigned char *p = pixels + ((size_t)py * width + px) * 4;
                p[0] = (unsigned char)lroundf(128.0f + 127.0f * fmaxf(-1, fminf(1, dx / size / MOTION_STRENGTH)));
                p[1] = (unsigned char)lroundf(128.0f + 127.0f * fmaxf(-1, fminf(1, dy / size / MOTION_STRENGTH)));
                p[2] = 0, p[3] = 255;
            }
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/smoke_puff_motion.png", folder);
    int ok = stbi_write_png(path, width, height, 4, pixels, width * 4);
    free(pixels);
    free(density);
    if (!ok) fprintf(stderr, "make_sprites: cannot write %s\n", path);
    else printf("wrote %s (%dx%d, strength %g)\n", path, width, height, MOTION_STRENGTH);
    return ok;
}

int main(int argc, char **argv) {
    const char *folder = argc > 1 ? argv[1] : "demo/assets";
    int ok = 1;
    for (size_t i = 0; i < sizeof SPRITES / sizeof SPRITES[0]; ++i) ok = write_sprite(&SPRITES[i], folder) && ok;
    ok = write_puff_motion(folder) && ok;
    return ok ? 0 : 1;
}
