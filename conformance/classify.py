"""Sort each model into detected / missed / false error / environment-dependent, and match messages.

Classes (the server is the judge; the linter's *error* findings inside the model folder count):

* ``loaded``: the server loaded the model and the linter reports no error there;
* ``false-error``: the server loaded the model, the linter reports an error there;
* ``detected``: the server refused it, the linter reports an error there;
* ``missed``: the server refused it, the linter reports no error there;
* ``env``: the server refused it for a reason that lies outside the files the linter reads
  (see :data:`ENV_REASONS`); counted apart, whether the linter flags it or not, and left out of
  the detection and message-match rates.

Message match, for a detected model: the best of its error findings, in this order:

* ``template``: the rule's ``server_message``, with each ``{placeholder}`` and each ``...``
  standing for any text, is found in the server's message;
* ``fragment``: the longest fixed fragment of the rule's ``server_message`` (between
  placeholders), when it has at least :data:`MIN_FRAGMENT` characters, is found verbatim in the
  server's message;
* ``none``: neither (also when the rule declares no ``server_message``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from conformance.corpus import QACase
from conformance.run import REPO_MARK, Finding, ModelRecord
from tritonlint.rules.messages import template_parts, template_pattern
from tritonlint.tritonserver import PLATFORM_NAMES, scan_model

#: The shortest fixed fragment of a rule's server_message that counts as a match on its own.
MIN_FRAGMENT = 20

#: Backends whose real implementation writes a whole config from the model file (or from
#: model.py's ``auto_complete_config``) when there is none; the stubs do not.
NO_CONFIG_BACKENDS = frozenset(
    {"onnxruntime", "tensorrt", "tensorflow", "openvino", "python", "dali"}
)
#: Backends that also complete inputs and outputs the config lists without dims or data type.
#: (ONNX Runtime completes a side only when the config lists none of it, so a named input or
#: output that lacks dims is refused by the real backend too.)
PARTIAL_IO_BACKENDS = frozenset({"tensorrt", "tensorflow", "openvino", "python", "dali"})
_PLATFORM_BACKENDS = {
    "tensorrt_plan": "tensorrt",
    "onnxruntime_onnx": "onnxruntime",
    "pytorch_libtorch": "pytorch",
    "tensorflow_savedmodel": "tensorflow",
    "tensorflow_graphdef": "tensorflow_graphdef",  # no auto-complete for GraphDef models
}
_MODEL_FILE_BACKENDS = {
    "model.onnx": "onnxruntime",
    "model.plan": "tensorrt",
    "model.pt": "pytorch",
    "model.savedmodel": "tensorflow",
    "model.graphdef": "tensorflow_graphdef",
    "model.xml": "openvino",
    "model.py": "python",
    "model.dali": "dali",
}


class Outcome(str, enum.Enum):
    LOADED = "loaded"
    FALSE_ERROR = "false-error"
    STUB_LOADED = "stub-loaded"
    DETECTED = "detected"
    MISSED = "missed"
    ENV = "env"


class Match(str, enum.Enum):
    TEMPLATE = "template"
    FRAGMENT = "fragment"
    NONE = "none"


#: Why a refusal is environment-dependent: key -> what the report says.
ENV_REASONS = {
    "installed-backend": "depends on the backends or libraries installed (MANIFEST "
    "environment(...), or a backend the judge has no stub for)",
    "repo-agent": "depends on the repository agents installed (none on the judge)",
    "cli-flags": "a command-line message test, not a config case (MANIFEST cli_flags)",
    "test-script-files": "the QA suite loads it with files its test scripts create or fetch "
    "(MANIFEST notes); the corpus holds the stored config only",
    "backend-auto-complete": "the real backend completes the config from the model file (or "
    "model.py's auto_complete_config); the judge's stubs do not auto-complete",
    "placeholder-binary": "the corpus holds an empty placeholder for a library or binary the "
    "server opens",
    "execution-env-outside": "the python backend's EXECUTION_ENV_PATH names a file outside the "
    "repository (an absolute path, or one relative to the server's working directory): whether it "
    "exists depends on the machine",
    "composing-env": "an ensemble step's model was refused for an environment reason",
}

_MESSAGE_ENV = (
    ("repo-agent", re.compile(r"for repo agent '")),
    ("placeholder-binary", re.compile(r"file too short|invalid ELF header|not an ELF")),
)
_AUTO_COMPLETE = (
    (re.compile(r"model configuration is not provided"), NO_CONFIG_BACKENDS),
    (
        re.compile(r"model (?:input|output) '[^']*' must specify '(?:dims|data_type)'"),
        PARTIAL_IO_BACKENDS,
    ),
)
_BACKEND_LIBRARY = re.compile(r"unable to find backend library for backend '([^']*)'")
_EXECUTION_ENV = re.compile(r"Failed to get the canonical path for (\S+?)\.?;?$")
#: What follows the name of the blamed step: its own error.
_AMBIGUOUS_TAIL = re.compile(
    r"(?<=which has no loaded version\.) Model .*$|(?<=which is not valid\.) Model .*$"
)
#: How the server names the step model behind an ensemble's refusal.
_NOT_AVAILABLE = re.compile(r"contains models that are not available or ambiguous: (.+)$")
_STEP_BLAMED = (
    re.compile(r"depends on '([^']+)' which (?:has no loaded version|is not valid)"),
    _NOT_AVAILABLE,
    re.compile(r"Python model file not found in '<repo>/([^/']+)/"),
)


@dataclass(frozen=True)
class Classified:
    record: ModelRecord
    outcome: Outcome
    env_reason: str | None = None
    match: Match | None = None
    matched_code: str | None = None
    miss_reason: str | None = None
    #: The refused step models an ensemble's refusal follows from (sorted), when the server
    #: blames one of them: with several, which one it names changes from run to run.
    refused_steps: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.record.errors)

    @property
    def display_message(self) -> str:
        """The server's message, without the parts that change from run to run."""
        message = self.record.server_message
        if len(self.refused_steps) > 1:
            steps = ", ".join(f"'{name}'" for name in self.refused_steps)
            head = _AMBIGUOUS_TAIL.sub("", message)
            for name in blamed_steps(self.record):
                head = head.replace(f"'{name}'", "'…'").replace(f"<repo>/{name}/", "<repo>/…/")
            message = f"{head} [the server names one of the refused steps {steps}]"
        return message


