"""The suite's order (slow tests first) and the fixtures of the tests that run the real
``rummikub run`` (tests/test_operating.py and the files that use its helpers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.test_operating import Fakes


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow run first (otherwise in their usual order), so that in a parallel run
    (``-n auto``) no worker starts a minute-long test while the others have finished."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def fakes() -> Iterator[Fakes]:
    """The fake Telegram and Discord servers in a process of their own."""
    running = Fakes()
    try:
        yield running
    finally:
        running.close()
