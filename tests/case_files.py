"""Rule cases as data: ``tests/rules/cases/<CODE>.toml``, one file per rule.

Each file holds failing cases (``[[fail]]``: a small repository with one mistake, the finding
the rule reports about it) and passing cases (``[[pass]]``: a repository the rule leaves
alone, usually the fixed one). tests/rules/test_cases.py runs them all; tests/rules/cases/
README.md describes the format for contributors.

A file::

    # TL404 io-invalid-dim: a dimension below -1, or 0
    [[fail]]
    about = "a zero dimension"        # optional, shown in the test id: TL404-fail-1-a zero ...
    at = "0 ]"                        # the text where the finding starts (its `nth`, default 1)
    message = "dimension must be integer >= 1, or -1"     # a fragment of the message
    config = '''
    platform: "pytorch_libtorch"
    input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 0 ] } ]
    '''
    [fail.files]
    "m/1/model.pt" = ""

    [[pass]]
    config = '''...'''
    [pass.files]
    "m/1/model.pt" = ""

Top-level keys: ``fail`` and ``pass`` (arrays of cases); ``stage`` where the rule is not
reported by lint: ``"smoke"`` (the smoke stage, run against the fake tritonserver of
tests/smoke, see :class:`Smoke`), with ``reason`` saying why.

Keys of a case (every key is optional unless said otherwise; an unknown key is an error that
names the file):

* ``config``: the text of ``<model>/config.pbtxt``, written byte for byte; ``model``: that
  folder's name (default ``m``).
* ``files``: other paths of the repository. A string is a file's UTF-8 text (``""`` an empty
  file); a path ending in ``/`` is a folder (its value ``""``); a table is one of
  ``{ zeros = N }`` (N zero bytes), ``{ hex = "0a08..." }`` (bytes), ``{ latin1 = "..." }``
  (text saved as Latin-1), ``{ link = "target" }`` (a symbolic link), or a model file made
  from its description (tests/model_notation.py, usually a multi-line string):
  ``{ onnx = "..." }`` (lines ``input "x" FP32 [-1, 3]``, ``output "y" FP32 [-1]``),
  ``{ openvino = "..." }`` (the same), ``{ torchscript = "forward(self, x: Tensor) -> Tensor" }``
  or ``{ savedmodel = "simple" }``.
* ``lint``: the path linted, relative to the repository (default: the repository itself).
* ``triton_version``, ``select``, ``extend_select``, ``ignore``: lint options. The case's own
  rule is always added to ``extend_select``, so opt-in rules need nothing. (Not in a smoke
  case: the smoke stage lints with the defaults.)
* ``codes``: the codes of every finding, in report order (for cases where nothing else may
  be reported).
* ``smoke`` (a table, in a smoke case file only): how the fake server behaves, see
  :class:`Smoke`.

Keys of a failing case only:

* ``message`` (a fragment) or ``message_is`` (the whole message): one of them is required.
* ``at`` (and ``nth``): where the finding starts, by the ``nth`` occurrence of that text in
  ``file``. Without ``at`` the finding is about ``file`` as a whole (a folder or a file: no
  position).
* ``file``: the path the finding is about (default: the config).
* ``count``: how many findings of the rule the repository yields (default 1).
* ``fix``: the title of the finding's only fix (``""``: it has none); ``fixed``: ``file``'s text once that fix is
  applied (the finding is then gone, and no new error appears).
* ``moved``: for a fix that moves files, a table of each move, ``"from" = "to"`` (paths in
  the repository); the moves are made on disk, after which the finding is gone, no new
  error appears, and each file is at its new place.
* ``applicability``: ``"safe"`` or ``"unsafe"``, that of each of the finding's fixes. Such a
  case is also fixed by ``tritonlint check --select CODE --fix`` (tests/test_fix_rules.py;
  an unsafe fix is held back, with a word about ``--unsafe-fixes``, then made with it):
  ``file`` then reads ``fixed_all`` (default ``fixed``; ``fixed_all`` where the rule's other
  findings in the file are fixed too), the ``moved`` moves are made, every other file keeps
  its bytes, and the rule finds nothing more. It needs ``fixed``, ``fixed_all`` or ``moved``.

A failing case asserts a finding of the rule, with the rule's severity, at that place of that
file, with that message; a passing case asserts no finding of the rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers import Content, Latin1, Link, make_tree
from model_notation import FORMATS, ModelDescription, NotationError, check

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

CASES = Path(__file__).resolve().parent / "rules" / "cases"

_TOP_KEYS = {"fail", "pass", "stage", "reason"}
_STAGES = {"lint", "smoke"}
_COMMON_KEYS = {
    "about",
    "config",
    "model",
    "files",
    "lint",
    "triton_version",
    "select",
    "extend_select",
    "ignore",
    "codes",
    "smoke",
}
_FAIL_KEYS = _COMMON_KEYS | {
    "message",
    "message_is",
    "at",
    "nth",
    "file",
    "count",
    "fix",
    "fixed",
    "fixed_all",
    "moved",
    "applicability",
}
_SMOKE_KEYS = {"hang", "crash", "gpus", "timeout", "backends"}
_OPTIONS = ("select", "extend_select", "ignore")
_APPLICABILITIES = ("safe", "unsafe")


class CaseFileError(ValueError):
    """A case file that does not follow the format; the message names the file."""


#: The table keys of a model file's description, and the format each describes.
_MODEL_KEYS = {name.lower(): name for name in FORMATS}


@dataclass(frozen=True)
class Smoke:
    """How the fake tritonserver of tests/smoke behaves for a smoke case.

    It refuses a model whose config has a line ``# fake-refuse: MESSAGE`` (with MESSAGE: put
    the server's recorded words there), lacks every backend but those in ``backends``, and
    has no GPU. ``hang``/``crash``: the load of the case's model never answers, or kills the
    server; ``gpus``: the stage's ``--gpus`` (False: ``--cpu-only``); ``timeout``: seconds
    for one load.
    """

    hang: bool = False
    crash: bool = False
    gpus: bool = False
    timeout: float = 30.0
    backends: tuple[str, ...] = ("python",)


@dataclass(frozen=True)
class Case:
    code: str
    #: "fail" or "pass".
    kind: str
    #: 1-based, among the cases of its kind in the file.
    number: int
    source: Path
    files: Mapping[str, Content]
    about: str = ""
    #: The model folder (for ``config``) and the path linted (relative to the repository).
    model: str = "m"
    lint: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    codes: tuple[str, ...] | None = None
    message: str | None = None
    message_is: str | None = None
    at: str | None = None
    nth: int = 1
    file: str = ""
    count: int = 1
    fix: str | None = None
    fixed: str | None = None
    #: ``file``'s text once ``tritonlint check --fix`` has fixed all the rule's findings there.
    fixed_all: str | None = None
    #: "safe" or "unsafe": the applicability of the finding's fixes.
    applicability: str | None = None
    #: The moves of a fix that moves files: from, to (paths in the repository).
    moved: Mapping[str, str] | None = None
    smoke: Smoke | None = None

    @property
    def checked_fix(self) -> str | None:
        """``file``'s text once ``tritonlint check --fix`` has run (None: a fix that only moves
        files)."""
        return self.fixed_all if self.fixed_all is not None else self.fixed

    @property
    def id(self) -> str:
        """``TL404-fail-1-a zero dimension``: the test id."""
        return "-".join(filter(None, (self.code, self.kind, str(self.number), self.about)))

    def position(self) -> tuple[int, int] | None:
        """1-based line and column of the ``nth`` occurrence of ``at`` in ``file``."""
        if self.at is None:
            return None
        text = _text_of(self.files[self.file])
        index = -1
        for _ in range(self.nth):
            index = text.find(self.at, index + 1)
            if index < 0:
                raise CaseFileError(f"{self.source.name}: {self.id}: {self.at!r} not found")
        line = text.count("\n", 0, index) + 1
        return line, index - (text.rfind("\n", 0, index) + 1) + 1

    def build(self, root: Path) -> Path:
        """Write the repository under ``root``; return ``root``."""
        return make_tree(root, self.files, verbatim=True)


@dataclass(frozen=True)
class CaseFile:
    code: str
    path: Path
    stage: str
    reason: str
    fail: tuple[Case, ...]
    passing: tuple[Case, ...]

    @property
    def cases(self) -> tuple[Case, ...]:
        return self.fail + self.passing


def case_files(folder: Path = CASES) -> list[CaseFile]:
    """Every case file of ``folder``, by code."""
    return [load(path) for path in sorted(folder.glob("*.toml"))]


def load(path: Path) -> CaseFile:
    """Read and check one case file; :class:`CaseFileError` says what is wrong with it."""
    code = path.stem
    if not re.fullmatch(r"TL\d{3}", code):
        raise CaseFileError(f"{path.name}: a case file is named by its rule's code (TL404.toml)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise CaseFileError(f"{path.name}: {error}") from None
    _no_unknown_keys(path, "the file", data, _TOP_KEYS)
    stage = _typed(path, "stage", data.get("stage", "lint"), str)
    if stage not in _STAGES:
        raise CaseFileError(f"{path.name}: stage {stage!r} is none of {sorted(_STAGES)}")
    reason = _typed(path, "reason", data.get("reason", ""), str)
    if stage != "lint" and not reason:
        raise CaseFileError(f"{path.name}: a stage other than lint needs a reason")
    fail = tuple(
        _case(path, code, "fail", number, entry, stage)
        for number, entry in enumerate(_typed(path, "fail", data.get("fail", []), list), 1)
    )
    passing = tuple(
        _case(path, code, "pass", number, entry, stage)
        for number, entry in enumerate(_typed(path, "pass", data.get("pass", []), list), 1)
    )
    return CaseFile(code, path, stage, reason, fail, passing)


def _case(path: Path, code: str, kind: str, number: int, entry: object, stage: str) -> Case:
    where = f"[[{kind}]] {number}"
    data: dict[str, Any] = _typed(path, where, entry, dict)
    _no_unknown_keys(path, where, data, _FAIL_KEYS if kind == "fail" else _COMMON_KEYS)
    model = _typed(path, f"{where} model", data.get("model", "m"), str)
    files: dict[str, Content] = {}
    if "config" in data:
        files[f"{model}/config.pbtxt"] = _typed(path, f"{where} config", data["config"], str)
    for relative, value in _typed(path, f"{where} files", data.get("files", {}), dict).items():
        files[relative.rstrip("/")] = _content(path, f"{where} files {relative!r}", relative, value)
    if not files:
        raise CaseFileError(f"{path.name}: {where} has neither config nor files")
    lint_only = sorted(data.keys() & {*_OPTIONS, "triton_version", "lint"})
    if stage == "smoke" and lint_only:
        raise CaseFileError(f"{path.name}: {where}: no lint options in a smoke case: {lint_only}")
    options = {key: tuple(_strings(path, f"{where} {key}", data.get(key, []))) for key in _OPTIONS}
    if "triton_version" in data:
        options["triton_version"] = _typed(
            path, f"{where} triton_version", data["triton_version"], str
        )
    codes = data.get("codes")
    case = Case(
        code,
        kind,
        number,
        path,
        files,
        about=_typed(path, f"{where} about", data.get("about", ""), str),
        model=model,
        lint=_typed(path, f"{where} lint", data.get("lint", ""), str),
        options=options,
        codes=None if codes is None else tuple(_strings(path, f"{where} codes", codes)),
        message=_optional(path, f"{where} message", data.get("message"), str),
        message_is=_optional(path, f"{where} message_is", data.get("message_is"), str),
        at=_optional(path, f"{where} at", data.get("at"), str),
        nth=_typed(path, f"{where} nth", data.get("nth", 1), int),
        file=_typed(path, f"{where} file", data.get("file", f"{model}/config.pbtxt"), str),
        count=_typed(path, f"{where} count", data.get("count", 1), int),
        fix=_optional(path, f"{where} fix", data.get("fix"), str),
        fixed=_optional(path, f"{where} fixed", data.get("fixed"), str),
        fixed_all=_optional(path, f"{where} fixed_all", data.get("fixed_all"), str),
        applicability=_optional(path, f"{where} applicability", data.get("applicability"), str),
        moved=_moves(path, where, data.get("moved")),
        smoke=_smoke(path, where, data.get("smoke"), stage),
    )
    if kind == "fail":
        _check_failing(case, where)
    return case


def _moves(path: Path, where: str, value: object) -> Mapping[str, str] | None:
    """The ``moved`` table: each path moved, to where."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value:
        raise CaseFileError(f"{path.name}: {where} moved is a table of paths")
    for source, target in value.items():
        if not isinstance(target, str):
            raise CaseFileError(f"{path.name}: {where} moved[{source!r}] is not a path")
    return dict(value)


