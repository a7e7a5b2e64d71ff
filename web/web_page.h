/* The web page's text (web/shell.html): the demo's HUD figures and frame
 * count written into the page each frame, where a reader or a test sees them.
 * Only the web build (tools/web_build.sh) compiles it. */
#ifndef WEB_PAGE_H
#define WEB_PAGE_H

#include <stdbool.h>

#include "demo.h"

/* After a frame: `ok` false says the module or the demo failed (the loop
 * stops); `app` NULL says the demo could not start. */
void web_page_show(const demo_app *app, bool ok);

#endif
