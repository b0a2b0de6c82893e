/**
 * The extension never runs the workspace's code: with a hostile `tritonlint/` package and a
 * hostile `tritonlint` program in the workspace folder, the command lines the extension builds
 * start the installed tritonlint, and the workspace's never runs.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { bundledCandidates, findBundle } from '../src/bundle';
import { probeVersion } from '../src/probe';
import { type Candidate, type Choices, candidates, withArgs, workingFolder } from '../src/serverCommand';

/** A Python with tritonlint installed (tests/vscode/test_extension_unit.py sets it). */
const PYTHON = process.env.TRITONLINT_PYTHON;
const EXTENSION = resolve(__dirname, '..');
const HOSTILE_VERSION = '99.0.0';

const root = mkdtempSync(join(tmpdir(), 'tritonlint-hostile-'));
const workspace = join(root, 'workspace');
const marker = join(root, 'workspace-code-ran');
mkdirSync(join(workspace, 'tritonlint'), { recursive: true });
mkdirSync(join(workspace, 'bin'));
writeFileSync(join(workspace, 'tritonlint', '__init__.py'), `open(${JSON.stringify(marker)}, 'w').close()\n`);
writeFileSync(join(workspace, 'tritonlint', '__main__.py'), `print('tritonlint ${HOSTILE_VERSION}')\n`);
writeFileSync(
  join(workspace, 'bin', 'tritonlint'),
  `#!/bin/sh\ntouch '${marker}'\necho 'tritonlint ${HOSTILE_VERSION}'\n`,
);
chmodSync(join(workspace, 'bin', 'tritonlint'), 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => rmSync(marker, { force: true }));

const variables = { workspaceFolder: workspace, userHome: root, env: {} };
const options = { cwd: workingFolder(EXTENSION), timeoutMs: 30_000 };

function only(choices: Choices): Candidate {
  return candidates(choices, variables)[0];
}

/** Starts `tritonlint lsp` as the extension does and asks it to initialize; its answer. */
function initialize(candidate: Candidate, cwd: string): Promise<string> {
  const program = withArgs(candidate, 'lsp');
  const server = spawn(program.command, program.args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { processId: null, rootUri: null, capabilities: {} },
  });
  server.stdin.write(`Content-Length: ${Buffer.byteLength(request)}\r\n\r\n${request}`);
  return new Promise((done, fail) => {
    let answer = '';
    const timer = setTimeout(() => {
      server.kill();
      fail(new Error(`no answer to initialize: ${answer}`));
    }, 30_000);
    server.stdout.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.includes('"serverInfo"')) {
        clearTimeout(timer);
        server.kill();
        done(answer);
      }
    });
    server.on('error', fail);
  });
}

describe.skipIf(!PYTHON)('a workspace with its own tritonlint package and program', () => {
  it('runs in the extension folder, not the workspace', () => {
    expect(workingFolder(EXTENSION)).toBe(EXTENSION);
    expect(workingFolder(EXTENSION).startsWith(workspace)).toBe(false);
  });

  it.each([
    ['the extension folder', workingFolder(EXTENSION)],
    // -I alone keeps the package out, even where the working folder is the workspace.
    ['the workspace folder itself', workspace],
  ])('the interpreter setting probes the installed tritonlint, run in %s', async (_, cwd) => {
    const candidate = only({ path: '', interpreter: PYTHON });
    const result = await probeVersion(withArgs(candidate, '--version'), { ...options, cwd });
    expect(result.kind).toBe('found');
    expect(result.kind === 'found' && result.version).not.toBe(HOSTILE_VERSION);
    expect(existsSync(marker)).toBe(false);
  });

  it('the interpreter setting starts the installed language server', async () => {
    const answer = await initialize(only({ path: '', interpreter: PYTHON }), workingFolder(EXTENSION));
    expect(answer).toMatch(/"serverInfo":\s*\{\s*"name":\s*"tritonlint"/);
    expect(answer).not.toContain(HOSTILE_VERSION);
    expect(existsSync(marker)).toBe(false);
  });

  it('the selected interpreter is run isolated too', async () => {
    const candidate = only({ path: '', interpreter: '', selectedInterpreter: PYTHON });
    expect(candidate.origin).toBe('selected-interpreter');
    const result = await probeVersion(withArgs(candidate, '--version'), { ...options, cwd: workspace });
    expect(result.kind === 'found' && result.version).not.toBe(HOSTILE_VERSION);
    expect(existsSync(marker)).toBe(false);
  });

  it('tritonlint on a PATH with a relative folder is not the workspace program', async () => {
    const saved = process.env.PATH;
    // "bin" names the working folder's bin/: the workspace's, were the probe run there.
    process.env.PATH = ['bin', dirname(PYTHON ?? ''), saved].join(delimiter);
    try {
      const candidate = only({ path: '', interpreter: '' });
      expect(candidate.origin).toBe('search-path');
      const result = await probeVersion(withArgs(candidate, '--version'), options);
      expect(result.kind).toBe('found');
      expect(result.kind === 'found' && result.version).not.toBe(HOSTILE_VERSION);
      const server = await initialize(candidate, options.cwd);
      expect(server).toMatch(/"name":\s*"tritonlint"/);
    } finally {
      process.env.PATH = saved;
    }
    expect(existsSync(marker)).toBe(false);
  });
});

/** Where npm run bundle has built it, the extension's bundled copy. */
const BUNDLE = findBundle(EXTENSION, { exists: existsSync });

describe.skipIf(!PYTHON || !BUNDLE)('the bundled copy, in a workspace with its own tritonlint package', () => {
  it('is the one that runs, even from the workspace folder with the workspace on PYTHONPATH', async () => {
    const [candidate] = bundledCandidates({ path: '', interpreter: PYTHON }, variables, BUNDLE);
    expect(candidate.program.args).toEqual(['-I', join(EXTENSION, 'bundled', 'tool', 'launch.py')]);
    const saved = process.env.PYTHONPATH;
    process.env.PYTHONPATH = workspace;
    try {
      const result = await probeVersion(withArgs(candidate, '--version'), { ...options, cwd: workspace });
      expect(result.kind).toBe('found');
      expect(result.kind === 'found' && result.version).not.toBe(HOSTILE_VERSION);
      const server = await initialize(candidate, workspace);
      expect(server).toMatch(/"name":\s*"tritonlint"/);
    } finally {
      if (saved === undefined) {
        delete process.env.PYTHONPATH;
      } else {
        process.env.PYTHONPATH = saved;
      }
    }
    expect(existsSync(marker)).toBe(false);
  });
});
