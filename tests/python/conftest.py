import os

import pytest

TEST_DATA = os.path.join(os.path.dirname(__file__), "..", "data")


@pytest.fixture
def rlopt_binary():
    path = os.environ.get("RLOPT_BINARY")
    if not path:
        pytest.fail("RLOPT_BINARY is not set; run these tests through ctest")
    return path


@pytest.fixture
def test_program():
    def path(name):
        return "file://" + os.path.abspath(os.path.join(TEST_DATA, name))
    return path
