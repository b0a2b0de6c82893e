"""How the smoke stage's results are shown: a table of the models, a summary, and JSON.

Findings go through the report modules of ``check`` (:mod:`tritonlint.report`); these are the
parts that only the smoke stage has.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from tritonlint.paths import display_path
from tritonlint.report.json_report import to_json_object
from tritonlint.smoke.inference import InferenceState
from tritonlint.smoke.runner import (
    FLAG_CPU_ONLY,
    FLAG_GPUS,
    FLAG_NO_STUB_BACKENDS,
    FLAG_STUB_BACKENDS,
    FLAG_STUB_PYTHON,
    ModelResult,
    ModelStatus,
    SmokeResult,
    backend_in,
)
from tritonlint.smoke.servers import ServerKind
from tritonlint.tritonserver.framework_backends import FRAMEWORKS

_STYLES = {
    ModelStatus.LOADED: "bold green",
    ModelStatus.STUBBED: "green",
    ModelStatus.FRAMEWORK: "bold green",
    ModelStatus.REFUSED: "bold red",
    ModelStatus.BACKEND_MISSING: "yellow",
    ModelStatus.NEEDS_GPU: "yellow",
    ModelStatus.TIMEOUT: "bold red",
    ModelStatus.CRASHED: "bold red",
    ModelStatus.SKIPPED: "dim",
}
#: Openings of the server's messages that say nothing the table does not (which model failed).
_OPENINGS = re.compile(
    r"^(?:load failed for model '[^']*': |Poll failed for model directory '[^']*': )?"
    r"(?:version \d+ is at UNAVAILABLE state: )?"
)


_PARSE_ERROR = re.compile(r"\(Error parsing text-format [\w.]+: (.*)\)$")
_STUBBED_BACKEND = re.compile(r"^backend '([^']*)' stubbed")


def plural(count: int, noun: str) -> str:
    """``1 model``, ``2 models``."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def _detail(message: str) -> str:
    """The server's message, whole, without the opening that only names the model."""
    message = " ".join(message.split())
    parse_error = _PARSE_ERROR.search(message)
    if parse_error:  # the parser's words say it all; the path is the model's config.pbtxt
        message = f"parse error at {parse_error.group(1)}"
    return _OPENINGS.sub("", message, count=1)


def _model_detail(model: ModelResult) -> str:
    """Why a model did not load: the finding's code, the rule, the server's words."""
    status = model.status
    code = model.diagnostic.code if model.diagnostic is not None else ""
    if status is ModelStatus.FRAMEWORK:
        return ""  # the status says it all
    if status is ModelStatus.BACKEND_MISSING:
        backend = backend_in(model.message) or "?"
        return f"{code}: no '{backend}' backend in this server ({FLAG_STUB_BACKENDS} stands in)"
    if status is ModelStatus.NEEDS_GPU:
        return f"{code}: KIND_GPU, and the server has no GPU ({FLAG_CPU_ONLY} loads it on CPU)"
    if status is ModelStatus.REFUSED and model.rule is not None:
        return f"{code} ({model.rule.code} {model.rule.name}): {_detail(model.message)}"
    if code:
        return f"{code}: {_detail(model.message)}"
    return _detail(model.message)


def _inference_detail(model: ModelResult) -> str:
    """What became of the model's inference: answered, not inferred (why), or the findings."""
    inference = model.inference
    if inference is None:
        return ""
    codes = sorted({d.code for d in inference.diagnostics})
    if codes and inference.state is InferenceState.FAILED:
        return f"{', '.join(codes)}: {' '.join(inference.text.split())}"
    return inference.text


def smoke_table(results: Sequence[SmokeResult]) -> Table:
    """One row per model: status, what was adjusted or why it was not loaded, load time.

    No cell is ever cut short: what does not fit the console's width (80 columns in a CI log)
    is wrapped, long paths included.
    """
    table = Table()
    several = len(results) > 1
    if several:
        table.add_column("repository", overflow="fold")
    table.add_column("model", overflow="fold")
    table.add_column("status", overflow="fold")
    table.add_column("details", overflow="fold")
    table.add_column("time", justify="right", no_wrap=True)
    for result in results:
        for model in result.models:
            details = [_model_detail(model), _inference_detail(model), *model.adjustments]
            details = [line for line in details if line]
            row: list[str | Text] = [
                model.name,
                Text(model.status_text, style=_STYLES[model.status]),
                "\n".join(details),
                f"{model.seconds:.2f} s" if model.attempts else "",
            ]
            if several:
                row.insert(0, display_path(result.repository))
            table.add_row(*row)
    return table


#: How the summary counts the models of each status that did not load.
_NOT_LOADED: dict[ModelStatus, tuple[str, str]] = {
    ModelStatus.REFUSED: ("refused", "refused"),
    ModelStatus.BACKEND_MISSING: ("with its backend missing", "with their backends missing"),
    ModelStatus.NEEDS_GPU: ("needs a GPU", "need a GPU"),
    ModelStatus.TIMEOUT: ("timed out", "timed out"),
    ModelStatus.CRASHED: ("crashed the server", "crashed the server"),
    ModelStatus.SKIPPED: ("skipped", "skipped"),
}