def _check_failing(case: Case, where: str) -> None:
    name = case.source.name
    if (case.message is None) == (case.message_is is None):
        raise CaseFileError(f"{name}: {where} needs one of message and message_is")
    if case.at is not None:
        if not isinstance(case.files.get(case.file), (str, bytes, Latin1)):
            raise CaseFileError(f"{name}: {where}: `at` is looked for in {case.file!r}, no file")
        case.position()
    elif case.nth != 1:
        raise CaseFileError(f"{name}: {where}: nth without at")
    if case.fixed is not None and case.at is None:
        raise CaseFileError(f"{name}: {where}: fixed needs the finding's place (at)")
    if case.applicability is not None:
        if case.applicability not in _APPLICABILITIES:
            raise CaseFileError(
                f"{name}: {where}: applicability {case.applicability!r} is none of "
                f"{list(_APPLICABILITIES)}"
            )
        if case.checked_fix is None and case.moved is None:
            raise CaseFileError(f"{name}: {where}: applicability needs fixed, fixed_all or moved")
    elif case.fixed_all is not None:
        raise CaseFileError(f"{name}: {where}: fixed_all needs applicability")
    if case.count < 1:
        raise CaseFileError(f"{name}: {where}: count is at least 1")


def _smoke(path: Path, where: str, value: object, stage: str) -> Smoke | None:
    if stage != "smoke":
        if value is not None:
            raise CaseFileError(f"{path.name}: {where}: smoke settings in a lint case file")
        return None
    data: dict[str, Any] = _typed(path, f"{where} smoke", value or {}, dict)
    _no_unknown_keys(path, f"{where} smoke", data, _SMOKE_KEYS)
    return Smoke(
        hang=_typed(path, f"{where} smoke hang", data.get("hang", False), bool),
        crash=_typed(path, f"{where} smoke crash", data.get("crash", False), bool),
        gpus=_typed(path, f"{where} smoke gpus", data.get("gpus", False), bool),
        timeout=float(
            _typed(path, f"{where} smoke timeout", data.get("timeout", 30.0), (int, float))
        ),
        backends=tuple(_strings(path, f"{where} smoke backends", data.get("backends", ["python"]))),
    )


