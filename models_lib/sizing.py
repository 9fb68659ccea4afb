"""The sizing engine: from published data to CPs, zIIPs, MIPS and response time.

:func:`size` is ``prepare(...).answer(...)`` (:mod:`models_lib.prepared`); each step lives in a
module named after it (docs/architecture.md lists them).

:func:`size` answers "what does configuration X need to carry ``tps`` transactions/s on
machine Y?" in these steps:

1. **CPU per transaction on the measured machine.**  Where the source publishes CPU at
   several rates, the linear cost model of :mod:`models_lib.costmodel` (primary component:
   LPAR busy where published, else CICS address spaces) predicts busy CPs at ``tps`` with a
   95 % prediction interval.  Where the source only publishes throughput observed on a known
   capacity (:class:`~models_lib.inputs.CapacityBound`), CPU per transaction is bounded:
   ``<= engines / tps`` for a sustained rate, ``> engines / tps`` for an exhausted one.  The
   central value is then the **upper bound** (conservative: the engine never promises more
   capacity than a published run demonstrated), and the interval runs from the lower bound (0
   where none is published) to the upper bound.  Where the source also publishes a table of
   throughput against clients at a think time, measured on the capacity of the sustained
   bound (z/OS Connect EE V3.0, section 7.1), the upper bound is tightened to the largest cost
   with which the closed network reproduces every row (:func:`cost_from_throughput_rows`,
   :data:`THROUGHPUT_TABLE_TOLERANCE`); the reported range keeps the published bounds.
2. **Payload.**  A published proportionality scales the cost from the measured payload; a
   "linear" statement with an unknown fixed part gives a range whose higher-cost end is used.
3. **Projection** to the target machine and CP count with LSPR (:mod:`models_lib.capacity`):
   CP-seconds on the target = CP-seconds measured * factor.  When ``cps`` is not given the
   smallest CP count is searched from 1 up: per-CP capacity depends on the count, so every
   count gets its own factor.
4. **zIIP split** (:mod:`models_lib.ziip`) with the published eligible share (0, with a
   warning, where none is published).
5. **Response time** (:mod:`models_lib.response`): open M/M/c at ``tps`` or, with ``clients``
   and ``think_time_s``, a closed network solved by MVA (:mod:`models_lib.queueing`).
6. **Saturation** rate and **warnings** with stable codes (:data:`WARNING_CODES`).

References
----------
.. [1] IBM, "Large Systems Performance Reference" (LSPR), SC28-1187.
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004 (service demand law, open and closed queueing networks).
.. [3] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980, pp. 313-322.
"""

from __future__ import annotations

from models_lib.answer import DEFAULT_MAX_UTILIZATION, WARNING_CODES, SizingResult, SizingWarning
from models_lib.checks import InputError
from models_lib.cost_bounds import THROUGHPUT_TABLE_TOLERANCE, cost_from_throughput_rows
from models_lib.costmodel import DEFAULT_LEVEL, ConfigurationModel
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData
from models_lib.prepared import PreparedWorkload, prepare
from models_lib.pricing import PriceBook
from models_lib.response import ResponseModel
from models_lib.response_step import closed_network

__all__ = [
    "DEFAULT_MAX_UTILIZATION",
    "THROUGHPUT_TABLE_TOLERANCE",
    "WARNING_CODES",
    "InputError",
    "PreparedWorkload",
    "SizingResult",
    "SizingWarning",
    "closed_network",
    "cost_from_throughput_rows",
    "prepare",
    "size",
]


