"""models_lib.queueing against peer libraries, closed forms and limit cases.

Reference values come from ``tests/data/reference_cases.json`` (a copy of the project's
shared reference cases, provenance in tests/data/README.md: LINE solver 3.0.8.0 exact MVA,
Ciw 3.2.7 simulation, and an independent log-space convolution that is the truth where LINE
drifts), from closed forms computed here in exact rational arithmetic, or from the formula
quoted next to the assertion.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.integrate import quad
from scipy.special import gammaln, logsumexp

from models_lib.queueing import MMcResult, Station, erlang_c, mmc, mmc_response_times, mva

REFERENCE_FILE = Path(__file__).resolve().parents[1] / "data" / "reference_cases.json"
CASES: list[dict[str, Any]] = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
OPEN_CASES = [c for c in CASES if c["kind"] == "open_mmc"]
CLOSED_CASES = [c for c in CASES if c["kind"] == "closed_mva"]
SIMULATED_CLOSED = [c for c in CLOSED_CASES if "simulation_check" in c]
SCHWEITZER_CASES = [c for c in CLOSED_CASES if "bard_schweitzer" in c.get("approximations", {})]

# Both sides evaluate the same closed form; 1e-12 leaves room for the c rounding steps of the
# Erlang B recursion against LINE's direct sum.
CLOSED_FORM_RTOL = 1e-12
# The file's own agreement threshold between LINE and the independent exact check; ours agrees
# with the independent check to ~1e-12 on every case.
EXACT_RTOL = 1e-9
# Ciw intervals are 95% Student-t over 10 replications (t = 2.262); where the file says the
# analytic value fell outside (1 in 20 intervals do), widen to 99.9% (t = 4.781).
WIDEN_TO_999 = 4.781 / 2.262


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for c in cases]


def _stations(case: dict[str, Any]) -> list[Station]:
    return [Station(s["name"], s["demand"], s.get("servers") or 1, s["kind"]) for s in case["inputs"]["stations"]]


def _solve(case: dict[str, Any], method: str = "exact") -> Any:
    inputs = case["inputs"]
    return mva(_stations(case), inputs["clients"], inputs["think_time"], method=method)  # type: ignore[arg-type]


def _truth(case: dict[str, Any]) -> tuple[float, float]:
    """(X, R): LINE's exact MVA, or the independent exact convolution where LINE drifts."""
    check = case.get("independent_exact_check")
    if check is not None and not check["line_agrees_1e-9"]:
        return check["throughput"], check["response_time"]
    return case["expected"]["throughput"], case["expected"]["response_time"]


def _assert_in_interval(value: float, interval: dict[str, float], analytic_in_ci: bool, what: str) -> None:
    half = interval["half_width_95"] * (1.0 if analytic_in_ci else WIDEN_TO_999)
    assert abs(value - interval["mean"]) <= half, f"{what}={value} outside {interval['mean']} +- {half}"


# --- open M/M/c against LINE and Ciw -------------------------------------------------------


