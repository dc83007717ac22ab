"""rlopt's environments with the Gymnasium API."""

import numpy as np

from . import _rlopt

try:
    import gymnasium
    from gymnasium import spaces as _spaces

    _Base = gymnasium.Env
except ImportError:
    gymnasium = None
    from . import spaces as _spaces

    _Base = object


class Env(_Base):
    """One rlopt environment: "linalg-v0" (MLIR Linalg schedules), "llvm-v0"
    (LLVM pass ordering) or "graph-v0" (HLO graph passes).

    Options are `benchmark` (a URI every episode starts on) or `suite` and
    `split` (episodes draw a program from them with the reset seed), and the
    keys of the environment's JSON config, e.g. `reward`, `observation` or
    `episode_length`. `reset(options={"benchmark": URI})` picks the program
    of one episode. The info of reset and step holds `action_mask`: an array
    for llvm and graph, one array per action head for linalg.
    """

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, env_id="llvm-v0", _native=None, **options):
        self._native = _native if _native is not None else _rlopt.make(
            env_id, options)
        self.env_id = self._native.id
        nvec = self._native.action_nvec
        if len(nvec) == 1:
            self.action_space = _spaces.Discrete(nvec[0])
        else:
            self.action_space = _spaces.MultiDiscrete(nvec)
        self.observation_space = _spaces.Box(
            low=self._native.observation_low,
            high=self._native.observation_high,
            shape=tuple(self._native.observation_shape),
            dtype=np.float32)
        self._np_random = None
        self._bind_step()

    def _bind_step(self):
        # The native step, bound on the instance: a step then costs one
        # Python call instead of two (about 0.5 us of the binding's 7 us).
        # A subclass's own step is left to run.
        if type(self).step is Env.step:
            self.step = self._native.step

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random = value

    @property
    def benchmarks(self):
        """The URIs episodes draw from when reset names none."""
        return list(self._native.benchmarks)

    @property
    def action_names(self):
        return list(self._native.action_names)

    def reset(self, *, seed=None, options=None):
        if gymnasium is not None:
            super().reset(seed=seed)  # seeds np_random as gymnasium does
        elif seed is not None:
            self._np_random = np.random.default_rng(seed)
        options = dict(options or {})
        benchmark = options.pop("benchmark", None)
        if options:
            raise ValueError(
                f"{self.env_id}: unknown reset option(s) {sorted(options)}; "
                "expected benchmark")
        if benchmark is None:
            programs = self._native.benchmarks
            benchmark = programs[int(self.np_random.integers(len(programs)))]
        native_seed = int(self.np_random.integers(2**63))
        return self._native.reset(str(benchmark), native_seed)

    def step(self, action):
        # Shadowed on each instance by _bind_step.
        return self._native.step(action)

    def fork(self):
        """A copy of the environment in its current state; the two then
        move independently."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy._native = self._native.fork()
        copy._bind_step()
        copy._np_random = np.random.default_rng(
            int(self.np_random.integers(2**63)))
        return copy

    def validate(self):
        """Checks the episode so far and says what it checked: llvm replays
        the actions (and runs the program when it can), graph compares the
        result with the original on the interpreter, linalg measures the
        schedule against the naive program. A dict with "ok"."""
        return self._native.validate()

    @property
    def episode(self):
        """The episode so far: benchmark, actions and reward, or the
        schedule (linalg)."""
        return self._native.episode()

    def close(self):
        self._native.close()

    def __repr__(self):
        return f"<rlopt.Env {self.env_id}>"
