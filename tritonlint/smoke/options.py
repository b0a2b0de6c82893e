"""The command-line options of the smoke stage (``smoke`` and ``check --smoke``).

Kept apart from the stage itself, so that building the parser imports nothing of the server
harness: a plain lint run does not pay for it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tritonlint.exit_status import add_fail_options
from tritonlint.report.formats import DEFAULT_FORMAT_HELP, SMOKE_FORMATS
from tritonlint.usage import UsageError

DEFAULT_TIMEOUT = 120.0
DEFAULT_INFER_TIMEOUT = 30.0


class SmokeUsageError(UsageError):
    """The smoke stage was asked for something it cannot do (a usage error, exit status 2)."""


#: The options of the smoke stage, as ``check`` sees them (dest -> flag), for the usage check.
_CHECK_ONLY_WITH_SMOKE = {
    "server": "--server",
    "docker": "--docker",
    "stub_missing_backends": "--stub-missing-backends",
    "stub_python_models": "--stub-python-models",
    "framework_backends": "--framework-backends",
    "smoke_timeout": "--timeout",
    "total_timeout": "--total-timeout",
    "infer": "--infer",
    "infer_timeout": "--infer-timeout",
}


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    return value


def add_smoke_options(parser: argparse.ArgumentParser, *, in_check: bool = False) -> None:
    """The server, stub, device and timeout options (shared by ``smoke`` and ``check``)."""
    group = parser.add_argument_group(
        "smoke stage" + (" (with --smoke)" if in_check else ""),
        "which tritonserver runs, and what it may stand in for",
    )
    group.add_argument(
        "--server",
        type=Path,
        metavar="PATH",
        default=None,
        help="the tritonserver executable to run (default: tritonserver on PATH, else the "
        "embedded Triton 2.51, fetched once into the cache)",
    )
    group.add_argument(
        "--docker",
        metavar="IMAGE",
        default=None,
        help="run the server in this container image, e.g. nvcr.io/nvidia/tritonserver:24.10-py3 "
        "(the repository is mounted read-only; --gpus all when GPUs are used)",
    )
    group.add_argument(
        "--stub-missing-backends",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="give backends the server lacks a stand-in, so that their models' configs are "
        "still validated (reported as 'config validated, backend stubbed'). Default: on with "
        "the embedded server, which has only the python backend; off with --server, --docker "
        "or a tritonserver on PATH. --no-stub-missing-backends reports such models as "
        "'backend missing' (TL031)",
    )
    group.add_argument(
        "--framework-backends",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="where the server lacks a backend whose framework is importable here (onnxruntime, "
        "openvino, torch, tensorflow, tensorrt: the smoke-* extras), serve its models by a "
        "Python-based backend that loads the "
        "model file with that framework and checks its inputs and outputs against the config "
        "(reported as 'loaded by onnxruntime X.Y.Z standing in for Triton's onnxruntime "
        "backend'). Default: on with the embedded server, unless --stub-missing-backends (which "
        "keeps the config-only stand-ins) or --no-stub-missing-backends is given",
    )
    group.add_argument(
        "--stub-python-models",
        action="store_true",
        default=None,
        help="serve python models by a stand-in backend: their model.py is never run",
    )
    devices = group.add_mutually_exclusive_group()
    devices.add_argument(
        "--gpus",
        dest="gpus",
        action="store_const",
        const=True,
        default=None,
        help="load KIND_GPU models as written and give the server the GPUs (default: when "
        "this machine has one); where there is no GPU they are reported as needing one (TL032)",
    )
    devices.add_argument(
        "--cpu-only",
        dest="gpus",
        action="store_const",
        const=False,
        help="no GPU: KIND_GPU instance groups become KIND_CPU in the temporary copy, so that "
        "the rest of their config is validated (default: when this machine has no GPU)",
    )
    group.add_argument(
        "--timeout",
        dest="smoke_timeout",
        type=_seconds,
        metavar="SECONDS",
        default=None,
        help=f"the most one model's load may take (default: {DEFAULT_TIMEOUT:g})",
    )
    group.add_argument(
        "--total-timeout",
        type=_seconds,
        metavar="SECONDS",
        default=None,
        help="the most the whole smoke stage may take, server start included (default: none)",
    )
    group.add_argument(
        "--infer",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="send each loaded model one inference request made from its config (or its "
        "model_warmup sample) and check the answer against its outputs (default: on; "
        "--no-infer only loads)",
    )
    group.add_argument(
        "--infer-timeout",
        type=_seconds,
        metavar="SECONDS",
        default=None,
        help=f"the most one model's inference may take (default: {DEFAULT_INFER_TIMEOUT:g})",
    )


def add_smoke_command(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    smoke: argparse.ArgumentParser = commands.add_parser(
        "smoke",
        help="load every model of a repository into a real tritonserver",
        description="Start one real tritonserver on a temporary copy of the repository, load "
        "every model (ensembles after the models they use) and report, model by model, whether "
        "it loaded or what the server said. Exit status 1 when a finding at or above --fail-on "
        "was reported (a refusal, a timeout or a crash are errors; a missing backend and a "
        "missing GPU are warnings), else 0.",
    )
    smoke.add_argument("repository", type=Path, metavar="REPO")
    smoke.add_argument(
        "--format",
        choices=SMOKE_FORMATS,
        default=None,
        help=f"how to report (default: {DEFAULT_FORMAT_HELP}); json is an "
        "object with the server, every model's status and the findings",
    )
    smoke.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the report to FILE, not stdout"
    )
    smoke.add_argument(
        "--shard",
        metavar="I/N",
        default=None,
        help="load only share I of N (1-based, e.g. 2/4), for the jobs of a CI matrix: an "
        "ensemble and the models it runs are in one share; every machine makes the same "
        "shares (default: TRITONLINT_SHARD, else every model)",
    )
    add_fail_options(smoke)
    add_smoke_options(smoke)
    return smoke


def check_smoke_usage(args: argparse.Namespace) -> str | None:
    """Why the command line is wrong: smoke options without ``--smoke``."""
    if args.smoke:
        return None
    given = [
        flag if getattr(args, dest) is not False else flag.replace("--", "--no-", 1)
        for dest, flag in _CHECK_ONLY_WITH_SMOKE.items()
        if getattr(args, dest) is not None
    ]
    if args.gpus is not None:
        given.append("--gpus" if args.gpus else "--cpu-only")
    if given:
        return f"{', '.join(dict.fromkeys(given))} only apply with --smoke"
    return None