# -- message matching -------------------------------------------------------------------------


def match_message(template: str | None, server_message: str) -> Match:
    """How a rule's predicted message matches; a rule may predict several, one per line."""
    if not template:
        return Match.NONE
    found = [_match_one(line, server_message) for line in template.splitlines() if line]
    if Match.TEMPLATE in found:
        return Match.TEMPLATE
    return Match.FRAGMENT if Match.FRAGMENT in found else Match.NONE


def _match_one(template: str, server_message: str) -> Match:
    if template_pattern(template).search(server_message):
        return Match.TEMPLATE
    longest = max((part.strip() for part in template_parts(template)), key=len, default="")
    if len(longest) >= MIN_FRAGMENT and longest in server_message:
        return Match.FRAGMENT
    return Match.NONE


@cache
def _server_messages() -> dict[str, str | None]:
    from tritonlint.rules.registry import all_rules

    return {rule.code: rule.server_message for rule in all_rules()}


def best_match(findings: Sequence[Finding], server_message: str) -> tuple[Match, str | None]:
    rank = {Match.TEMPLATE: 0, Match.FRAGMENT: 1, Match.NONE: 2}
    best: tuple[Match, str | None] = (Match.NONE, None)
    for finding in findings:
        found = match_message(_server_messages().get(finding.code), server_message)
        if rank[found] < rank[best[0]]:
            best = (found, finding.code)
    if best[1] is None and findings:
        best = (Match.NONE, findings[0].code)
    return best


# -- environment ------------------------------------------------------------------------------


def model_backend(folder: Path) -> str | None:
    """The backend the server would use for a model folder, as far as the files tell."""
    info = scan_model(folder)
    if info.backend:
        return info.backend
    if info.platform:
        return _PLATFORM_BACKENDS.get(info.platform, info.platform)
    if info.default_model_filename in _MODEL_FILE_BACKENDS:
        return _MODEL_FILE_BACKENDS[info.default_model_filename]
    for version in info.version_paths.values():
        for name, backend in _MODEL_FILE_BACKENDS.items():
            if (version / name).exists():
                return backend
    if "." in folder.name:  # model.<backend>
        return folder.name.rsplit(".", 1)[1]
    return None


def _qa_env(case: QACase) -> str | None:
    """The environment reason the MANIFEST gives for a case, if any.

    ``model_file(...)`` and ``code(...)`` cases are not environment-dependent *here*: the judge
    never reads a model file's contents nor runs model.py (stubs stand in), so whatever it
    refuses in such a case, it refuses for what the files show.
    """
    if case.static_detectability.startswith("environment("):
        return "installed-backend"
    if case.static_detectability == "cli_flags":
        return "cli-flags"
    if re.search(r"test scripts? (?:copy|place)|downloaded by|used by test script", case.notes):
        return "test-script-files"
    return None


def env_reason(record: ModelRecord) -> str | None:
    """Why the refusal of ``record`` depends on the environment, or None when it does not.

    A refusal the server blames on another model of the repository (an ensemble step) is left
    to :func:`classify_records`, which follows the step's own classification.
    """
    case = record.repository.qa_case
    if case is not None:
        found = _qa_env(case)
        if found:
            return found
    if blamed_steps(record):
        return None
    message = record.server_message
    for key, pattern in _MESSAGE_ENV:
        if pattern.search(message):
            return key
    for pattern, backends in _AUTO_COMPLETE:
        backend = model_backend(record.repository.path / record.model)
        if pattern.search(message) and backend in backends:
            return "backend-auto-complete"
    library = _BACKEND_LIBRARY.search(message)
    if library and library.group(1) not in PLATFORM_NAMES:
        return "installed-backend"
    environment = _EXECUTION_ENV.search(message)
    if environment and not environment.group(1).startswith(REPO_MARK):
        return "execution-env-outside"
    return None


