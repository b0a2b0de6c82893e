"""One inference per loaded model: send the request, judge the answer, place the findings.

The request is built from the config the server loaded (:mod:`tritonlint.smoke.requests`),
sent in the binary tensor extension (a decoupled model: through ``generate_stream``), and the
answer checked against the config (:mod:`tritonlint.smoke.answers`). A problem of an output is
placed at that output's entry in config.pbtxt; a server error at the line of the model's
Python code its traceback points to, else at the config.
"""

from __future__ import annotations

import enum
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import Diagnostic
from tritonlint.rules.registry import by_code
from tritonlint.smoke.answers import BadAnswer, check_answer, parse_answer
from tritonlint.smoke.python_code import python_error_location
from tritonlint.smoke.requests import (
    InferRequest,
    NotInferred,
    Tensor,
    build_request,
    is_decoupled,
)
from tritonlint.span import Span
from tritonlint.tritonserver.client import NoAnswerInTime, ServerUnreachable, TritonClient

INFER_FAILED = "TL035"
OUTPUT_MISMATCH = "TL036"
OUTPUT_MISSING = "TL037"

#: Data types that have a JSON value in a generate_stream request.
_JSON_SCALARS = ("BOOL", "BYTES", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16",
                 "INT32", "INT64", "FP32", "FP64")  # fmt: skip


class InferenceState(str, enum.Enum):
    ANSWERED = "answered"
    NOT_INFERRED = "not-inferred"
    FAILED = "failed"


@dataclass
class Inference:
    """What became of the model's one request."""

    state: InferenceState
    #: ``answered: 2 outputs as configured``, ``not inferred: <reason>``, what failed.
    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    #: The server did not answer in time or went away: start it afresh before the next load.
    server_unusable: bool = False


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class InferTarget:
    """The model to infer: its name, the user's folder, the staged folder the server reads,
    and the user's folders of the models its errors may come from (itself, its steps)."""

    name: str
    folder: Path
    staged_folder: Path
    code_folders: Sequence[Path]
    #: The server's message with the staged copy's paths as the user's (to find the code it
    #: points to), and as a finding says them (from the repository's root).
    to_user_paths: Callable[[str], str] = _same
    to_finding_paths: Callable[[str], str] = _same


def not_inferred(reason: str) -> Inference:
    return Inference(InferenceState.NOT_INFERRED, f"not inferred: {reason}")


def infer(
    client: TritonClient,
    target: InferTarget,
    *,
    timeout: float,
    server_label: str,
) -> Inference:
    """Send ``target`` its request and judge the answer."""
    started = time.monotonic()
    try:
        config = client.model_config(target.name, timeout=timeout)
    except ServerUnreachable as error:
        return _unanswered(target, error, timeout, server_label, started)
    if config is None:
        return not_inferred("the server did not give the model's config")
    request = build_request(config, target.staged_folder)
    if isinstance(request, NotInferred):
        return not_inferred(request.reason)
    try:
        if is_decoupled(config):
            inference = _infer_decoupled(client, target, config, request, timeout, server_label)
        else:
            body, header_length = request.body()
            answer = client.infer(target.name, body, header_length, timeout=timeout)
            if answer.status != 200:
                inference = _failed(target, server_label, answer.error.strip())
            else:
                inference = _judge(target, config, answer.body, answer.header_length)
    except ServerUnreachable as error:
        return _unanswered(target, error, timeout, server_label, started)
    inference.seconds = time.monotonic() - started
    return inference


def _judge(
    target: InferTarget, config: Mapping[str, Any], body: bytes, header_length: int | None
) -> Inference:
    try:
        outputs = parse_answer(body, header_length)
    except BadAnswer as error:
        return _failed(target, "", str(error))
    problems = check_answer(config, outputs)
    if not problems:
        count = len(config.get("output") or [])
        text = f"answered: {count} output{'' if count == 1 else 's'} as configured"
        return Inference(InferenceState.ANSWERED, text)
    spans = OutputSpans(target.folder / "config.pbtxt")
    diagnostics = []
    for problem in problems:
        rule = by_code(OUTPUT_MISSING if problem.missing else OUTPUT_MISMATCH)
        assert rule is not None
        path, span = spans.of(problem.output)
        diagnostics.append(rule.diagnostic(problem.message, path, span))
    text = "answered, not as configured: " + "; ".join(p.message for p in problems)
    return Inference(InferenceState.FAILED, text, diagnostics)


def _failed(target: InferTarget, server_label: str, message: str) -> Inference:
    """A server error at inference, placed in the model's code where its traceback points."""
    rule = by_code(INFER_FAILED)
    assert rule is not None
    who = f"{server_label} " if server_label else ""
    located = target.to_user_paths(message)
    message = target.to_finding_paths(message)
    text = f"{who}could not run the model's inference: {message}"
    for folder in target.code_folders:
        found = python_error_location(located, folder)
        if found is not None:
            text = f"{who}could not run the model's inference [an exception in the model's "
            text += f"Python code]: {message}"
            return Inference(
                InferenceState.FAILED, text, [rule.diagnostic(text, found.path, found.span)]
            )
    config = target.folder / "config.pbtxt"
    return Inference(InferenceState.FAILED, text, [rule.diagnostic(text, config)])


