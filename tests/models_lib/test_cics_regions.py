"""Issue 32 item 7: CICS TS's fixed base as an input, the number of CICS regions.

REDP-5320 (seed 003/benchmarks) measures 17 CICS regions ("It represents the 17 CICS regions",
Figure 10); its line's intercept is their fixed CPU.  The issue's case: 9176-D05 at 1 TPS was 76 %
busy from that base.  Expected values come from the fitted line (the engine's own fit of the
published points) and the published region count read from the stored statement.
"""

from __future__ import annotations

import pytest

from models_lib.checks import InputError
from models_lib.costmodel import fit_configuration
from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import table

PUBLISHED_REGIONS = int(P.statement("cicsts_v53_redp5320.yaml", "cics-regions")["data"]["value"])


def _d05(**kw: object) -> object:
    cfg = P.configuration("cicsts-catalog", "v5.3")
    return size(cfg, target_machine="9176", target_machine_type="9176", capacity=table(), tps=1.0,
                capacity_setting="D00", cps=5, **kw)  # type: ignore[arg-type]  # fmt: skip


def test_the_published_count_is_figure_10s() -> None:
    assert PUBLISHED_REGIONS == 17  # "It represents the 17 CICS regions" (REDP-5320, Figure 10)


@pytest.mark.parametrize("regions", [1, 4, 17, 40])
def test_the_fixed_base_scales_with_the_regions_and_the_slope_does_not(regions: int) -> None:
    cfg = P.configuration("cicsts-catalog", "v5.3")
    fit = fit_configuration(cfg).primary_fit()
    r = _d05(cics_regions=regions)
    native = r.basis.native  # type: ignore[attr-defined]
    lpar = native.lpar_factor
    assert native.intercept_cps == pytest.approx(fit.intercept * regions / PUBLISHED_REGIONS * lpar, rel=1e-12)
    assert native.slope_s == pytest.approx(fit.slope * lpar, rel=1e-12)
    note = next(a for a in r.basis["assumptions"] if a.startswith("CICS fixed base"))  # type: ignore[attr-defined]
    assert f"benchmark's {PUBLISHED_REGIONS} CICS regions" in note and f"sized for {regions} region" in note


def test_default_is_the_benchmarks_count_stated_and_the_base_dominating_is_warned() -> None:
    default, given = _d05(), _d05(cics_regions=PUBLISHED_REGIONS)
    assert default.gcp_utilization == given.gcp_utilization  # type: ignore[attr-defined]
    note = next(a for a in default.basis["assumptions"] if a.startswith("CICS fixed base"))  # type: ignore[attr-defined]
    assert "the benchmark's, by default" in note
    assert "fixed-base-dominates" in default.warning_codes()  # type: ignore[attr-defined]
    # One region: the base is a seventeenth, the LPAR far less busy than the 76 %.
    one = _d05(cics_regions=1)
    assert one.gcp_utilization < default.gcp_utilization / 10  # type: ignore[attr-defined]


def test_at_the_published_top_rate_the_base_does_not_dominate_and_the_answer_is_unchanged() -> None:
    cfg = P.configuration("cicsts-catalog", "v5.3")
    kw = {"target_machine": "2964", "target_machine_type": "2964", "capacity": table(), "tps": 174_624.3, "cps": 18}
    r = size(cfg, **kw)  # type: ignore[arg-type]
    assert "fixed-base-dominates" not in r.warning_codes()
    assert r.gcp_utilization == pytest.approx(0.97, rel=0.01)  # "the LPAR was already running at 97%"


@pytest.mark.parametrize("value", [0, -3, 10_001, 2.5, True])
def test_a_bad_region_count_names_cics_regions(value: object) -> None:
    with pytest.raises(InputError) as err:
        _d05(cics_regions=value)
    assert err.value.argument == "cics_regions"


def test_a_path_without_a_published_region_count_refuses_it() -> None:
    cfg = P.configuration("fiteq-authenticator", "multi-region")
    with pytest.raises(InputError) as err:
        size(cfg, target_machine="2964", target_machine_type="2964", capacity=table(), tps=100.0, cics_regions=3)
    assert err.value.argument == "cics_regions"
