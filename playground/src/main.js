// The playground page: loads Pyodide and tritonlint's wheels from this folder, then lints the
// editor's text as it changes (playground_api.py does the Python side).
import { compileGrammar, offsetOf, paint, tokens } from "./highlight.js";
import { decodeText, decodeTree, encodeText, encodeTree, isTree, parseTree, treeText } from "./tree.js";
import { loadPyodide } from "./pyodide/pyodide.mjs";

const EXAMPLE = `name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: "8"
input [
  {
    name: "input"
    data_type: TYPE_FP32
    dims: [ 3, 224, 0 ]
  }
]
output [ { name: "logits", data_type: TYPE_FP32, dims: [ 1000 ] } ]
instance_group [ { count: 1, kind: KIND_CPUS } ]
`;

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const release = $("release");
const statusLine = $("status");
const findingsList = $("findings");
const shareUrl = $("share-url");
const buttons = ["format", "fix", "share"].map($);
const folderInput = $("folder");
const fileSelect = $("file");
const graph = $("graph");
const graphTitle = $("graph-title");
const backdrop = $("backdrop");
const gutter = $("gutter");
const note = $("note");

// What the page has done, for its tests: the text last linted and the time each step took
// (lint: the whole update after an edit; check: the part of it in tritonlint).
// (lints counts the checks done; texts gives the texts of the folder open, by path, and
// folders its empty folders).
const state = {
  linted: null,
  lints: 0,
  timings: {},
  texts: () => Object.fromEntries(folder?.texts ?? []),
  folders: () => folder?.dirs ?? [],
};
window.tritonlintPlayground = state;

function showStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

// --- the share link: the text (and the release) in the URL fragment --------------------
// One config: config=its text (base64url). A folder: tree=its text files in the "==>"
// form (deflate-raw, base64url) and file=the file shown.
async function shareLink() {
  const fields = { release: release.value };
  if (folder) {
    folder.texts.set(folder.shown, editor.value); // (an edit not checked yet)
    fields.tree = await encodeTree(folderText());
    fields.file = folder.shown;
  } else {
    fields.config = encodeText(editor.value);
  }
  return `${location.origin}${location.pathname}#${new URLSearchParams(fields)}`;
}

async function fromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const shared = { text: null, tree: null, file: fragment.get("file"), release: fragment.get("release") };
  try {
    if (fragment.has("tree")) shared.tree = await decodeTree(fragment.get("tree"));
    else if (fragment.has("config")) shared.text = decodeText(fragment.get("config"));
  } catch {
    showStatus("The link's text could not be read; showing the example.", true);
  }
  return shared;
}

// --- Python ----------------------------------------------------------------------------
async function loadPython() {
  const started = performance.now();
  // The wheels and the API module are fetched while Pyodide starts.
  const download = async (name) => {
    const response = await fetch(name);
    if (!response.ok) throw new Error(`${name}: ${response.status}`);
    return response;
  };
  const wheels = download("wheels.json")
    .then((response) => response.json())
    .then((names) => Promise.all(names.map((name) => download(`wheels/${name}`).then((r) => r.arrayBuffer()))));
  const module = download("playground_api.py").then((response) => response.text());
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  state.timings.pyodide = performance.now() - started;
  for (const wheel of await wheels) pyodide.unpackArchive(wheel, "wheel");
  pyodide.FS.mkdirTree("/playground");
  pyodide.FS.writeFile("/playground/playground_api.py", await module);
  pyodide.runPython("import sys; sys.path.insert(0, '/playground')");
  const api = pyodide.pyimport("playground_api");
  state.timings.ready = performance.now() - started;
  return {
    releases: () => JSON.parse(api.releases()),
    lint: (text, version) => JSON.parse(api.lint(text, version)),
    modelFileRules: () => api.model_file_rules().toJs(),
    format: (text) => JSON.parse(api.format_config(text)),
    fix: (text, version) => JSON.parse(api.apply_fixes(text, version)),
    // The multi-file mode: a folder's files in Pyodide's file system, checked there.
    writeFolder(files) {
      api.clear_folders();
      for (const [path, bytes] of files) {
        pyodide.FS.mkdirTree(`/folders/${path.split("/").slice(0, -1).join("/")}`);
        pyodide.FS.writeFile(`/folders/${path}`, bytes);
      }
    },
    writeFile: (path, text) => pyodide.FS.writeFile(`/folders/${path}`, text),
    readFile: (path) => pyodide.FS.readFile(`/folders/${path}`, { encoding: "utf8" }),
    writeFolders(paths) {
      for (const path of paths) pyodide.FS.mkdirTree(`/folders/${path}`);
    },
    checkFolder: (name, version, configsOnly) => JSON.parse(api.check_folder(name, version, configsOnly)),
    fixFolder: (name, version, configsOnly) => JSON.parse(api.fix_folder(name, version, configsOnly)),
  };
}