#: Statuses of models whose config the server did not judge.
_NOT_JUDGED = (ModelStatus.BACKEND_MISSING, ModelStatus.SKIPPED)


def summary_lines(result: SmokeResult) -> list[Text]:
    """Which server ran, what became of the models, and what the temporary copy changed."""
    server = result.server
    lines = [
        Text.assemble(
            ("Server: ", "bold"),
            f"{server.label} — {server.description}",
            f"; {'GPUs given to the server' if server.gpus else 'no GPU'}",
        )
    ]
    if result.share is not None:
        lines.append(_share_line(result))
    lines.append(_outcome_line(result))
    lines += _inference_lines(result)
    lines += _adjustment_lines(result)
    lines += _model_file_lines(result)
    return lines


def _share_line(result: SmokeResult) -> Text:
    """``Share 2/4: 250 of 1,000 models (an ensemble's steps in its share; the other shares
    load the rest).``"""
    share = result.share
    assert share is not None
    return Text.assemble(
        (f"Share {share.shard}: ", "bold"),
        f"{share.models:,} of {share.of:,} {'model' if share.of == 1 else 'models'} (an "
        "ensemble's steps in its share; the other shares load the rest).",
    )


def _outcome_line(result: SmokeResult) -> Text:
    """``All 8 models loaded in 3.9 s: 5 configs validated ... with stubbed backends, 3 models
    really loaded.``, and what did not load."""
    counts = Counter(model.status for model in result.models)
    total = len(result.models)
    if total == 0:
        return Text("No model to load.", style="bold")
    stubbed, real = counts[ModelStatus.STUBBED], counts[ModelStatus.LOADED]
    framework = counts[ModelStatus.FRAMEWORK]
    if result.ok:
        head = f"All {plural(total, 'model')} loaded" if total > 1 else "The model loaded"
    else:
        head = f"{stubbed + framework + real} of {plural(total, 'model')} loaded"
    text = Text.assemble((head, "bold green" if result.ok else "bold red"))
    text.append(f" in {result.seconds:.1f} s")
    kinds = []
    if stubbed:
        backends = "a stubbed backend" if stubbed == 1 else "stubbed backends"
        kinds.append(
            f"{plural(stubbed, 'config')} validated by {result.server.label} with {backends}"
        )
    if framework:
        loaded_by = {
            model.framework
            for model in result.models
            if model.status is ModelStatus.FRAMEWORK and model.framework is not None
        }
        names = ", ".join(
            f"{FRAMEWORKS[backend].module} {version}"
            for backend, version in result.server.frameworks.items()
            if (backend, version) in loaded_by
        )
        kinds.append(f"{plural(framework, 'model')} loaded by {names} standing in for the backend")
    if real and kinds:
        kinds.append(f"{plural(real, 'model')} really loaded")
    if kinds:
        text.append(": " + ", ".join(kinds))
    text.append(".")
    failed = [
        f"{counts[status]} {words[0] if counts[status] == 1 else words[1]}"
        for status, words in _NOT_LOADED.items()
        if counts[status]
    ]
    if failed:
        text.append(" Not loaded: " + ", ".join(failed) + ".")
    return text


def _inference_lines(result: SmokeResult) -> list[Text]:
    """``Inference: 3 of 4 models answered as configured, 1 failed.`` (none: nothing sent)."""
    inferred = Counter(m.inference.state for m in result.models if m.inference is not None)
    if not inferred:
        return []
    total = sum(inferred.values())
    answered = inferred[InferenceState.ANSWERED]
    text = Text.assemble(("Inference: ", "bold"))
    text.append(f"{answered} of {plural(total, 'model')} answered as configured")
    if inferred[InferenceState.FAILED]:
        text.append(f", {inferred[InferenceState.FAILED]} failed")
    if inferred[InferenceState.NOT_INFERRED]:
        text.append(f", {inferred[InferenceState.NOT_INFERRED]} not inferred")
    text.append(" (one request each; --no-infer sends none).")
    return [text]


