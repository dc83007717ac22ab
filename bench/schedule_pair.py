#!/usr/bin/env python3
"""Two schedules of one program, timed side by side.

Each round measures both schedules with `rlopt measure --no-cache`, each in
its own worker against the naive program, and takes the ratio of their
speedups over naive (B's over A's), so that a slow process slows its own
baseline too. The order alternates from round to round, since the second
schedule of a round tends to measure slower on a shared machine.

    bench/schedule_pair.py FILE --a "op1: ..." --b "op1: ..." \
        [--rounds 6] [--repetitions 7] [--threads 1] [--rlopt build/tools/rlopt/rlopt]

Prints one line per round and then the median ratio and its range; > 1
means B is faster.
"""
import argparse
import statistics

from remeasure_side_by_side import measure  # beside this script


def speedup(rlopt, path, schedule, repetitions, threads):
    result = measure(rlopt, path, schedule,
                     ["--repetitions", str(repetitions), "--threads", str(threads)])
    return result["speedup"], result["candidate_ms"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--a", required=True, help="the reference schedule")
    parser.add_argument("--b", required=True, help="the schedule compared")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rlopt", default="build/tools/rlopt/rlopt")
    args = parser.parse_args()

    ratios = []
    for round_index in range(args.rounds):
        order = ["a", "b"] if round_index % 2 == 0 else ["b", "a"]
        measured = {}
        for which in order:
            schedule = args.a if which == "a" else args.b
            measured[which] = speedup(args.rlopt, args.file, schedule,
                                      args.repetitions, args.threads)
        ratio = measured["b"][0] / measured["a"][0]
        ratios.append(ratio)
        print(f"round {round_index + 1} ({order[0]} first): "
              f"A {measured['a'][1]:.3f} ms, B {measured['b'][1]:.3f} ms, "
              f"ratio {ratio:.3f}", flush=True)
    print(f"median {statistics.median(ratios):.3f} "
          f"(range {min(ratios):.3f}-{max(ratios):.3f}, {len(ratios)} rounds)")


if __name__ == "__main__":
    main()
