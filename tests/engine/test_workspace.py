"""The engine's workspace: open texts over the disk, and re-checking only what a change affects."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from helpers import codes_at, make_tree

from tritonlint.diagnostics import Severity
from tritonlint.engine import CheckResult, LintOptions, Workspace, lint_paths
from tritonlint.engine import workspace as workspace_module
from tritonlint.rewrite import apply_edits


def _plain(name: str, *, dtype: str = "TYPE_FP32", resource: str = "") -> dict[str, str | bytes]:
    limiter = f"rate_limiter {{ resources [ {resource} ] }}" if resource else ""
    return {
        f"{name}/config.pbtxt": (
            f'name: "{name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
            'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
            f'output [ {{ name: "OUTPUT0" data_type: {dtype} dims: [ 16 ] }} ]\n'
            f"instance_group [ {{ kind: KIND_CPU {limiter} }} ]\ndynamic_batching {{ }}\n"
        ),
        f"{name}/1/model.onnx": b"",
    }


def _step(model: str, source: str, target: str) -> str:
    inner, outer = ("IN", "OUT") if model in ("pipe", "outer") else ("INPUT0", "OUTPUT0")
    return (
        f'{{ model_name: "{model}" model_version: -1 input_map {{ key: "{inner}" value: '
        f'"{source}" }} output_map {{ key: "{outer}" value: "{target}" }} }}'
    )


def _ensemble(name: str, first: str, second: str) -> dict[str, str | bytes]:
    return {
        f"{name}/config.pbtxt": (
            f'name: "{name}"\nplatform: "ensemble"\nmax_batch_size: 8\n'
            'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
            'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
            f"ensemble_scheduling {{ step [ {_step(first, 'IN', 'mid')}, "
            f"{_step(second, 'mid', 'OUT')} ] }}\n"
        ),
        f"{name}/1/.keep": b"",
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """a, b and c; pipe runs a then b; outer runs pipe then c; r1 and r2 share resource R."""
    files: dict[str, str | bytes | None] = {}
    for name in ("a", "b", "c"):
        files.update(_plain(name))
    files.update(_ensemble("pipe", "a", "b"))
    files.update(_ensemble("outer", "pipe", "c"))
    files.update(_plain("r1", resource='{ name: "R" count: 1 }'))
    files.update(_plain("r2", resource='{ name: "R" count: 2 }'))
    return make_tree(tmp_path / "models", files)


class ParseCounter:
    """Counts the config files the engine reads (from disk or from an open text, whole or
    from its earlier document)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        for name in ("load_config", "parse_config", "reparse_config"):
            original = getattr(workspace_module, name)
            monkeypatch.setattr(workspace_module, name, self._counting(original))

    def _counting(self, original):  # type: ignore[no-untyped-def]
        def counted(path, *args):  # type: ignore[no-untyped-def]
            read = path if isinstance(path, Path) else path.path  # reparse_config: a document
            self.paths.append(read.parent.name)
            return original(path, *args)

        return counted

    def take(self) -> list[str]:
        taken, self.paths = sorted(self.paths), []
        return taken


def _text(root: Path, name: str) -> str:
    return (root / name / "config.pbtxt").read_text(encoding="utf-8")


def _checked(root: Path) -> Workspace:
    """A workspace over ``root``, checked once: what comes next is a re-check."""
    workspace = Workspace(root)
    workspace.check()
    return workspace


def _recheck(workspace: Workspace, root: Path, name: str, text: str) -> CheckResult:
    """The workspace checked again once model ``name``'s config reads ``text``."""
    workspace.change(root / name / "config.pbtxt", text)
    return workspace.check()


def test_a_clean_repository_has_no_finding_and_agrees_with_lint_paths(root: Path) -> None:
    result = Workspace(root).check()
    assert result.diagnostics == []
    assert result.rechecked == {"a", "b", "c", "pipe", "outer", "r1", "r2"}
    assert lint_paths([root]).diagnostics == []


def test_an_open_text_is_checked_instead_of_the_file_until_it_is_closed(root: Path) -> None:
    workspace = Workspace(root)
    config = root / "a" / "config.pbtxt"
    workspace.check()
    workspace.open(config, _text(root, "a").replace('name: "a"', 'name: "zzz"'))
    found = workspace.check().diagnostics
    # The misnamed model is refused, and so are the ensembles that run it.
    assert codes_at(found) == [("TL201", 1, 7), ("TL720", 6, 44), ("TL720", 6, 44)]
    assert [d.path.parent.name for d in found] == ["a", "outer", "pipe"]
    assert 'name: "a"' in config.read_text(encoding="utf-8")  # the disk is left alone
    workspace.close(config)
    assert workspace.check().diagnostics == []


