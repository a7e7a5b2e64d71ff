-- plume: GPU particle module (C11; OpenGL 4.3 core with compute shaders, or 3.3
-- core on the fragment path). The one build description.
--   premake5 gmake                           (our users)
--   premake4 --file=premake5.lua gmake       (Debian ships premake4 only)
-- then: make -C build config=release   (or debug, sanitize)
-- outputs: build/<config>/bin (programs), build/<config>/lib (libplume.so),
--          build/<config>/lib/static (libplume.a)
--   premake5 vs2022 / premake5 xcode4        (Windows / macOS: the library only)

-- ---- premake4 compatibility ------------------------------------------------
-- premake4 lacks a few premake5 functions; map them onto what it has, so the
-- rest of this file is plain premake5.
if _PREMAKE_VERSION and _PREMAKE_VERSION:sub(1, 1) == "4" then
    workspace = solution
    -- premake4 matches bare terms ("release", "windows", "not vs*"); it has
    -- no toolset term, and only makes gcc builds.
    function filter(expression)
        if type(expression) ~= "table" then expression = { expression } end
        local terms = {}
        for i, term in ipairs(expression) do terms[i] = term:gsub("^%a+:", "") end
        return configuration(terms)
    end
    function cdialect(dialect) buildoptions { "-std=" .. dialect:lower() } end
    function symbols(on) if on == "On" then flags { "Symbols" } end end
    function optimize(level) if level ~= "Off" then flags { "OptimizeSpeed" } end end
    function warnings(level) if level == "Extra" then buildoptions { "-Wall", "-Wextra" } end end
    function visibility(v) if v == "Hidden" then buildoptions { "-fvisibility=hidden" } end end
    function pic(on) if on == "On" then buildoptions { "-fPIC" } end end
    removefiles = excludes
    -- No Makefile projects either: a library without files has its prebuild
    -- commands run every build (and builds an empty archive), and linking it
    -- orders the build as dependson does.
    local premake4_kind = kind
    function kind(k) return premake4_kind(k == "Makefile" and "StaticLib" or k) end
    buildcommands = prebuildcommands
    dependson = links
    os.istarget = os.is
    function architecture() end  -- the compiler's own
end
-- ----------------------------------------------------------------------------

local root = path.getabsolute(".")
local project_dir = root .. "/build"  -- the generated projects; their commands run here
local configs = { "release", "debug", "sanitize" }

-- Each configuration builds into build/<config>/{bin,lib,lib/static}, so
-- objects and archives of different configurations never mix.
local function outputs(subdir, name)
    for _, cfg in ipairs(configs) do
        filter("configurations:" .. cfg)
            targetdir("build/" .. cfg .. "/" .. subdir)
            objdir("build/obj/" .. cfg .. "/" .. name)
    end
    filter {}
end
local generated = root .. "/build/generated"

-- The ABI version has one home, the plugin header; the soname carries its major.
local function read_abi_major()
    local header = assert(io.open(root .. "/include/plume/plume_plugin.h"))
    local text = header:read("*a")
    header:close()
    return assert(text:match("#define PLUME_ABI_MAJOR (%d+)"))
end
local ABI_MAJOR = read_abi_major()

-- Shaders are compiled into the library: tools/embed_shaders.c, built first as
-- a project of its own, turns the files below a folder into one header
-- (rewritten only when a shader changed). This is its command line for
-- configuration `cfg`, with paths relative to the generated projects, so that
-- the projects work wherever the tree is; Visual Studio runs commands in cmd,
-- where a program's path needs backslashes.
local function embed_command(cfg, shader_dir, header)
    local program = cfg .. "/bin/embed_shaders"
    if _ACTION and _ACTION:find("^vs") then program = program:gsub("/", "\\") end
    return '"' .. program .. '" ' .. path.getrelative(project_dir, root .. "/" .. shader_dir) .. " " ..
           path.getrelative(project_dir, generated .. "/" .. header)
end

