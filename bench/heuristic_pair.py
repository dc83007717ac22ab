#!/usr/bin/env python3
"""The heuristic schedules of two rlopt builds, timed side by side.

For each program, both builds print their heuristic schedule; where the two
differ, the new build times both schedules alternately, `--rounds` times,
each in its own worker against the naive program, and the ratio of their
speedups over naive is taken (> 1: the new schedule is faster). Programs
whose schedules are equal count as 1 in the geomean over all.

With --codegen, a change to code generation rather than to the heuristic,
programs whose schedules are equal are timed too, each build compiling its
own schedule.

With --by-time (implies --codegen), the ratio is of the schedules' times,
not of their speedups: for builds that read the program differently, whose
naive programs therefore differ.

    bench/heuristic_pair.py --old OLD_RLOPT --new NEW_RLOPT FILE... \
        [--rounds 3] [--threads 1] [--codegen] [--by-time]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import tempfile

from remeasure_side_by_side import measure  # beside this script


def heuristic_schedule(rlopt, program, threads):
    """The build's heuristic schedule for the program: written by `rlopt
    apply --heuristic` without running anything, or, from a build older
    than that option, read from a one-repetition `rlopt measure`."""
    with tempfile.TemporaryDirectory() as scratch:
        written = os.path.join(scratch, "schedule")
        run = subprocess.run(
            [rlopt, "apply", program, "--heuristic", "--threads",
             str(threads), "-o", os.devnull, "--emit-schedule", written],
            capture_output=True, text=True)
        if run.returncode == 0:
            with open(written) as f:
                return f.read().strip()
        if "--heuristic" not in run.stderr:
            raise SystemExit(f"{program}: {run.stderr.strip()}")
    run = subprocess.run(
        [rlopt, "measure", program, "--heuristic", "--no-cache", "--json",
         "--repetitions", "1", "--threads", str(threads)],
        capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"{program}: {run.stderr.strip()}")
    return json.loads(run.stdout)["schedule"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--old", required=True, help="the reference build")
    parser.add_argument("--new", required=True, help="the build compared")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--codegen", action="store_true",
                        help="also time equal schedules, each by its build")
    parser.add_argument("--by-time", action="store_true",
                        help="compare the schedules' times, not speedups")
    args = parser.parse_args()
    args.codegen = args.codegen or args.by_time

    options = ["--threads", str(args.threads)]
    ratios = []
    for program in args.files:
        name = os.path.basename(program)
        old = heuristic_schedule(args.old, program, args.threads)
        new = heuristic_schedule(args.new, program, args.threads)
        if old == new and not args.codegen:
            print(f"{name} same", flush=True)
            continue
        # Each side is (build, schedule): the new build times both
        # schedules unless code generation itself is compared.
        sides = {"old": (args.old if args.codegen else args.new, old),
                 "new": (args.new, new)}
        rounds = []
        for round_index in range(args.rounds):
            order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]
            speed = {}
            for side in order:
                build, schedule = sides[side]
                m = measure(build, program, schedule, options)
                speed[side] = (1 / m["candidate_ms"] if args.by_time
                                 else m["speedup"])
            rounds.append(speed["new"] / speed["old"])
        ratios.append(statistics.median(rounds))
        print(f"{name} new/old {ratios[-1]:.3f} "
              f"({min(rounds):.3f}-{max(rounds):.3f}) | {new}", flush=True)
    if ratios:
        logs = [math.log(r) for r in ratios]
        timed = "timed" if args.codegen else "changed"
        print(f"{timed} {len(ratios)} of {len(args.files)}: geomean "
              f"{math.exp(sum(logs) / len(logs)):.3f} over the {timed}, "
              f"{math.exp(sum(logs) / len(args.files)):.3f} over all; "
              f"faster by > 5 %: {sum(r > 1.05 for r in ratios)}, "
              f"slower: {sum(r < 0.95 for r in ratios)}")


if __name__ == "__main__":
    main()