def _content(path: Path, where: str, relative: str, value: object) -> Content:
    if relative.endswith("/"):
        if value != "":
            raise CaseFileError(f'{path.name}: {where}: a folder\'s value is ""')
        return None
    if isinstance(value, str):
        return value
    table: dict[str, Any] = _typed(path, where, value, dict)
    if len(table) != 1 or not table.keys() <= {"zeros", "hex", "latin1", "link", *_MODEL_KEYS}:
        raise CaseFileError(
            f"{path.name}: {where}: a table is one of zeros, hex, latin1, link, "
            f"{', '.join(_MODEL_KEYS)}: {table}"
        )
    ((kind, data),) = table.items()
    if kind in _MODEL_KEYS:
        model = ModelDescription(_MODEL_KEYS[kind], _typed(path, where, data, str))
        try:
            check(model)
        except NotationError as error:
            raise CaseFileError(f"{path.name}: {where}: {error}") from None
        return model
    if kind == "zeros":
        return b"\0" * _typed(path, where, data, int)
    if kind == "hex":
        return bytes.fromhex(_typed(path, where, data, str))
    if kind == "latin1":
        return Latin1(_typed(path, where, data, str))
    return Link(_typed(path, where, data, str))


def _text_of(content: Content) -> str:
    """A file's text as the linter counts its positions (a byte that is no UTF-8 counts as one
    character)."""
    if isinstance(content, Latin1):
        return content.text
    if isinstance(content, bytes):
        return content.decode("utf-8", errors="surrogateescape")
    assert isinstance(content, str)
    return content


def _no_unknown_keys(path: Path, where: str, data: Mapping[str, object], known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise CaseFileError(f"{path.name}: {where}: unknown key(s) {', '.join(unknown)}")


def _typed(path: Path, where: str, value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CaseFileError(f"{path.name}: {where}: {value!r} is not of the expected kind")
    return value


def _optional(path: Path, where: str, value: Any, kind: type) -> Any:
    return None if value is None else _typed(path, where, value, kind)


def _strings(path: Path, where: str, value: object) -> list[str]:
    items = _typed(path, where, value, list)
    return [_typed(path, where, item, str) for item in items]
