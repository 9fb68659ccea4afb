"""Issue 32 items 1, 3 and 4: the quote a capacity planner signs.

* The default mix (``fewest-cps``): the fewest CPs that carry the CP work (ineligible work plus
  whatever eligible work the specialty engines cannot take within the generation's ratio)
  within the ceiling, then the fewest specialty engines within their ceiling and the ratio.
* One predicate for "fits" (:func:`models_lib.feasibility.fits_at`), and "the most it carries"
  the largest rate for which it holds.
* No CPU data, no CPU verdict (HostBridge).

Grids over every path and configuration, z10, zEC12, z13, z16, z17, a sub-capacity and a
midrange setting, and rates past saturation (sized for a 2-core machine: each test a few
seconds).  Configurations come from benchmarks/ (tests/models_lib/published.py), ratings and
engine rules from tests/models_lib/engine_data.py; the expected values are the rule itself,
evaluated with the engine's own split (:meth:`PreparedWorkload.evaluate`), never a pasted output.
"""

from __future__ import annotations

from functools import cache

import pytest

from models_lib.choice import DEFAULT_OBJECTIVE, OBJECTIVES
from models_lib.feasibility import fits_at, most_carried
from models_lib.prepared import PreparedWorkload, prepare
from models_lib.sizing import SizingResult
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

Z16, ZEC12 = "3931", "2827"

#: Every configuration with CPU data (HostBridge publishes none).
CONFIGS = [(c.path, c.configuration) for c in P.all_configurations() if c.path != "hostbridge-http"]
#: z10, zEC12, z13, z16, z17 at full speed, a sub-capacity z16 (4xx) and a midrange z17 (9176 D00).
TARGETS = [(Z10, None), (ZEC12, None), (Z13, None), (Z16, None), (Z17, None), (Z16, "400"), ("9176", "D00")]
#: 10 TPS to 1,000,000 TPS, a factor of 3.2 apart: past saturation on every target.
RATES = [10.0 * 3.2**k for k in range(11)]


@cache
def _prepared(path: str, configuration: str, machine_type: str, setting: str | None, **kw: float) -> PreparedWorkload:
    return prepare(
        P.configuration(path, configuration),
        target_machine=machine_type,
        target_machine_type=machine_type,
        capacity=table(),
        capacity_setting=setting,
        **kw,  # type: ignore[arg-type]
    )


def _ids(items: list[tuple[str, str | None]]) -> list[str]:
    return [f"{a}-{b}" for a, b in items]


# -- item 1: the default mix ------------------------------------------------------------------


def test_the_default_objective_is_the_fewest_cps_and_least_msu_is_an_alias() -> None:
    assert DEFAULT_OBJECTIVE == "fewest-cps" and OBJECTIVES[0] == "fewest-cps"
    pw = _prepared("zosconnect-cics", "channel", Z17, None)
    old = pw.answer(1000.0, objective="least-msu")
    assert old.objective == "least-msu-consumed"
    assert (old.cps, old.ziips) == (lambda r: (r.cps, r.ziips))(pw.answer(1000.0, objective="least-msu-consumed"))


def _check_default(pw: PreparedWorkload, r: SizingResult, tps: float) -> None:
    """One CP fewer would put the CP work above the ceiling or break the 1-CP minimum; the
    specialty engines are the fewest that carry the eligible work within the ceiling and ratio."""
    assert r.cps is not None and r.ziips is not None
    counts = pw.counts
    i = counts.index(r.cps)
    if i == 0:
        assert r.cps == max(1, pw.policy.min_cps)  # the 1-CP minimum (an LPAR needs one CP)
    else:
        fewer = counts[i - 1]
        split = pw.evaluate(tps, fewer)
        assert split.gcp / fewer > pw.max_utilization, (fewer, split.gcp / fewer)
    here = pw.evaluate(tps, r.cps)
    assert here.gcp / r.cps <= pw.max_utilization + 1e-9
    cap = pw.policy.max_engines(r.cps)
    assert r.ziips == here.engines and (cap is None or r.ziips <= cap)
    if here.on_gcp > 0.0:  # eligible work on CPs only where the ratio caps the engines
        assert cap is not None and r.ziips == cap
    elif r.ziips > 0:  # one engine fewer would not carry the eligible work within the ceiling
        assert here.special > (r.ziips - 1) * pw.ziip_max_utilization


@pytest.mark.parametrize("target", TARGETS, ids=_ids(TARGETS))
def test_default_mix_one_cp_fewer_breaks_the_ceiling_or_the_one_cp_minimum(target: tuple[str, str | None]) -> None:
    for cfg in CONFIGS:
        pw = _prepared(*cfg, *target)
        for tps in RATES:
            r = pw.answer(tps)
            assert r.objective == "fewest-cps"
            if r.feasibility.feasible:
                _check_default(pw, r, tps)
                if r.alternative is not None:  # least MSU consumed, with what each costs
                    alt = r.alternative
                    assert alt.objective == "least-msu-consumed" and alt.cps > r.cps
                    assert r.capacity_detail is not None and alt.msu_installed is not None
                    assert alt.msu_installed >= r.capacity_detail.cp.msu_installed
                    assert alt.msu is not None and r.msu is not None and alt.msu <= r.msu * (1 + 1e-9)


