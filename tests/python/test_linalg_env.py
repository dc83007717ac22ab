import math

import numpy as np
import pytest

import rlopt


@pytest.fixture
def matmul_env(tmp_path, test_program):
    return rlopt.make("linalg-v0", benchmark=test_program("matmul.mlir"),
                      cache=str(tmp_path / "cache.sqlite"))


def test_the_action_space_has_one_head_per_choice(matmul_env):
    env = matmul_env
    nvec = env.action_space.nvec
    assert env.action_names[0] == "transformation"
    assert len(env.action_names) == len(nvec)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    masks = info["action_mask"]
    assert len(masks) == len(nvec)
    assert [len(m) for m in masks] == list(nvec)


def test_a_masked_episode_ends_with_the_log_of_a_measured_speedup(matmul_env):
    env = matmul_env
    _, info = env.reset(seed=0)
    for _ in range(200):
        action = env.action_space.sample(mask=info["action_mask"])
        assert env.action_space.contains(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert "error" not in info, info.get("error")
        if terminated or truncated:
            break
    assert terminated
    measurement = info["measurement"]
    assert measurement["correct"] is True
    assert reward == pytest.approx(math.log(measurement["speedup"]))
    assert env.episode["schedule"] == info["schedule"]
    report = env.validate()
    assert report["ok"] is True and report["correct"] is True


def test_a_schedule_of_the_wrong_transformation_ends_with_the_error(
        matmul_env):
    env = matmul_env
    _, info = env.reset(seed=0)
    types = info["action_mask"][0]
    masked = np.flatnonzero(types == 0)
    assert masked.size, "some transformations are masked on a fresh matmul"
    action = np.zeros(len(env.action_space.nvec), dtype=np.int64)
    action[0] = masked[0]
    _, reward, terminated, _, info = env.step(action)
    assert terminated and "error" in info


def test_suites_list_programs_by_split():
    test = rlopt.benchmarks("linalg-v0", suite="ops-small", split="test")
    train = rlopt.benchmarks("linalg-v0", suite="ops-small", split="train")
    assert test and train and not set(test) & set(train)
    assert all(uri.startswith("file://") and uri.endswith(".mlir")
               for uri in test)
    with pytest.raises(rlopt.Error, match="no-such-suite"):
        rlopt.benchmarks("linalg-v0", suite="no-such-suite")


def test_bad_config_values_name_the_key():
    with pytest.raises(rlopt.Error, match="threads"):
        rlopt.make("linalg-v0", threads=0)
    with pytest.raises(rlopt.Error, match="tile_sizes"):
        rlopt.make("linalg-v0", tile_sizes="big")
