"""Cost of one ``models_lib.sizing.size`` call per sized path, against a plain baseline in the same run (not a test).

Run ``python perf/bench_size.py``.  For each path (one configuration each) on a z13 and a z17,
at a rate inside and one far above what was measured, the best mean of several repeats of 20
calls, pre-fitted models passed in as the services do.  The baseline is the same number of
``numpy.polyfit`` calls on the configuration's first CPU series (a fixed unit of numerical
work), so the ratio is comparable between runs on a busy machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from models_lib.costmodel import fit_configuration  # noqa: E402
from models_lib.response import fit_response  # noqa: E402
from models_lib.sizing import size  # noqa: E402
from perf.record import record  # noqa: E402
from perf.timing import best_of  # noqa: E402
from tests.models_lib import published  # noqa: E402
from tests.models_lib.engine_data import Z13, Z17, table  # noqa: E402

PATHS = (
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-channel-64"),
    ("fiteq-authenticator", "multi-region"),
    ("cicsts-catalog", "v5.3"),
    ("hostbridge-http", "tuned-tcpip"),
)
CALLS = 20


def main() -> int:
    capacity = table()
    x = np.arange(8.0)
    y = 2.0 * x + 1.0

    def baseline() -> None:
        for _ in range(CALLS):
            np.polyfit(x, y, 1)

    base = best_of(baseline, 10) / CALLS
    print(f"{'path':52s} {'ms per call':>12s} {'x polyfit':>10s}")
    for path, configuration in PATHS:
        cfg = published.configuration(path, configuration)
        model = fit_configuration(cfg)
        try:
            rmodel = fit_response(cfg, model if model.has_cpu_model else None)
        except ValueError:
            rmodel = None
        for machine in (Z13, Z17):
            for tps in (500.0, 20000.0):
                one = partial(
                    size,
                    cfg,
                    target_machine=machine,
                    target_machine_type=machine,
                    capacity=capacity,
                    tps=tps,
                    model=model,
                    response_model=rmodel,
                )

                def calls(one: Callable[[], object] = one) -> None:
                    for _ in range(CALLS):
                        one()

                seconds = best_of(calls, 5) / CALLS
                name = f"{path}/{configuration} {machine} {tps:g} TPS"
                record("size", name=name, seconds=seconds, baseline="numpy.polyfit", baseline_seconds=base)
                print(f"{name:52s} {seconds * 1000:12.4f} {seconds / base:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
