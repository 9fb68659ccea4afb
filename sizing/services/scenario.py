"""Evaluating a prepared scenario (``sizing.selectors.scenario``): the one place that calls the
engine for a request, maps the engine's error to the form field it names, and caches the answer
per reference-data version.

* :func:`scenario_answer`: any engine computation of a scenario (an estimate, a fit, an upgrade
  comparison), cached under the scenario's configuration and the normalised inputs.
* :func:`estimate_result`: the estimate of one target as the engine's typed answer
  (:class:`~models_lib.answer.SizingResult`, with its prepared workload), kept in this process
  per reference-data version and inputs: the charts, the PDF and the pages draw from it.
* :func:`estimate_answer`: the same estimate serialised, as ``GET /api/v1/estimate`` answers
  it (the API and the shared cache); an upgrade column and a batch row are this answer.
* :func:`scenario_prepared`: the scenario prepared for a target (``models_lib.prepared``), kept
  in this process per version and rate-free options: every rate asked of it is an evaluation.
* :func:`scenario_workload`: the scenario's :class:`~models_lib.workload.WorkloadModel`, which
  the job kinds evaluate at many rates and CP counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError

from models_lib.answer import SizingResult
from models_lib.prepared import PreparedWorkload, prepare
from models_lib.pricing import PriceBook
from models_lib.workload import WorkloadModel, workload_model
from sizing.models import Calibration, Configuration, Visibility
from sizing.selectors.fitted import parts_digest
from sizing.selectors.scenario import Scenario
from sizing.selectors.targets import Target
from sizing.services.warning_levels import with_levels

#: Engine keyword arguments that come straight from the request.
ENGINE_ARGS = (
    "cps",
    "ziips",
    "max_utilization",
    "payload_bytes",
    "clients",
    "think_time_s",
    "response_time_sla_ms",
    "projection_band",
    "lpar_overhead",
    "server_share",
    "smt2_factor",
    "objective",
    "cics_regions",
)

#: The engine's arguments that are fields of the request, by the same name.
_FIELDS = frozenset((*ENGINE_ARGS, "tps", "capacity_setting"))


def engine_error(exc: ValueError, *, default_field: str = "non_field_errors") -> ValidationError:
    """The engine's error as a 400 on the field it names: its ``argument`` (``InputError``) or
    ``field`` (``models_lib.targets.TargetError``) where that is a request field, else
    ``default_field``.  Never read from the message's text."""
    argument = getattr(exc, "argument", None) or getattr(exc, "field", None)
    return ValidationError({argument if argument in _FIELDS else default_field: [str(exc)]})


