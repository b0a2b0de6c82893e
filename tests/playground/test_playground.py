"""The playground page in headless Chromium: each config of fixtures/broken pasted into it
shows what ``tritonlint check --output-format json -`` reports for that text; "Format" gives
``tritonlint format -``'s text, "Apply fixes" ``tritonlint check --fix``'s; the share link
opens the same text and release; everything is served from the page's own folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from vscode_session import Tools, run_script

from tritonlint.rules.registry import all_rules
from tritonlint.schema.releases import available_releases

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("play.mjs")
BROKEN = ROOT / "fixtures" / "broken"
IMAGE = ROOT / "docs" / "images" / "playground.png"
#: What the share link carries: a text with characters outside ASCII, and an older release.
SHARED = {"text": 'name: "modèle"\nbackend: "python"\n# naïve: ✓\n', "release": "2.51.0"}
FOLDERS = sorted(path for path in BROKEN.iterdir() if path.is_dir())
FOLDER_SHOT = "ensemble_data_type_mismatch"
#: The ensemble whose config is pasted alone, for its graph.
GRAPHED = BROKEN / "ensemble_tensor_unused"
#: The tree shared: a tree of configs, an older release, not the file it opens on.
SHARED_TREE = {
    "name": "ensemble_data_type_mismatch",
    "release": "2.51.0",
    "file": "ensemble_data_type_mismatch/preprocess/config.pbtxt",
}
FOLDER_IMAGE = ROOT / "docs" / "images" / "playground-folder.png"
ENSEMBLE_IMAGE = ROOT / "docs" / "images" / "playground-ensemble.png"
#: The ensembles pasted as trees of configs alone ("==> PATH <==" before each), and the one
#: pasted whole (every file of its folder), copied as text, shared and dropped.
CONFIG_TREES = ["ensemble_data_type_mismatch", "ensemble_shape_mismatch", "ensemble_unused_input"]
WHOLE_TREE = "ensemble_unknown_input_name"
#: What a tree of configs alone is checked without: the rules about model files.
MODEL_FILE_RULES = [r.code for r in all_rules() if r.pack == "layout"] + ["TL720"]
BAD_TREES = {
    "up": ('==> ../models/m/config.pbtxt <==\nname: "m"\n', 'a path cannot go up with ".."'),
    "absolute": ("==> /models/m/config.pbtxt <==\n", "the path must be relative, not absolute"),
    "twice": ('==> m/config.pbtxt <==\nname: "m"\n\n==> ./m/config.pbtxt <==\n', "given twice"),
}
CASES = {
    f"{config.parent.parent.name}/{config.parent.name}": config.read_text(encoding="utf-8")
    for config in sorted(BROKEN.glob("*/*/config.pbtxt"))
}


def tree_text(folder: Path, configs_only: bool = False) -> str:
    """The files of ``folder`` as ``tail -n +1`` prints them, paths relative to its parent."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    if configs_only:
        files = [p for p in files if p.name == "config.pbtxt"]
    return "\n".join(
        f"==> {p.relative_to(folder.parent).as_posix()} <==\n{p.read_text(encoding='utf-8')}"
        for p in files
    )