-- pkg-config files for using the build tree in place, one per configuration:
--   PKG_CONFIG_PATH=build/release/lib/pkgconfig pkg-config --cflags --libs plume
-- (tools/install.sh writes the installed one from the same template). Where
-- there is a POSIX shell: package.config starts with the host's separator.
if package.config:sub(1, 1) == "/" then
    for _, cfg in ipairs(configs) do
        local lib = root .. "/build/" .. cfg .. "/lib"
        os.execute("sh " .. root .. "/tools/make_pc.sh " .. lib .. "/pkgconfig/plume.pc " .. root .. " " .. root ..
                   "/include " .. lib .. "/static " .. lib .. "/libplume.so")
    end
end

-- premake5 install / premake4 --file=premake5.lua install: headers, both
-- libraries and plume.pc under $PREFIX (default /usr/local), staged under
-- $DESTDIR, from build/$CONFIG (default release); build that first.
newaction {
    trigger = "install",
    description = "Install headers, libplume.a, libplume.so." .. ABI_MAJOR ..
                  " and plume.pc (PREFIX, LIBDIR, INCLUDEDIR, DESTDIR, CONFIG)",
    execute = function()
        local status = os.execute("sh " .. root .. "/tools/install.sh")
        -- Lua 5.1 (premake4) returns the status, 5.3 (premake5) true or nil.
        if status ~= 0 and status ~= true then os.exit(1) end
    end
}

workspace "plume"
    configurations(configs)
    location "build"
    language "C"
    cdialect "C11"
    warnings "Extra"
    includedirs { "include", "plugin", "shaders", "host", generated }
    filter "toolset:not msc*"
        buildoptions { "-Werror=implicit-function-declaration", "-Wshadow", "-Wstrict-prototypes" }
    filter "toolset:msc*"
        defines { "_CRT_SECURE_NO_WARNINGS" }  -- fopen and strerror are ISO C
    filter "system:windows"
        architecture "x86_64"  -- Visual Studio's default is 32-bit

    filter "configurations:release"
        optimize "Speed"
        symbols "On"
        defines { "NDEBUG" }
    filter "configurations:debug"
        symbols "On"
    filter "configurations:sanitize"
        symbols "On"
    filter { "configurations:sanitize", "toolset:not msc*" }
        buildoptions { "-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined" }
        linkoptions { "-fsanitize=address,undefined" }
    filter {}

-- The shader embedder: a plain C program, so that building plume needs no shell.
project "embed_shaders"
    kind "ConsoleApp"
    outputs("bin", "embed_shaders")
    files { "tools/embed_shaders.c" }

-- Runs the embedder every build, before every project that includes the
-- headers it writes: a project of its own, so that no compile (make -j
-- included) starts before the headers are up to date.
project "plume_shaders"
    kind "Makefile"
    dependson { "embed_shaders" }
    -- A target that no command writes, so that make runs the commands every time.
    targetname "plume_shaders_run"
    for _, cfg in ipairs(configs) do
        filter("configurations:" .. cfg)
            targetdir("build/obj/" .. cfg)
            objdir("build/obj/" .. cfg .. "/plume_shaders")
            buildcommands { embed_command(cfg, "shaders", "plume_shaders.h"),
                            embed_command(cfg, "bench/shaders", "bench_shaders.h") }
    end
    filter {}

-- The module, linked statically into an engine (or tests / benchmark / demo).
project "plume_static"
    kind "StaticLib"
    targetname "plume"
    -- Apart from libplume.so, so that linking "plume_static" picks the archive.
    outputs("lib/static", "plume_static")
    pic "On"
    files { "plugin/**.c", "plugin/**.h", "shaders/shared/*.h", "include/plume/*.h" }
    dependson { "plume_shaders" }

-- The plugin: the same module as a shared library exporting only the API
-- (libplume.so; plume.dll on Windows).
project "plume"
    kind "SharedLib"
    outputs("lib", "plume_shared")
    visibility "Hidden"
    pic "On"
    defines { "PLUME_SHARED_BUILD" }
    files { "plugin/**.c", "plugin/**.h", "shaders/shared/*.h", "include/plume/*.h" }
    dependson { "plume_shaders" }
    links { "epoxy" }
    -- Exports plume_get_api only (plume_plugin.h); checked by tests/check_shared_library.sh
    -- and, for the DLL, tests/check_windows_build.sh.
    filter { "system:not windows", "system:not macosx" }
        linkoptions { "-Wl,-soname,libplume.so." .. ABI_MAJOR, "-Wl,--no-undefined" }
    filter "system:not windows"
        links { "m" }
    filter { "system:windows", "action:gmake*" }
        linkoptions { "-static-libgcc" }  -- MinGW: no libgcc_s DLL beside plume.dll
    filter {}

