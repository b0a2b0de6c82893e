"""Rule documentation as Markdown: one rule (``tritonlint explain``) or all (docs/rules.md)."""

from __future__ import annotations

from tritonlint.diagnostics import Applicability
from tritonlint.report.links import github_anchor, rule_heading
from tritonlint.rules.base import Rule
from tritonlint.rules.packs import PACKS
from tritonlint.rules.registry import all_rules
from tritonlint.schema.releases import available_releases


def _releases(rule: Rule) -> str:
    releases = available_releases()
    covered = f"Triton {releases[0]} to {releases[-1]}"
    if rule.requires_field:
        return f"the releases of {covered} whose ModelConfig has `{rule.requires_field}`"
    return f"every release covered ({covered})"


_OPT_IN = ", opt-in (not in the default set)"


def in_default_set(rule: Rule) -> str:
    """How the rule index shows whether a rule is reported without being selected."""
    return "opt-in" if rule.opt_in else "yes"


def fix_column(rule: Rule) -> str:
    """How the rule index shows whether a rule's findings carry fixes."""
    if rule.fix is None:
        return ""
    return ", ".join(a.value for a in Applicability if a in rule.fix.applicability)


def fix_line(rule: Rule) -> str:
    """What a rule's documentation says of its fixes, and how to apply them."""
    if rule.fix is None:
        return "Fix: none (the findings carry no automatic fix)."
    unsafe = Applicability.UNSAFE in rule.fix.applicability
    how = "`tritonlint check --fix`" + (
        " (the unsafe ones with `--unsafe-fixes`)" if unsafe else ""
    )
    return f"Fix: {rule.fix.describe()}; applied by {how}."


def rule_markdown(rule: Rule, heading: str = "##") -> str:
    """A rule's documentation: what it checks, why, examples, the server's message."""
    lines = [
        f"{heading} {rule_heading(rule)}",
        "",
        f"*{rule.severity.value}*, pack `{rule.pack}`{_OPT_IN if rule.opt_in else ''}: "
        f"{rule.summary}.",
        "",
        rule.explanation,
        "",
        "Bad:",
        "",
        "```",
        rule.bad,
        "```",
        "",
        "Good:",
        "",
        "```",
        rule.good,
        "```",
    ]
    if rule.server_message:
        several = "\n" in rule.server_message
        heading = (
            "tritonserver's messages (one per line):" if several else "tritonserver's message:"
        )
        lines += ["", heading, "", "```", rule.server_message, "```"]
    if rule.backend_check:
        lines += [
            "",
            "The backend makes this check, not the server's core: only a server running the "
            "real backend (the smoke stage) confirms it.",
        ]
    lines += ["", fix_line(rule), "", f"Applies to {_releases(rule)}."]
    return "\n".join(lines)


def render_rules_doc() -> str:
    """docs/rules.md: an index, then every rule's documentation, by code."""
    rules = all_rules()
    lines = [
        "# tritonlint rules",
        "",
        "Generated from the rule registry by `tritonlint rules --markdown`; do not edit by hand.",
        "",
        "The default set holds every rule whose column *default* says yes: what tritonserver "
        "refuses, and what is almost certainly a mistake. The opt-in rules give advice that "
        "many correct configs do not take; each is reported only where `select` or "
        "`extend-select` names it (by code, code prefix or name, or `ALL` for every rule), "
        "e.g. `tritonlint --extend-select TL505 model_repository/`.",
        "",
        "The column *fix* says which rules' findings may carry a fix, and how safe it is: "
        "`tritonlint check --fix` applies the safe ones, `--unsafe-fixes` the unsafe ones too.",
        "",
        "Every rule's examples are checked by the test suite: the bad one gets the rule's "
        "finding, the good one none at all. An example is a config.pbtxt (in a model folder "
        "beside its version folder `1/` and an empty model file), or a tree of files: each "
        "line `model_repository/<path>` is an empty file (a folder where it ends in `/`), "
        "`<path>:` is followed by the file's text indented by two spaces, `<path> -> <target>` "
        "is a symbolic link, and `<...>` describes content that is not text (`<hex>`, "
        "`<Latin-1>`, `<12 MiB of zeros>`, `<mode 000>`). `<ONNX>`, `<OpenVINO>`, "
        "`<TorchScript>` and `<SavedModel>` are model files, made by the test suite with the "
        "format's own tools from the lines below them: one line per tensor "
        '(`input "pixels" FP32 [N, 3, 224, 224]`: its name, its type as Triton names it '
        "without `TYPE_`, its dimensions, a name such as `N` being a variable one), the "
        "`forward(...)` signature of a TorchScript model, the name of a SavedModel. A smoke "
        "rule's example starts with the `tritonlint smoke` command it runs; an example that "
        "holds for some Triton releases only, with `tritonlint check --triton-version "
        "<release>`, the release it is checked against.",
        "",
        "| code | name | severity | default | fix | pack | summary |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in rules:
        summary = rule.summary.replace("|", "\\|")
        anchor = github_anchor(rule_heading(rule))
        lines.append(
            f"| [{rule.code}](#{anchor}) | {rule.name} | {rule.severity.value} | "
            f"{in_default_set(rule)} | {fix_column(rule)} | {rule.pack} | {summary} |"
        )
    lines.append("")
    for rule in rules:
        lines += [rule_markdown(rule), ""]
    return "\n".join(lines)


def render_packs_table() -> str:
    """README's table of the packs: each pack's codes (first to last), name and summary, in the
    order of their codes."""
    summaries = {pack.name: pack.summary for pack in PACKS}
    codes: dict[str, list[str]] = {}
    for rule in all_rules():
        codes.setdefault(rule.pack, []).append(rule.code)
    lines = ["| codes | pack | what |", "|---|---|---|"]
    for pack, pack_codes in codes.items():
        first, last = pack_codes[0], pack_codes[-1]
        span = first if first == last else f"{first}\N{EN DASH}{last}"
        lines.append(f"| {span} | {pack} | {summaries[pack]} |")
    return "\n".join(lines) + "\n"
