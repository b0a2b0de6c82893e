"""Counts, rates and the Markdown report (sorted, with no timings, so that it can be committed)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from conformance.classify import ENV_REASONS, MIN_FRAGMENT, Classified, Match, Outcome


@dataclass(frozen=True)
class Summary:
    name: str
    models: int
    loaded: int
    refused: int
    detected: int
    false_errors: int
    stub_loaded: int
    missed: int
    env: int
    env_flagged: int
    matched: int

    @property
    def gradable(self) -> int:
        """Refusals that do not depend on the environment: what the detection rate is over."""
        return self.detected + self.missed

    @property
    def detection_rate(self) -> float | None:
        return self.detected / self.gradable if self.gradable else None

    @property
    def match_rate(self) -> float | None:
        return self.matched / self.detected if self.detected else None


def summarize(name: str, results: Sequence[Classified]) -> Summary:
    counts = Counter(r.outcome for r in results)
    return Summary(
        name=name,
        models=len(results),
        loaded=sum(1 for r in results if r.record.loaded),
        refused=sum(1 for r in results if not r.record.loaded),
        detected=counts[Outcome.DETECTED],
        false_errors=counts[Outcome.FALSE_ERROR],
        stub_loaded=counts[Outcome.STUB_LOADED],
        missed=counts[Outcome.MISSED],
        env=counts[Outcome.ENV],
        env_flagged=sum(1 for r in results if r.outcome is Outcome.ENV and r.flagged),
        matched=sum(
            1
            for r in results
            if r.outcome is Outcome.DETECTED and r.match in (Match.TEMPLATE, Match.FRAGMENT)
        ),
    )


def total(summaries: Iterable[Summary]) -> Summary:
    items = list(summaries)
    return Summary(
        "all",
        *(
            sum(getattr(s, f) for s in items)
            for f in (
                "models",
                "loaded",
                "refused",
                "detected",
                "false_errors",
                "stub_loaded",
                "missed",
                "env",
                "env_flagged",
                "matched",
            )
        ),
    )


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


# -- grouping ---------------------------------------------------------------------------------

_PREFIXES = (
    re.compile(r"^load failed for model '[^']*': "),
    re.compile(r"^Poll failed for model directory '[^']*': "),
    re.compile(r"^version \d+ is at UNAVAILABLE state: "),
    re.compile(r"^failed to load '[^']*' version \d+: "),
)


#: Ensemble checks that report the first bad entry of an ``input_map``/``output_map``: the
#: server walks a protobuf map, whose order changes from run to run, so the names do too.
_MAP_ORDER = (
    (
        re.compile(r"ensemble tensor \S+ is mapping to non-existing input \S+ in model \S+"),
        "ensemble tensor … is mapping to non-existing input … in model …",
    ),
    (
        re.compile(r"ensemble tensor \S+ is mapped from non-existing output \S+ in model \S+"),
        "ensemble tensor … is mapped from non-existing output … in model …",
    ),
    (
        re.compile(r"input \S+ in model \S+ is not mapped to any ensemble tensors"),
        "input … in model … is not mapped to any ensemble tensors",
    ),
)


def stable_message(message: str) -> str:
    """The server's message as the report shows it: the names in messages that depend on a
    protobuf map's order are written ``…``."""
    for pattern, replacement in _MAP_ORDER:
        message = pattern.sub(replacement, message)
    return message


def message_pattern(message: str) -> str:
    """The server's message with names, numbers and positions written as placeholders."""
    text = stable_message(message).strip().rstrip(";")
    changed = True
    while changed:
        changed = False
        for prefix in _PREFIXES:
            stripped = prefix.sub("", text)
            if stripped != text:
                text, changed = stripped, True
    text = re.sub(r"<repo>/\S*?(?=[\s'\"),;]|$)", "<path>", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r'"[^"]*"', '"…"', text)
    text = re.sub(r"\b\d+:\d+:", "L:C:", text)
    text = re.sub(r"\d+", "N", text)
    return text


