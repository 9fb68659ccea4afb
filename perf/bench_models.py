"""Speed of the cost, response and sizing models against plain baselines in the same run (not a test).

Run ``python perf/bench_models.py``.  Every row times one workload (best of several repeats,
time.perf_counter) next to a baseline doing a comparable job the plain way:

* full refit: every configuration in benchmarks/*.yaml -> fit_configuration (all CPU
  components, weighted least squares with standard errors) + fit_response (M/M/c CP station,
  grid + bounded search of the software station over m = 1..64) + payload model; baseline:
  ``numpy.polyfit`` of every component series of the same data (the bare regression).
* a 1,000-point response-time curve of FiTeq multi-region with the Validation Log (CP M/M/10 +
  fitted software station): ``ResponseModel.curve`` against a pure-Python loop over the 1,000
  points calling the scalar ``ResponseModel.response_time_ms``.
* one sizing (FiTeq multi-region on a z13, CP search over 1..40 with LSPR per count), with
  pre-fitted models, against refitting inside ``size``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from models_lib.costmodel import fit_configuration, payload_model  # noqa: E402
from models_lib.response import fit_response  # noqa: E402
from models_lib.sizing import size  # noqa: E402
from perf.record import record  # noqa: E402
from perf.timing import best_of  # noqa: E402
from tests.models_lib import published  # noqa: E402  (reads benchmarks/*.yaml)


def row(name: str, seconds: float, baseline: float, baseline_name: str) -> None:
    record("models", name=name, seconds=seconds, baseline=baseline_name, baseline_seconds=baseline)
    print(f"{name:44s} {seconds:12.6f} {baseline:12.6f} {baseline / seconds:9.3g}   ({baseline_name})")


def main() -> int:
    configs = published.all_configurations()
    fitted = [c for c in configs if c.points]
    print(
        f"{len(configs)} configurations ({len(fitted)} with CPU points, {sum(len(c.points) for c in configs)} points)"
    )
    print(f"{'name':44s} {'seconds':>12s} {'baseline':>12s} {'speedup':>9s}")

    def refit_all() -> None:
        for cfg in configs:
            model = fit_configuration(cfg)
            payload_model(cfg)
            if model.has_cpu_model:
                fit_response(cfg, model)
            elif cfg.bounds and cfg.lpar_cps:
                b = min(cfg.bounds, key=lambda x: x.engines / x.tps)
                fit_response(cfg, cp_seconds=b.engines / b.tps)

    series = []
    for cfg in fitted:
        comps = {k for p in cfg.points for k in p.busy_cps}
        for comp in comps:
            pts = [p for p in cfg.points if comp in p.busy_cps]
            series.append((np.array([p.etr for p in pts]), np.array([p.busy_cps[comp] for p in pts])))

    def polyfit_all() -> None:
        for x, y in series:
            np.polyfit(x, y, 1)

    row(
        "full refit (cost + response + payload)",
        best_of(refit_all, 5),
        best_of(polyfit_all, 20),
        "numpy.polyfit per series",
    )

    cfg = published.configuration("fiteq-authenticator", "multi-region-log")
    model = fit_configuration(cfg)
    rmodel = fit_response(cfg, model)
    tps = np.linspace(0.0, 0.999 * rmodel.saturation_tps(), 1000)
    tps_list = [float(t) for t in tps]

    def loop() -> None:
        for t in tps_list:
            rmodel.response_time_ms(t)

    row(
        "1,000-point response curve (vectorised)",
        best_of(lambda: rmodel.curve(tps), 50),
        best_of(loop, 3),
        "Python loop of response_time_ms",
    )

    table = published.capacity_table()
    multi = published.configuration("fiteq-authenticator", "multi-region")
    m_model = fit_configuration(multi)
    m_resp = fit_response(multi, m_model)

    def sized(prefit: bool) -> Callable[[], object]:
        kw = {"model": m_model, "response_model": m_resp} if prefit else {}
        return lambda: size(multi, target_machine="z13", target_machine_type="2964", capacity=table, tps=6000.0, **kw)  # type: ignore[arg-type]

    row("size() with pre-fitted models", best_of(sized(True), 20), best_of(sized(False), 5), "size() refitting")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