// --- colours and squiggles -------------------------------------------------------------
let grammar = [];
let squiggled = []; // the findings of the text last linted that are in the file shown
let lastFindings = [];

function squiggleFindings() {
  squiggled = lastFindings.filter((f) => f.line && (!folder || f.path === folder.shown));
  repaint();
}

function repaint() {
  const text = editor.value;
  const marks = squiggled.map((finding) => ({
    start: offsetOf(text, finding.line, finding.column),
    end: offsetOf(text, finding.end_line ?? finding.line, finding.end_column ?? finding.column),
    severity: finding.severity,
  }));
  paint(backdrop, text, tokens(grammar, text), marks);
  numberLines(text);
  syncScroll();
}

const RANK = { error: 3, warning: 2, info: 1 };

/** The gutter: a number per line of the text, in the colour of the worst finding on it. */
function numberLines(text) {
  const worst = new Map();
  for (const { line, severity } of squiggled) {
    if ((RANK[severity] ?? 0) > (RANK[worst.get(line)] ?? 0)) worst.set(line, severity);
  }
  const count = text.split("\n").length;
  const numbers = [];
  for (let line = 1; line <= count; line++) {
    const number = document.createElement("span");
    number.textContent = `${line}\n`;
    if (worst.has(line)) number.className = worst.get(line);
    numbers.push(number);
  }
  gutter.replaceChildren(...numbers);
}

function syncScroll() {
  backdrop.scrollTop = gutter.scrollTop = editor.scrollTop;
  backdrop.scrollLeft = editor.scrollLeft;
}

// --- the findings ----------------------------------------------------------------------
function selectRange(finding) {
  const lines = editor.value.split("\n");
  const offset = (line, column) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  const start = offset(finding.line, finding.column);
  const end = finding.end_line ? offset(finding.end_line, finding.end_column) : start;
  editor.focus();
  editor.setSelectionRange(start, Math.max(start, end));
}

function reveal(finding) {
  if (folder && finding.path !== folder.shown) {
    if (!folder.texts.has(finding.path)) return;
    showFile(finding.path);
  }
  selectRange(finding);
}

function showFindings(findings) {
  lastFindings = findings;
  squiggleFindings();
  findingsList.replaceChildren(
    ...findings.map((finding) => {
      const item = document.createElement("li");
      item.className = finding.severity;
      const place = document.createElement("span");
      place.className = "place";
      place.textContent = finding.line ? `${finding.line}:${finding.column}` : "";
      const code = document.createElement("a");
      code.className = "code";
      code.textContent = finding.code;
      code.href = finding.url ?? "";
      code.target = "_blank";
      code.rel = "noopener";
      code.title = `${finding.name}: the rule's documentation`;
      const message = document.createElement("span");
      message.className = "message";
      message.textContent = finding.message;
      if (folder) {
        const where = document.createElement("span");
        where.className = "path";
        where.textContent = finding.path;
        item.append(where);
      }
      item.append(place, code, message);
      item.dataset.code = finding.code;
      if (finding.line) item.addEventListener("click", () => reveal(finding));
      return item;
    }),
  );
  $("count").textContent = `(${findings.length})`;
}

// --- the multi-file mode: a folder opened, dropped or pasted as text -----------------------
// The folder shown (null: one config): its name; the text of each text file by path (as
// findings give paths: "NAME/model/config.pbtxt"); the paths of its binary files and of the
// empty folders it was given; the file in the editor; and whether it holds configs alone
// (no version folder, no model file: checked without the rules about those files).
let folder = null;

function showFile(path) {
  folder.shown = path;
  fileSelect.value = path;
  editor.value = folder.texts.get(path);
  squiggleFindings();
}

function showGraph(html) {
  graph.hidden = graphTitle.hidden = html == null;
  if (html != null) graph.srcdoc = html;
}

