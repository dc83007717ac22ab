"""The single-file PPO examples train for one short iteration."""

import os
import re
import subprocess
import sys

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def run_example(name, *args):
    done = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, name), *args],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_ppo_llvm_runs_an_iteration():
    out = run_example("ppo_llvm.py", "--iterations", "1", "--steps", "48",
                      "--episode-length", "12")
    match = re.search(r"iteration 1: steps 48, episodes (\d+), "
                      r"mean return \(last 20\) (-?[\d.]+)", out)
    assert match, out
    assert int(match.group(1)) == 4


def test_ppo_linalg_runs_an_iteration(tmp_path, test_program):
    out = run_example("ppo_linalg.py", "--iterations", "1", "--steps", "16",
                      "--benchmark", test_program("matmul.mlir"),
                      "--cache", str(tmp_path / "cache.sqlite"))
    match = re.search(r"iteration 1: steps 16, episodes (\d+), "
                      r"geomean speedup \(last 20\) ([\d.]+)x", out)
    assert match, out
    assert int(match.group(1)) >= 1
    assert float(match.group(2)) > 0, "some episode measured correct"
