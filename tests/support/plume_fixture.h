/* A fresh plume context per test, whose messages go to the recording logger
 * of test_env. Compiled into plume_tests (static library) and, through
 * tests/plugin_host/through_table.h, into plume_plugin_host. */
#ifndef PLUME_FIXTURE_H
#define PLUME_FIXTURE_H

#include <stdbool.h>

#include "plume/plume_context.h"

/* The current test's context. */
plume_context *fixture_context(void);

/* cmocka setup: test_setup, then a new context. */
int fixture_setup(void **state);
/* cmocka teardown: fails the test when it left an object (a GL object) alive
 * in its context, destroys the context, then test_teardown. It puts the GL's
 * default depth convention back when the test changed it (set by
 * set_host_depth_convention, particle_fixture.h). */
int fixture_teardown(void **state);
extern bool fixture_depth_convention_changed;
/* The host's clip depth range (0 .. 1 or -1 .. 1) and depth clear value;
 * OpenGL ES 3.0 has only -1 .. 1 (the test fails if asked for the other). */
void fixture_set_clip_and_clear_depth(bool zero_to_one, float clear_depth);

/* A new context (messages to the recording logger) whose handles carry
 * another tag than `id`'s: two contexts' tags collide with probability 2^-16,
 * and then a handle of one is checked as one of the other (safe, but not what
 * a foreign-handle test is about). The caller destroys it. */
plume_context *fixture_context_with_another_tag(uint64_t id);

/* Destroys a context the test made, failing the test if any GL object the
 * context listed just before is still alive afterwards; returns how many it
 * listed (at most 256). */
uint32_t fixture_destroy_context_checked(plume_context *doomed);

#endif