def test_editing_a_composing_model_rechecks_it_and_the_ensembles_that_run_it_only(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = Workspace(root)
    first = workspace.check()
    parses = ParseCounter(monkeypatch)
    workspace.change(root / "b" / "config.pbtxt", _text(root, "b").replace(
        "data_type: TYPE_FP32 dims: [ 16 ] } ]\ninstance", "data_type: TYPE_INT32 dims: [ 16 ] } ]\ninstance"
    ))  # fmt: skip
    result = workspace.check()
    assert result.rechecked == {"b", "pipe", "outer"}
    assert parses.take() == ["b"]  # the others' configs are not read again
    mismatch = result.by_model[root / "pipe"]
    assert [(d.code, d.span.line if d.span else None) for d in mismatch] == [("TL715", 6)]
    assert mismatch[0].message.endswith(
        "TYPE_FP32 is inferred from model pipe while TYPE_INT32 is inferred from model b"
    )
    assert [r.path.parent.name for r in mismatch[0].related] == ["pipe", "b"]
    assert [d.code for d in result.by_model[root / "outer"]] == ["TL720"]
    for name in ("a", "c", "r1", "r2"):
        assert result.by_model[root / name] is first.by_model[root / name]


def test_a_refused_model_refuses_the_ensembles_above_it_and_recovers(root: Path) -> None:
    workspace = _checked(root)
    result = _recheck(
        workspace, root, "a", _text(root, "a").replace('"onnxruntime_onnx"', '"onnxruntime"')
    )
    assert result.rechecked == {"a", "pipe", "outer"}
    assert codes_at(result.diagnostics) == [
        ("TL301", 2, 11),  # a: a backend's name given as the platform
        ("TL720", 6, 44),  # outer: its step 'pipe' is refused
        ("TL720", 6, 44),  # pipe: its step 'a' is refused
    ]
    assert [d.path.parent.name for d in result.diagnostics] == ["a", "outer", "pipe"]
    result = _recheck(workspace, root, "a", _text(root, "a"))
    assert result.rechecked == {"a", "pipe", "outer"}
    assert result.diagnostics == []


def test_a_step_that_names_another_model_follows_that_model(root: Path) -> None:
    workspace = _checked(root)
    pipe = _text(root, "pipe").replace('"b"', '"c"')
    assert _recheck(workspace, root, "pipe", pipe).rechecked == {"pipe", "outer"}
    b, c = (_text(root, name) + "# edited\n" for name in ("b", "c"))
    assert _recheck(workspace, root, "b", b).rechecked == {"b"}
    assert _recheck(workspace, root, "c", c).rechecked == {"c", "pipe", "outer"}


def test_models_sharing_a_rate_limiter_resource_are_rechecked_together(root: Path) -> None:
    workspace = _checked(root)
    result = _recheck(
        workspace, root, "r1", _text(root, "r1").replace("count: 1", "count: 1 global: true")
    )
    assert result.rechecked == {"r1", "r2"}
    assert [(d.code, d.path.parent.name) for d in result.diagnostics] == [("TL609", "r2")]
    result = _recheck(workspace, root, "r1", _text(root, "r1").replace('name: "R"', 'name: "S"'))
    assert result.rechecked == {"r1", "r2"}  # r2 shared R before the edit
    assert result.diagnostics == []


def test_nothing_changed_means_nothing_rechecked(root: Path) -> None:
    unchanged = _text(root, "a")  # the text on disk
    assert _recheck(_checked(root), root, "a", unchanged).rechecked == frozenset()


def test_a_change_on_disk_is_seen_after_refresh(root: Path) -> None:
    workspace = _checked(root)
    shutil.rmtree(root / "b" / "1")
    assert workspace.check().diagnostics == []  # not told yet
    workspace.refresh(root / "b" / "1")
    result = workspace.check()
    assert result.rechecked == {"b", "pipe", "outer"}
    assert [(d.code, d.path.name) for d in result.diagnostics] == [
        ("TL212", "b"),
        ("TL720", "config.pbtxt"),
        ("TL720", "config.pbtxt"),
    ]


def test_a_new_model_folder_on_disk_is_found_by_the_ensemble_that_named_it(
    root: Path,
) -> None:
    workspace = Workspace(root)
    pipe = root / "pipe" / "config.pbtxt"
    workspace.change(pipe, _text(root, "pipe").replace('"b"', '"d"'))
    found = workspace.check().diagnostics
    assert [(d.code, d.path.parent.name) for d in found] == [("TL720", "outer"), ("TL708", "pipe")]
    make_tree(root, _plain("d"))
    workspace.refresh(root / "d")
    result = workspace.check()
    assert result.rechecked == {"d", "pipe", "outer"}
    assert result.diagnostics == []


def test_options_filter_what_is_reported(root: Path) -> None:
    options = LintOptions(ignore=("TL720",), severity={"TL201": Severity.WARNING})
    workspace = Workspace(root, options)
    workspace.open(root / "a" / "config.pbtxt", _text(root, "a").replace('"a"', '"zzz"', 1))
    [found] = workspace.check().diagnostics
    assert (found.code, found.severity) == ("TL201", Severity.WARNING)


def _edited(root: Path, index: int) -> dict[Path, str]:
    """A different set of open texts for each thread."""
    name = ("a", "b", "c")[index % 3]
    text = _text(root, name).replace("max_batch_size: 8", f"max_batch_size: {-index}")
    return {root / name / "config.pbtxt": text}


def test_workspaces_checked_from_many_threads_find_what_a_serial_check_finds(root: Path) -> None:
    def findings(index: int) -> list[tuple[str, str, int | None]]:
        workspace = Workspace(root)
        for path, text in _edited(root, index).items():
            workspace.open(path, text)
        return [
            (d.code, d.path.parent.name, d.span.line if d.span else None)
            for d in workspace.check().diagnostics
        ]

    serial = [findings(index) for index in range(16)]
    threaded: list[list[tuple[str, str, int | None]]] = [[] for _ in range(16)]

    def run(index: int) -> None:
        threaded[index] = findings(index)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert threaded == serial
    assert {"TL501", "TL720"} <= {code for found in serial for code, _, _ in found}


def test_one_workspace_edited_and_checked_from_many_threads_ends_as_a_serial_one(
    root: Path,
) -> None:
    shared = Workspace(root)
    config = root / "a" / "config.pbtxt"
    texts = [
        _text(root, "a").replace("max_batch_size: 8", f"max_batch_size: {n}") for n in range(8)
    ]

    def edit_and_check(text: str) -> None:
        shared.change(config, text)
        shared.check()

    threads = [threading.Thread(target=edit_and_check, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    last = shared.text(config)
    serial = Workspace(root)
    serial.open(config, last or "")
    assert shared.check().diagnostics == serial.check().diagnostics


def test_a_check_of_some_models_reads_only_them_and_the_models_they_run(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parses = ParseCounter(monkeypatch)
    workspace = Workspace(root, targets=frozenset({root / "outer"}))
    result = workspace.check()
    assert parses.take() == ["a", "b", "c", "outer", "pipe"]
    assert list(result.by_model) == [root / "outer"]
    assert result.rechecked == {"outer", "pipe", "a", "b", "c"}


def test_an_unsaved_model_is_checked_while_open_and_gone_once_closed(root: Path) -> None:
    workspace = Workspace(root)
    workspace.check()
    config = root / "fresh" / "config.pbtxt"
    workspace.open(config, 'name: "other"\nplatform: "onnxruntime_onnx"\n')
    result = workspace.check()
    assert result.rechecked == {"fresh"}
    assert [(d.code, d.path) for d in result.by_model[root / "fresh"]] == [
        ("TL212", root / "fresh"),  # no version folder (a folder finding sorts first)
        ("TL201", config),
    ]
    workspace.close(config)
    result = workspace.check()
    assert root / "fresh" not in result.by_model
    assert result.diagnostics == []


def test_a_fix_that_edits_another_config_follows_that_configs_edits(root: Path) -> None:
    workspace = Workspace(root)
    workspace.check()
    pipe = root / "pipe" / "config.pbtxt"
    workspace.open(root / "a" / "config.pbtxt", _text(root, "a").replace('"a"', '"zzz"', 1))
    workspace.open(pipe, _text(root, "pipe").replace('model_name: "a"', 'model_name: "zzz"'))
    workspace.check()
    edited = "# the steps run zzz now\n" + _text(root, "pipe").replace(
        'model_name: "a"', 'model_name: "zzz"'
    )
    workspace.change(pipe, edited)
    result = workspace.check()
    assert result.rechecked == {"pipe", "outer", "a"}
    (renamed,) = [d for d in result.by_model[root / "a"] if d.code == "TL201"]
    with_steps = renamed.fixes[0]
    assert with_steps.title == 'Set name to "a" and rename it in the ensemble "pipe" that runs it'
    # Placed in the text as it is now, below the new comment line.
    fixed = apply_edits(edited, with_steps.by_file(renamed.path)[pipe])
    assert fixed == edited.replace('model_name: "zzz"', 'model_name: "a"')
