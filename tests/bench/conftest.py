"""The benchmarks run with ``make bench``; elsewhere (``--benchmark-skip``, as ``make test``
runs) they are deselected rather than skipped one by one, so a passing run stays quiet."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = config.getoption("benchmark_skip", default=False)
    if not skip or config.getoption("benchmark_only", default=False):
        return
    bench = [item for item in items if "benchmark" in getattr(item, "fixturenames", ())]
    if bench:
        config.hook.pytest_deselected(items=bench)
        items[:] = [item for item in items if "benchmark" not in getattr(item, "fixturenames", ())]