@pytest.mark.parametrize("case", OPEN_CASES, ids=_ids(OPEN_CASES))
def test_mmc_matches_line_closed_form(case: dict[str, Any]) -> None:
    inputs, expected = case["inputs"], case["expected"]
    result = mmc(inputs["arrival_rate"], inputs["service_time"], inputs["servers"])
    assert_allclose(result.utilization, expected["utilization"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(result.p_wait, expected["p_wait"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(result.wait_time, expected["mean_wait_time"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(result.response_time, expected["mean_response_time"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(result.queue_length, expected["mean_queue_length"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(result.number_in_system, expected["mean_number_in_system"], rtol=CLOSED_FORM_RTOL)
    assert_allclose(
        erlang_c(inputs["servers"], inputs["offered_load_erlangs"]), expected["p_wait"], rtol=CLOSED_FORM_RTOL
    )


@pytest.mark.parametrize("case", OPEN_CASES, ids=_ids(OPEN_CASES))
def test_mmc_lies_in_ciw_simulation_intervals(case: dict[str, Any]) -> None:
    inputs, sim = case["inputs"], case["simulation_check"]
    result = mmc(inputs["arrival_rate"], inputs["service_time"], inputs["servers"])
    observed = {
        "utilization": result.utilization,
        "p_wait": result.p_wait,
        "mean_response_time": result.response_time,
        "mean_wait_time": result.wait_time,
    }
    for key, value in observed.items():
        _assert_in_interval(value, sim[key], sim["analytic_in_ci"][key], key)


def test_mmc_pdq_bank_example_matches_literature() -> None:
    # PDQ (DrQz/pdq-qnm-pkg) README bank example: 4 tellers, 0.35 customers/min, 10 min each;
    # PDQ prints R = 24.7572, W = 14.7572 min, L = 8.665, rho = 0.875 (4-6 significant digits).
    result = mmc(arrival_rate=0.35, service_time=10.0, servers=4)
    assert_allclose(result.response_time, 24.7572, atol=5e-5)
    assert_allclose(result.wait_time, 14.7572, atol=5e-5)
    assert_allclose(result.number_in_system, 8.665, atol=5e-4)
    assert_allclose(result.utilization, 0.875, rtol=1e-15)


# --- closed networks against LINE, the independent exact check and Ciw ---------------------


@pytest.mark.parametrize("case", CLOSED_CASES, ids=_ids(CLOSED_CASES))
def test_mva_exact_matches_reference_throughput_and_response_time(case: dict[str, Any]) -> None:
    result = _solve(case)
    throughput, response_time = _truth(case)
    assert_allclose(result.throughput, throughput, rtol=EXACT_RTOL)
    assert_allclose(result.response_time, response_time, rtol=EXACT_RTOL)
    # Response-time law N = X (R + Z), same tolerance.
    inputs = case["inputs"]
    assert_allclose(inputs["clients"] / result.throughput - inputs["think_time"], response_time, rtol=EXACT_RTOL)


HARD_CASES = [c for c in CLOSED_CASES if c["id"].startswith("hard_")]


@pytest.mark.parametrize("case", HARD_CASES, ids=_ids(HARD_CASES))
def test_mva_exact_stays_exact_past_multiserver_saturation(case: dict[str, Any]) -> None:
    # Exact log-space convolution in the file; the textbook load-dependent MVA is off by 30%+.
    result = _solve(case)
    assert_allclose(result.throughput, case["expected"]["throughput"], rtol=1e-10)
    assert_allclose(result.response_time, case["expected"]["response_time"], rtol=1e-10)


STATION_CASES = [c for c in CLOSED_CASES if "stations" in c["expected"]]


@pytest.mark.parametrize("case", STATION_CASES, ids=_ids(STATION_CASES))
def test_mva_exact_per_station_values_match_line(case: dict[str, Any]) -> None:
    result = _solve(case)
    inputs = case["inputs"]
    by_name = {s.name: s for s in _stations(case)}
    if case["independent_exact_check"]["line_agrees_1e-9"]:
        for name, expected in case["expected"]["stations"].items():
            assert_allclose(result.queue_length[name], expected["queue_length"], rtol=EXACT_RTOL)
            assert_allclose(result.residence_time[name], expected["residence_time"], rtol=EXACT_RTOL)
            if by_name[name].kind == "queue":
                assert_allclose(result.utilization[name], expected["utilization"], rtol=EXACT_RTOL)
            else:  # LINE reports a delay's mean number in service X D; ours is a per-server 0.
                assert_allclose(result.throughput * by_name[name].demand, expected["utilization"], rtol=EXACT_RTOL)
                assert result.utilization[name] == 0.0
    else:
        # LINE drifts (up to 6e-6) here; check the exact identities instead: Little's law over
        # the whole cycle, N = X Z + sum_k Q_k, and U_k = X D_k / c_k.
        total = sum(result.queue_length.values()) + result.throughput * inputs["think_time"]
        assert_allclose(total, inputs["clients"], rtol=1e-12)
        for name, station in by_name.items():
            if station.kind == "queue":
                expected_u = min(1.0, result.throughput * station.demand / station.servers)
                assert_allclose(result.utilization[name], expected_u, rtol=1e-15)
            assert_allclose(result.residence_time[name] * result.throughput, result.queue_length[name], rtol=1e-12)


@pytest.mark.parametrize("case", SIMULATED_CLOSED, ids=_ids(SIMULATED_CLOSED))
def test_mva_exact_lies_in_ciw_simulation_intervals(case: dict[str, Any]) -> None:
    result = _solve(case)
    sim = case["simulation_check"]
    in_ci = sim["analytic_in_ci"]
    _assert_in_interval(result.throughput, sim["throughput"], in_ci["throughput"], "throughput")
    _assert_in_interval(result.response_time, sim["response_time"], in_ci["response_time"], "response_time")
    for name, station_sim in sim["stations"].items():
        # Per-station intervals carry no analytic_in_ci flag: use the 99.9% width for them.
        # Simulated utilizations are not compared: the file's busy-time estimator is biased at
        # saturation (closed_single_N1000: U = 0.949 +- 0.001 while its own X = 20.07 +- 0.15
        # with D = 0.05 implies U = X D = 1.00).
        residence = station_sim["residence_time"]
        _assert_in_interval(result.residence_time[name], residence, False, f"{name}.residence_time")


def test_mva_exact_curve_reproduces_every_reference_population_of_its_network() -> None:
    # One solve at N = 200 gives X(n) for n = 1..200; the file's closed_ms6_delay_N* cases are
    # the same network at n = 1, 10, 50, 78, 100, 200.
    family = [c for c in CLOSED_CASES if c["id"].startswith("closed_ms6_delay_N")]
    result = _solve(next(c for c in family if c["inputs"]["clients"] == 200))
    assert result.throughput_curve is not None and result.response_time_curve is not None
    for case in family:
        n = case["inputs"]["clients"]
        throughput, response_time = _truth(case)
        assert_allclose(result.throughput_curve[n - 1], throughput, rtol=EXACT_RTOL)
        assert_allclose(result.response_time_curve[n - 1], response_time, rtol=EXACT_RTOL)


@pytest.mark.parametrize("case", SCHWEITZER_CASES, ids=_ids(SCHWEITZER_CASES))
def test_mva_schweitzer_matches_line_bard_schweitzer(case: dict[str, Any]) -> None:
    # LINE SolverMVA(method='bs', tol=1e-12) with the same Seidmann transformation.
    reference = case["approximations"]["bard_schweitzer"]
    result = _solve(case, method="schweitzer")
    assert_allclose(result.throughput, reference["throughput"], rtol=1e-9)
    assert_allclose(result.response_time, reference["response_time"], rtol=1e-9)


@pytest.mark.parametrize("case", SCHWEITZER_CASES, ids=_ids(SCHWEITZER_CASES))
def test_mva_schweitzer_throughput_within_four_percent_of_exact(case: dict[str, Any]) -> None:
    # Schweitzer's Q(N-1) ~ (N-1)/N Q(N) is exact at N = 1 and as N -> infinity; its error
    # peaks near the knee N*, here at -3.2% (closed_ms6_delay_N78, Seidmann at the 6-CP knee),
    # always on the low side.  4% is what these moderate cases support, not a general
    # guarantee.  Response time is not compared: R = N/X - Z multiplies the throughput error by
    # (R + Z) / R, so the same cases differ by up to 23% in R.
    exact = _solve(case)
    approx = _solve(case, method="schweitzer")
    assert_allclose(approx.throughput, exact.throughput, rtol=0.04)
    assert approx.throughput <= exact.throughput * (1 + 1e-12)


BOUND_CASES = [c for c in CLOSED_CASES if "bounds" in c]


@pytest.mark.parametrize("case", BOUND_CASES, ids=_ids(BOUND_CASES))
def test_mva_bounds_match_line_aba_and_contain_exact(case: dict[str, Any]) -> None:
    # LINE SolverBA(method='aba.upper'|'aba.lower'): min(1/Dmax, N/(D+Z)) and N/(N D + Z).
    result = _solve(case)
    bounds = result.bounds()
    assert_allclose(bounds.throughput_upper, case["bounds"]["throughput_upper_aba"], rtol=1e-14)
    assert_allclose(bounds.throughput_lower, case["bounds"]["throughput_lower_aba"], rtol=1e-14)
    # LINE's balanced job bounds (BJB) are tighter; the exact value lies inside them as well.
    assert case["bounds"]["throughput_lower_bjb"] * (1 - 1e-12) <= result.throughput
    assert result.throughput <= case["bounds"]["throughput_upper_bjb"] * (1 + 1e-12)


@pytest.mark.parametrize("case", CLOSED_CASES, ids=_ids(CLOSED_CASES))
def test_mva_exact_lies_within_asymptotic_bounds(case: dict[str, Any]) -> None:
    result = _solve(case)
    bounds = result.bounds()
    slack = 1e-12
    assert bounds.throughput_lower * (1 - slack) <= result.throughput <= bounds.throughput_upper * (1 + slack)
    assert bounds.response_time_lower * (1 - slack) <= result.response_time
    assert result.response_time <= bounds.response_time_upper * (1 + slack)


# --- closed forms ---------------------------------------------------------------------------


@pytest.mark.parametrize("rho", [0.0, 0.1, 0.5, 0.9, 0.99])
def test_mmc_single_server_is_mm1(rho: float) -> None:
    # M/M/1: P(wait) = rho, R = S / (1 - rho), Lq = rho**2 / (1 - rho) (Kleinrock vol. 1, 3.2).
    service = 0.02
    result = mmc(rho / service, service, 1)
    assert_allclose(result.p_wait, rho, rtol=1e-15, atol=0)
    assert_allclose(result.response_time, service / (1 - rho), rtol=1e-14)
    assert_allclose(result.queue_length, rho**2 / (1 - rho), rtol=1e-14, atol=0)


@pytest.mark.parametrize("load", [0.1, 0.5, 1.0, 1.5, 1.99])
def test_erlang_c_two_servers_closed_form(load: float) -> None:
    # M/M/2: C(2, a) = a**2 / (2 + a), from P0 = (2 - a) / (2 + a); C(2, 1) = 1/3.
    assert_allclose(erlang_c(2, load), load**2 / (2 + load), rtol=1e-14)


def _erlang_c_exact(servers: int, load: Fraction) -> Fraction:
    # C(c, a) = [a^c / c! * c / (c - a)] / [sum_{k<c} a^k / k! + a^c / c! * c / (c - a)].
    term, head = Fraction(1), Fraction(0)
    for k in range(servers):
        head += term
        term = term * load / (k + 1)
    tail = term * servers / (servers - load)
    return tail / (head + tail)


@pytest.mark.parametrize(("servers", "load"), [(1, "0.3"), (18, "15.3"), (200, "190"), (500, "480"), (500, "499.5")])
def test_erlang_c_matches_exact_rational_arithmetic_up_to_500_servers(servers: int, load: str) -> None:
    # a**c / c! overflows a double for c >= 171; the Fraction sum is exact.
    exact = float(_erlang_c_exact(servers, Fraction(load)))
    assert_allclose(erlang_c(servers, float(load)), exact, rtol=1e-12)


def test_erlang_c_is_zero_without_load() -> None:
    assert erlang_c(4, 0.0) == 0.0


@pytest.mark.parametrize(("servers", "load"), [(1, 0.8), (2, 1.0), (4, 3.5), (6, 3.0), (18, 17.0)])
def test_mmc_response_time_sf_matches_numerical_convolution(servers: int, load: float) -> None:
    # P(W + S > t) = P(S > t) + int_0^t mu e^{-mu s} P(W > t - s) ds, P(W > u) = C e^{-theta u}.
    # (2, 1.0) is the theta == mu case where the closed form degenerates to (1 + mu t) e^{-mu t}.
    service = 0.5
    result = mmc(load / service, service, servers)
    mu, theta = 1.0 / service, (servers - load) / service
    for t in (0.0, 0.1, 0.7, 2.0, 6.0):
        integral, _ = quad(
            lambda s, t=t: mu * math.exp(-mu * s) * math.exp(-theta * (t - s)), 0.0, t, epsabs=0, epsrel=1e-13
        )
        expected = math.exp(-mu * t) + result.p_wait * integral
        assert_allclose(result.response_time_sf(t), expected, rtol=1e-11)


@pytest.mark.parametrize("q", [0.5, 0.9, 0.95, 0.99])
def test_mmc_percentiles_mm1_are_exponential_quantiles(q: float) -> None:
    # M/M/1 FCFS: R ~ Exp(mu - lambda), so R_q = -ln(1 - q) / (mu - lambda); W_q = ln(rho / (1 - q)) / (mu - lambda).
    lam, service = 40.0, 0.02
    result = mmc(lam, service, 1)
    rate = 1 / service - lam
    assert_allclose(result.response_time_percentile(q), -math.log(1 - q) / rate, rtol=1e-12)
    assert_allclose(result.wait_time_percentile(q), max(0.0, math.log(0.8 / (1 - q)) / rate), rtol=1e-12)


def test_mmc_percentiles_invert_their_survival_functions() -> None:
    result = mmc(0.35, 10.0, 4)
    for q in (0.1, 0.5, 0.9, 0.999):
        assert_allclose(result.response_time_sf(result.response_time_percentile(q)), 1 - q, rtol=1e-10)
    assert result.wait_time_percentile(0.2) == 0.0  # P(W = 0) = 1 - C = 0.262 > 0.2
    assert_allclose(result.wait_time_sf(result.wait_time_percentile(0.9)), 0.1, rtol=1e-12)


def test_mmc_response_times_vectorised_equals_scalar_loop() -> None:
    rates = np.linspace(0.0, 0.999 * 18 / 0.05, 301)
    curve = mmc_response_times(rates, 0.05, 18)
    loop = [mmc(float(lam), 0.05, 18).response_time for lam in rates]
    assert_allclose(curve, loop, rtol=1e-13)


def test_mmc_limits_light_and_heavy_load() -> None:
    # lambda -> 0: no waiting, R -> S.  rho -> 1: C -> 1 and W (c - a) / S -> C (heavy traffic).
    light = mmc(1e-9, 0.05, 6)
    assert_allclose(light.response_time, 0.05, rtol=1e-12)
    eps = 1e-9
    heavy = mmc(6 * (1 - eps) / 0.05, 0.05, 6)
    assert_allclose(heavy.p_wait, 1.0, rtol=1e-8)
    assert_allclose(heavy.wait_time * 6 * eps / 0.05, 1.0, rtol=1e-6)


def _machine_repairman(demand: Fraction, think: Fraction, servers: int, clients: int) -> tuple[Fraction, Fraction]:
    # Finite-source M/M/c//N: birth rate (N - k) / Z, death rate min(k, c) / D, so
    # p_k / p_0 = N! / (N - k)! (D / Z)^k / prod_{i<=k} min(i, c); X = sum_k p_k min(k, c) / D.
    weights = [Fraction(1)]
    for k in range(1, clients + 1):
        weights.append(weights[-1] * (clients - k + 1) * demand / (think * min(k, servers)))
    total = sum(weights)
    throughput = sum(w * min(k, servers) for k, w in enumerate(weights)) / (demand * total)
    return throughput, clients / throughput - think


@pytest.mark.parametrize("clients", [1, 5, 20, 100, 150])
def test_mva_single_server_with_think_time_is_machine_repairman(clients: int) -> None:
    demand, think = 0.05, 5.0
    throughput, response = _machine_repairman(Fraction(demand), Fraction(think), 1, clients)
    result = mva([Station("CPU", demand)], clients, think)
    assert_allclose(result.throughput, float(throughput), rtol=1e-13)
    assert_allclose(result.response_time, float(response), rtol=1e-12)


@pytest.mark.parametrize("clients", [20, 30, 50, 200])
def test_mva_six_servers_past_saturation_is_exact_finite_source_queue(clients: int) -> None:
    # Same network as the hard_ms6_D0.2_Z5 cases, checked in exact rational arithmetic.
    demand, think = 0.2, 5.0
    throughput, response = _machine_repairman(Fraction(demand), Fraction(think), 6, clients)
    result = mva([Station("CPU", demand, servers=6)], clients, think)
    assert_allclose(result.throughput, float(throughput), rtol=1e-13)
    assert_allclose(result.response_time, float(response), rtol=1e-12)


def test_mva_delay_only_network_throughput_is_n_over_d_plus_z() -> None:
    # No queueing anywhere: X = N / (D + Z) exactly, Q_k = X D_k.
    stations = [Station("NET", 0.004, kind="delay"), Station("BIG", 0.03, servers=500)]
    result = mva(stations, 400, 1.0)
    assert_allclose(result.throughput, 400 / 1.034, rtol=1e-14)
    assert_allclose(result.queue_length["BIG"], 400 / 1.034 * 0.03, rtol=1e-14)
    assert_allclose(result.response_time, 0.034, rtol=1e-13)
    assert result.bottleneck == "BIG"


def test_mva_one_client_sees_no_queueing() -> None:
    # Load -> 0: R(1) = sum of demands, X(1) = 1 / (D + Z).
    stations = [Station("CP", 0.003, servers=18), Station("DASD", 0.002), Station("NET", 0.01, kind="delay")]
    result = mva(stations, 1, 0.5)
    assert_allclose(result.response_time, 0.015, rtol=1e-14)
    assert_allclose(result.throughput, 1 / 0.515, rtol=1e-15)


def test_mva_many_clients_saturate_the_multiserver_bottleneck() -> None:
    # N -> infinity: X -> c / D of the bottleneck (18 / 0.036 = 500/s) and R -> N D/c - Z.
    stations = [Station("CP", 0.036, servers=18), Station("DASD", 0.0015), Station("NET", 0.004, kind="delay")]
    result = mva(stations, 50_000, 1.0)
    assert result.bottleneck == "CP"
    assert_allclose(result.throughput, 500.0, rtol=1e-12)
    assert_allclose(result.response_time, 50_000 / 500.0 - 1.0, rtol=1e-12)
    assert_allclose(result.utilization["CP"], 1.0, rtol=1e-12)
    assert_allclose(result.utilization["DASD"], 0.75, rtol=1e-12)


def test_mva_zero_clients_is_the_zero_load_limit() -> None:
    result = mva([Station("CP", 0.01, servers=2), Station("NET", 0.002, kind="delay")], 0, 0.5)
    assert result.throughput == 0.0
    assert result.response_time == pytest.approx(0.012, rel=1e-15)
    assert result.throughput_curve is not None and result.throughput_curve.size == 0


def test_mva_curves_are_read_only_and_consistent_with_response_time_law() -> None:
    stations = [Station("CP", 0.0036, servers=18), Station("DASD", 0.0015)]
    result = mva(stations, 2_000, 0.5)
    assert result.throughput_curve is not None and result.response_time_curve is not None
    assert result.throughput_curve.shape == result.response_time_curve.shape == (2_000,)
    n = result.populations
    assert_allclose(n / result.throughput_curve - 0.5, result.response_time_curve, rtol=1e-10)
    assert result.throughput_curve[-1] == result.throughput
    assert_allclose(result.response_time_curve[-1], result.response_time, rtol=1e-14)
    with pytest.raises(ValueError, match="read-only"):
        result.throughput_curve[0] = 1.0


def test_zos_connect_sizing_sanity() -> None:
    # z/OS Connect EE style: 100..500 clients, 500 ms think time, 1.2 ms of CP per request on
    # a 6-CP LPAR (capacity 6 / 0.0012 = 5000/s, far away): throughput ~ N / (0.5 + R).
    cp = Station("CP", 0.0012, servers=6)
    result = mva([cp], 500, 0.5)
    assert result.throughput_curve is not None
    for clients in (100, 200, 300, 500):
        x = result.throughput_curve[clients - 1]
        r = result.response_time_curve[clients - 1] if result.response_time_curve is not None else math.nan
        assert_allclose(x, clients / (0.5 + r), rtol=1e-12)
        assert 0.99 * clients / 0.5012 < x <= clients / 0.5012  # R stays close to D = 1.2 ms
        assert 195 < x < 1000
    assert_allclose(result.utilization["CP"], result.throughput * 0.0012 / 6, rtol=1e-15)


# --- validation -----------------------------------------------------------------------------


@pytest.mark.parametrize("servers", [0, -1, 2.5, True, "2", math.nan])
def test_station_rejects_bad_servers(servers: object) -> None:
    with pytest.raises(ValueError, match="servers"):
        Station("CP", 0.01, servers=servers)  # type: ignore[arg-type]


@pytest.mark.parametrize("demand", [-0.001, math.nan, math.inf, "0.1", None])
def test_station_rejects_bad_demand(demand: object) -> None:
    with pytest.raises(ValueError, match="demand"):
        Station("CP", demand)  # type: ignore[arg-type]


def test_station_rejects_unknown_kind_and_empty_name() -> None:
    with pytest.raises(ValueError, match="kind.*'fcfs'"):
        Station("CP", 0.01, kind="fcfs")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="name"):
        Station("", 0.01)


def test_station_accepts_integral_float_servers() -> None:
    assert Station("CP", 0.01, servers=6.0).servers == 6  # type: ignore[arg-type]


@pytest.mark.parametrize("clients", [-1, 2.5, True, math.inf])
def test_mva_rejects_bad_clients(clients: object) -> None:
    with pytest.raises(ValueError, match="clients"):
        mva([Station("CP", 0.01)], clients, 1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("think_time", [-1.0, math.nan, math.inf])
def test_mva_rejects_bad_think_time(think_time: float) -> None:
    with pytest.raises(ValueError, match="think_time"):
        mva([Station("CP", 0.01)], 10, think_time)


def test_mva_rejects_unknown_method_duplicates_and_zero_demand() -> None:
    with pytest.raises(ValueError, match="method.*'linearizer'"):
        mva([Station("CP", 0.01)], 10, 1.0, method="linearizer")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="stations.*'CP'"):
        mva([Station("CP", 0.01), Station("CP", 0.02)], 10, 1.0)
    with pytest.raises(ValueError, match="think_time"):
        mva([Station("CP", 0.0)], 10, 0.0)
    with pytest.raises(ValueError, match="stations"):
        mva(Station("CP", 0.01), 10, 1.0)  # type: ignore[arg-type]


def test_mva_exact_rejects_more_than_600_pooled_servers_below_the_population() -> None:
    # Each c-server station can amplify values by ~exp(c); past 600 servers in total the
    # values that still matter fall below the range of a double.
    with pytest.raises(ValueError, match="servers=700"):
        mva([Station("POOL", 0.7, servers=700)], 1_000, 0.1)
    with pytest.raises(ValueError, match="servers=300"):
        mva([Station("CP", 0.4, servers=400), Station("TASKS", 0.3, servers=300)], 1_000, 0.1)
    # At or below c clients the station never queues and is solved as a delay.
    assert_allclose(mva([Station("POOL", 0.7, servers=700)], 700, 0.1).throughput, 700 / 0.8, rtol=1e-14)
    # Schweitzer has no such limit.
    assert mva([Station("POOL", 0.7, servers=700)], 1_000, 0.1, method="schweitzer").throughput > 0


def _log_space_throughput(stations: list[tuple[float, int]], think: float, clients: int) -> float:
    # Independent check: log G by direct convolution of log terms with logsumexp, O(N^2).
    n = np.arange(clients + 1)
    log_g = n * math.log(think) - gammaln(n + 1)
    for demand, servers in stations:
        divisor = np.where(n <= servers, gammaln(n + 1), gammaln(servers + 1) + (n - servers) * math.log(servers))
        log_f = n * math.log(demand) - divisor
        log_g = np.array([logsumexp(log_g[: m + 1] + log_f[m::-1]) for m in range(clients + 1)])
    return math.exp(log_g[-2] - log_g[-1])


def test_mva_exact_two_large_pools_at_saturation_match_log_space_convolution() -> None:
    # 300 + 300 servers (the supported total), both saturating at 1000/s, 1,500 clients.
    stations = [(0.3, 300), (0.29, 300)]
    expected = _log_space_throughput(stations, 2.0, 1_500)
    result = mva([Station(f"P{i}", d, servers=c) for i, (d, c) in enumerate(stations)], 1_500, 2.0)
    # The log-space reference carries ~1e-12 relative rounding (logs of size ~1e4).
    assert_allclose(result.throughput, expected, rtol=1e-10)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: mmc(100.0, 0.01, 1), "arrival_rate"),
        (lambda: mmc(1000.0, 0.01, 6), "arrival_rate"),
        (lambda: mmc(-1.0, 0.01, 1), "arrival_rate"),
        (lambda: mmc(1.0, 0.0, 1), "service_time"),
        (lambda: mmc(1.0, math.nan, 1), "service_time"),
        (lambda: mmc(1.0, 0.01, 0), "servers"),
        (lambda: mmc(1.0, 0.01, 1.5), "servers"),  # type: ignore[arg-type]
        (lambda: erlang_c(4, 4.0), "offered_load"),
        (lambda: erlang_c(4, -0.5), "offered_load"),
        (lambda: erlang_c(0, 0.5), "servers"),
        (lambda: mmc_response_times([1.0, 700.0], 0.01, 6), "arrival_rates"),
        (lambda: mmc_response_times([1.0, math.nan], 0.01, 6), "arrival_rates"),
    ],
)
def test_open_queue_validation_names_the_argument(call: Any, argument: str) -> None:
    with pytest.raises(ValueError, match=argument):
        call()


@pytest.mark.parametrize("q", [-0.1, 1.0, math.nan])
def test_mmc_percentile_rejects_bad_probability(q: float) -> None:
    result: MMcResult = mmc(1.0, 0.1, 1)
    with pytest.raises(ValueError, match="q must"):
        result.response_time_percentile(q)
    with pytest.raises(ValueError, match="q must"):
        result.wait_time_percentile(q)
