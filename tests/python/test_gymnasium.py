"""With gymnasium installed, the environments are registered with it and
pass its checker. Debian bookworm does not package gymnasium, so on such a
machine this module is reported as skipped, not passed."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import rlopt  # noqa: E402,F401  (registers the environments)


@pytest.mark.parametrize("env_id", ["rlopt/llvm-v0", "rlopt/graph-v0"])
def test_registered_environments_pass_the_checker(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
