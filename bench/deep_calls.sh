#!/bin/sh
# Times `rlopt graph run` on generated HLO modules of nested and chained
# calls, for one or more rlopt binaries side by side (say, before and after
# a change), and prints a Markdown table of wall-clock seconds.
#
#   bench/deep_calls.sh DIR RLOPT [RLOPT ...]
#
# DIR receives the modules: nested_N.hlo, where computation cK calls cK-1
# and adds 1 (N levels), and chained_N.hlo, where the entry calls one
# computation N times, each on the previous result. Runs past
# RLOPT_BENCH_TIMEOUT seconds (default 300) are stopped and shown as "> T".
set -eu

if [ $# -lt 2 ]; then
  echo "usage: $0 DIR RLOPT [RLOPT ...]" >&2
  exit 2
fi
dir=$1
shift
limit=${RLOPT_BENCH_TIMEOUT:-300}
mkdir -p "$dir"

nested() {
  awk -v n="$1" 'BEGIN {
    print "HloModule nested_" n "\n"
    for (k = 0; k < n; k++) {
      print "c" k " {\n  x = f32[] parameter(0)\n  one = f32[] constant(1)"
      if (k == 0)
        print "  ROOT r = f32[] add(x, one)\n}\n"
      else
        print "  c = f32[] call(x), to_apply=c" k - 1 \
              "\n  ROOT r = f32[] add(c, one)\n}\n"
    }
    print "ENTRY e {\n  p = f32[] parameter(0)"
    print "  ROOT r = f32[] call(p), to_apply=c" n - 1 "\n}"
  }' >"$dir/nested_$1.hlo"
}

chained() {
  awk -v n="$1" 'BEGIN {
    print "HloModule chained_" n "\n"
    print "inc {\n  x = f32[] parameter(0)\n  one = f32[] constant(1)"
    print "  ROOT r = f32[] add(x, one)\n}\n"
    print "ENTRY e {\n  c0 = f32[] parameter(0)"
    for (i = 1; i <= n; i++)
      print (i == n ? "  ROOT" : " ") " c" i " = f32[] call(c" i - 1 \
            "), to_apply=inc"
    print "}"
  }' >"$dir/chained_$1.hlo"
}

inputs="nested_1000 nested_2000 nested_4000 nested_8000 chained_20000"
for n in 1000 2000 4000 8000; do nested $n; done
chained 20000

printf '| input |'
for binary in "$@"; do printf ' %s |' "$binary"; done
printf '\n|---|'
for binary in "$@"; do printf -- '---|'; done
printf '\n'
for input in $inputs; do
  printf '| %s |' "$input"
  for binary in "$@"; do
    start=$(date +%s.%N)
    if timeout "$limit" "$binary" graph run "$dir/$input.hlo" --json \
      >"$dir/$input.out" 2>&1; then
      end=$(date +%s.%N)
      printf ' %s |' "$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')"
    else
      status=$?
      [ "$status" -eq 124 ] && printf ' > %s |' "$limit" ||
        printf ' failed (%s) |' "$status"
    fi
  done
  printf '\n'
done
