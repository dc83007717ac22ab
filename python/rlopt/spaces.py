"""Gymnasium's Discrete, MultiDiscrete and Box, for when gymnasium is not
installed. They keep its semantics: `sample(mask=...)`, `contains`, `shape`,
`dtype`, `seed`. With gymnasium installed, rlopt uses gymnasium's own."""

import numpy as np


class Space:
    def __init__(self, shape, dtype, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        self._np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


def _int8_mask(mask, size, where):
    mask = np.asarray(mask)
    if mask.dtype != np.int8 or mask.shape != (size,):
        raise ValueError(f"{where}: a mask is an int8 array of shape ({size},)"
                         f", got {mask.dtype} {mask.shape}")
    return mask


class Discrete(Space):
    """One choice among n values, start .. start + n - 1."""

    def __init__(self, n, seed=None, start=0):
        if int(n) <= 0:
            raise ValueError(f"Discrete: n must be positive, got {n}")
        self.n = np.int64(n)
        self.start = np.int64(start)
        super().__init__((), np.int64, seed)

    def sample(self, mask=None):
        if mask is None:
            return self.start + self.np_random.integers(self.n)
        allowed = np.flatnonzero(_int8_mask(mask, self.n, "Discrete.sample"))
        if allowed.size == 0:
            return self.start
        return self.start + np.int64(self.np_random.choice(allowed))

    def contains(self, x):
        if isinstance(x, int):
            value = np.int64(x)
        elif (isinstance(x, (np.generic, np.ndarray)) and x.shape == ()
              and np.issubdtype(x.dtype, np.integer)):
            value = np.int64(x)
        else:
            return False
        return bool(self.start <= value < self.start + self.n)

    def __repr__(self):
        return f"Discrete({self.n})"

    def __eq__(self, other):
        return (isinstance(other, Discrete) and self.n == other.n
                and self.start == other.start)


class MultiDiscrete(Space):
    """Several choices ("heads"), head i among nvec[i] values."""

    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        if (self.nvec <= 0).any():
            raise ValueError("MultiDiscrete: every head needs a positive size")
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self, mask=None):
        if mask is None:
            return (self.np_random.random(self.nvec.shape)
                    * self.nvec).astype(self.dtype)
        if len(mask) != len(self.nvec):
            raise ValueError(
                f"MultiDiscrete.sample: expected {len(self.nvec)} masks")
        values = []
        for head, n in zip(mask, self.nvec):
            allowed = np.flatnonzero(
                _int8_mask(head, n, "MultiDiscrete.sample"))
            values.append(self.np_random.choice(allowed) if allowed.size
                          else 0)
        return np.asarray(values, dtype=self.dtype)

    def contains(self, x):
        if isinstance(x, (list, tuple)):
            x = np.array(x)
        return bool(isinstance(x, np.ndarray) and x.shape == self.shape
                    and x.dtype != object and np.all(0 <= x)
                    and np.all(x < self.nvec))

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist()})"

    def __eq__(self, other):
        return (isinstance(other, MultiDiscrete)
                and np.array_equal(self.nvec, other.nvec))


class Box(Space):
    """Real vectors with per-element bounds."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        if shape is None:
            shape = np.shape(low)
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)
        super().__init__(shape, dtype, seed)

    def sample(self, mask=None):
        if mask is not None:
            raise ValueError("Box.sample takes no mask")
        # Uniform over the bounds, computed in float64 so that bounds near
        # the largest float32 do not overflow.
        low = self.low.astype(np.float64)
        high = self.high.astype(np.float64)
        drawn = low + self.np_random.random(self.shape) * (high - low)
        return np.clip(drawn, low, high).astype(self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape
                    and np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, " \
               f"{self.dtype})"

    def __eq__(self, other):
        return (isinstance(other, Box) and self.shape == other.shape
                and np.array_equal(self.low, other.low)
                and np.array_equal(self.high, other.high))