def size(
    config: ConfigurationData,
    *,
    target_machine: str,
    target_machine_type: str,
    capacity: CapacityTable,
    tps: float,
    cps: int | None = None,
    ziips: int | None = None,
    max_utilization: float = DEFAULT_MAX_UTILIZATION,
    payload_bytes: int | None = None,
    clients: int | None = None,
    think_time_s: float | None = None,
    response_time_sla_ms: float | None = None,
    model: ConfigurationModel | None = None,
    response_model: ResponseModel | None = None,
    ziip_max_utilization: float | None = None,
    level: float = DEFAULT_LEVEL,
    capacity_setting: str | None = None,
    projection_band: float | None = None,
    lpar_overhead: float | None = None,
    server_share: float | None = None,
    other_cost: ComponentCost | None = None,
    smt2_factor: float | None = None,
    objective: str = "fewest-cps",
    price_book: PriceBook | None = None,
    cics_regions: int | None = None,
) -> SizingResult:
    """Size a configuration for a transaction rate on a target machine.

    Parameters
    ----------
    config : ConfigurationData
        Published data of the configuration.
    target_machine : str
        Slug of the target machine (carried into the result).
    target_machine_type : str
        Its IBM machine type, the key into ``capacity``.
    capacity : CapacityTable
        LSPR ratings.
    tps : float
        Transaction rate to size for, transactions/s (> 0).
    cps : int, optional
        General-purpose CPs of the target LPAR; by default the smallest count that carries the
        GCP demand within ``max_utilization`` (and the SLA, see below).
    ziips : int, optional
        zIIPs of the target LPAR; by default enough for all eligible work within the zIIP
        ceiling.
    max_utilization : float
        Ceiling on mean GCP utilisation, in (0, 1].  Default :data:`DEFAULT_MAX_UTILIZATION`
        = 0.85: the sources show good response at 76 % LPAR busy (REDP-5114 Table 11-1) and
        call 97 % constrained (REDP-5320); 0.85 leaves headroom for peaks inside an RMF
        interval.
    payload_bytes : int, optional
        Response payload size, bytes (the size the sources vary).
    clients : int, optional
        Simulated/real clients of a closed workload (with ``think_time_s``).
    think_time_s : float, optional
        Client think time, s (with ``clients``).
    response_time_sla_ms : float, optional
        Response-time objective, ms.  When the configuration has a response-time model with
        published data, ``cps_required`` is raised above the ceiling-based count to the first
        count that meets the objective or, when no count can, to the count with the shortest
        CP residence (more CPs would not help); ``sla-missed`` is reported when it is missed.
    model : ConfigurationModel, optional
        Pre-fitted cost model (avoids refitting); must belong to ``config``.
    response_model : ResponseModel, optional
        Pre-fitted response model (avoids refitting).
    ziip_max_utilization : float, optional
        zIIP utilisation ceiling; defaults to ``max_utilization``.
    level : float
        Coverage of the cost interval (default 0.95).
    capacity_setting : str, optional
        Capacity setting of the target model (``"5xx"`` as ``"500"``, ``"A00"`` ..): CP work
        projects with that setting's rating, specialty-engine work with the full-speed rating
        (specialty engines run at full speed).  Default: full speed.
    projection_band : float, optional
        Relative error band of the LSPR projection to another machine or CP count, in [0, 1)
        (e.g. the spread between the LSPR LOW and HIGH workload categories the user picks);
        widens every range when the projection is not the identity.  Default: none (the
        ranges then carry no projection error, and the basis says so).
    lpar_overhead : float, optional
        Where a source publishes the CICS address spaces' CPU only (CICS TS): the rest of the
        LPAR (z/OS, TCP/IP, monitors) as a share of the CICS CPU, >= 0; the LPAR is sized as
        CICS x (1 + ``lpar_overhead``).  Default: the overhead the source states beside its
        CICS CPU (REDP-5320: 0.1645, range 0.1136-0.1705 carried into the cost range); where
        none is stated, the ``cics-only`` warning says the answer covers the CICS regions only.
    server_share : float, optional
        Where the eligible share was published for part of the demand (the z/OS Connect server,
        not CICS): that part's share of the demand, in [0, 1] (user override).
    other_cost : ComponentCost, optional
        A published cost of the rest of the demand (CICS) on the same machine type, from which
        the part's share is derived when ``server_share`` is not given.
    smt2_factor : float, optional
        Throughput of one zIIP core with SMT-2 (two threads) relative to one without, in [1, 2]
        (e.g. 1.2 to 1.4; IBM publishes no single factor).  Applied only on generations that run
        SMT-2 on zIIPs (z13 and later); the basis says "SMT-2 on zIIPs: ..." in every answer.
        Default: not applied.
    objective : {"fewest-cps", "least-msu-consumed", "fewest-engines", "least-cost"}
        What the choice of CPs and specialty engines minimises among the mixes within the
        generation's rules, the machine's engines and the ceilings (default ``"fewest-cps"``:
        the fewest CPs that carry the CP work, then the fewest specialty engines within the
        ratio; ``least-msu`` is accepted for ``least-msu-consumed``;
        :data:`models_lib.choice.OBJECTIVES`; ``"least-cost"``: the least total cost over the
        term from ``price_book``, an InputError naming ``objective`` without one).
    price_book : PriceBook, optional
        The user's prices (:class:`models_lib.pricing.PriceBook`); the answer then carries the
        chosen configuration's ``cost``.  Default: none, and no cost is shown.
    cics_regions : int, optional
        CICS regions of the sized LPAR, where the source publishes its own count (CICS TS:
        REDP-5320's 17): the fitted fixed base (intercept) is scaled to it
        (:mod:`models_lib.regions`).  Default: the benchmark's count, stated in the basis.

    Returns
    -------
    SizingResult

    Raises
    ------
    InputError
        (a ``ValueError``) with ``.argument`` the input's name, for invalid inputs; or when the configuration has no CPU data
        and no published response floor (nothing can be sized).

    References
    ----------
    .. [1] LSPR (SC28-1187); Menasce, Almeida and Dowdy (2004); Reiser and Lavenberg (1980).
    """
    prepared = prepare(
        config,
        target_machine=target_machine,
        target_machine_type=target_machine_type,
        capacity=capacity,
        max_utilization=max_utilization,
        ziip_max_utilization=ziip_max_utilization,
        payload_bytes=payload_bytes,
        level=level,
        capacity_setting=capacity_setting,
        projection_band=projection_band,
        lpar_overhead=lpar_overhead,
        server_share=server_share,
        model=model,
        response_model=response_model,
        other_cost=other_cost,
        smt2_factor=smt2_factor,
        objective=objective,
        cics_regions=cics_regions,
    )
    return prepared.answer(
        tps,
        cps=cps,
        ziips=ziips,
        clients=clients,
        think_time_s=think_time_s,
        response_time_sla_ms=response_time_sla_ms,
        price_book=price_book,
    )
