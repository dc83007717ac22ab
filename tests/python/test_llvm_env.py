import json
import subprocess
import threading

import numpy as np
import pytest

import rlopt

CRC32 = "benchmark://rlopt-v0/crc32"


def test_reset_gives_an_observation_in_the_space_and_a_mask():
    env = rlopt.make("llvm-v0")
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32
    assert obs.shape == env.observation_space.shape
    assert env.observation_space.contains(obs)
    assert info["benchmark"] in env.benchmarks
    assert info["action_mask"].shape == (env.action_space.n,)
    assert info["action_mask"].dtype == np.int8, "as gymnasium samples"
    assert 0 < info["action_mask"].sum() <= env.action_space.n


def test_the_same_seed_starts_the_same_episode():
    env = rlopt.make("llvm-v0")
    first, info1 = env.reset(seed=7)
    second, info2 = env.reset(seed=7)
    assert info1["benchmark"] == info2["benchmark"]
    np.testing.assert_array_equal(first, second)
    picked = {env.reset(seed=s)[1]["benchmark"] for s in range(12)}
    assert len(picked) > 1, "reset draws programs from the suite"


def test_train_and_test_splits_do_not_overlap():
    train = set(rlopt.benchmarks("llvm-v0", split="train"))
    test = set(rlopt.benchmarks("llvm-v0", split="test"))
    assert train and test and not train & test
    env = rlopt.make("llvm-v0", split="test")
    assert set(env.benchmarks) == test


def test_an_episode_matches_the_command_line(rlopt_binary):
    env = rlopt.make("llvm-v0", benchmark=CRC32, reward="IrInstructionCountOz")
    obs, info = env.reset(seed=1)
    env.action_space.seed(3)
    total, actions = 0.0, []
    for _ in range(8):
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        assert isinstance(reward, float)
        assert env.observation_space.contains(obs)
        total += reward
        actions.append(int(action))
        if terminated or truncated:
            break
    assert env.episode["actions"] == actions
    assert env.episode["reward"] == pytest.approx(total)

    listed = json.loads(subprocess.run(
        [rlopt_binary, "passes", "list", "--json"], check=True,
        capture_output=True, text=True).stdout)
    names = [listed["actions"][a]["name"] for a in actions]
    ran = json.loads(subprocess.run(
        [rlopt_binary, "passes", "run", CRC32, "--passes", ",".join(names),
         "--json"], check=True, capture_output=True, text=True).stdout)
    assert ran["reward"] == pytest.approx(total, rel=1e-9)


def test_validate_replays_the_episode():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    env.reset(seed=0)
    for action in (0, 5, 9):
        env.step(action)
    report = env.validate()
    assert report["ok"] is True
    assert report["replay_matches"] is True
    assert "replay" in report["checked"]


def test_a_fork_moves_on_its_own():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    env.reset(seed=0)
    env.step(3)
    fork = env.fork()
    assert fork.episode == env.episode
    fork.step(8)
    assert len(fork.episode["actions"]) == 2
    assert env.episode["actions"] == [3]
    fork.close()
    env.step(8)
    assert env.episode["actions"] == [3, 8]


def test_actions_are_taken_as_python_or_numpy_integers():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    env.reset(seed=0)
    env.step(np.int64(2))
    env.step(np.array(4))
    env.step([6])
    assert env.episode["actions"] == [2, 4, 6]


def test_wrong_actions_raise_and_leave_the_episode_running():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside \\[0, 124\\)"):
        env.step(124)
    with pytest.raises(ValueError, match="expected 1 value"):
        env.step([1, 2])
    with pytest.raises(ValueError, match="expected integers"):
        env.step(np.array([1.5]))
    with pytest.raises(TypeError):
        env.step("mem2reg")
    env.step(2)
    assert env.episode["actions"] == [2]


def test_step_before_reset_and_after_close_are_errors():
    env = rlopt.make("llvm-v0")
    with pytest.raises(rlopt.Error, match="step outside an episode"):
        env.step(0)
    env.close()
    with pytest.raises(rlopt.Error, match="closed"):
        env.reset(seed=0)


def test_the_episode_ends_after_its_length():
    env = rlopt.make("llvm-v0", benchmark=CRC32, episode_length=3)
    _, info = env.reset(seed=0)
    ends = []
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(
            env.action_space.sample(mask=info["action_mask"]))
        ends.append(terminated or truncated)
    assert ends == [False, False, True]
    with pytest.raises(rlopt.Error, match="step outside an episode"):
        env.step(0)


def test_bad_options_are_one_line_errors():
    with pytest.raises(rlopt.Error, match="episode_lenght") as error:
        rlopt.make("llvm-v0", episode_lenght=3)
    assert "\n" not in str(error.value)
    with pytest.raises(rlopt.Error, match="reward 'Bogus'"):
        rlopt.make("llvm-v0", reward="Bogus")
    with pytest.raises(rlopt.Error, match="'benchmark' must be a string"):
        rlopt.make("llvm-v0", benchmark=3)
    with pytest.raises(rlopt.Error, match="option values must be"):
        rlopt.make("llvm-v0", reward=object())
    with pytest.raises(rlopt.Error, match="unknown environment 'llvm-v9'"):
        rlopt.make("llvm-v9")
    env = rlopt.make("llvm-v0")
    with pytest.raises(rlopt.Error, match="no-such-program"):
        env.reset(options={"benchmark": "benchmark://rlopt-v0/no-such-program"})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"benchmrk": CRC32})


def test_observations_are_not_copied():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    obs, info = env.reset(seed=0)
    assert not obs.flags.owndata, "the array wraps the environment's vector"
    assert not info["action_mask"].flags.owndata


def test_options_left_as_none_take_their_defaults():
    env = rlopt.make("llvm-v0", benchmark=None, suite=None)
    assert env.benchmarks == rlopt.benchmarks("llvm-v0", split="train")


def test_a_step_that_fails_still_observes_the_declared_shape():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    _, info = env.reset(seed=0)
    # Masked at the start of an episode: a pass rlopt disables.
    disabled = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, _, terminated, _, info = env.step(disabled)
    assert terminated and "error" in info
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].shape == (env.action_space.n,)


def test_an_environment_and_its_fork_step_in_two_threads():
    env = rlopt.make("llvm-v0", benchmark=CRC32)
    env.reset(seed=0)
    fork = env.fork()
    errors = []

    def run(target):
        try:
            for action in (2, 4, 6, 8):
                target.step(action)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(e,)) for e in (env, fork)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert env.episode["actions"] == fork.episode["actions"] == [2, 4, 6, 8]
