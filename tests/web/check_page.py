#!/usr/bin/env python3
"""Checks the web page (tools/web_build.sh) in headless Chromium with a
software WebGL 2 (SwiftShader): serves the page's folder on a free local
port, loads it, waits until it has drawn a number of frames (its #frames
text), writes a screenshot and the page's text (#gl, #figures, #frames,
#log) as JSON, then checks them: the frames drawn in time, WebGL 2, particles
alive and drawn, no error in the page's log or Chromium's console (WebGL's
own errors are there), and a picture that is not blank.

Chromium is driven over its DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in a NUL byte, commands on fd
3, answers on fd 4), so the wait is for frames drawn rather than a guess of
time: a software WebGL on a loaded machine draws about a frame a second.

usage: check_page.py FOLDER --frames N --timeout S --out PREFIX [--args ARGS]
    writes PREFIX.png (the screenshot), PREFIX.json (the text), PREFIX.log
    (Chromium's log); ARGS go to the demo (the page's ?args=).
Exit status 0 when every check passed; the failures are printed."""
import argparse
import base64
import functools
import http.server
import json
import os
import re
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib


class Browser:
    def __init__(self, size, log):
        read_commands, self.commands = os.pipe()
        self.answers, write_answers = os.pipe()
        os.set_inheritable(read_commands, True)
        os.set_inheritable(write_answers, True)

        def on_child():
            os.dup2(read_commands, 3)
            os.dup2(write_answers, 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--remote-debugging-pipe", "--enable-logging=stderr", "--v=0", "--no-first-run",
             "--window-size=%d,%d" % size, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=on_child, close_fds=False)
        os.close(read_commands)
        os.close(write_answers)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


PAGE_TEXT = """JSON.stringify({gl: (document.getElementById('gl') || {}).textContent || '',
  figures: (document.getElementById('figures') || {}).textContent || '',
  frames: parseInt((document.getElementById('frames') || {}).textContent || '0', 10) || 0,
  log: (document.getElementById('log') || {}).textContent || ''})"""


def serve(folder):
    """An HTTP server of `folder` on a free local port, in a thread."""
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load(url, frames, timeout, size, screenshot, log_path):
    """The page's text after `frames` frames (or the timeout, or its failure)
    and its screenshot."""
    with open(log_path, "wb") as log:
        browser = Browser(size, log)
        try:
            targets = browser.send("Target.getTargets", session=False)["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            browser.session = browser.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True},
                                           session=False)["sessionId"]
            browser.send("Page.enable")
            started = time.monotonic()
            browser.send("Page.navigate", {"url": url})
            while time.monotonic() < started + timeout:
                text = json.loads(browser.evaluate(PAGE_TEXT) or "{}")
                # A page that failed draws no more: no use waiting for it.
                if text.get("frames", 0) >= frames or FAILED.search(text.get("gl", "")):
                    break
                time.sleep(0.25)
            text = json.loads(browser.evaluate(PAGE_TEXT) or "{}")
            text["seconds"] = round(time.monotonic() - started, 1)
            text["canvas"] = browser.evaluate(CANVAS_RECT)
            shot = browser.send("Page.captureScreenshot", {"format": "png"})
            with open(screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
            return text
        finally:
            browser.close()


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    position, width, height, channels, idat = 8, 0, 0, 0, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError("%s: not an 8-bit RGB(A) PNG without interlacing" % path)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, up_left = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - up_left
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def picture_spread(path, rect):
    """The share of the canvas's pixels (rect: x, y, width, height in CSS
    pixels) away from its commonest colour: 0 for a blank canvas."""
    width, height, rows = read_png(path)
    x0, y0 = max(0, int(rect["x"])), max(0, int(rect["y"]))
    x1, y1 = min(width, int(rect["x"] + rect["width"])), min(height, int(rect["y"] + rect["height"]))
    pixels = [rows[y][x] for y in range(y0, y1, 2) for x in range(x0, x1, 2)]
    if not pixels:
        return 0.0
    counts = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    common = max(counts, key=counts.get)
    away = sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, common)) > 24)
    return away / len(pixels)


FAILED = re.compile(r"could not start|reported an error")
# Chromium's log of the page's console: WebGL's own errors ("WebGL:
# INVALID_ENUM: ..."), an uncaught exception, an abort, a missing function.
CONSOLE_ERROR = re.compile(r'CONSOLE.*"(WebGL: |Uncaught|Aborted|missing function|.*\berror\b)', re.IGNORECASE)
CANVAS_RECT = """(function () { var c = document.getElementById('canvas'); if (!c) return null;
  var r = c.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()"""


def verdict(text, screenshot, log_path, frames):
    """The checks' failures (empty: the page works)."""
    failures = []
    if text.get("frames", 0) < frames:
        failures.append("%d frames drawn in %.0f s, fewer than %d" % (text.get("frames", 0), text["seconds"], frames))
    if FAILED.search(text.get("gl", "")) or "WebGL 2" not in text.get("gl", ""):
        failures.append("the page says: %s" % (text.get("gl") or "nothing (did the module load?)"))
    # (The fragment path's profile counts no drawn particles: the live count
    # is the demo's own read.)
    live = re.search(r"(\d+) live", text.get("figures", ""))
    if not live or int(live.group(1)) == 0:
        failures.append("no particles alive: %s" % (text.get("figures", "").split("\n")[0] or "no figures"))
    errors = [line for line in text.get("log", "").splitlines() if re.search(r"\berror\b", line, re.IGNORECASE)]
    with open(log_path, errors="replace") as log:
        errors += [line.strip() for line in log if CONSOLE_ERROR.search(line)]
    failures += ["an error was logged: %s" % line for line in errors[:8]]
    spread = picture_spread(screenshot, text["canvas"]) if text.get("canvas") else 0.0
    if spread < 0.05:
        failures.append("the canvas is blank: %.1f%% of its pixels differ from its commonest colour" % (100 * spread))
    text["spread"] = spread
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--frames", type=int, required=True)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--args", default="")
    parser.add_argument("--size", default="700x640")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    server = serve(args.folder)
    url = "http://127.0.0.1:%d/index.html" % server.server_address[1]
    if args.args:
        url += "?args=" + urllib.parse.quote(args.args)
    try:
        text = load(url, args.frames, args.timeout, size, args.out + ".png", args.out + ".log")
    finally:
        server.shutdown()
    failures = verdict(text, args.out + ".png", args.out + ".log", args.frames)
    with open(args.out + ".json", "w") as out:
        json.dump(text, out, indent=1)
    print("web page: %d frames in %.1f s; %s; canvas %.0f%% away from its commonest colour" %
          (text.get("frames", 0), text["seconds"], (text.get("figures") or "no figures").split("\n")[0],
           100 * text["spread"]))
    for failure in failures:
        print("web page: FAILED: " + failure)
    if failures:
        for line in text.get("log", "").splitlines()[:8]:
            print("web page: its log: " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
