"""``SizingResult.to_dict()`` makes each value JSON-safe by its declared type; the reference is
the generic walk it replaced (``models_lib.answer_json.json_safe`` over the same plain form), which
must give the same output byte for byte: on many answers of the engine, and on blocks holding
what the walk converts (numpy numbers, non-finite floats, integers in float fields)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models_lib.answer import SizingResult
from models_lib.answer_json import block_json, json_safe
from models_lib.answer_parts import (
    AnswerBasis,
    CpuPerTran,
    FitSummary,
    NativeDemand,
    ProjectionBasis,
    Range,
    Ranges,
    ServerShare,
    Share,
)
from models_lib.prepared import prepare
from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

OPTIONS: list[dict[str, Any]] = [
    {},
    {"response_time_sla_ms": 5.0},
    {"cps": 4, "ziips": 1},
    {"clients": 200, "think_time_s": 0.5},
    {"max_utilization": 0.6, "projection_band": 0.1},
    {"payload_bytes": 20_000},
]


def _same(fast: Any, walked: Any) -> None:
    # Byte for byte: json.dumps tells 1 from 1.0 and true from 1, which == does not.
    assert json.dumps(fast, allow_nan=False) == json.dumps(walked, allow_nan=False)


def _answers(cfg: Any) -> list[SizingResult]:
    out = []
    for machine in (Z10, Z13, Z17):
        for tps in (10.0, 900.0, 25_000.0, 1_000_000.0):
            for options in OPTIONS:
                try:
                    out.append(
                        size(
                            cfg,
                            target_machine=machine,
                            target_machine_type=machine,
                            capacity=table(),
                            tps=tps,
                            **options,
                        )
                    )
                except ValueError:
                    continue
    return out


@pytest.mark.parametrize("cfg", P.all_configurations(), ids=lambda c: f"{c.path}/{c.configuration}")
def test_to_dict_equals_the_generic_walk_on_every_configurations_answers(cfg: Any) -> None:
    answers = _answers(cfg)
    for answer in answers:
        _same(answer.to_dict(), json_safe(answer._plain()))


def test_the_corpus_covers_every_block_and_nulls() -> None:
    # The comparison above means something only if the answers hold every kind of block, both
    # forms of the basis (with and without the native demand), and nulls; the property test below
    # adds non-finite floats and numpy numbers.
    answers = [a for cfg in P.all_configurations() for a in _answers(cfg)]
    assert len(answers) > 500
    plain = [a._plain() for a in answers]
    assert any(p["capacity"] is not None for p in plain) and any(p["capacity"] is None for p in plain)
    assert any(a.basis.native is None for a in answers) and any(a.basis.native is not None for a in answers)
    assert any(p["binding_resource"] is not None for p in plain)
    assert any(a.saturation_tps is None for a in answers) and any(a.response_time_ms.value is None for a in answers)


def _numbers() -> st.SearchStrategy[Any]:
    floats = st.floats(allow_nan=True, allow_infinity=True)
    return st.one_of(
        st.none(),
        floats,
        floats.map(np.float64),
        st.integers(-(10**6), 10**6),
        st.integers(-(10**6), 10**6).map(np.int64),
        st.booleans(),
    )


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(_numbers(), min_size=34, max_size=34),
    ids=st.lists(st.one_of(st.none(), st.integers(0, 10**6), st.integers(0, 10**6).map(np.int64)), max_size=4),
    with_native=st.booleans(),
)
def test_a_block_of_any_numbers_serialises_as_the_walk_does(
    values: list[Any], ids: list[Any], with_native: bool
) -> None:
    v = iter(values)
    fit = FitSummary(
        "lpar", next(v), next(v), next(v), next(v), next(v), next(v), next(v), next(v), next(v), "t", "1/etr2"
    )
    projection = ProjectionBasis("2964", next(v), "9175", next(v), next(v), next(v), "700", "LSPR", tuple(ids))
    native = NativeDemand("lpar", next(v), next(v), next(v), next(v)) if with_native else None
    basis = AnswerBasis(
        points=tuple(i for i in ids if i is not None),
        model=fit,
        projection=projection,
        statements=(),
        assumptions=("an assumption",),
        server_share=ServerShare(next(v), next(v), next(v), "published"),
        eligible_share=Share(next(v), next(v), next(v)),
        native=native,
    )
    ranges = Ranges(Range(next(v), next(v)), Range(next(v), next(v)), Range(None, next(v)), Range(next(v), None))
    for block in (basis, ranges, CpuPerTran(next(v), next(v), next(v), next(v), next(v))):
        _same(block_json(block), json_safe(block))


def test_answers_of_a_group_share_blocks_but_each_serves_its_own_copy() -> None:
    # The answers of a group of rates share their fit, projection and capacity basis, whose JSON
    # is made once (models_lib.answer_json._KEPT): every to_dict is still a fresh dict that its
    # caller may change without changing another answer's, or the next to_dict of the same one.
    cfg = P.configuration("cicsts-catalog", "v5.3")
    prepared = prepare(cfg, target_machine=Z13, target_machine_type=Z13, capacity=table())
    first, second = prepared.answers([100.0, 110.0])
    assert first.basis.model is not None and first.warnings
    assert first.basis.model is second.basis.model and first.basis.projection is second.basis.projection
    assert first.capacity_detail is not None and second.capacity_detail is not None
    assert first.capacity_detail.basis is second.capacity_detail.basis
    served = first.to_dict()
    before = json.dumps(second.to_dict())
    served["basis"]["model"]["r2"] = "changed"
    served["basis"]["projection"]["rating_ids"].append(-1)
    served["basis"]["points"].append(-1)
    served["capacity"]["basis"]["to_mips"] = "changed"
    served["warnings"][0]["inputs"].append("changed")
    assert json.dumps(second.to_dict()) == before
    assert first.to_dict() == json_safe(first._plain())
