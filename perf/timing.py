"""Wall-clock timing shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(func: Callable[[], object], repeats: int) -> float:
    """Shortest wall time of ``repeats`` calls, s."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best