@pytest.mark.parametrize(("machine_type", "tps"), [(ZEC12, 5000.0), (Z10, 1000.0)])
def test_the_issues_examples_no_longer_buy_cps_to_license_zaaps(machine_type: str, tps: float) -> None:
    # z/OS Connect (channel) on zEC12 at 5,000 TPS answered 38 CPs + 38 zAAPs at 2.2 % CP busy;
    # on z10 at 1,000 TPS 10 + 10 at 2.3 % (issue 32 item 1).  The default is now the fewest CPs
    # that carry the CP work; that mix is the alternative, with its installed and consumed MSU.
    pw = _prepared("zosconnect-cics", "channel", machine_type, None)
    r = pw.answer(tps)
    _check_default(pw, r, tps)
    assert r.gcp_utilization is not None and r.gcp_utilization > 0.5  # the CPs bought are used
    least = pw.answer(tps, objective="least-msu-consumed")
    assert least.gcp_utilization is not None and least.gcp_utilization < 0.05  # the issue's 2.2 %, 2.3 %
    assert r.alternative is not None and (r.alternative.cps, r.alternative.ziips) == (least.cps, least.ziips)
    assert least.capacity_detail is not None and r.capacity_detail is not None
    assert r.alternative.msu_installed == least.capacity_detail.cp.msu_installed
    assert r.capacity_detail.cp.msu_installed < least.capacity_detail.cp.msu_installed
    assert least.cps is not None and r.cps is not None and r.cps < least.cps


# -- item 3: one predicate for "fits" ---------------------------------------------------------


def _fits_agrees(pw: PreparedWorkload, tps: float, cps: int | None, sla: float | None, most: float | None) -> None:
    r = pw.answer(tps, cps=cps, response_time_sla_ms=sla)
    fits = fits_at(pw, tps, cps=cps, sla=sla)
    assert r.feasibility.feasible is fits
    assert fits == (most is not None and tps <= most), (tps, most, r.feasibility.message)
    if fits:
        # the decision's own choice agrees: a count it picked (or the one given) carries the rate
        assert r.cps is not None and r.cps_required is not None and r.gcp_utilization is not None
        assert r.gcp_utilization <= pw.max_utilization + 1e-9 and r.gcp_utilization < 1.0
        rt = r.response_time_ms["value"]
        assert sla is None or rt is None or rt <= sla
    else:
        assert r.cps is None and r.ziips is None and "does-not-fit" in r.warning_codes()
        assert r.feasibility.max_tps == (None if most is None else pytest.approx(most, rel=1e-12))


@pytest.mark.parametrize("target", TARGETS, ids=_ids(TARGETS))
def test_fits_exactly_when_the_rate_is_at_most_the_most_carried(target: tuple[str, str | None]) -> None:
    for cfg in CONFIGS:
        pw = _prepared(*cfg, *target)
        most = most_carried(pw)
        top = None if most is None else most.tps
        for tps in RATES:
            _fits_agrees(pw, tps, None, None, top)
        if top is not None:  # either side of the boundary
            _fits_agrees(pw, top * (1 - 1e-6), None, None, top)
            _fits_agrees(pw, top * (1 + 1e-6), None, None, top)
        given = pw.counts[min(3, len(pw.counts) - 1)]
        most_given = most_carried(pw, cps=given)
        for tps in RATES[:7]:
            _fits_agrees(pw, tps, given, None, None if most_given is None else most_given.tps)


@pytest.mark.parametrize("configuration", ["multi-region", "single-region", "multi-region-log"])
def test_a_response_goal_is_part_of_fits_and_of_the_most_carried(configuration: str) -> None:
    pw = _prepared("fiteq-authenticator", configuration, Z17, None)
    most = most_carried(pw, sla=20.0)
    assert most is not None
    for tps in [*RATES[:8], most.tps * (1 - 1e-6), most.tps * (1 + 1e-6)]:
        _fits_agrees(pw, tps, None, 20.0, most.tps)


