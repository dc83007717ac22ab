"""rlopt: reinforcement-learning environments over real compilers.

    import rlopt
    env = rlopt.make("llvm-v0", reward="IrInstructionCountOz")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(mask=info["action_mask"]))

With gymnasium installed, the environments are also registered with it as
"rlopt/linalg-v0", "rlopt/llvm-v0" and "rlopt/graph-v0".
"""

from . import _rlopt
from .env import Env, gymnasium

Error = _rlopt.Error
__version__ = _rlopt.__version__

ENV_IDS = ("linalg-v0", "llvm-v0", "graph-v0")


def make(env_id, **options):
    """The environment `env_id` ("linalg-v0", "llvm-v0" or "graph-v0") with
    the given options; see `Env`. Bad options raise rlopt.Error."""
    return Env(env_id, **options)


def benchmarks(env_id, suite=None, split="all"):
    """The benchmark URIs of a suite's split ("train", "test", "all"; linalg
    also "validation"). The default suite is ops-small (linalg), rlopt-v0
    (llvm) or the bundled graphs (graph)."""
    return list(_rlopt.benchmarks(env_id, suite or "", split))


if gymnasium is not None:
    for _id in ENV_IDS:
        if f"rlopt/{_id}" not in gymnasium.registry:
            gymnasium.register(id=f"rlopt/{_id}", entry_point="rlopt.env:Env",
                               kwargs={"env_id": _id})

__all__ = ["Env", "Error", "make", "benchmarks", "ENV_IDS"]
