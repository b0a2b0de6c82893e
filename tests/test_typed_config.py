"""The rules read configs through typed classes (tritonlint/schema/config_types.py), so that
mypy refuses a field a rule misspells; the module is what scripts/derive_config_types.py
derives from the newest shipped schema."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from google.protobuf.descriptor import Descriptor

from tritonlint.schema import config_types
from tritonlint.schema.releases import load_schema

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "derive_config_types.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("derive_config_types", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_module_is_what_the_script_derives() -> None:
    script = _script()
    assert (
        script.render(ROOT / "protos").encode()
        == (ROOT / "tritonlint" / "schema" / "config_types.py").read_bytes()
    )


def _messages(descriptor: Descriptor) -> list[Descriptor]:
    nested = [m for m in descriptor.nested_types if not m.GetOptions().map_entry]
    return [descriptor, *(inner for m in nested for inner in _messages(m))]


def test_every_message_of_the_newest_schema_has_a_class_with_its_fields() -> None:
    schema = load_schema()
    tops = schema.model_config.file.message_types_by_name.values()
    messages = [message for top in tops for message in _messages(top)]
    assert len(messages) > 40
    for message in messages:
        cls: object = config_types
        for part in message.full_name.removeprefix("inference.").split("."):
            cls = getattr(cls, part)
        for field in message.fields:
            if field.name != "global":  # a keyword: no property can have its name
                assert isinstance(getattr(cls, field.name), property), field.full_name


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(tmp_path: Path, cache: Path, body: str) -> subprocess.CompletedProcess[str]:
    """mypy, with the project's settings, on a rule-shaped module (the package it imports is
    read for its types, its own errors not reported)."""
    snippet = tmp_path / "rule_snippet.py"
    header = """\
        from __future__ import annotations

        from collections.abc import Iterator

        from tritonlint.rules.context import Finding, ModelContext
        from tritonlint.rules.ensemble.steps import steps_of
        """
    snippet.write_text(textwrap.dedent(header) + textwrap.dedent(body), encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    command += ["--follow-imports=silent", "--cache-dir", str(cache), "--no-error-summary"]
    return subprocess.run(
        [*command, str(snippet)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


CORRECT = """
    def check(ctx: ModelContext) -> Iterator[Finding]:
        config = ctx.config
        if config is not None and config.max_batch_size > 0:
            yield ctx.at(("max_batch_size",), "batching")
        if config is not None and config.HasField("dynamic_batching"):
            yield ctx.at(("dynamic_batching",), "dynamic")
        for index, step in enumerate(steps_of(ctx)):
            yield ctx.at(("ensemble_scheduling", "step", index), step.model_name)
    """


def test_mypy_passes_a_rule_that_spells_its_fields_right(tmp_path: Path, mypy_cache: Path) -> None:
    result = _mypy(tmp_path, mypy_cache, CORRECT)
    assert (result.returncode, result.stdout) == (0, "")


@pytest.mark.parametrize(
    ("right", "wrong", "error"),
    [
        (
            "config.max_batch_size > 0",
            "config.max_bach_size > 0",
            '"ModelConfig" has no attribute "max_bach_size"; maybe "max_batch_size"?',
        ),
        (
            'config.HasField("dynamic_batching")',
            'config.HasField("dynamic_bacthing")',
            'Argument 1 to "HasField" of "ModelConfig" has incompatible type '
            "\"Literal['dynamic_bacthing']\"",
        ),
        (
            "step.model_name)",
            "step.model_nam)",
            '"Step" has no attribute "model_nam"; maybe "model_name"?',
        ),
    ],
)
def test_mypy_refuses_a_rule_that_misspells_a_field(
    tmp_path: Path, mypy_cache: Path, right: str, wrong: str, error: str
) -> None:
    assert right in CORRECT
    result = _mypy(tmp_path, mypy_cache, CORRECT.replace(right, wrong))
    assert result.returncode == 1, result.stdout + result.stderr
    assert error in result.stdout
    assert result.stdout.startswith(f"{tmp_path / 'rule_snippet.py'}:")