def test_the_issues_examples_of_fits() -> None:
    # CICS TG exci-commarea-31 on 9176-D05 (5 CPs at setting D00): 1,100 TPS "fit" at 97 % CP
    # busy while 2,000 TPS said the most this model carries is 964 TPS.  One predicate now.
    pw = _prepared("cicstg", "exci-commarea-31", "9176", "D00")
    at_1100, at_2000 = pw.answer(1100.0, cps=5), pw.answer(2000.0, cps=5)
    assert at_1100.feasibility.feasible is False and at_1100.feasibility.reason == "ceiling"
    assert at_1100.gcp_utilization is not None and at_1100.gcp_utilization > 0.85
    assert at_1100.feasibility.max_tps == at_2000.feasibility.max_tps
    most = at_1100.feasibility.max_tps
    assert most is not None and most < 1100.0
    below = pw.answer(most * (1 - 1e-9), cps=5)
    assert below.feasibility.feasible and below.gcp_utilization == pytest.approx(0.85, rel=1e-6)
    # z/OS Connect on z13, 6 CPs, no zIIPs, 256 KB at 600 TPS: exactly 100 % busy never fits.
    zc = _prepared("zosconnect-cics", "channel", Z13, None, payload_bytes=262144)  # type: ignore[arg-type]
    r = zc.answer(600.0, cps=6, ziips=0)
    assert r.gcp_utilization == pytest.approx(1.0, rel=1e-12) and r.feasibility.feasible is False
    # FiTeq multi-region on z17 at 8,800 TPS with a 20 ms goal: 40.5 ms, not feasible; its software
    # station (the HSM channel, REDP-5114 11.3) runs above the 85 % ceiling there, which binds
    # first: the most carried is the ceiling x the station's saturation, where the goal is met.
    fpw = _prepared("fiteq-authenticator", "multi-region", Z17, None)
    fq = fpw.answer(8800.0, response_time_sla_ms=20.0)
    assert fq.feasibility.feasible is False and fq.feasibility.reason == "software-limit"
    assert fq.response_time_ms["value"] is not None and fq.response_time_ms["value"] > 20.0
    assert fpw.response is not None and fpw.response.software is not None
    most = fq.feasibility.max_tps
    assert most == pytest.approx(fpw.max_utilization * fpw.response.software.saturation_tps(), rel=1e-9)
    assert fits_at(fpw, most, sla=20.0) and not fits_at(fpw, most * (1 + 1e-6), sla=20.0)


def test_a_software_station_above_the_ceiling_does_not_fit_and_names_it() -> None:
    # A planner's review: FiTeq multi-region on z17 at 8,000 TPS "fitted" with its CPs at 74 %
    # while the software station that binds (the HSM channel, REDP-5114 11.3) ran at 91 %, 1.10x
    # from saturation.  The ceiling holds every resource that binds: it does not fit, the station
    # is named, and the most it carries is the ceiling x the station's saturation (0.85 x 8,830).
    pw = _prepared("fiteq-authenticator", "multi-region", Z17, None)
    assert pw.response is not None and pw.response.software is not None
    software = pw.response.software
    tps = 8000.0
    r = pw.answer(tps)
    util = software.utilization(tps)
    assert util > pw.max_utilization and r.gcp_utilization is not None and r.gcp_utilization < pw.max_utilization
    assert r.binding_resource is not None and r.binding_resource.resource == "software"
    assert r.binding_resource.utilization == pytest.approx(util, rel=1e-12)
    assert r.feasibility.feasible is False and r.feasibility.reason == "software-limit" and r.cps is None
    assert r.saturation_binding is not None and r.saturation_binding.resource == "software"
    assert r.saturation_tps == pytest.approx(software.saturation_tps(), rel=1e-12)
    most = r.feasibility.max_tps
    assert most is not None and most == pytest.approx(pw.max_utilization * software.saturation_tps(), rel=1e-12)
    message = r.feasibility.message or ""
    assert f"software station (1 server) at {util:.0%} busy, above the {pw.max_utilization:.0%} ceiling" in message
    assert f"carries is {most:,.0f} TPS" in message and f"at {pw.max_utilization:.0%} busy" in message
    # the most carried fits, just above it does not; the group path answers the same
    rates = [most, most * (1 + 1e-6), tps]
    assert [pw.answer(t).feasibility.feasible for t in rates] == [True, False, False]
    assert [a.to_dict() for a in pw.answers(rates)] == [pw.answer(t).to_dict() for t in rates]


def test_published_configurations_stay_sustainable() -> None:
    # CICS TG: "3 CPs + 1 zAAP at 1,780 TPS" sustained on the z10 (seed 004, Table 1); judged
    # against saturation (a ceiling of 1), not the planner's 85 %.
    for configuration in ("exci-commarea-31", "ipic-commarea-31"):
        pw = _prepared("cicstg", configuration, Z10, None, max_utilization=1.0)
        r = pw.answer(1780.0, cps=3, ziips=1)
        assert r.feasibility.feasible is True and r.gcp_utilization is not None and r.gcp_utilization < 1.0


# -- item 4: no CPU data, no CPU verdict ------------------------------------------------------


@pytest.mark.parametrize("configuration", ["default-tcpip", "tuned-tcpip"])
def test_no_cpu_figures_give_no_cpu_verdict(configuration: str) -> None:
    for target in TARGETS:
        pw = _prepared("hostbridge-http", configuration, *target)
        for tps in (1.0, 500.0, 500_000.0):
            r = pw.answer(tps)
            fit = r.feasibility
            assert fit.feasible is None and fit.reason == "no-cpu-data"
            assert fit.message is not None and "so no CPU verdict" in fit.message
            floor = r.response_time_ms["low"]
            assert floor is not None and f"{floor:,.4g} ms" in fit.message  # what is known
            assert r.to_dict()["feasible"] is None
