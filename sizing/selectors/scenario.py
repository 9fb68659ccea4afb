"""Everything the engine needs for one scenario, read once per reference-data version.

A scenario is a configuration (a published one, or the customer's calibration) with its fitted
cost and response models and, for a configuration measured without its CICS part (z/OS Connect),
the other component's published cost; and, where the inputs name one, the target (machine,
capacity setting, CPs).  Every piece comes from the :class:`~sizing.selectors.fitted.Reference`
cache of the current version (the fits and the other cost on first use), so preparing and
evaluating a scenario runs no query when the cache is warm.

Estimate, fit, upgrade, batch and every job kind start here
(``sizing.services.scenario`` evaluates it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from models_lib.inputs import CapacityTable, ComponentCost
from models_lib.pricing import PriceBook
from sizing.models import Calibration, Configuration, Visibility
from sizing.selectors.fitted import FittedConfiguration, Reference, current_reference
from sizing.selectors.targets import Target, target_for


def resolve_configuration(
    *, user: User, path: str, configuration: str, reference: Reference | None = None
) -> Configuration:
    """The configuration ``path``/``configuration`` names, visible to ``user``, or a 400 naming the field.

    Reads the cached catalogue of the current reference-data version (no query when warm); a
    private configuration is found only by its owner.
    """
    cat = (reference or current_reference()).catalogue()
    path_row = cat.paths.get(path.lower())
    if path_row is None:
        known = ", ".join(sorted(p.slug for p in cat.paths.values()))
        raise ValidationError({"path": [f"Unknown path {path!r}. Known paths: {known}."]})

    def visible(c: Configuration) -> bool:
        return c.visibility == Visibility.PUBLISHED or (c.visibility == Visibility.PRIVATE and c.owner_id == user.pk)

    config_row = cat.configurations.get((path_row.pk, configuration.lower()))
    if config_row is None or not visible(config_row):
        known = ", ".join(
            sorted(c.slug for (path_id, _), c in cat.configurations.items() if path_id == path_row.pk and visible(c))
        )
        raise ValidationError(
            {
                "configuration": [
                    f"Configuration {configuration!r} does not belong to path {path_row.slug!r}. Known: {known}."
                ]
            }
        )
    return config_row


def with_calibration(*, user: User, inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs`` with ``calibration=<id>`` replaced by its path and private configuration (400 when
    it is not one of ``user``'s calibrations)."""
    if inputs.get("calibration") is None:
        return inputs
    row = (
        Calibration.objects.filter(id=inputs["calibration"], owner_id=user.pk)
        .values_list("configuration__path__slug", "configuration__slug")
        .first()
    )
    if row is None:
        raise ValidationError({"calibration": [f"You have no calibration {inputs['calibration']}."]})
    rest = {k: v for k, v in inputs.items() if k != "calibration"}
    return {**rest, "path": row[0], "configuration": row[1]}


@dataclass(frozen=True)
class Scenario:
    """A configuration ready for the engine (see the module docstring).

    ``inputs`` are the validated inputs with a calibration replaced by its path and
    configuration; ``target`` is ``None`` where the inputs name no machine or model (fit);
    ``price_book`` the user's prices where an estimate reads them (``None``: no cost shown).
    """

    reference: Reference
    inputs: dict[str, Any]
    configuration: Configuration
    target: Target | None
    price_book: PriceBook | None = None

    # Read on first use, not when the scenario is prepared: an answer found in the shared cache
    # needs neither (a dictionary look-up when the version's cache is warm).
    @property
    def fitted(self) -> FittedConfiguration:
        """The configuration's data with its fitted cost and response models."""
        return self.reference.fitted(self.configuration)

    @property
    def other_cost(self) -> ComponentCost | None:
        """The other component's published cost the configuration needs (z/OS Connect's CICS part)."""
        return self.reference.other_cost(self.configuration)

    @property
    def capacity(self) -> CapacityTable:
        """The LSPR table of this reference-data version."""
        return self.reference.lspr_table()

    def engine(self) -> dict[str, Any]:
        """The keyword arguments every engine call of this configuration takes: the fitted cost
        and response models and the other component's cost."""
        return {"model": self.fitted.model, "response_model": self.fitted.response, "other_cost": self.other_cost}

    def key(self) -> dict[str, Any]:
        """What identifies the configuration in an answer's cache key."""
        return {"configuration": self.configuration.pk}


def prepared_scenario(*, user: User, inputs: dict[str, Any], reference: Reference | None = None) -> Scenario:
    """The scenario of validated ``inputs`` (``path``, ``configuration`` or ``calibration``, and
    optionally ``machine`` or ``model`` with ``capacity_setting`` and ``cps``), visible to ``user``.

    Raises a ``ValidationError`` naming the field that names nothing ``user`` may see.
    """
    reference = reference or current_reference()
    inputs = with_calibration(user=user, inputs=inputs)
    config_row = resolve_configuration(
        user=user, path=inputs["path"], configuration=inputs["configuration"], reference=reference
    )
    target = None
    if inputs.get("machine") or inputs.get("model"):
        machine, model, setting, cps = (
            inputs.get("machine"),
            inputs.get("model"),
            inputs.get("capacity_setting"),
            inputs.get("cps"),
        )
        # Resolved once per version and naming (a bad one raises, and is not kept); the key is
        # the naming normalised as target_for reads it, so spellings do not grow the cache.
        named = tuple(v.strip().lower() if isinstance(v, str) else v for v in (machine, model, setting))
        target = reference.memo(
            ("target", *named, cps),
            lambda: target_for(machine=machine, model=model, capacity_setting=setting, cps=cps, reference=reference),
        )
    return Scenario(
        reference=reference,
        inputs=inputs,
        configuration=config_row,
        target=target,
    )
