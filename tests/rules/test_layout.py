"""Layout pack: config and version folders, model files, labels, hidden folders (TL210-TL219)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, Files, codes, lint, locate, model, only, position, with_code

from tritonlint.diagnostics import Severity

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)

LABELLED = CONFIG.replace(
    'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]',
    'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] label_filename: "labels.txt" } ]',
)
assert LABELLED != CONFIG


def folder_findings(root: Path, code: str) -> list[Path]:
    """The folders a folder-level rule reports, checking that none has a span."""
    found = with_code(lint(root), code)
    assert all(d.span is None for d in found)
    return sorted(d.path for d in found)


# --- TL210 missing-config / TL211 auto-completed-config -----------------------------------


@pytest.mark.parametrize(
    "files",
    [
        {"classifier/1/weights.bin": b""},  # nothing tells the backend
        {"classifier/1/model.pt": b""},  # pytorch cannot complete a config
        {"classifier/1/model.graphdef": b""},  # nor can TensorFlow GraphDef
        # Only the first subfolder in byte order is looked at, and ".ipynb_checkpoints" < "1".
        {"classifier/1/model.onnx": b"", "classifier/.ipynb_checkpoints/": None},
        # "10" sorts before "2".
        {"classifier/2/model.onnx": b"", "classifier/10/": None},
    ],
    ids=["no-model-file", "pytorch", "graphdef", "hidden-subfolder-first", "10-before-2"],
)
def test_tl210_model_without_config_the_server_cannot_complete(
    repo: Repo, files: dict[str, bytes | None]
) -> None:
    root = repo(files)
    found = only(lint(root), "TL210")
    assert found.severity is Severity.ERROR
    assert found.path == root / "classifier"
    assert found.span is None
    assert "TL211" not in codes(lint(root, select=("ALL",)))


@pytest.mark.parametrize(
    ("files", "backend"),
    [
        ({"det/1/model.onnx": b""}, "onnxruntime"),
        ({"det/1/model.plan": b""}, "tensorrt"),
        ({"det/1/model.savedmodel/": None}, "tensorflow"),
        ({"det/1/model.xml": b""}, "openvino"),
        ({"det/1/model.py": ""}, "python"),
        ({"det.identity/1/": None}, "identity"),  # backend from the folder name
    ],
)
def test_tl211_model_without_config_relies_on_auto_complete(
    repo: Repo, files: dict[str, str | bytes | None], backend: str
) -> None:
    root = repo(files)
    assert "TL211" not in codes(lint(root))  # opt-in
    found = only(lint(root, extend_select=("TL211",)), "TL211")
    assert found.severity is Severity.WARNING
    assert found.path == root / next(iter(files)).split("/")[0]
    assert found.span is None
    assert backend in found.message
    assert "TL210" not in codes(lint(root))


def test_tl210_tl211_model_with_config_is_fine(repo: Repo) -> None:
    root = repo(model("det", ONNX_MODEL))
    assert not {"TL210", "TL211"} & set(codes(lint(root, select=("ALL",))))


# --- TL222 misplaced-config -----------------------------------------------------------------


def test_tl222_config_in_a_version_folder_of_a_model_without_one(repo: Repo) -> None:
    root = repo({"clf/1/config.pbtxt": CONFIG, "clf/1/model.onnx": b""})
    assert codes(lint(root)) == ["TL222"]
    result = lint(root, extend_select=("TL211",))  # TL211 is opt-in
    assert codes(result) == ["TL211", "TL222"]
    misplaced = only(result, "TL222")
    assert misplaced.severity is Severity.WARNING
    assert (misplaced.path, misplaced.span) == (root / "clf" / "1" / "config.pbtxt", None)
    assert misplaced.message == (
        "tritonserver reads the config from the model folder, never from a version folder: "
        "this one is ignored; move it up to clf/config.pbtxt"
    )
    # The model loads with a configuration completed from model.onnx, and TL211 says where
    # the config the user wrote went.
    assert only(result, "TL211").message.endswith(
        "(the config.pbtxt in 1/ is not read there: move it up to clf/config.pbtxt)"
    )


def test_tl222_without_a_model_file_tl210_gives_the_same_advice(repo: Repo) -> None:
    root = repo({"clf/1/config.pbtxt": CONFIG, "clf/1/weights.bin": b""})
    assert codes(lint(root)) == ["TL210", "TL222"]
    assert only(lint(root), "TL210").message.endswith(
        "(the config.pbtxt in 1/ is not read there: move it up to clf/config.pbtxt)"
    )


def test_tl222_a_stale_copy_next_to_the_real_config(repo: Repo) -> None:
    root = repo({**model("clf", ONNX_MODEL), "clf/1/config.pbtxt": "not even { valid"})
    result = lint(root)
    assert codes(result) == ["TL222"]  # the copy is not parsed: the server never reads it
    assert only(result, "TL222").message == (
        "tritonserver reads the config from the model folder (clf/config.pbtxt), never from a "
        "version folder: this copy in 1/ is ignored; delete it, or move what differs into the "
        "model folder's config"
    )


def test_tl222_in_folders_meant_as_versions(repo: Repo) -> None:
    root = repo({**model("clf", ONNX_MODEL), "clf/01/config.pbtxt": "", "clf/1.0/config.pbtxt": ""})
    found = with_code(lint(root), "TL222")
    assert [d.path for d in found] == [root / "clf/01/config.pbtxt", root / "clf/1.0/config.pbtxt"]


def test_tl222_not_for_other_folders_or_a_folder_named_config_pbtxt(repo: Repo) -> None:
    root = repo(
        {
            **model("clf", ONNX_MODEL),
            "clf/configs/config.pbtxt": CONFIG,  # read with --model-config-name config
            "clf/nested_model/config.pbtxt": CONFIG,  # another mistake: a model in a model
            "clf/2/config.pbtxt/": None,
            "clf/2/model.onnx": b"",
        }
    )
    assert "TL222" not in codes(lint(root))


# --- TL212 no-version-folder ---------------------------------------------------------------


def test_tl212_model_without_version_folder(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": CONFIG})
    found = only(lint(root), "TL212")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m"
    assert found.span is None
    assert "at least one version must be available under the version policy of model 'm'" in (
        found.message
    )


def test_tl212_only_ignored_folders_count_as_none(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": CONFIG, "m/01/model.onnx": b"", "m/warmup/": None})
    found = only(lint(root), "TL212")
    assert "(ignored: 01)" in found.message


def test_tl212_ensemble_needs_an_empty_version_folder_too(repo: Repo) -> None:
    root = repo({"pipe/config.pbtxt": 'platform: "ensemble"\n'})
    assert "commit a .gitkeep" in only(lint(root), "TL212").message
    root = repo({"pipe/config.pbtxt": 'platform: "ensemble"\n', "pipe/1/.gitkeep": ""})
    assert "TL212" not in codes(lint(root))


def test_tl212_version_folder_present(repo: Repo) -> None:
    assert "TL212" not in codes(lint(repo(model("m", ONNX_MODEL))))


# --- TL213 ignored-version-folder / TL214 malformed-version-folder ------------------------


def test_tl213_leading_zero_and_non_numeric_subfolders(repo: Repo) -> None:
    root = repo(
        {
            **model("m", ONNX_MODEL),
            "m/01/model.onnx": b"",
            "m/v1/": None,
            "m/.ipynb_checkpoints/": None,
        }
    )
    assert folder_findings(root, "TL213") == [
        root / "m" / ".ipynb_checkpoints",
        root / "m" / "01",
        root / "m" / "v1",
    ]
    assert all(d.severity is Severity.WARNING for d in with_code(lint(root), "TL213"))
    assert "(name it 1)" in with_code(lint(root), "TL213")[1].message


def test_tl213_numbered_and_reserved_folders_are_fine(repo: Repo) -> None:
    root = repo(
        {
            **model("m", ONNX_MODEL),
            "m/0/model.onnx": b"",
            "m/10/model.onnx": b"",
            "m/warmup/": None,
            "m/initial_state/": None,
            "m/configs/": None,
        }
    )
    assert "TL213" not in codes(lint(root))


def test_tl214_version_folders_the_server_misreads(repo: Repo) -> None:
    root = repo(
        {
            **model("m", ONNX_MODEL),
            "m/1.0/": None,
            "m/2_old/": None,
            "m/-1/": None,
            "m/99999999999999999999/": None,
        }
    )
    assert folder_findings(root, "TL214") == sorted(
        root / "m" / name for name in ("1.0", "2_old", "-1", "99999999999999999999")
    )
    messages = {d.path.name: d.message for d in with_code(lint(root), "TL214")}
    assert "reads '1.0' as version 1" in messages["1.0"]
    assert "rename the folder to 2" in messages["2_old"]
    assert messages["-1"] == (
        "tritonserver reads '-1' as version -1, and the backend as 18446744073709551615 (an "
        "unsigned 64-bit number): it looks for the model files in '18446744073709551615/', "
        "where they are not, and a Python model hangs at load; rename the folder to a "
        "positive number such as 1"
    )
    assert "64-bit" in messages["99999999999999999999"]
    assert all(d.severity is Severity.ERROR for d in with_code(lint(root), "TL214"))


def test_tl214_plain_numbers_are_fine(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/2/model.onnx": b"", "m/9223372036854775807/": None})
    assert "TL214" not in codes(lint(root))


def test_repository_with_a_model_whose_name_starts_with_a_digit(repo: Repo) -> None:
    root = repo(
        {
            **model("3d_unet", ONNX_MODEL),
            **model("resnet", ONNX_MODEL),
            "resnet/config.pbtxt": 'name: "other"\n' + CONFIG,
        }
    )
    result = lint(root)
    assert result.models_checked == 2
    assert codes(result) == ["TL201"]


# --- TL215 version-policy-selects-nothing / TL216 specific-version-missing ----------------

SPECIFIC_3 = CONFIG + "version_policy { specific { versions: [ 3 ] } }\n"


@pytest.mark.parametrize(
    "text",
    [SPECIFIC_3, CONFIG + "version_policy { latest { num_versions: 0 } }\n"],
    ids=["specific", "latest-0"],
)
def test_tl215_policy_selects_none_of_the_versions(repo: Repo, text: str) -> None:
    # Reported at the version_policy value.
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": text, "m/2/model.onnx": b""})
    found = only(lint(root), "TL215")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    line, column = locate(text, "version_policy")
    assert position(found) == (line, column + len("version_policy "))
    assert "present (1, 2)" in found.message
    assert "TL216" not in codes(lint(root))


@pytest.mark.parametrize(
    "policy",
    ["specific { versions: [ 2 ] }", "latest { num_versions: 5 }", "all { }"],
)
def test_tl215_policy_that_selects_a_version(repo: Repo, policy: str) -> None:
    text = CONFIG + f"version_policy {{ {policy} }}\n"
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": text, "m/2/model.onnx": b""})
    assert "TL215" not in codes(lint(root))


def test_tl216_a_listed_version_without_folder(repo: Repo) -> None:
    text = CONFIG + "version_policy { specific { versions: [ 1, 4 ] } }\n"
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": text})
    found = only(lint(root), "TL216")
    assert found.severity is Severity.WARNING
    assert position(found) == locate(text, "4 ]")
    assert "version 4 is specified for model 'm'" in found.message


def test_tl216_every_listed_version_present(repo: Repo) -> None:
    text = CONFIG + "version_policy { specific { versions: [ 1, 4 ] } }\n"
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": text, "m/4/model.onnx": b""})
    assert "TL216" not in codes(lint(root))


# --- TL217 missing-model-file ----------------------------------------------------------------


def test_tl217_version_folder_without_the_backend_model_file(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": CONFIG, "m/1/yolox.onnx": b""})
    found = only(lint(root), "TL217")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "1"
    assert found.span is None
    assert "no 'model.onnx' for the onnxruntime backend (it holds: yolox.onnx)" in found.message


def test_tl217_savedmodel_must_be_a_folder(repo: Repo) -> None:
    text = CONFIG.replace("onnxruntime_onnx", "tensorflow_savedmodel")
    root = repo({"m/config.pbtxt": text, "m/1/model.savedmodel": b""})
    assert "must be a folder" in only(lint(root), "TL217").message


def test_tl217_only_versions_the_policy_serves_are_checked(repo: Repo) -> None:
    # Default policy: the latest version only. 1/ is empty but not served.
    root = repo({"m/config.pbtxt": CONFIG, "m/1/": None, "m/2/model.onnx": b""})
    assert "TL217" not in codes(lint(root))
    text = CONFIG + "version_policy { all { } }\n"
    root = repo({"m/config.pbtxt": text, "m/1/": None, "m/2/model.onnx": b""})
    assert folder_findings(root, "TL217") == [root / "m" / "1"]


@pytest.mark.parametrize(
    "files",
    [
        {"m/1/model.onnx": b""},
        {"m/1/model.onnx/model.onnx": b""},  # onnxruntime also takes a folder
        {
            "m/config.pbtxt": CONFIG + 'default_model_filename: "yolox.onnx"\n',
            "m/1/yolox.onnx": b"",
        },
    ],
    ids=["model.onnx", "model.onnx-folder", "default_model_filename"],
)
def test_tl217_model_file_present(repo: Repo, files: dict[str, str | bytes | None]) -> None:
    root = repo({"m/config.pbtxt": CONFIG, **files})
    assert "TL217" not in codes(lint(root))


def test_tl217_python_model_without_model_py(repo: Repo) -> None:
    text = CONFIG.replace('platform: "onnxruntime_onnx"', 'backend: "python"')
    root = repo({"m/config.pbtxt": text, "m/1/": None})
    assert "'model.py' for the python backend" in only(lint(root), "TL217").message
    root = repo({"m/config.pbtxt": text, "m/1/model.py": ""})
    assert "TL217" not in codes(lint(root))


def test_tl220_custom_backend_file_missing_is_only_a_warning(repo: Repo) -> None:
    text = 'backend: "fastertransformer"\ndefault_model_filename: "gpt-j-6b"\n'
    root = repo({"m/config.pbtxt": text, "m/1/": None})
    result = lint(root)
    assert "TL217" not in codes(result)
    found = only(result, "TL220")
    assert found.severity is Severity.WARNING
    assert found.path == root / "m" / "1"
    assert found.message == (
        "'gpt-j-6b' is neither in version 1 (it is empty) nor in the model folder; the "
        "fastertransformer backend fails to load the model if it reads that file"
    )
    root = repo({"m/config.pbtxt": text, "m/1/gpt-j-6b/": None})
    assert "TL220" not in codes(lint(root))


LIGHTSEQ = """\
    name: "bert_example"
    backend: "lightseq"
    default_model_filename: "lightseq_bert_base_uncased.hdf5"
    max_batch_size: 8
    input [ { name: "source_ids" data_type: TYPE_INT32 dims: [ -1 ] } ]
    output [ { name: "encoder_output" data_type: TYPE_FP32 dims: [ -1, 768 ] } ]
    """


@pytest.mark.parametrize(
    "where",
    [
        "bert_example/lightseq_bert_base_uncased.hdf5",
        "bert_example/1/lightseq_bert_base_uncased.hdf5",
    ],
)
def test_tl220_custom_backend_file_in_the_model_or_the_version_folder(
    repo: Repo, where: str
) -> None:
    # LightSeq reads default_model_filename from the model folder, next to an empty 1/.
    root = repo({"bert_example/config.pbtxt": LIGHTSEQ, "bert_example/1/": None, where: b""})
    assert codes(lint(root)) == ["TL306"]  # a custom backend: only the server can vouch for it


def test_tl220_custom_backend_file_in_neither_folder(repo: Repo) -> None:
    root = repo({"bert_example/config.pbtxt": LIGHTSEQ, "bert_example/1/notes.txt": ""})
    found = only(lint(root), "TL220")
    assert found.path == root / "bert_example" / "1"
    assert found.message == (
        "'lightseq_bert_base_uncased.hdf5' is neither in version 1 (it holds: notes.txt) nor "
        "in the model folder; the lightseq backend fails to load the model if it reads that file"
    )


# --- TL218 missing-label-file ----------------------------------------------------------------


def test_tl218_label_file_missing(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": LABELLED, "m/1/model.onnx": b"", "m/1/labels.txt": "cat\n"})
    found = only(lint(root), "TL218")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert position(found) == locate(LABELLED, '"labels.txt"')
    # The label file belongs next to config.pbtxt, not in the version folder.
    assert str(root / "m" / "labels.txt") in found.message


def test_tl218_label_file_next_to_the_config(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": LABELLED, "m/1/model.onnx": b"", "m/labels.txt": "cat\n"})
    assert "TL218" not in codes(lint(root))


# --- TL221 invalid-file-name (every field: tests/rules/test_file_names.py) ------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("labels\\000.txt", "it holds a NUL byte"),
        ("l" * 256, f"'{'l' * 20}...' is longer than the 255 bytes a file name may have"),
        ("labels/" + "é" * 128, "is longer than the 255 bytes"),  # 256 bytes in UTF-8
    ],
    ids=["nul", "256-characters", "256-bytes"],
)
def test_tl221_a_label_file_name_no_file_can_have(repo: Repo, name: str, problem: str) -> None:
    text = LABELLED.replace('"labels.txt"', f'"{name}"')
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b"", "m/labels.txt": "cat\n"})
    found = only(lint(root), "TL221")
    assert found.severity is Severity.ERROR
    assert position(found) == locate(text, f'"{name}"')
    assert found.message.startswith("label_filename '")
    assert problem in found.message
    assert "TL218" not in codes(lint(root))


@pytest.mark.parametrize("name", ["labels.txt", "l" * 255, "labels/" + "é" * 127])
def test_tl221_names_a_file_can_have(repo: Repo, name: str) -> None:
    text = LABELLED.replace('"labels.txt"', f'"{name}"')
    assert "TL221" not in codes(lint(repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})))


# --- TL219 hidden-folder-in-repository -------------------------------------------------------


def test_tl219_hidden_folders_at_the_repository_root(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), ".ipynb_checkpoints/": None, ".git/HEAD": "ref\n"})
    assert folder_findings(root, "TL219") == [root / ".git", root / ".ipynb_checkpoints"]
    assert all(d.severity is Severity.WARNING for d in with_code(lint(root), "TL219"))


def test_tl219_no_hidden_folder(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), ".gitignore": "*.onnx\n"})
    assert "TL219" not in codes(lint(root))


def test_tl219_only_when_the_whole_repository_is_linted(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), ".git/HEAD": "ref\n"})
    assert "TL219" not in codes(lint(root / "m"))


# --- What a folder without the usual layout holds -------------------------------------------


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {"client/train.py": "", "client/Dockerfile": "", "client/utils/": None},
            "this folder holds source code (Dockerfile, train.py), not a model: tritonserver "
            "polls every folder of the repository as a model and refuses this one; move it out "
            "of the repository",
        ),
        (
            {"client/requirements.txt": "", "client/model.py": ""},
            "this folder holds source code (requirements.txt), not a model: tritonserver "
            "polls every folder of the repository as a model and refuses this one; move it out "
            "of the repository",
        ),
        (
            {"client/saved_model.pb": b"", "client/variables/": None},
            "this is a TensorFlow SavedModel export (saved_model.pb, variables/): put it in "
            'client/1/model.savedmodel/ with a config.pbtxt that says platform: '
            '"tensorflow_savedmodel"',
        ),
        (
            {"client/1/saved_model.pb": b"", "client/1/variables/": None},
            "version 1 holds a TensorFlow SavedModel's own files (saved_model.pb ...): move "
            'them into 1/model.savedmodel/ and add a config.pbtxt that says platform: '
            '"tensorflow_savedmodel"',
        ),
        (
            {"client/config.pbtxt.template": "", "client/1/model.onnx": b""},
            "no config.pbtxt, only the template 'config.pbtxt.template': tritonserver reads "
            "only config.pbtxt; fill the template in and save the result as config.pbtxt",
        ),
        (
            {"client/config.txt": "", "client/1/model.onnx": b""},
            "no config.pbtxt, but 'config.txt' is here: tritonserver reads only config.pbtxt; "
            "rename config.txt to config.pbtxt",
        ),
        (
            {"client/config.pbtxt.txt": "", "client/1/model.pt": b""},
            "no config.pbtxt, but 'config.pbtxt.txt' is here: tritonserver reads only "
            "config.pbtxt; rename config.pbtxt.txt to config.pbtxt",
        ),
        (
            {"client/client_config.pbtxt": "", "client/1/model.pt": b""},
            "no config.pbtxt, but 'client_config.pbtxt' is here: tritonserver reads only "
            "config.pbtxt; rename client_config.pbtxt to config.pbtxt",
        ),
    ],
    ids=["scripts", "requirements", "savedmodel", "savedmodel-in-1", "template", "config-txt",
         "config-pbtxt-txt", "prefixed-config"],
)  # fmt: skip
def test_tl210_says_what_the_folder_holds(
    repo: Repo, files: dict[str, str | bytes | None], message: str
) -> None:
    # Beside a real model: a folder of nothing but source code is no repository on its own.
    root = repo({**model("det", ONNX_MODEL), **files})
    result = lint(root)
    assert [(d.code, d.path) for d in result.diagnostics] == [("TL210", root / "client")]
    assert result.diagnostics[0].message == message
    assert result.diagnostics[0].severity is Severity.ERROR


@pytest.mark.parametrize("with_config", [True, False])
def test_tl212_model_file_directly_in_the_model_folder(repo: Repo, with_config: bool) -> None:
    files: dict[str, str | bytes | None] = {"m/model.onnx": b""}
    if with_config:
        files["m/config.pbtxt"] = CONFIG
    root = repo(files)
    result = lint(root)
    assert codes(result) == ["TL212"]
    refusal = (
        "; tritonserver refuses the model: at least one version must be available under the "
        "version policy of model 'm'"
        if with_config
        else ""
    )
    assert result.diagnostics[0].message == (
        "model.onnx is directly in the model folder, where tritonserver does not look: move "
        f"model.onnx into a version folder 1/{refusal}"
    )


def test_a_model_with_its_own_scripts_is_still_a_model(repo: Repo) -> None:
    # Scripts next to a config.pbtxt do not make a model folder a project folder.
    root = repo({**model("m", ONNX_MODEL), "m/export.py": "", "m/requirements.txt": ""})
    assert codes(lint(root)) == []
