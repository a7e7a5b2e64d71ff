#!/bin/sh
# Installs plume: headers, the static library, the plugin with its soname
# link, and plume.pc, from build/$CONFIG. Build first:
#   premake4 --file=premake5.lua gmake && make -C build config=release -j2
# usage: [PREFIX=/usr/local] [LIBDIR=$PREFIX/lib] [INCLUDEDIR=$PREFIX/include] [DESTDIR=] [CONFIG=release]
#        tools/install.sh
#
# Layout under $DESTDIR$PREFIX:
#   include/plume/*.h
#   lib/libplume.a                     what -lplume (pkg-config plume) links
#   lib/libplume_effects.a             effect files (pkg-config plume_effects; jansson)
#   lib/libplume.so.MAJOR.MINOR        the plugin
#   lib/libplume.so.MAJOR -> ...       its soname: what a host dlopens
#   lib/pkgconfig/plume.pc, plume_effects.pc
# There is deliberately no unversioned libplume.so link: the shared library
# exports only plume_get_api, so nothing links against it, and without that
# link -lplume finds the static library.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
DESTDIR=${DESTDIR:-}
CONFIG=${CONFIG:-release}
version=$(sh "$root/tools/abi_version.sh")
major=${version%%.*}
shared="$root/build/$CONFIG/lib/libplume.so"
static="$root/build/$CONFIG/lib/static/libplume.a"
effects="$root/build/$CONFIG/lib/static/libplume_effects.a"
for built in "$shared" "$static" "$effects"; do
    [ -f "$built" ] || { echo "$0: $built is missing: build first (make -C build config=$CONFIG)" >&2; exit 1; }
done
install -d "$DESTDIR$INCLUDEDIR/plume" "$DESTDIR$LIBDIR/pkgconfig"
install -m 644 "$root"/include/plume/*.h "$DESTDIR$INCLUDEDIR/plume/"
install -m 644 "$static" "$DESTDIR$LIBDIR/libplume.a"
install -m 644 "$effects" "$DESTDIR$LIBDIR/libplume_effects.a"
install -m 755 "$shared" "$DESTDIR$LIBDIR/libplume.so.$version"
ln -sf "libplume.so.$version" "$DESTDIR$LIBDIR/libplume.so.$major"
sh "$root/tools/make_pc.sh" "$DESTDIR$LIBDIR/pkgconfig/plume.pc" "$PREFIX" "$INCLUDEDIR" "$LIBDIR" \
    "$LIBDIR/libplume.so.$major"
echo "installed plume $version under $DESTDIR$PREFIX"