-- The rest (the host stand-ins, demo, tests and benchmarks) runs on headless
-- EGL, which Windows and macOS do not have: there the workspace is the library
-- (the test suite's Windows build, with WGL: tests/windows/plume_tests.mk).
if os.istarget("windows") or os.istarget("macosx") then return end

-- The laboratory: the same module built with PLUME_LAB, which adds the
-- knobs and hooks of lab/plume_lab.h (settings per context, pass and stage
-- hooks) for the tests and benchmarks. Never shipped or installed: the
-- product (plume_static, plume) has none of it, which
-- tests/check_release_symbols.sh checks.
project "plume_lab"
    kind "StaticLib"
    outputs("lib/static", "plume_lab")
    pic "On"
    defines { "PLUME_LAB" }
    includedirs { "lab" }
    files { "plugin/**.c", "plugin/**.h", "shaders/shared/*.h", "include/plume/*.h", "lab/*.h" }
    dependson { "plume_shaders" }

-- Headless EGL context and other host-side stand-ins for an engine.
project "plume_host"
    kind "StaticLib"
    outputs("lib/static", "plume_host")
    files { "host/*.c", "host/*.h" }
    removefiles { "host/headless_gl_wgl.c" }  -- the WGL context of the suite's Windows build

-- Effects as JSON files (effects/, include/plume/plume_effect.h): a library
-- of its own, so that the module keeps no file-format dependency. It checks
-- what it reads with the module's descriptor checks (plume_system_desc_check,
-- public), so it links plume_static, and jansson. Not in the Windows workspace
-- (the suite's Windows build has it, with jansson from Debian's source).
project "plume_effects"
    kind "StaticLib"
    outputs("lib/static", "plume_effects")
    pic "On"
    files { "effects/*.c", "effects/*.h", "include/plume/plume_effect.h" }
    dependson { "plume_shaders" }

-- The smoke demo without its window: scene, smoke, HUD, offscreen run. The
-- tests link it too (they run the offscreen path).
project "plume_demo_core"
    kind "StaticLib"
    outputs("lib/static", "plume_demo_core")
    files { "demo/*.c", "demo/*.h" }
    removefiles { "demo/main.c", "demo/window.c", "demo/demo_window.h" }

project "plume_demo"
    kind "ConsoleApp"
    outputs("bin", "plume_demo")
    files { "demo/main.c", "demo/window.c", "demo/demo_window.h" }
    links { "plume_demo_core", "plume_effects", "plume_host", "plume_static", "glfw", "epoxy", "jansson", "m" }

-- Writes the demo's sprites into demo/assets (committed; rerun only to change them).
project "make_sprites"
    kind "ConsoleApp"
    outputs("bin", "make_sprites")
    files { "tools/make_sprites.c" }
    links { "m" }

-- The test files by part (tests/<part>/), shared fixtures in tests/support/.
local test_parts = { "tests/support/*", "tests/core/*", "tests/sort/*", "tests/particles/*", "tests/render/*",
                     "tests/profile/*", "tests/demo/*", "tests/world/*",
                     "tests/effects/*" }

project "plume_tests"
    kind "ConsoleApp"
    outputs("bin", "plume_tests")
    files { "tests/main.c" }
    for _, part in ipairs(test_parts) do files { part .. ".c", part .. ".h" } end
    includedirs { "tests/support", "demo", "lab" }
    links { "plume_demo_core", "plume_effects", "plume_host", "plume_lab", "epoxy", "jansson", "cmocka", "m" }