def _cell(text: str) -> str:
    """Text for a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _code(text: str) -> str:
    text = _cell(text)
    return f"`{text}`" if "`" not in text else f"``{text}``"


def _message(result: Classified) -> str:
    return _code(stable_message(result.display_message))


def _codes(result: Classified) -> str:
    return ", ".join(sorted({f.code for f in result.record.errors})) or "-"


# -- console ----------------------------------------------------------------------------------


def print_table(summaries: Sequence[Summary], console: Console | None = None) -> None:
    console = console or Console()
    table = Table(title="tritonlint conformance (server verdict vs linter)")
    for column in (
        "set",
        "models",
        "loaded",
        "refused",
        "detected",
        "false errors",
        "stub-loaded",
        "missed",
        "env-dependent (flagged)",
        "detection",
        "message match",
    ):
        table.add_column(column, justify="left" if column == "set" else "right")
    for s in [*summaries, total(summaries)]:
        table.add_row(
            s.name,
            str(s.models),
            str(s.loaded),
            str(s.refused),
            str(s.detected),
            str(s.false_errors),
            str(s.stub_loaded),
            str(s.missed),
            f"{s.env} ({s.env_flagged})",
            percent(s.detection_rate),
            percent(s.match_rate),
        )
    console.print(table)


# -- Markdown ---------------------------------------------------------------------------------

_INTRO = """\
# Conformance: tritonlint against the real Triton server

Generated by `python -m conformance --output docs/conformance.md`; do not edit by hand.
Every model of every set is loaded, one at a time, on a real tritonserver {server} (the
`tritonlint.tritonserver` judge: one fresh server per repository, default server flags, so
auto-complete is on; backends the server lacks are stubs; without a GPU `KIND_GPU` is judged as
`KIND_CPU`; python models whose model files are empty placeholders are served by the native stub
backend, except those that set `EXECUTION_ENV_PATH`). The same files are linted with tritonlint,
whole repositories at a time, with {lint_options}. Only error-severity findings whose path lies
inside the model's folder count.

* **detected**: refused by the server, flagged with an error;
* **false error**: loaded by the server, flagged with an error;
* **stub-loaded**: loaded, flagged with an error, and the triton-qa MANIFEST expects the real
  server to refuse it with the message the finding predicts: a check of the real backend that
  the judge's stub backend does not make (not counted as a false error; listed below);
* **missed**: refused by the server, no error;
* **environment-dependent**: refused for a reason outside the files the linter reads (reasons
  below; from the triton-qa MANIFEST's `static_detectability` and `notes` columns, or from what the
  judge cannot reproduce); counted apart and left out of both rates, flagged or not.

Detection rate = detected / (detected + missed). Message match rate = detected models whose
predicted message matches / detected. A finding's message matches when its rule's
`server_message`, with every `{{placeholder}}` and `...` read as "any text", occurs in the server's
message (*template*), or else when the template's longest fixed fragment, if it has at least
{min_fragment} characters, occurs in it verbatim (*fragment*). A model counts as matched when any of
its error findings matches.