/** The folder's text files in the "==>" form (its binary files left out). */
function folderText() {
  return treeText(folder.texts, folder.dirs);
}

/** "N binary files are left out: ..." (empty: none is). */
function binaryLeftOut() {
  const paths = folder?.binary ?? [];
  return paths.length ? ` ${paths.length} binary file(s) left out: ${paths.join(", ")}.` : "";
}

/** The text of a file's bytes, or null where it is binary (not UTF-8, or with a NUL). */
function textOf(bytes) {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  }
}

/** A pasted tree's paths under one folder: as they are where they have one top folder that
 * is no model folder, else under "models/" (the repository they are the models of). */
function underOneFolder(paths) {
  const tops = new Set(paths.map((path) => path.split("/")[0]));
  const [top] = tops;
  const isModel = paths.some((path) => path === `${top}/config.pbtxt`);
  return tops.size === 1 && !isModel ? (path) => path : (path) => `models/${path}`;
}

/** Reads the files of a dropped folder (FileSystemEntry), with their paths. */
async function entryFiles(entry) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    return [[entry.fullPath.replace(/^\//, ""), file]];
  }
  const reader = entry.createReader();
  const found = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return found;
    for (const child of batch) found.push(...(await entryFiles(child)));
  }
}

async function withBytes(files) {
  return Promise.all(files.map(async ([path, file]) => [path, new Uint8Array(await file.arrayBuffer())]));
}

