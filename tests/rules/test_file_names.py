"""File and model names a config gives: looked up in what the walk listed, never on disk.

A name no file can have (a NUL byte, a part longer than 255 bytes, empty) is a finding about
the name (TL221 invalid-file-name; TL708 for a step's model_name), never a traceback.
"""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, codes, codes_at, lint, locate, make_tree

from tritonlint.document import load_config
from tritonlint.engine.checks import model_diagnostics
from tritonlint.repository.walker import read_repository
from tritonlint.rules.registry import all_rules
from tritonlint.schema.releases import load_schema

Repo = Callable[[Files], Path]

ONNX = 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\ndynamic_batching { }\n'
IN = 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
OUT = 'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
TORCH_STATE = (
    'backend: "pytorch"\nmax_batch_size: 4\n'
    'input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
    'output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
    'sequence_batching { state [ { input_name: "S__1" output_name: "S__1" '
    "data_type: TYPE_FP32 dims: [ 4 ] initial_state { data_type: TYPE_FP32 dims: [ 4 ] "
    'data_file: NAME name: "i" } } ] }\n'
)
PIPE = (
    'platform: "ensemble"\nmax_batch_size: 8\n' + IN + OUT + "ensemble_scheduling { step [ { "
    'model_name: NAME model_version: -1 input_map { key: "INPUT0" value: "INPUT0" } '
    'output_map { key: "OUTPUT0" value: "OUTPUT0" } } ] }\n'
)

#: field, the config with NAME where the name goes, the model's other files, the code.
FIELDS = [
    (
        "label_filename",
        ONNX + IN + OUT.replace(" ] }", " ] label_filename: NAME }"),
        {"1/model.onnx": b""},
        "TL221",
    ),
    ("default_model_filename", ONNX + IN + OUT + "default_model_filename: NAME\n", {}, "TL221"),
    (
        # The Python backend's model file is read for auto_complete_config.
        "python default_model_filename",
        'backend: "python"\n' + IN + OUT + "default_model_filename: NAME\n",
        {"1/model.py": "def auto_complete_config(config):\n    return config\n"},
        "TL221",
    ),
    (
        "cc_model_filenames",
        ONNX + IN + OUT + 'cc_model_filenames { key: "8.6" value: NAME }\n',
        {"1/model.onnx": b""},
        "TL221",
    ),
    (
        "input_data_file",
        ONNX + IN + OUT + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: "INPUT0" '
        "value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: NAME } } } ]\n",
        {"1/model.onnx": b"", "warmup/x.bin": b"\0" * 16},
        "TL221",
    ),
    ("data_file", TORCH_STATE, {"1/model.pt": b"", "initial_state/x.bin": b"\0" * 16}, "TL221"),
    (
        "EXECUTION_ENV_PATH",
        'backend: "python"\n' + IN + OUT + 'parameters { key: "EXECUTION_ENV_PATH" value { '
        'string_value: "$$TRITON_MODEL_DIRECTORY/NAME" } }\n',
        {"1/model.py": ""},
        "TL221",
    ),
    ("model_name", PIPE, {"1/": None}, "TL708"),
]
NAMES = {"nul": "a\\000b", "long": "x" * 300}
#: The fields whose rule reports a missing file, and that rule.
ORDINARY = {
    "label_filename": "TL218",
    "cc_model_filenames": "TL217",
    "input_data_file": "TL804",
    "data_file": "TL556",
    "EXECUTION_ENV_PATH": "TL852",
}


def config_with(template: str, name: str) -> str:
    """The config with ``name`` written where NAME stands (inside a literal, or as one)."""
    if '"$$TRITON_MODEL_DIRECTORY/NAME"' in template:
        return template.replace("NAME", name)
    return template.replace("NAME", f'"{name}"')


@pytest.mark.parametrize("name", list(NAMES.values()), ids=list(NAMES))
@pytest.mark.parametrize(
    ("field", "template", "files", "code"), FIELDS, ids=[case[0] for case in FIELDS]
)
def test_a_name_no_file_can_have_is_a_finding_about_the_name(
    repo: Repo,
    field: str,
    template: str,
    files: dict[str, str | bytes | None],
    code: str,
    name: str,
) -> None:
    text = config_with(template, name)
    model_files = {"m/config.pbtxt": text, **{f"m/{k}": v for k, v in files.items()}}
    root = repo({**model_files, "other/config.pbtxt": ONNX + IN + OUT, "other/1/model.onnx": b""})
    found = codes_at(lint(root))
    needle = '"$$TRITON' if field == "EXECUTION_ENV_PATH" else f'"{name}"'
    assert (code, *locate(text, needle)) in found
    # One finding for the name: the rules that look for the file leave it to TL221.
    missing = {"TL217", "TL218", "TL220", "TL556", "TL804", "TL807", "TL808", "TL852"}
    assert not missing & {c for c, _, _ in found}