def _adjustment_lines(result: SmokeResult) -> list[Text]:
    """What stood in for what, and where KIND_GPU was validated as KIND_CPU, with the option
    that does otherwise."""
    server = result.server
    backends: dict[str, list[str]] = {}
    python: list[str] = []
    on_cpu: list[str] = []
    for model in result.models:
        for note in model.adjustments:
            stubbed = _STUBBED_BACKEND.match(note)
            if stubbed:
                backends.setdefault(stubbed.group(1), []).append(model.name)
            elif note.startswith("python backend stubbed"):
                python.append(model.name)
        if FLAG_CPU_ONLY in model.flags and model.status not in _NOT_JUDGED:
            on_cpu.append(model.name)
    lines = []
    if backends:
        listed = ", ".join(f"{name} ({', '.join(models)})" for name, models in backends.items())
        where = (
            "not in the embedded server, which has only the python backend"
            if server.kind is ServerKind.EMBEDDED
            else "not in this server"
        )
        strict = (
            f"; {FLAG_NO_STUB_BACKENDS} reports such models as not loaded (TL031)"
            if server.stub_backends_by_default
            else ""
        )
        lines.append(
            Text.assemble(
                ("Stubbed backends: ", "bold"),
                f"{listed} — {where}. A stand-in let the server validate these configs, not "
                f"the model files{strict}.",
            )
        )
    lines += _framework_lines(result, backends)
    if python:
        lines.append(
            Text.assemble(
                ("Stubbed python models: ", "bold"),
                f"{', '.join(python)} ({FLAG_STUB_PYTHON}): "
                f"{'its' if len(python) == 1 else 'their'} model.py was not run.",
            )
        )
    if on_cpu:
        why = (
            f"no GPU on this machine, so KIND_GPU was validated as KIND_CPU; {FLAG_GPUS} "
            "loads it as written (TL032 where there is no GPU)"
            if server.cpu_by_default
            else f"KIND_GPU was validated as KIND_CPU ({FLAG_CPU_ONLY})"
        )
        lines.append(Text.assemble(("On CPU: ", "bold"), f"{', '.join(on_cpu)} — {why}."))
    return lines


def _framework_lines(result: SmokeResult, stubbed: dict[str, list[str]]) -> list[Text]:
    """Which frameworks stood in for which backends, and which framework, once installed,
    would load the models whose backends were stubbed."""
    server = result.server
    served: dict[str, list[str]] = {}
    for model in result.models:
        if model.framework is not None and model.status is not ModelStatus.SKIPPED:
            served.setdefault(model.framework[0], []).append(model.name)
    lines = []
    if served:
        listed = ", ".join(
            f"{FRAMEWORKS[backend].module} {server.frameworks[backend]} for {backend} "
            f"({', '.join(models)})"
            for backend, models in served.items()
        )
        lines.append(
            Text.assemble(
                ("Framework backends: ", "bold"),
                f"{listed} — loaded the model files and checked their inputs and outputs "
                f"against the configs, as the backend does at load; {FLAG_STUB_BACKENDS} "
                "validates the configs only.",
            )
        )
    for backend in server.frameworks_missing:
        if backend in stubbed:
            framework = FRAMEWORKS[backend]
            lines.append(
                Text.assemble(
                    ("Framework missing: ", "bold"),
                    f"{framework.module} is not installed here, so {backend} "
                    f"({', '.join(stubbed[backend])}) was stubbed; `{framework.install_hint}` "
                    "loads these models with it.",
                )
            )
    return lines


def _model_file_lines(result: SmokeResult) -> list[Text]:
    """What the static checks read of each model file that a stand-in did not load."""
    noted = [model for model in result.models if model.model_file is not None]
    if not noted:
        return []
    lines = [
        Text.assemble(
            ("Model files checked statically", "bold"), " (the stand-ins did not load them):"
        )
    ]
    lines.extend(Text(f"  {model.name}: {model.model_file}.") for model in noted)
    return lines


def smoke_object(result: SmokeResult) -> dict[str, Any]:
    """The JSON form of one smoke run (``tritonlint smoke --format json``)."""
    return {
        "repository": display_path(result.repository),
        "server": {
            "kind": result.server.kind.value,
            "description": result.server.description,
            "version": result.server.version or None,
            "gpus": result.server.gpus,
            "frameworks": dict(result.server.frameworks),
        },
        "share": _share_object(result),
        "ok": result.ok,
        "seconds": round(result.seconds, 3),
        "models": [
            {
                "name": model.name,
                "status": model.status.value,
                "status_text": model.status_text,
                "loaded": model.status.loaded,
                "message": model.message,
                "rule": model.rule.code if model.rule else None,
                "adjustments": list(model.adjustments),
                "flags": list(model.flags),
                "model_file": model.model_file,
                "inference": _inference_object(model),
                "instances": [{"name": name, "device": device} for name, device in model.instances],
                "attempts": model.attempts,
                "seconds": round(model.seconds, 3),
            }
            for model in result.models
        ],
        "python_models_ran_model_py": result.python_models,
        "flags_needed": result.flags_needed(),
        "findings": [to_json_object(d) for d in result.diagnostics],
    }


def _inference_object(model: ModelResult) -> dict[str, Any] | None:
    inference = model.inference
    if inference is None:
        return None
    return {
        "state": inference.state.value,
        "text": inference.text,
        "seconds": round(inference.seconds, 3),
    }


def _share_object(result: SmokeResult) -> dict[str, int] | None:
    share = result.share
    if share is None:
        return None
    return {
        "index": share.shard.index,
        "total": share.shard.total,
        "models": share.models,
        "of": share.of,
    }


def render_smoke_json(result: SmokeResult) -> str:
    return json.dumps(smoke_object(result), indent=2, ensure_ascii=False)
