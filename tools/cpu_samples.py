#!/usr/bin/env python3
"""Fold a benchmark's CPU samples (bench/cpu_sampler.h: a line a sample, its
return addresses innermost first as object+offset) into where the CPU was.

    tools/cpu_samples.py SAMPLES [--binaries DIR] [--top N]

Addresses in an object whose file name is found in DIR (default
build/release/bin, the unstripped binaries the samples' run was built from)
are named with addr2line; others keep their object's name (the GL driver's,
which has no symbols). Prints three tables: the innermost named function of
each sample, "[in the driver]" where the sample was below it in another
object (that function's GL calls); the same counted inclusively (each
function once a sample); and the outermost three named callers' chains."""
import collections
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    samples_path, binaries, top = args[0], "build/release/bin", 30
    for i, a in enumerate(args):
        if a == "--binaries":
            binaries = args[i + 1]
        if a == "--top":
            top = int(args[i + 1])
    samples = []
    for line in open(samples_path):
        frames = []
        for depth, word in enumerate(line.split()):
            obj, _, offset = word.rpartition("+")
            # A return address is past its call: name the call's instruction.
            frames.append((obj, int(offset, 16) - (1 if depth else 0)))
        if frames:
            samples.append(frames)
    wanted = collections.defaultdict(set)
    for frames in samples:
        for obj, offset in frames:
            local = os.path.join(binaries, os.path.basename(obj))
            if os.path.exists(local):
                wanted[local].add(offset)
    names = {}
    for local, offsets in wanted.items():
        offsets = sorted(offsets)
        out = subprocess.run(["addr2line", "-f", "-s", "-e", local] + ["0x%x" % o for o in offsets],
                             capture_output=True, text=True).stdout.split("\n")
        for k, offset in enumerate(offsets):
            names[(os.path.basename(local), offset)] = out[2 * k] if 2 * k < len(out) else "?"

    def named(frames):
        result = []
        for obj, offset in frames:
            name = names.get((os.path.basename(obj), offset))
            result.append(name if name and name != "??" else None)
        return result

    innermost, inclusive, chains = collections.Counter(), collections.Counter(), collections.Counter()
    for frames in samples:
        n = named(frames)
        known = [k for k, name in enumerate(n) if name]
        if not known:
            innermost["(no named frame)"] += 1
            continue
        first = known[0]
        innermost[n[first] + (" [in the driver]" if first > 0 else "")] += 1
        for name in set(x for x in n if x):
            inclusive[name] += 1
        chains[" < ".join(n[k] for k in known[:3])] += 1
    total = len(samples)
    print("%d samples" % total)
    for title, table in (("innermost named function", innermost), ("inclusive", inclusive),
                         ("innermost three named frames", chains)):
        print("\n%-6s %6s  %s" % ("count", "share", title))
        for name, count in table.most_common(top):
            print("%6d %5.1f%%  %s" % (count, 100.0 * count / max(total, 1), name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