def blamed_steps(record: ModelRecord) -> list[str]:
    """Other models of the repository that the server's message blames for this refusal."""
    names: list[str] = []
    for pattern in _STEP_BLAMED:
        found = pattern.search(record.server_message)
        if found:
            names += [name.strip() for name in found.group(1).split(",")]
    return [n for n in dict.fromkeys(names) if n != record.model and n in record.repository.models]


#: A grep BRE escape (``\[``) in a MANIFEST expected_message.
_BRE_ESCAPE = re.compile(r"\\(.)")


def qa_confirms_refusal(record: ModelRecord) -> bool:
    """The QA suite expects this model refused, with the message one of its error findings
    predicts (the finding's message or the rule's template holds the expected text)."""
    case = record.repository.qa_case
    if case is None or case.expected_outcome != "load_error" or not case.expected_message:
        return False
    if case.case_kind == "repository" and record.model != Path(case.case_path).name:
        return False
    expected = _BRE_ESCAPE.sub(r"\1", case.expected_message).strip().rstrip(".")
    for finding in record.errors:
        if expected in finding.message:
            return True
        if match_message(_server_messages().get(finding.code), expected) is Match.TEMPLATE:
            return True
    return False


def refused_steps(record: ModelRecord, by_label: dict[str, Classified]) -> tuple[str, ...]:
    """The refused step models an ensemble's refusal follows from, sorted.

    When the server names one step that "has no loaded version" or whose model.py is missing,
    every refused step of the ensemble counts (the one named changes from run to run); when it
    lists the steps that are "not available", those do.
    """
    blamed = blamed_steps(record)
    if record.loaded or not blamed:
        return ()
    names = set(blamed)
    if not _NOT_AVAILABLE.search(record.server_message):
        names |= set(scan_model(record.repository.path / record.model).composing)
    return tuple(
        sorted(
            name
            for name in names
            if name in record.repository.models
            and name != record.model
            and not by_label[record.repository.model_label(name)].record.loaded
        )
    )


def _miss_reason(
    record: ModelRecord, steps: tuple[str, ...], by_label: dict[str, Classified]
) -> str:
    """A short category for a refusal the linter did not flag."""
    if steps:
        codes = sorted(
            {
                f.code
                for name in steps
                for f in by_label[record.repository.model_label(name)].record.errors
            }
        )
        flagged = (
            f" (flagged there: {', '.join(codes)})" if codes else " (not flagged there either)"
        )
        names = ", ".join(f"'{name}'" for name in steps)
        return f"consequence of refused step model {names}{flagged}"
    warnings = sorted({f.code for f in record.findings})
    if warnings:
        return f"only warnings: {', '.join(warnings)}"
    return "no finding"


def classify_records(records: Iterable[ModelRecord]) -> list[Classified]:
    """Classify every model.

    An ensemble refused because of its step models (the server names one of them) is
    environment-dependent when every refused step is; the step the server names is not used,
    since with several refused steps it changes from run to run.
    """
    records = list(records)
    by_label: dict[str, Classified] = {}
    for record in records:
        by_label[record.label] = _classify_one(
            record, env_reason(record) if not record.loaded else None
        )
    steps_of = {record.label: refused_steps(record, by_label) for record in records}
    # Nested ensembles: repeat until nothing changes.
    changed = True
    while changed:
        changed = False
        for record in records:
            current = by_label[record.label]
            steps = steps_of[record.label]
            if not steps or current.outcome is Outcome.ENV:
                continue
            if all(
                by_label[record.repository.model_label(name)].outcome is Outcome.ENV
                for name in steps
            ):
                by_label[record.label] = _classify_one(record, "composing-env")
                changed = True
    for record in records:
        current = by_label[record.label]
        steps = steps_of[record.label]
        if current.outcome is Outcome.MISSED:
            current = replace(current, miss_reason=_miss_reason(record, steps, by_label))
        current = replace(current, refused_steps=steps)
        if len(steps) > 1 and current.match is not None:
            # Match what does not change from run to run.
            match, code = best_match(record.errors, current.display_message)
            current = replace(current, match=match, matched_code=code)
        by_label[record.label] = current
    return [by_label[record.label] for record in records]


def _classify_one(record: ModelRecord, env: str | None) -> Classified:
    errors = record.errors
    if record.loaded:
        if not errors:
            return Classified(record, Outcome.LOADED)
        if qa_confirms_refusal(record):
            return Classified(record, Outcome.STUB_LOADED)
        return Classified(record, Outcome.FALSE_ERROR)
    if env is not None:
        match, code = best_match(errors, record.server_message) if errors else (None, None)
        return Classified(record, Outcome.ENV, env_reason=env, match=match, matched_code=code)
    if not errors:
        return Classified(record, Outcome.MISSED)
    match, code = best_match(errors, record.server_message)
    return Classified(record, Outcome.DETECTED, match=match, matched_code=code)
