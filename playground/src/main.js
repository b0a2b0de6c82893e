// The playground page: loads Pyodide and tritonlint's wheels from this folder, then lints the
// editor's text as it changes (playground_api.py does the Python side).
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

// What the page has done, for its tests: the text last linted and the time each step took.
const state = { linted: null, timings: {} };
window.tritonlintPlayground = state;

function showStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

// --- the share link: the text (and the release) in the URL fragment --------------------
function encode(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decode(encoded) {
  const binary = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function shareLink() {
  const fragment = new URLSearchParams({ release: release.value, config: encode(editor.value) });
  return `${location.origin}${location.pathname}#${fragment}`;
}

function fromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  let text = null;
  try {
    text = fragment.has("config") ? decode(fragment.get("config")) : null;
  } catch {
    showStatus("The link's config could not be read; showing the example.", true);
  }
  return { text, release: fragment.get("release") };
}

// --- Python ----------------------------------------------------------------------------
async function loadPython() {
  const started = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  state.timings.pyodide = performance.now() - started;
  const wheels = await (await fetch("wheels.json")).json();
  await Promise.all(
    wheels.map(async (name) => {
      const response = await fetch(`wheels/${name}`);
      if (!response.ok) throw new Error(`wheels/${name}: ${response.status}`);
      pyodide.unpackArchive(await response.arrayBuffer(), "wheel");
    }),
  );
  pyodide.FS.mkdirTree("/playground");
  pyodide.FS.writeFile("/playground/playground_api.py", await (await fetch("playground_api.py")).text());
  pyodide.runPython("import sys; sys.path.insert(0, '/playground')");
  const api = pyodide.pyimport("playground_api");
  state.timings.ready = performance.now() - started;
  return {
    releases: () => JSON.parse(api.releases()),
    lint: (text, version) => JSON.parse(api.lint(text, version)),
    format: (text) => JSON.parse(api.format_config(text)),
    fix: (text, version) => JSON.parse(api.apply_fixes(text, version)),
  };
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

function showFindings(findings) {
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
      item.append(place, code, message);
      item.dataset.code = finding.code;
      if (finding.line) item.addEventListener("click", () => selectRange(finding));
      return item;
    }),
  );
  $("count").textContent = `(${findings.length})`;
}

function main(python) {
  let timer = null;
  const lint = () => {
    const text = editor.value;
    const started = performance.now();
    try {
      const findings = python.lint(text, release.value);
      showFindings(findings);
      showStatus(findings.length ? "" : "No findings.");
    } catch (error) {
      showStatus(`tritonlint failed: ${error}`, true);
    }
    state.timings.lint = performance.now() - started;
    state.linted = text;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(lint, 150);
  };
  const replaceText = (text) => {
    editor.value = text;
    lint();
  };
  editor.addEventListener("input", schedule);
  release.addEventListener("change", lint);
  $("format").addEventListener("click", () => {
    const result = python.format(editor.value);
    if (result.error) showStatus(`Not formatted: ${result.error}`, true);
    else replaceText(result.text);
  });
  $("fix").addEventListener("click", () => {
    const result = python.fix(editor.value, release.value);
    replaceText(result.text);
    if (!result.fixed) showStatus("No finding has a safe fix.");
  });
  $("share").addEventListener("click", async () => {
    const link = shareLink();
    history.replaceState(null, "", link);
    shareUrl.hidden = false;
    shareUrl.value = link;
    shareUrl.select();
    await navigator.clipboard?.writeText(link).catch(() => {});
  });
  lint();
}

async function start() {
  const shared = fromFragment();
  editor.value = shared.text ?? EXAMPLE;
  try {
    const python = await loadPython();
    for (const { release: version, container } of python.releases()) {
      release.add(new Option(container ? `${version} (${container})` : version, version));
    }
    if (shared.release && [...release.options].some((o) => o.value === shared.release)) {
      release.value = shared.release;
    }
    for (const element of [release, ...buttons]) element.disabled = false;
    main(python);
  } catch (error) {
    showStatus(`The playground could not start: ${error}`, true);
    throw error;
  }
}

start();