def _unanswered(
    target: InferTarget,
    error: ServerUnreachable,
    timeout: float,
    server_label: str,
    started: float,
) -> Inference:
    if isinstance(error, NoAnswerInTime):
        message = f"the model did not answer within --infer-timeout {timeout:g} s"
    else:
        message = f"the server went away while the model ran its inference ({error})"
    inference = _failed(target, server_label, message)
    inference.server_unusable = True
    inference.seconds = time.monotonic() - started
    return inference


def _infer_decoupled(
    client: TritonClient,
    target: InferTarget,
    config: Mapping[str, Any],
    request: InferRequest,
    timeout: float,
    server_label: str,
) -> Inference:
    """A decoupled model through ``generate_stream``, where its inputs have a JSON form."""
    payload = generate_payload(request)
    if isinstance(payload, NotInferred):
        return not_inferred(payload.reason)
    answer = client.generate_stream(target.name, payload, timeout=timeout)
    if answer.status != 200:
        return _failed(target, server_label, answer.error.strip())
    events = stream_events(answer.body)
    errors = [str(e["error"]) for e in events if isinstance(e.get("error"), str)]
    if errors:
        return _failed(target, server_label, errors[0])
    came = {key for event in events for key in event}
    wanted = [str(o.get("name", "")) for o in config.get("output") or []]
    missing = [name for name in wanted if name not in came]
    if missing:
        rule = by_code(OUTPUT_MISSING)
        assert rule is not None
        spans = OutputSpans(target.folder / "config.pbtxt")
        found = ", ".join(f"'{k}'" for k in sorted(came)) or "none"
        diagnostics = [
            rule.diagnostic(
                f"output '{name}' came back in none of the {len(events)} streamed responses "
                f"(what did: {found})",
                *spans.of(name),
            )
            for name in missing
        ]
        return Inference(InferenceState.FAILED, diagnostics[0].message, diagnostics)
    count = len(events)
    return Inference(
        InferenceState.ANSWERED,
        f"answered: {count} streamed response{'' if count == 1 else 's'} with every output "
        "(generate_stream: data types and shapes unchecked)",
    )


def generate_payload(request: InferRequest) -> dict[str, object] | NotInferred:
    """The JSON object of a generate_stream request: one value per input (each input a single
    element of a JSON-expressible data type), the request parameters beside them."""
    payload: dict[str, object] = {}
    for tensor in request.inputs:
        if tensor.datatype not in _JSON_SCALARS or math.prod(tensor.shape) != 1:
            return NotInferred(
                f"a decoupled model is answered through generate_stream, whose JSON holds one "
                f"value per input; input '{tensor.name}' is {tensor.datatype} "
                f"{list(tensor.shape)}"
            )
        payload[tensor.name] = _json_value(tensor)
    payload.update(request.parameters)
    return payload


def _json_value(tensor: Tensor) -> object:
    if tensor.datatype == "BYTES":
        return tensor.data[4:].decode(errors="replace")
    if tensor.datatype == "BOOL":
        return bool(tensor.data[0])
    if tensor.datatype.startswith("FP"):
        return 0.0
    return int.from_bytes(tensor.data, "little", signed=tensor.datatype.startswith("INT"))


def stream_events(body: bytes) -> list[dict[str, Any]]:
    """The JSON objects of a server-sent event stream (``data: {...}`` lines)."""
    events: list[dict[str, Any]] = []
    for line in body.decode(errors="replace").splitlines():
        if not line.startswith("data:"):
            continue
        try:
            event = json.loads(line[5:].strip())
        except ValueError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


class OutputSpans:
    """Where each output's entry is in the user's config.pbtxt (read once, when asked)."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self._spans: dict[str, Span] | None = None

    def of(self, output: str) -> tuple[Path, Span | None]:
        if self._spans is None:
            self._spans = output_spans(self.config)
        return self.config, self._spans.get(output)


def output_spans(config: Path) -> dict[str, Span]:
    """Output name -> the span of the ``name: ...`` field of its entry in ``config`` (the
    entry's own span covers the whole ``output [ ... ]`` list)."""
    from tritonlint.document import load_config
    from tritonlint.schema.releases import load_schema

    try:
        document = load_config(config, load_schema())
    except OSError:
        return {}
    bound = document.bound
    message = document.config
    if bound is None or message is None:
        return {}
    spans: dict[str, Span] = {}
    for index, output in enumerate(message.output):  # type: ignore[attr-defined]
        location = bound.source_map.nearest(("output", index, "name"))
        if location is not None:
            spans.setdefault(output.name, location.field)
    return spans
