#!/usr/bin/env python3
"""Re-measures two agents' schedules side by side, program by program.

usage: bench/remeasure_side_by_side.py SUITE_DIR REFERENCE_DIR OTHER_DIR
                                       [--rlopt PATH] [--rounds N]

REFERENCE_DIR and OTHER_DIR are `rlopt eval` result directories of the same
suite. Where the two agents chose different schedules for a program, both
schedules are timed alternately (reference, other, reference, other, ...;
N rounds, 3 by default) with `rlopt measure --no-cache`, so that a change
in the machine's load hits both alike. Each round gives the ratio
reference ms / other ms (> 1: the other agent is faster); the program's
ratio is the median of its rounds, its spread the range. Programs where
both chose the same schedule, or schedules that lower to the same code
(the same `program_hash`), count as 1 and are not timed again: the
difference between two samples of the same code is noise. Prints one line
per differing program and the geomean over all programs.
"""
import argparse
import json
import math
import statistics
import subprocess
import sys

import compare_agents  # beside this script: reads results.json


def schedules(directory):
    _, results = compare_agents.load(directory)
    return {name: r.get("schedule", "") for name, r in results.items()}


def measure(rlopt, program, schedule, options=()):
    """`rlopt measure --json` of a schedule, uncached; exits unless correct."""
    run = subprocess.run(
        [rlopt, "measure", program, "--schedule", schedule, "--no-cache", "--json",
         *options],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"{program}: rlopt measure failed: {run.stderr.strip()}")
    result = json.loads(run.stdout)
    if not result.get("correct"):
        sys.exit(f"{program}: '{schedule}' is not correct")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("reference")
    parser.add_argument("other")
    parser.add_argument("--rlopt", default="build/tools/rlopt/rlopt")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    reference, other = schedules(args.reference), schedules(args.other)
    ratios, differing, same_code = [], 0, 0
    for name in sorted(set(reference) & set(other)):
        if reference[name] == other[name]:
            ratios.append(1.0)
            continue
        program = f"{args.suite}/{name}.mlir"
        rounds = []
        for _ in range(args.rounds):
            ref = measure(args.rlopt, program, reference[name])
            new = measure(args.rlopt, program, other[name])
            if ref["program_hash"] == new["program_hash"]:
                break
            rounds.append(ref["candidate_ms"] / new["candidate_ms"])
        if not rounds:
            same_code += 1
            ratios.append(1.0)
            continue
        differing += 1
        ratios.append(statistics.median(rounds))
        print(
            f"{name}: median {ratios[-1]:.3f}, range "
            f"{min(rounds):.3f}-{max(rounds):.3f}",
            flush=True,
        )
    if not ratios:
        sys.exit("no program is in both result directories")
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(
        f"geomean reference ms / other ms: {geomean:.3f} over {len(ratios)} "
        f"programs ({differing} with different code, {same_code} with "
        f"different schedules of the same code)"
    )


if __name__ == "__main__":
    main()
