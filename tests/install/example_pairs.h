/* What both integration examples share: a GL buffer of random key/value pairs
 * and the check that it came back sorted. An engine has its own buffers. */
#ifndef PLUME_EXAMPLE_PAIRS_H
#define PLUME_EXAMPLE_PAIRS_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* `count` pairs {key: random, value: index}; the keys are xorshift32 from `seed`. */
static GLuint example_pairs_create(uint32_t count, uint32_t seed) {
    uint32_t *pairs = malloc(8 * (size_t)count);
    if (!pairs) return 0;
    uint32_t x = seed ? seed : 1;
    for (uint32_t i = 0; i < count; ++i) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        pairs[2 * i] = x % 1000u; /* repeats, so ties are ordered by value */
        pairs[2 * i + 1] = i;
    }
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, 8 * (GLsizeiptr)count, pairs, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    free(pairs);
    return buffer;
}

/* True when the buffer holds every index once, ordered by key then value. */
static bool example_pairs_sorted(GLuint buffer, uint32_t count) {
    uint32_t *pairs = malloc(8 * (size_t)count);
    unsigned char *seen = calloc(count, 1);
    bool sorted = pairs && seen;
    if (sorted) {
        glBindBuffer(GL_COPY_READ_BUFFER, buffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 8 * (GLsizeiptr)count, pairs);
        glBindBuffer(GL_COPY_READ_BUFFER, 0);
    }
    for (uint32_t i = 0; sorted && i < count; ++i) {
        uint32_t key = pairs[2 * i], value = pairs[2 * i + 1];
        if (value >= count || seen[value]++) sorted = false;
        if (i > 0 && (key < pairs[2 * i - 2] || (key == pairs[2 * i - 2] && value < pairs[2 * i - 1]))) sorted = false;
    }
    free(pairs);
    free(seen);
    return sorted;
}

#endif
