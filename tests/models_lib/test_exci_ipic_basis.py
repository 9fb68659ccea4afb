"""Issue 32 item 12: EXCI and IPIC get the same CPU cost, and the answer says why.

Seed 004 (CICS TG V9.0 performance summary), Scenario 1: "Although the total path length is
slightly longer for both CICS TS and CICS TG when using IPIC, the offload potential is such that
GCP costs are lowered."  The costs per transaction were in Illustration 2, which is lost, so no
figure separates IPIC from EXCI.  The engine carries EXCI's floor over to IPIC (IPIC costs at least
as much) and bounds both by the same sustained run (1780 TPS on 3 GCPs + 1 zAAP), so both get the
same central cost; the basis states that, and invents no difference.
"""

from __future__ import annotations

import pytest

from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import table

#: Table 1 and Table 2, row "EXCI / COMMAREA": "CICS TS+TG CPU load zAAP eligible (%)".
EXCI_ELIGIBLE = {"31": 0.4889, "64": 0.4897}
RATE, ZAAPS, CEILING = 1780.0, 1, 0.85  # "an approximate transaction rate of 1780 TPS", "A single zAAP"


def _first(cfg_slug: str) -> str:
    cfg = P.configuration("cicstg", cfg_slug)
    r = size(cfg, target_machine=cfg.machine_type, target_machine_type=cfg.machine_type, capacity=table(), tps=1000.0)
    text: str = r.basis["assumptions"][0]
    return text


@pytest.mark.parametrize("bits", ["31", "64"])
@pytest.mark.parametrize("ipic", ["ipic-commarea", "ipic-channel"])
def test_ipic_takes_excis_floor_and_central_cost_and_says_so(bits: str, ipic: str) -> None:
    exci_cfg, ipic_cfg = P.configuration("cicstg", f"exci-commarea-{bits}"), P.configuration("cicstg", f"{ipic}-{bits}")
    kw = {"target_machine": exci_cfg.machine_type, "target_machine_type": exci_cfg.machine_type, "capacity": table()}
    exci = size(exci_cfg, tps=1000.0, cps=3, ziips=1, **kw)  # type: ignore[arg-type]
    other = size(ipic_cfg, tps=1000.0, cps=3, ziips=1, **kw)  # type: ignore[arg-type]
    # The same native central cost (the same CPs and zAAPs, so the same projection at the same
    # total engine count, the MP effect): what the basis says.
    assert other.basis.native.busy_cps == pytest.approx(exci.basis.native.busy_cps, rel=1e-12)
    assert other.cpu_per_tran_ms.total == pytest.approx(exci.cpu_per_tran_ms.total, rel=1e-12)
    floor_ms = CEILING * ZAAPS / (EXCI_ELIGIBLE[bits] * RATE) * 1000.0
    text = _first(f"{ipic}-{bits}")
    assert f"{floor_ms:.4g} ms" in text  # EXCI's floor, from its own Table row, is IPIC's
    assert "costing more per transaction than a configuration measured in the same run" in text
    assert "none is invented" in text
    assert "costing more per transaction" not in _first(f"exci-commarea-{bits}")
