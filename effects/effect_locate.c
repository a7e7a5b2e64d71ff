/* Walks JSON text that is known to be valid, skipping values by their
 * brackets and strings: it never decodes a value (jansson does that), it
 * only finds where one starts. */
#include "effect_locate.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct cursor {
    const char *text;
    size_t length, at;
} cursor;

static bool at_end(const cursor *c) { return c->at >= c->length; }
static char peek(const cursor *c) { return at_end(c) ? '\0' : c->text[c->at]; }

static void skip_space(cursor *c) {
    while (!at_end(c) && strchr(" \t\r\n", c->text[c->at])) ++c->at;
}

/* At a '"': past the closing quote. */
static void skip_string(cursor *c) {
    ++c->at;
    while (!at_end(c) && c->text[c->at] != '"') c->at += c->text[c->at] == '\\' ? 2 : 1;
    ++c->at;
}

static void skip_value(cursor *c) {
    char first = peek(c);
    if (first == '"') {
        skip_string(c);
    } else if (first == '{' || first == '[') {
        int depth = 0;
        while (!at_end(c)) {
            char ch = c->text[c->at];
            if (ch == '"') {
                skip_string(c);
                continue;
            }
            ++c->at;
            if (ch == '{' || ch == '[') ++depth;
            else if ((ch == '}' || ch == ']') && --depth == 0) return;
        }
    } else {
        while (!at_end(c) && !strchr(",]} \t\r\n", c->text[c->at])) ++c->at;
    }
}

/* From an object's '{' to the value of member `name` (length `name_length`),
 * setting *key_at to its key's position; false if it has no such member. */
static bool enter_member(cursor *c, const char *name, size_t name_length, size_t *key_at) {
    if (peek(c) != '{') return false;
    ++c->at;
    for (;;) {
        skip_space(c);
        if (peek(c) != '"') return false;
        size_t key = c->at;
        skip_string(c);
        bool match = c->at - key == name_length + 2 && memcmp(c->text + key + 1, name, name_length) == 0;
        skip_space(c);
        ++c->at;  /* ':' */
        skip_space(c);
        if (match) {
            *key_at = key;
            return true;
        }
        skip_value(c);
        skip_space(c);
        if (peek(c) != ',') return false;
        ++c->at;
    }
}

/* From an array's '[' to its element `index`; false if it is shorter. */
static bool enter_element(cursor *c, unsigned long index) {
    if (peek(c) != '[') return false;
    ++c->at;
    for (unsigned long i = 0;; ++i) {
        skip_space(c);
        if (peek(c) == ']' || at_end(c)) return false;
        if (i == index) return true;
        skip_value(c);
        skip_space(c);
        if (peek(c) != ',') return false;
        ++c->at;
    }
}

effect_position effect_position_at(const char *text, size_t length, size_t offset) {
    effect_position position = {1, 1};
    for (size_t i = 0; i < offset && i < length; ++i) {
        if (text[i] == '\n') position.line++, position.column = 1;
        else position.column++;
    }
    return position;
}

effect_position effect_locate(const char *text, size_t length, const char *field) {
    cursor c = {text, length, 0};
    skip_space(&c);
    size_t found = c.at;
    const char *step = field;
    while (*step) {
        if (*step == '[') {
            char *end = NULL;
            unsigned long index = strtoul(step + 1, &end, 10);
            if (!end || *end != ']' || !enter_element(&c, index)) break;
            found = c.at;
            step = end + 1;
        } else {
            if (*step == '.') ++step;
            size_t name_length = strcspn(step, ".[");
            size_t key_at = 0;
            if (!enter_member(&c, step, name_length, &key_at)) break;
            found = key_at;
            step += name_length;
        }
    }
    return effect_position_at(text, length, found);
}
