// Bundles the extension and vscode-languageclient into dist/extension.js, and the ensemble
// graph webview's script into dist/graphView.js.
// Usage: node scripts/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  logLevel: 'info',
};

// The ensemble graph webview's script: for the browser, with nothing to load at run time.
const webview = {
  ...options,
  entryPoints: ['src/webview/graph.ts'],
  outfile: 'dist/graphView.js',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  external: [],
};

if (watch) {
  for (const each of [options, webview]) {
    const context = await esbuild.context(each);
    await context.watch();
  }
} else {
  await Promise.all([esbuild.build(options), esbuild.build(webview)]);
}
