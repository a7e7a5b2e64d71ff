#!/bin/sh
# Plots a per-frame profile CSV (plume_frame_bench --frames-csv, or the demo's
# --profile) as a PNG with gnuplot:
#   top:    sort GPU ms of every frame against the live particle count
#           (log-log, with the median per count and a line through them);
#   bottom: simulate, sort and draw GPU ms frame by frame, live count on the
#           right axis.
# Input columns (a header line first): frame, live count, sim ms, sort ms,
# draw ms, cpu ms; "nan" marks a stage not measured in that frame.
#     sh tools/plot_profile.sh frames.csv [out.png]    (default: frames.png)
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh tools/plot_profile.sh PROFILE.csv [OUT.png]" >&2
    exit 2
fi
input=$1
output=${2:-${input%.csv}.png}
[ -r "$input" ] || { echo "cannot read $input" >&2; exit 1; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot is not installed (Debian: gnuplot-nox)" >&2; exit 1; }
rows=$(tail -n +2 "$input" | grep -c . || true)
[ "$rows" -gt 0 ] || { echo "$input has no frames" >&2; exit 1; }

# The median sort time per distinct live count, for the line through the cloud.
medians=$(mktemp)
trap 'rm -f "$medians"' EXIT
tail -n +2 "$input" | awk -F, '$4 != "nan" && $4 != "" { print $2, $4 }' | sort -k1,1n -k2,2g |
    awk '{ counts[$1] = counts[$1] " " $2; n[$1]++ }
         END { for (c in n) { split(substr(counts[c], 2), v, " ");
                              m = n[c] % 2 ? v[(n[c] + 1) / 2] : (v[n[c] / 2] + v[n[c] / 2 + 1]) / 2;
                              print c "," m } }' | sort -t, -k1,1n > "$medians"
[ -s "$medians" ] || { echo "$input has no sort times" >&2; exit 1; }

gnuplot <<EOF
set terminal pngcairo size 1100,900 font ",10"
set output "$output"
set datafile separator ","
set datafile missing "nan"
set multiplot layout 2,1 title "plume: GPU time per frame ($rows frames, $(basename "$input"))"

set title "sort cost against particle count"
set xlabel "live particles"
set ylabel "sort, GPU ms"
set logscale xy
set grid
set key top left
plot "$input" using 2:4 skip 1 with points pointtype 7 pointsize 0.4 lc rgb "#80a0c0" title "each frame", \
     "$medians" using 1:2 with linespoints pointtype 5 lw 2 lc rgb "#c03020" title "median"

unset logscale
set title "stages frame by frame"
set xlabel "frame"
set ylabel "GPU ms"
set y2label "live particles"
set y2tics
set ytics nomirror
set logscale y2
set key top left
plot "$input" using 1:3 skip 1 with lines lc rgb "#3070b0" title "simulate", \
     "$input" using 1:4 skip 1 with lines lc rgb "#c03020" title "sort", \
     "$input" using 1:5 skip 1 with lines lc rgb "#40a040" title "draw", \
     "$input" using 1:2 skip 1 axes x1y2 with steps lc rgb "#808080" dt 2 title "live count"
unset multiplot
EOF
echo "$output"
