"""``tritonlint graph``: the models and ensembles of the repositories found, drawn as Mermaid,
DOT or a self-contained HTML page, or given as JSON."""

from __future__ import annotations

import argparse
from pathlib import Path

from tritonlint.exit_status import EXIT_CLEAN
from tritonlint.schema.releases import covered_releases, resolve_release
from tritonlint.usage import UsageError

#: The formats of ``--format``, the default first.
GRAPH_FORMATS = ("mermaid", "dot", "json", "html", "markdown")


def add_graph_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``graph`` command and its options."""
    graph = commands.add_parser(
        "graph",
        help="draw the models and ensembles of repositories (Mermaid, DOT, HTML or JSON)",
        description="Draw the ensembles of the repositories found (as `check` finds them): a "
        "box per step's model, an arrow per ensemble tensor from the step that writes it to "
        "each step that reads it, the ensemble's inputs and outputs at the ends, nested "
        "ensembles inside the step that runs them, and what the findings are about coloured. "
        "See docs/graph.md.",
    )
    graph.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="repositories, or folders to search for repositories; a model folder stands for "
        "its repository (default: the settings' repositories, else the current folder)",
    )
    graph.add_argument(
        "--format",
        choices=GRAPH_FORMATS,
        default="mermaid",
        help="mermaid (the default; renders in GitHub and GitLab markdown), dot (Graphviz), "
        "json (the graph as data, for editors), html (one page that renders offline) or "
        "markdown (a heading and a Mermaid graph per repository with findings, for a CI job "
        "summary)",
    )
    graph.add_argument(
        "--model",
        metavar="NAME",
        help="draw only ensemble NAME and the models it runs (for a model that is no "
        "ensemble: the ensembles that run it)",
    )
    graph.add_argument(
        "--all",
        action="store_true",
        help="draw the models in no ensemble too (by default they are only listed)",
    )
    graph.add_argument(
        "--smoke-report",
        type=Path,
        metavar="FILE",
        help="mark the models a smoke run did not load, from its report "
        "(`tritonlint smoke --format json --output FILE`)",
    )
    graph.add_argument(
        "--triton-version",
        metavar="X.Y.Z",
        help=f"the Triton release the repository targets: {covered_releases()} (default: as "
        "for check)",
    )
    graph.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the graph to FILE, not stdout"
    )


def run_graph(args: argparse.Namespace) -> int:
    """Run ``tritonlint graph`` with its parsed arguments; raises UsageError."""
    from tritonlint.engine import options_from_settings
    from tritonlint.graph.build import build_graph
    from tritonlint.graph.render import render
    from tritonlint.graph.selection import select_model
    from tritonlint.graph.smoke_report import read_smoke_report
    from tritonlint.report.output import deliver
    from tritonlint.settings import load_settings

    smoke = read_smoke_report(args.smoke_report) if args.smoke_report is not None else None
    settings = load_settings(args.paths[0] if args.paths else Path("."))
    requested = args.triton_version
    try:
        release = resolve_release(settings.triton_version if requested is None else requested)
    except ValueError as error:
        raise UsageError(str(error)) from None
    options = options_from_settings(settings, release)
    repositories = settings.repository_paths
    paths = args.paths or repositories or [Path(".")]
    graph = build_graph(paths, options, repositories=repositories, smoke=smoke)
    if not graph.repositories:
        shown = ", ".join(str(path) for path in paths)
        raise UsageError(f"no model repository found in {shown}")
    if args.model is not None:
        graph = select_model(graph, args.model)
    text = render(graph, args.format, everything=args.all or args.model is not None)
    deliver(text.rstrip("\n"), args.output)
    return EXIT_CLEAN