def tritonlint(*args: str, text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command line on ``text`` as standard input, run where no settings file is."""
    return subprocess.run(
        [sys.executable, "-m", "tritonlint", *args],
        input=text,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def as_shown(found: list[dict[str, Any]], with_path: bool = False) -> list[dict[str, str]]:
    """JSON findings as the page lists them: place, code, documentation link, message (and,
    for a folder, the file)."""
    return [
        {
            **({"path": f["path"]} if with_path else {}),
            "place": f"{f['line']}:{f['column']}" if f["line"] else "",
            "code": f["code"],
            "url": f["url"],
            "message": f["message"],
            "severity": f["severity"],
        }
        for f in found
    ]


@pytest.fixture(scope="module")
def seen(browser_tools: Tools, page_url: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """What the page showed (play.mjs's observations.json)."""
    out = tmp_path_factory.mktemp("playground")
    cases = out / "cases.json"
    cases.write_text(json.dumps([{"name": n, "text": t} for n, t in CASES.items()]))
    folders = out / "folders.json"
    folders.write_text(json.dumps([str(folder) for folder in FOLDERS]))
    binary = out / "binary" / "ensemble_data_type_mismatch"
    shutil.copytree(BROKEN / binary.name, binary)
    (binary / "classifier" / "1" / "model.onnx").write_bytes(b"\x08\x07\x12\x00\xff\xfeonnx")
    trees = out / "trees.json"
    pasted = [{"name": n, "text": tree_text(BROKEN / n, configs_only=True)} for n in CONFIG_TREES]
    pasted.append({"name": WHOLE_TREE, "text": tree_text(BROKEN / WHOLE_TREE)})
    trees.write_text(
        json.dumps(
            {
                "ensemble": (GRAPHED / "pipeline" / "config.pbtxt").read_text(encoding="utf-8"),
                "plain": (GRAPHED / "classifier" / "config.pbtxt").read_text(encoding="utf-8"),
                "pasted": pasted,
                "bad": [{"name": n, "text": text} for n, (text, _) in BAD_TREES.items()],
                "share": SHARED_TREE,
                "binary": str(binary),
                "drop": str(BROKEN / WHOLE_TREE),
            }
        )
    )
    status, output = run_script(
        [str(browser_tools.node), str(SCRIPT)],
        env={
            **os.environ,
            "PAGE_URL": page_url,
            "CASES": str(cases),
            "SHARE": json.dumps(SHARED),
            "FOLDERS": str(folders),
            "FOLDER_SHOT": FOLDER_SHOT,
            "TREES": str(trees),
            "OUT_DIR": str(out),
            "PLAYWRIGHT_CORE": str(browser_tools.playwright_core),
            "CHROMIUM": str(browser_tools.chromium),
        },
        timeout=10 * 60,
    )
    observations = out / "observations.json"
    if not observations.exists():
        pytest.fail(f"play.mjs wrote nothing (status {status}):\n{output}", pytrace=False)
    found = json.loads(observations.read_text())
    found["out"] = out
    found["output"] = output
    print(f"playground screenshot and logs: {out}; start-up {found.get('startup_ms')} ms")
    return found


def observed(seen: Any, step: str, key: str) -> Any:
    if step in seen["errors"] or key not in seen:
        console = (seen["out"] / "browser-console.log").read_text()
        pytest.fail(
            f"step {step!r} failed: {seen['errors'].get(step)}\n{seen['output']}\n{console}",
            pytrace=False,
        )
    return seen[key]


def test_findings_are_check_json_of_the_text(seen: Any, tmp_path: Path) -> None:
    shown = observed(seen, "findings", "findings")
    assert set(shown) == set(CASES)
    for name, text in CASES.items():
        check = tritonlint("check", "--output-format", "json", "-", text=text, cwd=tmp_path)
        assert shown[name] == as_shown(json.loads(check.stdout)), name
    # Many are sound on their own (what is wrong lies in another model of their repository).
    assert sum(bool(found) for found in shown.values()) >= 20


def offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return min(sum(len(before) + 1 for before in lines[: line - 1]) + column - 1, len(text))


def test_squiggles_under_the_text_of_each_finding(seen: Any, tmp_path: Path) -> None:
    """Under the span of each finding (one character where it is empty), in the editor's
    layer that shows the text coloured."""
    shown = observed(seen, "findings", "squiggles")
    for name, text in CASES.items():
        check = tritonlint("check", "--output-format", "json", "-", text=text, cwd=tmp_path)
        expected = []
        for f in json.loads(check.stdout):
            if f["line"]:
                start = offset(text, f["line"], f["column"])
                end = offset(text, f["end_line"], f["end_column"])
                expected.append(text[start : max(end, start + 1)])
        assert shown[name] == {"texts": expected, "same_text": True}, name


def test_format_is_format_stdin(seen: Any, tmp_path: Path) -> None:
    shown = observed(seen, "format", "formatted")
    refused = 0
    for name, text in CASES.items():
        formatted = tritonlint("format", "-", text=text, cwd=tmp_path)
        if formatted.returncode == 0:
            assert shown[name]["text"] == formatted.stdout, name
        else:
            refused += 1
            assert shown[name]["text"] == text, name  # left as it was
            why = formatted.stderr.partition("cannot format: ")[2].strip()
            assert why and why in shown[name]["status"], (name, formatted.stderr)
    changed = sum(shown[name]["text"] != text for name, text in CASES.items())
    assert changed and refused, (changed, refused)


def test_apply_fixes_is_check_fix(seen: Any, tmp_path: Path) -> None:
    shown = observed(seen, "fix", "fixed")
    config = tmp_path / "input.pbtxt"
    for name, text in CASES.items():
        config.write_text(text, encoding="utf-8")
        tritonlint("check", "--fix", str(config), text="", cwd=tmp_path)
        assert shown[name]["text"] == config.read_text(encoding="utf-8"), name
    assert sum(shown[name]["text"] != text for name, text in CASES.items()) >= 5


def test_share_link_round_trips(seen: Any, tmp_path: Path) -> None:
    shared = observed(seen, "share", "share")
    fragment = urlsplit(shared["link"]).fragment
    assert "release=2.51.0" in fragment and "modèle" not in fragment
    assert shared["text"] == SHARED["text"]
    assert shared["release"] == SHARED["release"]
    check = tritonlint(
        "check", "--triton-version", "2.51.0", "--output-format", "json", "-",
        text=SHARED["text"], cwd=tmp_path,
    )  # fmt: skip
    assert shared["findings"] == as_shown(json.loads(check.stdout))


def test_release_selector_lists_every_release_newest_first(seen: Any) -> None:
    assert observed(seen, "start", "releases") == list(reversed(available_releases()))


def test_everything_is_served_from_the_page_folder(seen: Any, page_url: str) -> None:
    requests = observed(seen, "start", "requests")
    assert any(url.endswith(".wasm") for url in requests)
    assert [url for url in requests if not url.startswith(page_url)] == []


def test_example_and_screenshot(seen: Any) -> None:
    """The page opens with an example that has findings; its screenshot is the README's
    picture (copied there with TRITONLINT_E2E_UPDATE_IMAGES set)."""
    codes = [finding["code"] for finding in observed(seen, "screenshot", "example")]
    assert len(codes) >= 3, codes
    # The gutter numbers every line, marks the lines of the findings, and each squiggle is
    # level with its line's number, also in a long text scrolled to its end.
    lines = observed(seen, "screenshot", "gutter")
    example = observed(seen, "screenshot", "example")
    marked = {finding["place"].split(":")[0]: finding["severity"] for finding in example}
    assert [number for number, _ in lines["numbers"]] == [
        str(n) for n in range(1, len(lines["numbers"]) + 1)
    ]
    assert {number: kind for number, kind in lines["numbers"] if kind} == marked
    assert sorted(set(lines["besideSquiggles"]), key=int) == sorted(marked, key=int)
    scrolled = observed(seen, "screenshot", "scrolledGutter")
    assert len(scrolled["numbers"]) == 122  # 121 lines and the empty one after the last newline
    assert [n for n, kind in scrolled["numbers"] if kind] == ["121"]
    assert set(scrolled["besideSquiggles"]) == {"121"}
    shot = seen["out"] / "playground.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("TRITONLINT_E2E_UPDATE_IMAGES"):
        IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, IMAGE)
        shutil.copyfile(seen["out"] / "playground-folder.png", FOLDER_IMAGE)


@pytest.fixture(scope="module")
def folder_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """For each folder of fixtures/broken, copied into a folder of its own: what `tritonlint
    check --output-format json NAME`, `tritonlint graph --format html NAME` and `tritonlint
    check --fix NAME` give, run beside it."""
    runs: dict[str, dict[str, Any]] = {}
    for folder in FOLDERS:
        here = tmp_path_factory.mktemp("folder")
        shutil.copytree(folder, here / folder.name)
        check = tritonlint("check", "--output-format", "json", folder.name, text="", cwd=here)
        graph = tritonlint("graph", "--format", "html", folder.name, text="", cwd=here)
        assert graph.returncode in (0, 2), graph.stderr
        tritonlint("check", "--fix", folder.name, text="", cwd=here)
        runs[folder.name] = {
            "findings": json.loads(check.stdout),
            "graph": graph.stdout.rstrip("\n") if graph.returncode == 0 else None,
            "folder": here,
        }
    return runs


def test_open_folder_shows_check_json_and_graph(seen: Any, folder_runs: dict[str, Any]) -> None:
    shown = observed(seen, "folders", "folders")
    assert set(shown) == {folder.name for folder in FOLDERS}
    for name, run in folder_runs.items():
        expected = as_shown(run["findings"], with_path=True)
        assert shown[name]["findings"] == expected, name
        graph = shown[name]["graph"]  # (the command line ends it with one newline)
        assert (graph.rstrip("\n") if graph is not None else None) == run["graph"], name
        configs = sorted(str(p.relative_to(BROKEN)) for p in (BROKEN / name).rglob("*.pbtxt"))
        assert shown[name]["files"] == configs, name
    assert sum(shown[name]["graph"] is not None for name in shown) >= 10


def test_apply_fixes_in_a_folder_is_check_fix(seen: Any, folder_runs: dict[str, Any]) -> None:
    shown = observed(seen, "folders", "folders")
    changed = 0
    for name, run in folder_runs.items():
        for path, text in shown[name]["fixed"].items():
            assert text == (run["folder"] / path).read_text(encoding="utf-8"), path
            changed += text != (BROKEN / path).read_text(encoding="utf-8")
    assert changed >= 5


def test_back_to_one_config(seen: Any) -> None:
    assert observed(seen, "folders", "back_to_one") == {"file_hidden": True, "graph_hidden": True}


def test_a_folder_opens_on_the_file_of_its_first_finding(seen: Any) -> None:
    """(The config of the ensemble, in the screenshot, not the first config by name.)"""
    shown = observed(seen, "folders", "folder_shot")
    assert shown == f"{FOLDER_SHOT}/pipeline/config.pbtxt"


# --- the graph of one config, trees pasted as text, their links, a folder dropped -------------


def test_a_pasted_ensemble_shows_its_graph(seen: Any, tmp_path: Path) -> None:
    """Every step (by its model's name alone: the models are not there, and none is marked
    missing) and every tensor of the ensemble's graph in a repository that holds it."""
    shown = observed(seen, "graph", "graph")
    shutil.copytree(GRAPHED, tmp_path / GRAPHED.name)
    drawn = tritonlint("graph", "--format", "json", GRAPHED.name, text="", cwd=tmp_path)
    [ensemble] = json.loads(drawn.stdout)["repositories"][0]["ensembles"]
    steps = [node["name"] for node in ensemble["nodes"] if node["kind"] == "step"]
    boxes = shown["ensemble"]["boxes"]
    assert [b["lines"] for b in boxes if "step" in b["classes"].split()] == [[s] for s in steps]
    arrows = shown["ensemble"]["arrows"]
    labels = [arrow["label"] for arrow in arrows]
    for edge in ensemble["edges"]:
        tensor = edge["tensor"]
        assert any(label == tensor or label.startswith(f"{tensor}:") for label in labels), tensor
    assert not any("no such model" in line for box in boxes for line in box["lines"])
    # Its finding is listed, and marked on the graph (an unused tensor: an error).
    assert [f["code"] for f in shown["findings"]] == ["TL712"]
    marked = [a["label"] for a in arrows if "error" in a["classes"].split()]
    assert marked == ["gray"], marked
    print(f"lint of the pasted ensemble, with its graph: {shown['timings']}")
    if os.environ.get("TRITONLINT_E2E_UPDATE_IMAGES"):
        shutil.copyfile(seen["out"] / "playground-ensemble.png", ENSEMBLE_IMAGE)
    assert shown["plain"] is None  # no ensemble, no graph


def _check_configs(tmp_path: Path, name: str, *extra: str) -> list[dict[str, Any]]:
    """``tritonlint check --output-format json`` of the configs of ``name`` alone, without
    the rules about model files."""
    for config in (BROKEN / name).rglob("config.pbtxt"):
        target = tmp_path / config.relative_to(BROKEN)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(config, target)
    ignore = ",".join(MODEL_FILE_RULES)
    check = tritonlint(
        "check", "--output-format", "json", "--ignore", ignore, *extra, name, text="", cwd=tmp_path
    )
    return json.loads(check.stdout)


def test_a_pasted_tree_of_configs_is_checked_without_the_model_file_rules(
    seen: Any, tmp_path: Path
) -> None:
    shown = observed(seen, "trees", "trees")
    for name in CONFIG_TREES:
        expected = _check_configs(tmp_path, name)
        assert expected, name  # (each has a finding across its models)
        assert shown[name]["findings"] == as_shown(expected, with_path=True), name
        configs = sorted(str(p.relative_to(BROKEN)) for p in (BROKEN / name).rglob("*.pbtxt"))
        assert shown[name]["files"] == configs
        note = shown[name]["note"]
        assert note and all(code in note for code in MODEL_FILE_RULES), note


def test_a_pasted_whole_tree_is_checked_as_its_folder(
    seen: Any, folder_runs: dict[str, Any]
) -> None:
    shown = observed(seen, "trees", "trees")[WHOLE_TREE]
    assert shown["findings"] == as_shown(folder_runs[WHOLE_TREE]["findings"], with_path=True)
    assert shown["note"] is None
    files = sorted(p for p in (BROKEN / WHOLE_TREE).rglob("*") if p.is_file())
    assert shown["texts"] == {
        str(p.relative_to(BROKEN)): p.read_text(encoding="utf-8") for p in files
    }


def test_bad_trees_are_refused_with_a_message(seen: Any) -> None:
    shown = observed(seen, "trees", "bad_trees")
    for name, (_, message) in BAD_TREES.items():
        assert shown[name]["error"] and not shown[name]["folder_mode"], name
        assert shown[name]["status"].startswith("Not a tree of files: "), name
        assert message in shown[name]["status"], name


def test_copy_as_text_round_trips(seen: Any) -> None:
    copy = observed(seen, "copy", "copy")
    assert copy["copied"] == tree_text(BROKEN / WHOLE_TREE)
    assert copy["after"] == copy["before"]


def test_a_folders_share_link_round_trips(seen: Any, tmp_path: Path) -> None:
    shared = observed(seen, "share_tree", "share_tree")
    fields = dict(part.split("=", 1) for part in urlsplit(shared["link"]).fragment.split("&"))
    assert set(fields) == {"release", "tree", "file"}
    opened, sharing = shared["opened"], shared["sharing"]
    assert opened["shown"] == SHARED_TREE["file"] == sharing["shown"]
    assert opened["release"] == SHARED_TREE["release"]
    assert opened["texts"] == sharing["texts"] and opened["files"] == sharing["files"]
    expected = _check_configs(tmp_path, SHARED_TREE["name"], "--triton-version", "2.51.0")
    assert opened["findings"] == sharing["findings"] == as_shown(expected, with_path=True)


def test_a_share_link_leaves_binary_files_out_and_says_so(seen: Any) -> None:
    shared = observed(seen, "share_tree", "share_binary")
    binary = "ensemble_data_type_mismatch/classifier/1/model.onnx"
    assert f"1 binary file(s) left out: {binary}." in shared["status"]
    assert binary not in shared["before"]["texts"]
    assert shared["opened"]["texts"] == shared["before"]["texts"]


def test_a_dropped_folder_is_checked(seen: Any, folder_runs: dict[str, Any]) -> None:
    """A folder dropped on the page (a drag from the file system, delivered by the browser
    through the DevTools protocol) is read with webkitGetAsEntry and checked whole."""
    dropped = observed(seen, "drop", "drop")
    run = folder_runs[WHOLE_TREE]
    assert dropped["findings"] == as_shown(run["findings"], with_path=True)
    assert (dropped["graph"] or "").rstrip("\n") == run["graph"]
    files = sorted(p for p in (BROKEN / WHOLE_TREE).rglob("*") if p.is_file())
    assert sorted(dropped["texts"]) == [str(p.relative_to(BROKEN)) for p in files]