function main(python) {
  let timer = null;
  const skipped = python.modelFileRules();
  const lint = () => {
    const text = editor.value;
    if (!folder && isTree(text)) {
      pasteTree(text);
      return;
    }
    const started = performance.now();
    try {
      let findings;
      if (folder) {
        python.writeFile(folder.shown, text);
        folder.texts.set(folder.shown, text);
        const checked = python.checkFolder(folder.name, release.value, folder.configsOnly);
        findings = checked.findings;
        showGraph(checked.graph);
      } else {
        const checked = python.lint(text, release.value);
        findings = checked.findings;
        showGraph(checked.graph);
      }
      state.timings.check = performance.now() - started; // tritonlint's part
      showFindings(findings);
      showStatus(findings.length ? "" : "No findings.");
    } catch (error) {
      showStatus(`tritonlint failed: ${error}`, true);
    }
    state.timings.lint = performance.now() - started;
    state.linted = text;
    state.lints += 1;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(lint, 150);
  };
  const replaceText = (text) => {
    editor.value = text;
    lint();
  };
  /** The multi-file mode on `files` ([path, bytes]) and `dirs` (empty folders, "path/"),
   * showing `shown` if it is one of its configs; false where it has no config. A tree
   * `pasted` as text that holds configs alone is checked without the rules about model files
   * (a folder read from the disk is checked as it is). */
  const openFolder = (files, dirs = [], shown = null, pasted = false) => {
    const texts = new Map();
    const binary = [];
    for (const [path, bytes] of files) {
      const text = textOf(bytes);
      if (text == null) binary.push(path);
      else texts.set(path, text);
    }
    const configs = [...texts.keys()].filter((p) => p.endsWith(".pbtxt")).sort();
    if (!configs.length) {
      showStatus("That folder has no .pbtxt file.", true);
      return false;
    }
    python.writeFolder(files);
    python.writeFolders(dirs);
    const configsOnly = pasted && !dirs.length && files.every(([path]) => path.endsWith("/config.pbtxt"));
    folder = { name: configs[0].split("/")[0], texts, binary: binary.sort(), dirs, shown: null, configsOnly };
    fileSelect.replaceChildren(...configs.map((path) => new Option(path, path)));
    for (const element of [fileSelect, $("single"), $("copy-tree")]) element.hidden = false;
    $("editing").hidden = true;
    document.body.classList.add("folder");
    shareUrl.hidden = true;
    shareUrl.value = ""; // (the link of what was shown before)
    note.hidden = !configsOnly;
    note.textContent = `Configs only, without version folders or model files: the rules about those files are not run (${skipped.join(", ")}).`;
    showFile(shown && texts.has(shown) ? shown : configs[0]);
    lint();
    // Show the file of the first finding, where it is a config of the folder.
    const first = findingsList.querySelector("li .path")?.textContent;
    if (!shown && first && first !== folder.shown && folder.texts.has(first) && first.endsWith(".pbtxt")) {
      showFile(first);
    }
    return true;
  };
  /** A tree pasted in the "==>" form; the editor keeps the text where it cannot be read. */
  const pasteTree = (text, shown = null) => {
    let tree;
    try {
      tree = parseTree(text);
    } catch (error) {
      showFindings([]);
      showGraph(null);
      showStatus(`Not a tree of files: ${error.message}.`, true);
      state.linted = text;
      state.lints += 1;
      return;
    }
    const place = underOneFolder([...tree.files.keys(), ...tree.folders]);
    const files = [...tree.files].map(([path, body]) => [place(path), new TextEncoder().encode(body)]);
    openFolder(files, tree.folders.map(place), shown, true);
  };
  const opening = (files) =>
    withBytes(files)
      .then((read) => openFolder(read))
      .catch((error) => showStatus(`The folder could not be read: ${error}`, true));
  editor.addEventListener("input", () => {
    squiggled = []; // where they were is no longer known until the text is linted again
    repaint();
    schedule();
  });
  editor.addEventListener("scroll", syncScroll);
  release.addEventListener("change", lint);
  $("format").addEventListener("click", () => {
    const result = python.format(editor.value);
    if (result.error) showStatus(`Not formatted: ${result.error}`, true);
    else replaceText(result.text);
  });
  $("fix").addEventListener("click", () => {
    if (folder) {
      python.writeFile(folder.shown, editor.value);
      const result = python.fixFolder(folder.name, release.value, folder.configsOnly);
      for (const path of result.changed) folder.texts.set(path, python.readFile(path));
      replaceText(folder.texts.get(folder.shown));
      if (!result.fixed) showStatus("No finding has a safe fix.");
      return;
    }
    const result = python.fix(editor.value, release.value);
    replaceText(result.text);
    if (!result.fixed) showStatus("No finding has a safe fix.");
  });
  folderInput.addEventListener("change", () =>
    opening([...folderInput.files].map((file) => [file.webkitRelativePath, file])),
  );
  document.body.addEventListener("dragover", (event) => {
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.body.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.body.addEventListener("drop", async (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    const entry = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry())[0];
    if (entry?.isDirectory) opening(await entryFiles(entry));
    else showStatus("Drop a folder: a model repository, or a folder of them.", true);
  });
  fileSelect.addEventListener("change", () => {
    showFile(fileSelect.value);
    lint();
  });
  $("single").addEventListener("click", () => {
    folder = null;
    document.body.classList.remove("folder");
    for (const element of [fileSelect, $("single"), $("copy-tree"), note]) element.hidden = true;
    $("editing").hidden = false;
    shareUrl.hidden = true;
    showGraph(null);
    replaceText(EXAMPLE);
  });
  $("copy-tree").addEventListener("click", async () => {
    folder.texts.set(folder.shown, editor.value);
    const text = folderText();
    shareUrl.hidden = true;
    await navigator.clipboard?.writeText(text).catch(() => {});
    showStatus(`Copied ${folder.texts.size} file(s) as text ("==> PATH <==" before each).${binaryLeftOut()}`);
  });
  $("share").addEventListener("click", async () => {
    const link = await shareLink();
    history.replaceState(null, "", link);
    shareUrl.hidden = false;
    shareUrl.value = link;
    shareUrl.select();
    if (folder?.binary.length) showStatus(`The link holds the folder's text files.${binaryLeftOut()}`);
    await navigator.clipboard?.writeText(link).catch(() => {});
  });
  return { lint, pasteTree };
}

async function start() {
  const shared = await fromFragment();
  editor.value = shared.text ?? EXAMPLE;
  try {
    grammar = compileGrammar(await (await fetch("pbtxt.tmLanguage.json")).json());
    repaint();
    const python = await loadPython();
    for (const { release: version, container } of python.releases()) {
      release.add(new Option(container ? `${version} (${container})` : version, version));
    }
    if (shared.release && [...release.options].some((o) => o.value === shared.release)) {
      release.value = shared.release;
    }
    for (const element of [release, folderInput, ...buttons]) element.disabled = false;
    $("open-folder").removeAttribute("aria-disabled");
    const page = main(python);
    if (shared.tree != null) page.pasteTree(shared.tree, shared.file);
    else page.lint();
  } catch (error) {
    showStatus(`The playground could not start: ${error}`, true);
    throw error;
  }
}

start();
