#!/usr/bin/env python3
"""Compares `rlopt eval` result directories benchmark by benchmark.

usage: bench/compare_agents.py REFERENCE_DIR OTHER_DIR...

For each directory: the geomean speedup over naive MLIR, the geomean of
LibTorch ms / candidate ms (measured side by side in that run, > 1: faster
than LibTorch), failures; then per other agent the geomean, median and IQR
of its speedup over the reference agent's on the same benchmarks, taken two
ways: through the naive program and through LibTorch, each timed side by
side with the candidate in its own run. When the two disagree, the machine's
load changed between the runs.
"""
import json
import math
import statistics
import sys


def load(directory):
    with open(directory + "/results.json") as f:
        data = json.load(f)
    return data["agent"], {r["name"]: r for r in data["results"]}


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else 0


def versus_torch(result):
    for e in result.get("externals", []):
        if e.get("name") == "torch" and e.get("candidate_vs_external"):
            return e["candidate_vs_external"]
    return 0


def main(directories):
    runs = [load(d) for d in directories]
    print("| agent | programs | failed | geomean speedup | geomean vs LibTorch |")
    print("|---|---|---|---|---|")
    for agent, results in runs:
        ok = [r for r in results.values() if r["correct"] and r["speedup"] > 0]
        print(f"| {agent} | {len(results)} | {len(results) - len(ok)} | "
              f"{geomean([r['speedup'] for r in ok]):.2f}x | "
              f"{geomean([versus_torch(r) for r in ok]):.2f} |")
    reference_agent, reference = runs[0]
    for label, key in (("via naive", lambda r: r["speedup"]),
                       ("via LibTorch", versus_torch)):
        print()
        print(f"| agent / {reference_agent} ({label}) | geomean | median | "
              "IQR | programs faster by > 5 % | slower by > 5 % |")
        print("|---|---|---|---|---|---|")
        for agent, results in runs[1:]:
            ratios = [key(results[n]) / key(r) for n, r in reference.items()
                      if n in results and key(r) > 0 and key(results[n]) > 0]
            if len(ratios) < 2:
                continue
            q = statistics.quantiles(ratios, n=4)
            print(f"| {agent} | {geomean(ratios):.3f} | "
                  f"{statistics.median(ratios):.3f} | {q[0]:.2f}-{q[2]:.2f} | "
                  f"{sum(x > 1.05 for x in ratios)} | "
                  f"{sum(x < 1 / 1.05 for x in ratios)} |")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:])
