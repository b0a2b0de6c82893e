// Builds the playground into dist/: the page, Pyodide (from the pyodide npm package), the
// wheel of this checkout and the pure-Python wheels it needs to lint, all served from the
// page's own folder (nothing is fetched from a CDN when the page runs).
//
//   npm run build          (PYTHON: the Python that runs pip; default ../.venv, else python3)
//
// The downloads (hatchling, to build the wheel; protobuf's pure-Python wheel) are kept in
// .cache/, so that a later build works offline.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const CHECKOUT = resolve(HERE, "..");
const DIST = join(HERE, "dist");
const CACHE = join(HERE, ".cache");
const PYODIDE = join(HERE, "node_modules", "pyodide");
const PACKAGE = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8"));
const PROTOBUF = PACKAGE.config.protobuf;
// What the page loads of Pyodide: its loader, the runtime, and the standard library.
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const PAGE_FILES = ["index.html", "style.css", "main.js", "highlight.js", "tree.js", "playground_api.py"];
// The VS Code extension's grammar: the editor is coloured as the extension colours it.
const GRAMMAR = join(CHECKOUT, "vscode-extension", "syntaxes", "pbtxt.tmLanguage.json");

function python() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = join(CHECKOUT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function pip(args, env = {}) {
  execFileSync(python(), ["-m", "pip", "--disable-pip-version-check", ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env },
  });
}

function log(message) {
  console.log(`[playground build] ${message}`);
}

// hatchling (tritonlint's build backend), installed once into .cache/: the wheel is then
// built without build isolation, which would download it on every build.
function buildBackend() {
  const target = join(CACHE, "build-backend");
  if (!existsSync(join(target, "hatchling"))) {
    log("installing hatchling into .cache/build-backend");
    rmSync(target, { recursive: true, force: true });
    pip(["install", "--quiet", "--target", target, "hatchling>=1.21"]);
  }
  return target;
}

function tritonlintWheel(wheels) {
  log("pip wheel --no-deps (tritonlint)");
  pip(["wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", wheels, CHECKOUT], {
    PYTHONPATH: buildBackend(),
  });
}

// protobuf's pure-Python wheel: tritonlint's one dependency that linting imports (rich,
// pygls and lsprotocol serve the terminal and the language server only).
function protobufWheel(wheels) {
  const name = `protobuf-${PROTOBUF}-py3-none-any.whl`;
  const cached = join(CACHE, "wheels", name);
  if (!existsSync(cached)) {
    log(`downloading ${name}`);
    pip([
      "download", "--quiet", "--no-deps", "--only-binary", ":all:", "--platform", "any",
      "--implementation", "py", "--abi", "none", "--dest", join(CACHE, "wheels"), `protobuf==${PROTOBUF}`,
    ]);
  }
  copyFileSync(cached, join(wheels, name));
}

function main() {
  if (!existsSync(PYODIDE)) throw new Error("no node_modules/pyodide: run npm ci first");
  rmSync(DIST, { recursive: true, force: true });
  const wheels = join(DIST, "wheels");
  mkdirSync(wheels, { recursive: true });
  mkdirSync(join(DIST, "pyodide"));
  for (const file of PYODIDE_FILES) copyFileSync(join(PYODIDE, file), join(DIST, "pyodide", file));
  for (const file of PAGE_FILES) copyFileSync(join(HERE, "src", file), join(DIST, file));
  copyFileSync(GRAMMAR, join(DIST, "pbtxt.tmLanguage.json"));
  tritonlintWheel(wheels);
  protobufWheel(wheels);
  const built = readdirSync(wheels).filter((name) => name.endsWith(".whl")).sort();
  writeFileSync(join(DIST, "wheels.json"), `${JSON.stringify(built, null, 2)}\n`);
  log(`dist/ ready: ${built.join(", ")}`);
}

main();
