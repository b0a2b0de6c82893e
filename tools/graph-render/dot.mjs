// Lays out DOT texts (tritonlint graph --format dot) as SVG with Graphviz's own C code built to
// WebAssembly (@hpcc-js/wasm-graphviz: the `dot` layout engine), in Node: no browser, no
// Graphviz program. tests/graph/test_graphviz.py judges what it writes back.
//
//   node dot.mjs JOB.json RESULT.json
//
// JOB.json: {"dot": [{"name", "text"}]}
// RESULT.json: {"package": "@hpcc-js/wasm-graphviz 1.29.2", "graphviz": "<Graphviz's version>",
//   "results": [{"name", "svg"} or {"name", "error"}]}: a text Graphviz refuses has its error
//   (what Graphviz reported), never an SVG.
// Environment: MODULES the folder holding @hpcc-js/wasm-graphviz (npm ci of this folder's
// lock file).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [jobFile, resultFile] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(jobFile, 'utf8'));
const folder = path.join(process.env.MODULES, '@hpcc-js', 'wasm-graphviz');
const { version } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
const { Graphviz } = await import(pathToFileURL(path.join(folder, 'dist', 'index.js')).href);

let graphviz = await Graphviz.load();
const results = [];
for (const { name, text } of job.dot ?? []) {
  try {
    results.push({ name, svg: graphviz.layout(text, 'svg', 'dot') });
  } catch (error) {
    results.push({ name, error: String(error?.message ?? error) });
    // A failed layout unloads the module: load it again for the texts after this one.
    graphviz = await Graphviz.load();
  }
}
const result = { package: `@hpcc-js/wasm-graphviz ${version}`, graphviz: graphviz.version(), results };
fs.writeFileSync(resultFile, JSON.stringify(result, null, 1));
