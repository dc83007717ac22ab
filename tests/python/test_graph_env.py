import json
import subprocess

import numpy as np
import pytest

import rlopt


def test_an_episode_matches_the_command_line(rlopt_binary, test_program):
    graph = test_program("hlo/tosa_cse.hlo")
    env = rlopt.make("graph-v0", benchmark=graph, reward="OpCountReduction")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    listed = json.loads(subprocess.run(
        [rlopt_binary, "graph", "list", "--json"], check=True,
        capture_output=True, text=True).stdout)
    names = [p["name"] for p in listed["passes"]]
    assert env.action_space.n == len(names)

    chosen = [names.index("cse"), names.index("dce"), names.index("algsimp")]
    total = 0.0
    for action in chosen:
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
    assert total > 0, "cse merges the duplicated ops of tosa_cse.hlo"
    ran = json.loads(subprocess.run(
        [rlopt_binary, "graph", "run", graph[len("file://"):], "--passes",
         "cse,dce,algsimp", "--reward", "OpCountReduction", "--json"],
        check=True, capture_output=True, text=True).stdout)
    assert ran["episode_reward"] == pytest.approx(total, rel=1e-9)


def test_validate_runs_the_interpreter_on_both_graphs(test_program):
    env = rlopt.make("graph-v0", benchmark=test_program("hlo/tosa_cse.hlo"))
    env.reset(seed=0)
    env.step(0)
    report = env.validate()
    assert report["ok"] is True
    assert report["compared_elements"] > 0
    assert "argument sets" in report["checked"]


def test_masked_passes_are_the_ones_that_changed_nothing(test_program):
    env = rlopt.make("graph-v0", benchmark=test_program("hlo/small.hlo"))
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.all()
    _, _, _, _, info = env.step(0)
    # algsimp changes nothing in small.hlo, so it is masked now.
    assert info["action_mask"][0] == 0


def test_the_bundled_graphs_split_into_train_and_test():
    train = rlopt.benchmarks("graph-v0", split="train")
    test = rlopt.benchmarks("graph-v0", split="test")
    assert train and test and not set(train) & set(test)
    assert all(uri.startswith("hlo://") for uri in train + test)
    with pytest.raises(rlopt.Error, match="split 'dev'"):
        rlopt.benchmarks("graph-v0", split="dev")


def test_a_malformed_graph_is_an_error_naming_it(test_program):
    env = rlopt.make("graph-v0")
    bad = test_program("hlo/malformed/bad_dimension.hlo")
    with pytest.raises(rlopt.Error, match="bad_dimension"):
        env.reset(options={"benchmark": bad})
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.float32
