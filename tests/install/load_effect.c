/* An engine's use of the installed effects library: load an effect file, write
 * it back, and read that again (no GL needed). Exits 0 when all went well. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <plume/plume_effect.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    plume_effect *effect = malloc(sizeof *effect), *again = malloc(sizeof *again);
    plume_effect_error error;
    if (!effect || !again || plume_effect_load(argv[1], effect, &error) != PLUME_OK) {
        fprintf(stderr, "load_effect: %s\n", error.message);
        return 1;
    }
    char *text = plume_effect_write(&effect->desc, &error);
    int ok = text && plume_effect_parse(text, strlen(text), "written", NULL, again, &error) == PLUME_OK &&
             again->desc.capacity == effect->desc.capacity && effect->desc.capacity > 0;
    if (!ok) fprintf(stderr, "load_effect: %s\n", error.message);
    else printf("load_effect: %s, %u particles\n", argv[1], effect->desc.capacity);
    plume_effect_free_text(text);
    free(effect);
    free(again);
    return ok ? 0 : 1;
}
