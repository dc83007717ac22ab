import numpy as np
import pytest

from rlopt import spaces


def test_discrete_samples_only_allowed_values():
    space = spaces.Discrete(5, seed=0)
    mask = np.array([0, 1, 0, 1, 0], dtype=np.int8)
    drawn = {int(space.sample(mask=mask)) for _ in range(50)}
    assert drawn == {1, 3}
    assert space.contains(np.int64(4)) and space.contains(0)
    assert not space.contains(5) and not space.contains(1.0)
    with pytest.raises(ValueError, match="int8"):
        space.sample(mask=mask.astype(np.uint8))
    assert space.shape == () and space.dtype == np.int64


def test_multi_discrete_samples_each_head_within_its_mask():
    space = spaces.MultiDiscrete([3, 4], seed=0)
    masks = (np.array([1, 0, 0], np.int8), np.array([0, 0, 1, 1], np.int8))
    for _ in range(20):
        value = space.sample(mask=masks)
        assert space.contains(value)
        assert value[0] == 0 and value[1] in (2, 3)
    assert space.contains([2, 3])
    assert not space.contains(np.array([3, 0]))
    assert not space.contains(np.array([0, 0, 0]))
    assert space.shape == (2,)


def test_box_samples_within_its_bounds_even_near_float_max():
    space = spaces.Box(0, np.finfo(np.float32).max, shape=(4,), seed=0)
    for _ in range(10):
        assert space.contains(space.sample())
    assert space.contains([0.5, 1, 2, 3])
    assert not space.contains(np.full(4, -1, np.float32))
    assert not space.contains(np.zeros(3, np.float32))


def test_seeding_repeats_samples():
    first = spaces.MultiDiscrete([9, 9, 9], seed=4)
    second = spaces.MultiDiscrete([9, 9, 9], seed=4)
    assert all(np.array_equal(first.sample(), second.sample())
               for _ in range(5))


def test_bad_spaces_are_refused():
    with pytest.raises(ValueError):
        spaces.Discrete(0)
    with pytest.raises(ValueError):
        spaces.MultiDiscrete([3, 0])