def scenario_answer(
    *, scenario: Scenario, key: dict[str, Any], compute: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``compute()`` (an engine call on ``scenario``), once per reference-data version and
    ``key`` (the normalised inputs besides the configuration); a ``ValueError`` of the engine
    becomes a 400 naming its field.  Callers must not mutate the answer."""

    def guarded() -> dict[str, Any]:
        try:
            return compute()
        except ValueError as exc:
            raise engine_error(exc) from None

    return scenario.reference.answer({**scenario.key(), **key}, guarded)


def data_origin(config_row: Configuration) -> dict[str, Any]:
    """Whose data the answer rests on: published documents, or the owner's own measurements."""
    if config_row.visibility != Visibility.PRIVATE:
        return {"data_origin": "published"}
    calibration = Calibration.objects.filter(configuration=config_row).select_related("machine").first()
    if calibration is None:
        return {"data_origin": "customer"}
    return {
        "data_origin": "customer",
        "calibration": {
            "id": calibration.pk,
            "name": calibration.name,
            "current_model": calibration.model,
            "current_machine": calibration.machine.slug,
            "cps": calibration.cps,
            "ziips": calibration.ziips,
            "intervals": len(calibration.intervals),
            "speed_factor": calibration.speed_factor,
        },
    }


def estimate_kwargs(*, target: Target, inputs: dict[str, Any]) -> dict[str, Any]:
    """The engine's options of an estimate: the request's, a model's CPs, a sub-capacity setting."""
    kwargs = {name: inputs[name] for name in ENGINE_ARGS if inputs.get(name) is not None}
    if target.model.cps is not None:
        kwargs["cps"] = target.model.cps  # a model fixes its CPs
    if target.engine_setting is not None:
        kwargs["capacity_setting"] = target.engine_setting
    return kwargs


def _estimate_key(
    *, target: Target, inputs: dict[str, Any], price_book: PriceBook | None = None
) -> tuple[dict[str, Any], float, dict[str, Any]]:
    """The engine's options of the estimate, its rate, and its cache key besides the configuration:
    the same key as before this module existed (version, configuration, machine, inputs), and
    the prices of the user's price book where there is one (two books never share an answer)."""
    kwargs = estimate_kwargs(target=target, inputs=inputs)
    tps = float(inputs["tps"])
    priced = {} if price_book is None else {"price_book": asdict(price_book)}
    return kwargs, tps, {"machine": target.machine.pk, "tps": tps, **kwargs, **priced}


#: ``size()``'s options that belong to the rate (``PreparedWorkload.answer``); the others
#: (ceiling, payload, setting, band, LPAR overhead, share) are the prepared workload's.
RATE_ARGS = frozenset(("cps", "ziips", "clients", "think_time_s", "response_time_sla_ms"))


def scenario_prepared(*, scenario: Scenario, target: Target, options: dict[str, Any]) -> PreparedWorkload:
    """The scenario prepared for ``target`` with the rate-free engine ``options``, once per
    reference-data version and options in this process (``ValueError`` for a bad option)."""
    machine = target.machine
    return scenario.reference.prepared(
        {**scenario.key(), "machine": machine.pk, **options},
        lambda: prepare(
            scenario.fitted.data,
            target_machine=machine.slug,
            target_machine_type=machine.machine_type,
            capacity=scenario.capacity,
            **scenario.engine(),
            **options,
        ),
    )


def estimate_result(*, scenario: Scenario, target: Target, inputs: dict[str, Any]) -> SizingResult:
    """The estimate of ``scenario`` on ``target`` at ``inputs["tps"]`` with the request's engine
    options (``ENGINE_ARGS``): the engine's typed answer (``size()``, as its prepared workload's
    answer at the rate), computed once per reference-data version and inputs in this process.
    A ``ValueError`` of the engine becomes a 400 naming its field."""
    kwargs, tps, key = _estimate_key(target=target, inputs=inputs, price_book=scenario.price_book)
    options = {k: v for k, v in kwargs.items() if k not in RATE_ARGS}
    at_rate: dict[str, Any] = {k: v for k, v in kwargs.items() if k in RATE_ARGS}
    if scenario.price_book is not None:
        at_rate["price_book"] = scenario.price_book

    def compute() -> SizingResult:
        try:
            return scenario_prepared(scenario=scenario, target=target, options=options).answer(tps, **at_rate)
        except ValueError as exc:
            raise engine_error(exc) from None

    return scenario.reference.result({**scenario.key(), **key}, compute)


def estimate_answer(*, scenario: Scenario, target: Target, inputs: dict[str, Any]) -> dict[str, Any]:
    """:func:`estimate_result` as the estimate API answers it (JSON-safe, warnings with their
    levels, whose data), computed once per version and cached for every process."""
    _, _, key = _estimate_key(target=target, inputs=inputs, price_book=scenario.price_book)

    def compute() -> dict[str, Any]:
        outputs = estimate_result(scenario=scenario, target=target, inputs=inputs).to_dict()
        outputs["warnings"] = with_levels(outputs["warnings"], str(outputs.get("specialty_engine") or "zIIP"))
        outputs["basis"] = {**outputs["basis"], **data_origin(scenario.configuration)}
        return outputs

    return scenario_answer(scenario=scenario, key=key, compute=compute)


def estimate_answers(*, questions: list[tuple[Scenario, Target, dict[str, Any]]]) -> list[dict[str, Any] | ValidationError]:  # fmt: skip
    """:func:`estimate_answer` of each (scenario, target, inputs) of ``questions``, in order, each
    the answer or the 400 it would raise; the questions that share a prepared workload (the
    same configuration, target and inputs but the rate) are answered together
    (:func:`group_answers`)."""
    groups: dict[str, list[int]] = {}
    parts = []
    for i, (scenario, target, inputs) in enumerate(questions):
        _, _, key = _estimate_key(target=target, inputs=inputs, price_book=scenario.price_book)
        parts.append({**scenario.key(), **key})
        same = {"token": scenario.reference.token, **parts[-1], "tps": None}
        groups.setdefault(json.dumps(same, sort_keys=True, default=str), []).append(i)
    out: list[dict[str, Any] | ValidationError | None] = [None] * len(questions)
    for members in groups.values():
        scenario, target, _ = questions[members[0]]
        group = [(questions[i][2], parts[i]) for i in members]
        for i, answer in zip(members, group_answers(scenario=scenario, target=target, group=group), strict=True):
            out[i] = answer
    return [a for a in out if a is not None]


def group_answers(
    *, scenario: Scenario, target: Target, group: list[tuple[dict[str, Any], dict[str, Any]]]
) -> list[dict[str, Any] | ValidationError]:
    """:func:`estimate_answer` of each (inputs, cache key's parts) of ``group`` (one scenario and
    target; inputs that differ only in their rate), in order, each the answer or the 400 it
    would raise.

    The answers already cached are read (the shared cache in one round trip); the rest are
    evaluated together, the prepared workload at the whole array of their rates
    (:meth:`~models_lib.prepared.PreparedWorkload.answers`, equal answer for answer to
    :func:`estimate_result`), and kept as :func:`estimate_answer` keeps them (the typed answer
    in this process, the served one in both caches).  Where the engine refuses the group's
    options, each input is answered on its own (the same 400 per row)."""
    reference = scenario.reference
    digests = [parts_digest(parts) for _, parts in group]
    keys = [reference.answer_key(parts, digest=d) for (_, parts), d in zip(group, digests, strict=True)]
    found = reference.cached_answers(keys)
    todo: dict[str, int] = {}  # the missing answers' keys -> their first input
    for i, answer in enumerate(found):
        if answer is None:
            todo.setdefault(keys[i], i)
    if todo:
        try:
            computed = _computed_answers(scenario, target, [(*group[i], digests[i]) for i in todo.values()])
        except ValidationError:  # the group's options refused: each input on its own, its own 400
            return [_one_answer(scenario, target, inputs) for inputs, _ in group]
        by_key = dict(zip(todo, computed, strict=True))
        reference.store_answers(by_key)
        found = [a if a is not None else by_key[keys[i]] for i, a in enumerate(found)]
    return [a for a in found if a is not None]


def _one_answer(scenario: Scenario, target: Target, inputs: dict[str, Any]) -> dict[str, Any] | ValidationError:
    try:
        return estimate_answer(scenario=scenario, target=target, inputs=inputs)
    except ValidationError as exc:
        return exc


def _computed_answers(
    scenario: Scenario, target: Target, group: list[tuple[dict[str, Any], dict[str, Any], str]]
) -> list[dict[str, Any]]:
    """The served answers of ``group`` (inputs, parts, the parts' digest; none cached; one
    workload and options), the typed ones kept in this process as :func:`estimate_result` keeps
    them."""
    kwargs, _, _ = _estimate_key(target=target, inputs=group[0][0], price_book=scenario.price_book)
    options = {k: v for k, v in kwargs.items() if k not in RATE_ARGS}
    at_rate: dict[str, Any] = {k: v for k, v in kwargs.items() if k in RATE_ARGS}
    if scenario.price_book is not None:
        at_rate["price_book"] = scenario.price_book
    try:
        prepared = scenario_prepared(scenario=scenario, target=target, options=options)
        results = prepared.answers([float(inputs["tps"]) for inputs, _, _ in group], **at_rate)
    except ValueError as exc:
        raise engine_error(exc) from None
    origin = data_origin(scenario.configuration)
    answers = []
    kept = scenario.reference.results([(digest, result) for (_, _, digest), result in zip(group, results, strict=True)])
    for result in kept:
        outputs = result.to_dict()
        outputs["warnings"] = with_levels(outputs["warnings"], str(outputs.get("specialty_engine") or "zIIP"))
        outputs["basis"] = {**outputs["basis"], **origin}
        answers.append(outputs)
    return answers


def scenario_workload(
    *, scenario: Scenario, tps: float | None = None, options: dict[str, Any] | None = None
) -> WorkloadModel:
    """The scenario's workload model on its target (``ValueError`` if it cannot be sized), for
    the job kinds; ``options``: ``payload_bytes``, ``max_utilization`` and further ``size()``
    options (``projection_band``, ``lpar_overhead``, ``server_share``)."""
    target = scenario.target
    if target is None:
        raise ValueError("machine: a workload model needs a target machine")
    opts = dict(options or {})
    return workload_model(
        scenario.fitted.data,
        fitted=scenario.fitted.model,
        machine=target.machine.slug,
        machine_type=target.machine.machine_type,
        capacity=scenario.capacity,
        tps=tps,
        capacity_setting=target.engine_setting,
        other_cost=scenario.other_cost,
        **opts,
    )
