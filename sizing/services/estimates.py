"""Sizing estimates: prepare the scenario (``sizing.selectors.scenario``), evaluate it
(``sizing.services.scenario``), store it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

import models_lib
from models_lib.pricing import PriceBook
from sizing.models import Configuration, Estimate, Machine
from sizing.records import EstimateInputs, EstimateRecord
from sizing.selectors.price_books import price_book_for
from sizing.selectors.scenario import Scenario, prepared_scenario, resolve_configuration, with_calibration
from sizing.selectors.targets import Target, target_for
from sizing.services.quotas import quota_check
from sizing.services.scenario import ENGINE_ARGS, data_origin, engine_error, estimate_answer, estimate_answers

__all__ = [
    "ENGINE_ARGS",
    "data_origin",
    "engine_error",
    "estimate_compute",
    "estimate_create",
    "estimate_delete",
    "estimate_record",
    "estimate_answer_record",
    "estimate_answer_records",
    "normalised_inputs",
    "estimate_scenario",
    "resolve_configuration",
    "with_calibration",
]


Inputs = EstimateInputs | Mapping[str, Any]


#: ``estimate_scenario``'s price book when none is given: the user's, read from the database.
_USERS_BOOK: Any = object()


def estimate_scenario(*, user: User, inputs: Inputs, price_book: PriceBook | None = _USERS_BOOK) -> tuple[Scenario, Target]:  # fmt: skip
    """The prepared scenario of an estimate's validated inputs and its target (400 without one),
    with the user's price book (an estimate shows its cost only from the user's own prices;
    ``price_book``: the user's book already read, for many estimates of one user)."""
    scenario = prepared_scenario(user=user, inputs=EstimateInputs.of(inputs).to_dict())
    if scenario.target is None:  # the input forms require a machine or a model
        raise ValidationError({"machine": ["Give a machine or a model."]})
    book = price_book_for(user=user) if price_book is _USERS_BOOK else price_book
    return dataclasses.replace(scenario, price_book=book), scenario.target


def estimate_compute(*, user: User, inputs: Inputs) -> tuple[Configuration, Machine, dict[str, Any]]:
    """Size one scenario without storing it; ``inputs`` are validated request fields."""
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    outputs = estimate_answer(scenario=scenario, target=target, inputs=scenario.inputs)
    return scenario.configuration, target.machine, outputs


def normalised_inputs(inputs: Inputs, config_row: Configuration, machine_row: Machine) -> dict[str, Any]:
    """The inputs as stored with the answer: slugs resolved, the model capacity identifier and a
    sub-capacity setting as resolved (upper case, ``500`` for ``5xx``), the model's CPs."""
    question = EstimateInputs.of(inputs)
    data = {k: v for k, v in question.to_dict().items() if k not in ("name", "calibration")}
    data.update(path=config_row.path.slug, configuration=config_row.slug, machine=machine_row.slug)
    if question.model or question.capacity_setting:
        target = target_for(
            machine=machine_row.slug,
            model=question.model,
            capacity_setting=question.capacity_setting,
            cps=question.cps,
        )
        data.update(target.inputs())
        if target.model.cps is not None:
            data["cps"] = target.model.cps
    return data


def estimate_record(
    *, inputs: Inputs, config_row: Configuration, machine_row: Machine, outputs: Mapping[str, Any]
) -> EstimateRecord:
    """The one place an answer becomes the record every surface receives (the estimate API, the
    workbench's chart data, a batch row): its normalised inputs, the model version, the answer;
    ``record.inputs`` are the normalised inputs with the question's name (a label a batch row
    gives is kept)."""
    question = EstimateInputs.of(inputs)
    normalised = normalised_inputs(question, config_row, machine_row)
    body = {"inputs": normalised, "model_version": models_lib.__version__, **outputs}
    return EstimateRecord.from_dict(body, inputs=EstimateInputs.from_dict({**normalised, "name": question.name}))


def estimate_answer_record(*, user: User, inputs: Inputs) -> EstimateRecord:
    """Size one scenario without storing it: :func:`estimate_compute` as a record."""
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=inputs)
    return estimate_record(inputs=inputs, config_row=config_row, machine_row=machine_row, outputs=outputs)


def estimate_answer_records(*, user: User, inputs: list[EstimateInputs]) -> list[EstimateRecord | Exception]:
    """:func:`estimate_answer_record` of each of ``inputs`` (one user's), in order, each the
    record or what it would raise (a ``ValidationError``, a ``ValueError`` of the target): the
    user's price book read once, and the questions that
    share a prepared workload (the same configuration, target and options but the rate)
    evaluated together (``sizing.services.scenario.estimate_answers``)."""
    book = price_book_for(user=user)
    out: list[EstimateRecord | Exception | None] = [None] * len(inputs)
    questions: list[tuple[Scenario, Target, dict[str, Any]]] = []
    asked: list[int] = []
    for i, question in enumerate(inputs):
        try:
            scenario, target = estimate_scenario(user=user, inputs=question, price_book=book)
        except (ValidationError, ValueError) as exc:
            out[i] = exc
            continue
        questions.append((scenario, target, scenario.inputs))
        asked.append(i)
    for i, (scenario, target, _), answer in zip(asked, questions, estimate_answers(questions=questions), strict=True):
        if isinstance(answer, ValidationError):
            out[i] = answer
            continue
        try:
            out[i] = estimate_record(
                inputs=inputs[i], config_row=scenario.configuration, machine_row=target.machine, outputs=answer
            )
        except (ValidationError, ValueError) as exc:
            out[i] = exc
    return [r for r in out if r is not None]


def estimate_create(*, user: User, inputs: Inputs) -> Estimate:
    """Size and store an estimate owned by ``user`` (nothing is stored if sizing fails).

    The sizing is done first, outside any transaction; then the owner's quota is checked and
    the row written in one short transaction (:func:`~sizing.services.quotas.quota_check`)."""
    question = EstimateInputs.of(inputs)
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=question)
    stored_inputs = normalised_inputs(question, config_row, machine_row)
    with transaction.atomic():
        quota_check(owner_id=user.pk, name="estimates")
        return Estimate.objects.create(
            owner=user,
            name=question.name,
            configuration=config_row,
            machine=machine_row,
            tps=question.tps,
            inputs=stored_inputs,
            outputs=outputs,
            model_version=models_lib.__version__,
        )


def estimate_delete(*, user: User, estimate: Estimate) -> None:
    if estimate.owner_id != user.pk:
        raise PermissionError("Only the owner can delete an estimate.")
    estimate.delete()
