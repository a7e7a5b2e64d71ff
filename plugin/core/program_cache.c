/* The context's program cache (plume_internal.h, "Program cache"): one GL
 * program per distinct request (GLSL version, stages, defines, transform
 * feedback outputs), shared by every object of the context that asks for it
 * and reference counted, so that the second system of a look builds nothing
 * and the last user's destroy deletes what nobody needs any more. */
#include <stdio.h>
#include <string.h>

#include "plume_internal.h"

typedef struct program_entry {
    uint64_t hash;
    char *key;           /* the request spelled out (request_key) */
    GLuint program;
    uint32_t references; /* objects holding it */
    bool pinned;         /* plume_program_cache_pin: kept until the context goes */
} program_entry;

struct plume_program_cache {
    plume_env env; /* the context's memory and logger; its own programs field is NULL */
    program_entry *entries;
    uint32_t count, capacity;
    uint64_t builds; /* programs compiled and linked so far */
    bool pinning;    /* plume_program_cache_set_pinning */
    plume_gl_caps caps; /* the context's GL's (gl_scope.c fills it on first use) */
    plume_current_context_query current_context; /* the one that answered last (plume_check_gl_context) */
};

plume_program_cache *plume_program_cache_create(const plume_env *context_env) {
    plume_program_cache *cache = plume_alloc(context_env, sizeof *cache);
    if (!cache) return NULL;
    cache->env = *context_env;
    cache->env.programs = NULL;
    return cache;
}

void plume_program_cache_destroy(plume_program_cache *cache) {
    if (!cache) return;
    for (uint32_t i = 0; i < cache->count; ++i) {
        glDeleteProgram(cache->entries[i].program);
        plume_free(&cache->env, cache->entries[i].key);
    }
    plume_platform_release_current_context_query(cache->current_context);
    plume_env env = cache->env;
    plume_free(&env, cache->entries);
    plume_free(&env, cache);
}

bool plume_program_cache_is_empty(const plume_program_cache *cache) { return !cache || cache->count == 0; }

uint32_t plume_program_cache_list(const plume_program_cache *cache, plume_gl_object *out, uint32_t capacity) {
    uint32_t count = cache ? cache->count : 0;
    for (uint32_t i = 0; i < count && i < capacity; ++i) out[i] = (plume_gl_object){GL_PROGRAM, cache->entries[i].program};
    return count;
}

uint64_t plume_program_cache_builds(const plume_program_cache *cache) { return cache ? cache->builds : 0; }

/* FNV-1a, 64 bits. */
static uint64_t hash_text(const char *text, size_t length) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < length; ++i) h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
    return h;
}

/* Appends `text` to the key being written (NULL `key`: only counts). */
static size_t append(char *key, size_t at, const char *text) {
    size_t length = text ? strlen(text) : 0;
    if (key && length) memcpy(key + at, text, length);
    return at + length;
}

/* Every part of a request that changes the program, each field ended by a
 * character no GLSL define or file name holds (0x1f), into `key` (NULL:
 * only the length, without the terminating zero). */
static size_t request_key(const plume_program_request *r, char *key) {
    static const char END[] = "\x1f";
    char number[24];
    size_t at = append(key, 0, r->glsl_330 ? (plume_gl_is_es() ? "300 es" : "330") : "430");
    at = append(key, at, END);
    for (int s = 0; s < r->stage_count; ++s) {
        snprintf(number, sizeof number, "%x:", (unsigned)r->stages[s].type);
        at = append(key, at, number);
        at = append(key, at, r->stages[s].file);
        at = append(key, at, END);
    }
    at = append(key, at, r->defines);
    at = append(key, at, END);
    for (int v = 0; v < r->varying_count; ++v) {
        at = append(key, at, r->varyings[v]);
        at = append(key, at, END);
    }
    return at;
}

static program_entry *find_entry(plume_program_cache *cache, uint64_t hash, const char *key) {
    for (uint32_t i = 0; i < cache->count; ++i)
        if (cache->entries[i].hash == hash && strcmp(cache->entries[i].key, key) == 0) return &cache->entries[i];
    return NULL;
}

/* Builds `request` and files it under `key` (copied). */
static plume_result add_entry(plume_program_cache *cache, const plume_env *env, const plume_program_request *request,
                              const char *key, size_t length, uint64_t hash, GLuint *out_program) {
    if (cache->count == cache->capacity) {
        uint32_t grown = cache->capacity ? cache->capacity * 2 : 32;
        program_entry *entries = plume_realloc(&cache->env, cache->entries, sizeof *entries * grown);
        if (!entries) return PLUME_ERROR_OUT_OF_MEMORY;
        cache->entries = entries;
        cache->capacity = grown;
    }
    char *copy = plume_alloc(&cache->env, length + 1);
    if (!copy) return PLUME_ERROR_OUT_OF_MEMORY;
    memcpy(copy, key, length + 1);
    GLuint program = 0;
    plume_result result = plume_build_program_uncached(env, request, &program);
    if (result != PLUME_OK) {
        plume_free(&cache->env, copy);
        return result;
    }
    cache->builds += 1;
    cache->entries[cache->count++] =
        (program_entry){.hash = hash, .key = copy, .program = program, .references = 1, .pinned = cache->pinning};
    *out_program = program;
    return PLUME_OK;
}

static program_entry *find_program(plume_program_cache *cache, GLuint program) {
    for (uint32_t i = 0; cache && i < cache->count; ++i)
        if (cache->entries[i].program == program) return &cache->entries[i];
    return NULL;
}

plume_result plume_program_obtain(const plume_env *env, const plume_program_request *request, GLuint *out_program) {
    *out_program = 0;
    plume_program_cache *cache = env->programs;
    if (!cache) return plume_build_program_uncached(env, request, out_program);
    /* A request found again (every system after the first of its look)
     * allocates nothing: its key is spelled on the stack where it fits. */
    char stack_key[2048];
    size_t length = request_key(request, NULL);
    char *key = length < sizeof stack_key ? stack_key : plume_alloc(&cache->env, length + 1);
    if (!key) return PLUME_ERROR_OUT_OF_MEMORY;
    request_key(request, key);
    key[length] = '\0';
    uint64_t hash = hash_text(key, length);
    program_entry *found = find_entry(cache, hash, key);
    plume_result result = PLUME_OK;
    if (found) {
        found->references += 1;
        found->pinned |= cache->pinning;
        *out_program = found->program;
    } else {
        result = add_entry(cache, env, request, key, length, hash, out_program);
    }
    if (key != stack_key) plume_free(&cache->env, key);
    return result;
}

void plume_program_release(const plume_env *env, GLuint program) {
    if (!program) return;
    plume_program_cache *cache = env->programs;
    program_entry *entry = find_program(cache, program);
    if (!entry) { /* built without a cache: the caller's own */
        glDeleteProgram(program);
        return;
    }
    if (entry->references > 0) entry->references -= 1;
    if (entry->references > 0 || entry->pinned) return;
    glDeleteProgram(entry->program);
    plume_free(&cache->env, entry->key);
    *entry = cache->entries[--cache->count];
}

plume_gl_caps *plume_program_cache_gl_caps(plume_program_cache *cache) {
    return &cache->caps;
}

plume_current_context_query *plume_program_cache_current_context(plume_program_cache *cache) {
    return &cache->current_context;
}

void plume_program_cache_set_pinning(plume_program_cache *cache, bool pinning) {
    if (cache) cache->pinning = pinning;
}
