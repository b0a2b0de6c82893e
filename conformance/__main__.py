"""``python -m conformance``: judge the corpus on the real server, compare the linter."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console

from conformance import DEFAULT_CORPUS, SETS, run_conformance
from conformance.report import print_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description="Judge every model of the corpus on a real tritonserver, lint the same "
        "files, and report detected, missed and false errors.",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=DEFAULT_CORPUS,
        help=f"the shared corpus folder (default: {DEFAULT_CORPUS})",
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        choices=SETS,
        help="a set to run (repeatable; default: all)",
    )
    parser.add_argument("--output", type=Path, help="write the Markdown report here")
    parser.add_argument("--gaps", type=Path, help="write the missed/false-error list here")
    parser.add_argument(
        "--triton-version",
        default="server",
        help="release the linter checks against: 'server' (the judge's, default), 'default' "
        "(the linter's newest schema) or a release such as 2.51",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)

    console = Console(stderr=True)
    sets = tuple(dict.fromkeys(args.sets)) if args.sets else SETS
    if any(name != "fixtures" for name in sets) and not args.corpus.is_dir():
        parser.error(f"no corpus at {args.corpus} (give --corpus)")
    version = None if args.triton_version == "default" else args.triton_version

    def progress(line: str) -> None:
        if not args.quiet and console.is_terminal:
            console.print(line, highlight=False, soft_wrap=True, end="\r")

    started = time.monotonic()
    run = run_conformance(sets, args.corpus.resolve(), triton_version=version, progress=progress)
    elapsed = time.monotonic() - started
    if console.is_terminal:
        console.print()
    out = Console()
    print_table(run.summaries(), out if out.is_terminal else Console(width=150))
    for name, set_run in run.runs.items():
        console.print(
            f"{name}: {len(set_run.records)} models, judged in {set_run.judge_seconds:.1f} s, "
            f"linted in {set_run.lint_seconds:.1f} s"
        )
    console.print(f"corpus laid out in {run.build_seconds:.1f} s; total {elapsed:.1f} s")
    if args.output:
        args.output.write_text(run.markdown(), encoding="utf-8")
        console.print(f"wrote {args.output}")
    if args.gaps:
        args.gaps.write_text(run.gaps(), encoding="utf-8")
        console.print(f"wrote {args.gaps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
