/* The demo's figures in the page's text (web_page.h). */
#include <emscripten.h>

#include "web_page.h"

void web_page_show(const demo_app *app, bool ok) {
    if (!app) {
        EM_ASM(plumePage.failed("the demo could not start (the log below says why)"));
        return;
    }
    static char text[1536];
    demo_app_describe(app, text, sizeof text);
    EM_ASM(plumePage.show(UTF8ToString($0), UTF8ToString($1), $2), text, (const char *)glGetString(GL_VERSION),
           (double)demo_app_status(app).frames);
    if (!ok) EM_ASM(plumePage.failed("the module or the demo reported an error (the log below says why)"));
}