triton-qa cases are judged with default server flags even where the QA suite runs them with
others (`--disable-auto-complete-config`, `--strict-model-config=true`, ...), because the
linter's default options describe the default server; a `single_model` case is the one model
`<basename of case_path>` of its own repository, as `qa/L0_model_config/test.sh` lays it out.
Parts of messages that change from run to run are not shown: where an ensemble check names the
first bad entry of an `input_map` or `output_map` (the server walks a protobuf map, whose order
changes), the names are written `…`; where an ensemble is refused because one of several refused
step models has no loaded version, the step's name is written `…` and all refused steps are
listed in brackets (which one the server names changes too).
"""


def render_markdown(results: dict[str, list[Classified]], *, server: str, lint_options: str) -> str:
    summaries = [summarize(name, items) for name, items in results.items()]
    everything = [r for items in results.values() for r in items]
    out = [_INTRO.format(server=server, lint_options=lint_options, min_fragment=MIN_FRAGMENT)]

    out += ["## Summary", ""]
    out += [
        "| set | models | loaded | refused | detected | false errors | stub-loaded | missed | "
        "env-dependent (flagged) | detection rate | message match |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in [*summaries, total(summaries)]:
        name = f"**{s.name}**" if s.name == "all" else s.name
        out.append(
            f"| {name} | {s.models} | {s.loaded} | {s.refused} | {s.detected} | "
            f"{s.false_errors} | {s.stub_loaded} | {s.missed} | {s.env} ({s.env_flagged}) | "
            f"{percent(s.detection_rate)} | {percent(s.match_rate)} |"
        )
    out.append("")

    # Message match by rule
    by_rule: dict[str, Counter[Match]] = defaultdict(Counter)
    for r in everything:
        if r.outcome is Outcome.DETECTED and r.matched_code and r.match is not None:
            by_rule[r.matched_code][r.match] += 1
    out += ["## Message match by rule", ""]
    out += [
        "The rule of the best-matching error finding of each detected model (for a model with no",
        "match, its first error finding).",
        "",
        "| rule | detected | template | fragment | no match |",
        "|---|---:|---:|---:|---:|",
    ]
    for code in sorted(by_rule):
        c = by_rule[code]
        out.append(
            f"| {code} | {sum(c.values())} | {c[Match.TEMPLATE]} | {c[Match.FRAGMENT]} | "
            f"{c[Match.NONE]} |"
        )
    out.append("")

    false_errors = sorted(
        (r for r in everything if r.outcome is Outcome.FALSE_ERROR), key=lambda r: r.record.label
    )
    out += [f"## False errors ({len(false_errors)})", ""]
    if false_errors:
        out += ["| model | finding | server verdict | judge adjustments |", "|---|---|---|---|"]
        for r in false_errors:
            findings = "<br>".join(
                _code(f"{f.code} {f.message}") for f in sorted(r.record.errors, key=_finding_key)
            )
            adjustments = "; ".join(r.record.adjustments) or "-"
            out.append(
                f"| {_code(r.record.label)} | {findings} | {_message(r)} | {_cell(adjustments)} |"
            )
    else:
        out.append("None.")
    out.append("")

    stub_loaded = sorted(
        (r for r in everything if r.outcome is Outcome.STUB_LOADED), key=lambda r: r.record.label
    )
    out += [
        f"## Loaded by a stub, refused by the real server per the QA suite ({len(stub_loaded)})"
    ]
    out.append("")
    if stub_loaded:
        out += ["| model | finding | QA expected message |", "|---|---|---|"]
        for r in stub_loaded:
            findings = "<br>".join(
                _code(f"{f.code} {f.message}") for f in sorted(r.record.errors, key=_finding_key)
            )
            expected = (
                r.record.repository.qa_case.expected_message if r.record.repository.qa_case else ""
            )
            out.append(f"| {_code(r.record.label)} | {findings} | {_code(expected)} |")
    else:
        out.append("None.")
    out.append("")

    missed = [r for r in everything if r.outcome is Outcome.MISSED]
    groups: dict[str, list[Classified]] = defaultdict(list)
    for r in missed:
        groups[message_pattern(r.display_message)].append(r)
    out += [f"## Missed refusals ({len(missed)})", ""]
    out.append("Grouped by the server's message, names and numbers written `…` and `N`.")
    out.append("")
    for pattern in sorted(groups, key=lambda p: (-len(groups[p]), p)):
        items = sorted(groups[pattern], key=lambda r: r.record.label)
        out += [f"### {_code(pattern)} ({len(items)})", ""]
        out += ["| model | reason | server message |", "|---|---|---|"]
        for r in items:
            out.append(
                f"| {_code(r.record.label)} | {_cell(r.miss_reason or '')} | {_message(r)} |"
            )
        out.append("")
    if not missed:
        out += ["None.", ""]

    unmatched = sorted(
        (r for r in everything if r.outcome is Outcome.DETECTED and r.match is Match.NONE),
        key=lambda r: r.record.label,
    )
    out += [f"## Detected, but the predicted message does not match ({len(unmatched)})", ""]
    if unmatched:
        out += ["| model | error findings | server message |", "|---|---|---|"]
        for r in unmatched:
            out.append(f"| {_code(r.record.label)} | {_codes(r)} | {_message(r)} |")
    else:
        out.append("None.")
    out.append("")

    env = [r for r in everything if r.outcome is Outcome.ENV]
    out += [f"## Environment-dependent refusals ({len(env)})", ""]
    by_reason: dict[str, list[Classified]] = defaultdict(list)
    for r in env:
        by_reason[r.env_reason or ""].append(r)
    for reason in sorted(by_reason, key=lambda k: (-len(by_reason[k]), k)):
        items = sorted(by_reason[reason], key=lambda r: r.record.label)
        flagged = sum(1 for r in items if r.flagged)
        out += [
            f"### {reason} ({len(items)}, {flagged} flagged)",
            "",
            ENV_REASONS.get(reason, reason) + ".",
            "",
            "| model | error findings | server message |",
            "|---|---|---|",
        ]
        for r in items:
            out.append(f"| {_code(r.record.label)} | {_codes(r)} | {_message(r)} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _finding_key(finding: object) -> tuple[str, str]:
    return (getattr(finding, "code", ""), getattr(finding, "message", ""))


def render_gaps(results: dict[str, list[Classified]]) -> str:
    """A short list for rule authors: missed refusals grouped by message, false errors,
    unmatched messages, and errors that a real backend's auto-complete may make false."""
    everything = [r for items in results.values() for r in items]
    missed = [r for r in everything if r.outcome is Outcome.MISSED]
    groups: dict[str, list[Classified]] = defaultdict(list)
    for r in missed:
        groups[message_pattern(r.display_message)].append(r)
    out = [f"# Conformance gaps: {len(missed)} missed refusals", ""]
    for pattern in sorted(groups, key=lambda p: (-len(groups[p]), p)):
        items = sorted(groups[pattern], key=lambda r: r.record.label)
        reasons = Counter(_short_reason(r.miss_reason or "") for r in items)
        out.append(f"* {len(items)} x {_code(pattern)}")
        out.append(f"  * e.g. {_code(items[0].record.label)}: {_message(items[0])}")
        out.append("  * " + "; ".join(f"{k} ({v})" for k, v in sorted(reasons.items())))
    false_errors = sorted(
        (r for r in everything if r.outcome is Outcome.FALSE_ERROR), key=lambda r: r.record.label
    )
    out += ["", f"# False errors: {len(false_errors)}", ""]
    for r in false_errors:
        for f in sorted(r.record.errors, key=_finding_key):
            out.append(
                f"* {f.code} on {_code(r.record.label)}: {_code(f.message)}; the server: "
                f"{_message(r)}"
            )

    unmatched: dict[tuple[str, str], list[Classified]] = defaultdict(list)
    for r in everything:
        if r.outcome is Outcome.DETECTED and r.match is Match.NONE:
            unmatched[(_codes(r), message_pattern(r.display_message))].append(r)
    count = sum(len(items) for items in unmatched.values())
    out += ["", f"# Detected, predicted message does not match: {count}", ""]
    for key in sorted(unmatched, key=lambda k: (-len(unmatched[k]), k)):
        items = sorted(unmatched[key], key=lambda r: r.record.label)
        out.append(f"* {len(items)} x {key[0]} vs {_code(key[1])}")
        out.append(f"  * e.g. {_code(items[0].record.label)}: {_message(items[0])}")

    completed = sorted(
        (
            r
            for r in everything
            if r.outcome is Outcome.ENV and r.env_reason == "backend-auto-complete" and r.flagged
        ),
        key=lambda r: r.record.label,
    )
    out += [
        "",
        f"# Flagged, though the real backend would complete the config: {len(completed)}",
        "",
        "Refused here only because the judge's stubs do not auto-complete; with the real backend",
        "(or model.py's auto_complete_config) these may load, and the error would be a false one.",
        "",
    ]
    for r in completed:
        out.append(f"* {_codes(r)} on {_code(r.record.label)}: {_message(r)}")
    return "\n".join(out) + "\n"


def _short_reason(reason: str) -> str:
    return re.sub(r"'[^']*'", "'…'", reason)
