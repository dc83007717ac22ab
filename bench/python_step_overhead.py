"""What the Python binding adds to an environment step: the wall time of
`env.step` seen from Python minus the time spent inside the C++ Env::step,
per step, measured in the same calls (the binding counts the latter).

    PYTHONPATH=build/python python3 bench/python_step_overhead.py
"""

import argparse
import statistics
import time

import rlopt

TARGETS = {
    "llvm-v0": {"benchmark": "benchmark://rlopt-v0/crc32"},
    "graph-v0": {"benchmark": "hlo://jax/jax-md/module_0190.jit_safe_mask.61"
                              ".before_optimizations"},
}


def one_run(env_id, options, steps, seed):
    env = rlopt.make(env_id, **options)
    native = env._native
    python_seconds = 0.0
    native_before = native.step_seconds
    count = 0
    obs, info = env.reset(seed=seed)
    while count < steps:
        action = env.action_space.sample(mask=info["action_mask"])
        start = time.perf_counter()
        obs, reward, terminated, truncated, info = env.step(action)
        python_seconds += time.perf_counter() - start
        count += 1
        if terminated or truncated:
            obs, info = env.reset()
    native_seconds = native.step_seconds - native_before
    env.close()
    return python_seconds / count, native_seconds / count


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    print(f"{'env':10} {'python step':>12} {'C++ step':>12} "
          f"{'overhead':>16} (median of {args.repeats}, min-max)")
    for env_id, options in TARGETS.items():
        runs = [one_run(env_id, options, args.steps, seed)
                for seed in range(args.repeats)]
        overheads = [(py - cpp) * 1e6 for py, cpp in runs]
        print(f"{env_id:10} "
              f"{statistics.median(py for py, _ in runs) * 1e6:10.1f}us "
              f"{statistics.median(cpp for _, cpp in runs) * 1e6:10.1f}us "
              f"{statistics.median(overheads):8.2f}us "
              f"({min(overheads):.2f}-{max(overheads):.2f})")


if __name__ == "__main__":
    main()