@pytest.mark.parametrize(
    ("field", "template", "files"),
    [case[:3] for case in FIELDS if case[0] in ORDINARY],
    ids=[case[0] for case in FIELDS if case[0] in ORDINARY],
)
def test_an_ordinary_name_is_looked_up_in_the_listing(
    tmp_path: Path, field: str, template: str, files: dict[str, str | bytes | None]
) -> None:
    # x.bin is there for the warmup and the initial state; gone.bin is nowhere.
    model_files = {f"m/{k}": v for k, v in files.items()}
    present = make_tree(
        tmp_path / "a", {"m/config.pbtxt": config_with(template, "x.bin"), **model_files}
    )
    if field in ("input_data_file", "data_file"):
        assert not {"TL556", "TL804", "TL807", "TL808"} & set(codes(lint(present)))
    absent = make_tree(
        tmp_path / "b", {"m/config.pbtxt": config_with(template, "gone.bin"), "m/1/": None}
    )
    assert ORDINARY[field] in codes(lint(absent))


@pytest.mark.parametrize(
    ("label", "files", "missing"),
    [
        ("labels/en.txt", {"labels/en.txt": "cat\n"}, False),
        ("labels/en.txt", {"labels/de.txt": "Katze\n"}, True),
        ("/labels.txt", {"labels.txt": "cat\n"}, False),  # the server joins it to the folder
        ("./labels.txt", {"labels.txt": "cat\n"}, False),
        ("labels", {"labels/en.txt": "cat\n"}, True),  # a folder is no label file
        ("a/b/labels.txt", {}, True),  # there is no a/
        ("labels/b/labels.txt", {"labels/b/labels.txt": "cat\n"}, False),  # deeper: not judged
        ("../labels.txt", {}, False),  # outside the model folder: not judged
    ],
)
def test_label_paths_through_subfolders(
    repo: Repo, label: str, files: dict[str, str], missing: bool
) -> None:
    text = ONNX + IN + OUT.replace(" ] }", f' ] label_filename: "{label}" }}')
    model_files = {f"m/{k}": v for k, v in files.items()}
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b"", **model_files})
    assert ("TL218" in codes(lint(root))) is missing


def test_empty_data_file_names_are_invalid(repo: Repo) -> None:
    text = config_with(FIELDS[3][1], "")
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b"", "m/warmup/": None})
    assert ("TL221", *locate(text, '""')) in codes_at(lint(root))
    assert "TL804" not in codes(lint(root))


def test_rules_touch_no_path_the_walk_did_not_list(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the walk has listed the folders and the configs are read, the rules only look up
    names in that listing (one reads a model.py it listed, for what it defines)."""
    files: dict[str, str | bytes | None] = {}
    for field, template, model_files, _ in FIELDS:
        for name, variant in (("x.bin", "ok"), (NAMES["nul"], "nul"), (NAMES["long"], "long")):
            files[f"{field}_{variant}/config.pbtxt"] = config_with(template, name)
            files.update({f"{field}_{variant}/{k}": v for k, v in model_files.items()})
    root = repo(files)
    schema = load_schema()
    repository = read_repository(root, lambda path: lambda: load_config(path, schema))
    assert all(model.config is not None for model in repository.models)
    listed = {str(root)} | {str(model.path) for model in repository.models}
    for model in repository.models:
        listed.update(str(model.path / entry.name) for entry in model.entries)
        for folder in model.subfolders:
            listed.update(str(folder.path / entry.name) for entry in folder.entries)
    unlisted: list[object] = []

    def guard(original: Callable[..., object]) -> Callable[..., object]:
        def checked(path: object, *args: object, **kwargs: object) -> object:
            if os.fspath(path) not in listed:  # type: ignore[call-overload]
                unlisted.append(path)
                raise OSError("not listed")
            return original(path, *args, **kwargs)

        return checked

    with monkeypatch.context() as patch:
        for module, names in (
            (os, ("stat", "lstat", "scandir", "listdir", "open")),
            (io, ("open",)),
        ):
            for attribute in names:
                patch.setattr(module, attribute, guard(getattr(module, attribute)))
        patch.setattr(builtins, "open", guard(builtins.open))
        found = {
            d.code
            for model in repository.models
            for d in model_diagnostics(repository, model, all_rules())
        }
    assert unlisted == []
    assert {"TL218", "TL221", "TL708"} <= found  # the rules did run