project "plume_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_bench")
    files { "bench/bench_sort.c", "bench/sort_timing.c", "bench/sort_timing.h" }
    dependson { "plume_shaders" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- The whole frame (update + draw offscreen) at several particle counts,
-- timed by the system's profiler.
project "plume_frame_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_frame_bench")
    files { "bench/frame_bench.c", "bench/frame_bench_options.c", "bench/frame_bench_options.h",
            "bench/frame_bench_measure.c", "bench/frame_bench_measure.h" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Prewarm of a system and the update's bounds reduction, timed.
-- The same work repeated in one context, its distinct results counted (the
-- race probe's bench: notes/soak.md).
project "plume_determinism_probe"
    kind "ConsoleApp"
    outputs("bin", "plume_determinism_probe")
    files { "bench/determinism_probe.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

project "plume_prewarm_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_prewarm_bench")
    files { "bench/prewarm_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Mesh particles (plume_mesh.h): the draw of 100 K lit meshes and simulate
-- with rotation against sprites, timed.
project "plume_mesh_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_mesh_bench")
    files { "bench/mesh_bench.c", "tests/support/mesh_reference.c" }
    includedirs { "tests/support", "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Two systems drawn each on its own and by one draw group (plume_draw_group.h).
project "plume_draw_group_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_draw_group_bench")
    files { "bench/draw_group_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Self-shadowing's cost: the same lit smoke drawn without and with the
-- opacity map in the same frames.
project "plume_self_shadow_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_self_shadow_bench")
    files { "bench/self_shadow_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- GPU memory of many small systems by draw path and resolution: per system,
-- per context (the shared screen-sized scratch), bytes per particle.
project "plume_screen_memory_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_screen_memory_bench")
    files { "bench/screen_memory_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- What emission on demand and instances cost (issue 30).
project "plume_gameplay_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_gameplay_bench")
    files { "bench/gameplay_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Trails: 64 K particles with and without trails of 16 points, raster and
-- tiled (the trails also at 1/2), update and draw GPU ms in one table (issue 31).
project "plume_trail_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_trail_bench")
    files { "bench/trail_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- Events to the CPU off and on: the CPU frame time and the GPU update time.
project "plume_event_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_event_bench")
    files { "bench/event_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- N small systems updated and drawn a frame, and what creating one costs.
project "plume_many_systems"
    kind "ConsoleApp"
    outputs("bin", "plume_many_systems")
    files { "bench/many_systems.c", "bench/cpu_sampler.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- The fragment path in an OpenGL ES 3.0 context beside the desktop GL's
-- paths, the same smoke, frame times in one table (issue 34).
project "plume_gles_bench"
    kind "ConsoleApp"
    outputs("bin", "plume_gles_bench")
    files { "bench/gles_bench.c" }
    includedirs { "lab" }
    links { "plume_host", "plume_lab", "epoxy", "m" }

-- The soak: minutes to hours of random host operations, checked (notes/soak.md).
project "plume_soak"
    kind "ConsoleApp"
    outputs("bin", "plume_soak")
    files { "bench/soak.c", "bench/soak.h", "bench/soak_lane.c", "bench/soak_ops.c", "bench/soak_frame.c", "bench/soak_gameplay.c" }
    includedirs { "lab" }
    links { "plume_effects", "plume_host", "plume_lab", "epoxy", "jansson", "m" }

-- What a dispatch costs before it does any work (notes/sort-performance.md).
project "plume_dispatch_floor"
    kind "ConsoleApp"
    outputs("bin", "plume_dispatch_floor")
    files { "bench/dispatch_floor.c" }
    links { "plume_host", "epoxy", "m" }

-- How many compute workgroups the GL keeps on one SM (notes/sort-performance.md).
project "plume_occupancy_probe"
    kind "ConsoleApp"
    outputs("bin", "plume_occupancy_probe")
    files { "bench/occupancy_probe.c" }
    links { "plume_host", "epoxy", "m" }

-- A stand-in engine: loads build/<config>/lib/libplume.so with dlopen and runs
-- the test suites through the plugin table (tests/plugin_host/). It links no
-- plume code.
project "plume_plugin_host"
    kind "ConsoleApp"
    outputs("bin", "plume_plugin_host")
    includedirs { "tests/support" }
    files { "tests/plugin_host/*.c", "tests/plugin_host/*.h", "tests/support/test_env.c", "tests/support/run_tables.c",
            "tests/support/gl_spy.c", "tests/support/hostile_host.c", "tests/support/look_reference.c",
            "tests/support/trail_reference.c", "tests/support/shadow_reference.c",
            "tests/support/mesh_reference.c", "tests/support/mesh_pictures.c",
            "tests/support/fragment_state.c", "tests/support/test_platform.c" }
    links { "plume_host", "epoxy", "cmocka", "dl", "m" }
