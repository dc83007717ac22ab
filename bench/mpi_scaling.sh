#!/usr/bin/env bash
# Episodes per minute of PPO training with 1 process and with mpirun -np 2
# and 3 (one learner, 1 or 2 rollout ranks), for pass ordering and for Linalg
# scheduling, on this machine. With fewer cores than processes the ranks are
# oversubscribed, which the table says.
#
#   bench/mpi_scaling.sh [BUILD_DIR] [ITERATIONS] [passes|linalg|all]
set -euo pipefail
build=${1:-build}
iterations=${2:-6}
which=${3:-all}
rlopt=$(realpath "$build/tools/rlopt/rlopt")
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cat > "$scratch/passes.json" <<JSON
{"algorithm": "ppo", "steps_per_iteration": 256, "minibatch_size": 64,
 "iterations": $iterations}
JSON
# Linalg: the ops-small training programs with a one-repetition protocol,
# measuring into a fresh cache so that every episode is measured.
cat > "$scratch/linalg.json" <<JSON
{"iterations": $iterations, "programs_per_iteration": 16, "workers": 1,
 "eval_every": 0, "epochs": 2,
 "env": {"repetitions": 1, "max_rounds": 1, "cache": "CACHE"}}
JSON

launch() { # ranks, then the rlopt arguments
  local ranks=$1
  shift
  if [ "$ranks" -eq 1 ]; then
    "$rlopt" "$@"
  else
    mpirun --oversubscribe -np "$ranks" "$rlopt" "$@"
  fi
}

# Episodes per minute over the second half of the iterations: in the first
# ones every rank compiles (or measures) the programs it meets first.
rate() {
  python3 - "$1" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
half = len(lines) // 2
episodes = sum(l["episodes"] for l in lines[half:])
elapsed = lines[-1]["time"]["elapsed_s"] - lines[half - 1]["time"]["elapsed_s"]
print(f"{episodes} {elapsed:.1f} {60 * episodes / elapsed:.1f}")
PY
}

echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf "%-8s %-6s %-22s %9s %10s %12s\n" env ranks "processes" episodes "seconds" "episodes/min"
for ranks in 1 2 3; do
  [ "$which" = linalg ] && break
  rollout=$((ranks > 1 ? ranks - 1 : 1))
  run="$scratch/passes-$ranks"
  launch "$ranks" passes train --agent ppo --config "$scratch/passes.json" \
    --out "$run" --episode-length 16 > "$run.log" 2>&1
  read -r episodes seconds perMinute < <(rate "$run/metrics.jsonl")
  printf "%-8s %-6s %-22s %9s %10s %12s\n" passes "$ranks" \
    "$rollout env process(es)" "$episodes" "$seconds" "$perMinute"
done
for ranks in 1 2 3; do
  [ "$which" = passes ] && break
  rollout=$((ranks > 1 ? ranks - 1 : 1))
  run="$scratch/linalg-$ranks"
  sed "s|CACHE|$scratch/cache-$ranks.sqlite|" "$scratch/linalg.json" \
    > "$scratch/linalg-$ranks.json"
  launch "$ranks" train --suite "$root/data/suites/ops-small" \
    --config "$scratch/linalg-$ranks.json" --out "$run" > "$run.log" 2>&1
  read -r episodes seconds perMinute < <(rate "$run/metrics.jsonl")
  printf "%-8s %-6s %-22s %9s %10s %12s\n" linalg "$ranks" \
    "$rollout env process(es)" "$episodes" "$seconds" "$perMinute"
done
