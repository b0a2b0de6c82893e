"""An ensemble's config and steps, as every module of the ensemble pack reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tritonlint.diagnostics import Applicability, Fix
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.rules.context import ModelContext
from tritonlint.rules.fixes import fix, insert_after

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig, ModelEnsembling


def ensemble_config(ctx: ModelContext) -> ModelConfig | None:
    """The config when it declares the ensemble platform."""
    config = ctx.config
    return config if config is not None and config.platform == ENSEMBLE else None


def steps_of(ctx: ModelContext) -> list[ModelEnsembling.Step]:
    """The steps of an ensemble (none for any other model, or an ensemble without scheduling)."""
    config = ensemble_config(ctx)
    if config is None or not config.HasField("ensemble_scheduling"):
        return []
    return list(config.ensemble_scheduling.step)


#: The path of the steps in an ensemble's config; a step's fields are below ``(*STEP, index)``.
STEP = ("ensemble_scheduling", "step")


def latest_version(
    ctx: ModelContext, index: int, title: str, applicability: Applicability
) -> tuple[Fix, ...]:
    """A fix that writes `model_version: -1` after the step's model_name (the latest version)."""
    edit = insert_after(ctx, (*STEP, index, "model_name"), "model_version: -1")
    return fix(title, applicability, edit)
