import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { probeVersion } from '../src/probe';
import { MINIMUM_SERVER_VERSION, isAtLeast } from '../src/version';

// The repository holding this extension (set when the tests run from a copy of it).
const REPOSITORY = process.env.TRITONLINT_CHECKOUT ?? resolve(__dirname, '..', '..');
const scripts = mkdtempSync(join(tmpdir(), 'tritonlint-probe-'));
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

/** A program (node running a script) that behaves as `body` says. */
function fakeProgram(name: string, body: string) {
  const path = join(scripts, `${name}.js`);
  writeFileSync(path, body);
  return { command: process.execPath, args: [path, '--version'] };
}

const options = { timeoutMs: 10_000 };

describe('probeVersion', () => {
  it('reads the version of the tritonlint in this repository', async () => {
    // python -m runs the package found in the working folder; -S leaves site-packages out,
    // so this is the checkout's tritonlint, whatever else is installed.
    const result = await probeVersion(
      { command: 'python3', args: ['-S', '-m', 'tritonlint', '--version'] },
      { ...options, cwd: REPOSITORY },
    );
    expect(result.kind).toBe('found');
    expect(result.kind === 'found' && isAtLeast(result.version, MINIMUM_SERVER_VERSION)).toBe(true);
  });

  it('tells a Python without tritonlint', async () => {
    const result = await probeVersion(
      { command: 'python3', args: ['-I', '-S', '-m', 'tritonlint', '--version'] },
      { ...options, cwd: scripts },
    );
    expect(result).toEqual({ kind: 'missing', reason: 'no-module', detail: 'no module named tritonlint' });
  });

  it('tells a program that does not exist', async () => {
    const result = await probeVersion({ command: join(scripts, 'no-such-tritonlint'), args: ['--version'] }, options);
    expect(result).toEqual({ kind: 'missing', reason: 'no-program', detail: 'no such program' });
  });

  it('takes the version line among other output', async () => {
    const program = fakeProgram('chatty', 'console.log("a deprecation warning"); console.log("tritonlint 0.4.1");');
    expect(await probeVersion(program, options)).toEqual({ kind: 'found', version: '0.4.1' });
  });

  it('reports a program that fails, with its last words', async () => {
    const program = fakeProgram(
      'fails',
      'console.error("Traceback ..."); console.error("ImportError: cannot import name x"); process.exit(1);',
    );
    expect(await probeVersion(program, options)).toEqual({
      kind: 'failed',
      detail: 'it exited with status 1: ImportError: cannot import name x',
    });
  });

  it('tells a tritonlint script whose environment lost the package', async () => {
    const program = fakeProgram(
      'lost',
      'console.error("Traceback (most recent call last):"); console.error("ModuleNotFoundError: No module named \'tritonlint\'"); process.exit(1);',
    );
    expect(await probeVersion(program, options)).toEqual({
      kind: 'missing',
      reason: 'no-module',
      detail: 'no module named tritonlint',
    });
  });

  it('does not take a broken package for a missing one', async () => {
    const program = fakeProgram(
      'broken',
      'console.error("/usr/bin/python3: No module named tritonlint.__main__; \'tritonlint\' is a package and cannot be directly executed"); process.exit(1);',
    );
    expect(await probeVersion(program, options)).toMatchObject({ kind: 'failed' });
  });

  it('reports a program that is not tritonlint', async () => {
    const program = fakeProgram('other', 'console.log("ruff 0.5.0");');
    expect(await probeVersion(program, options)).toEqual({
      kind: 'failed',
      detail: 'it printed "ruff 0.5.0", not tritonlint\'s version',
    });
  });

  it('gives up on a program that does not answer', async () => {
    const program = fakeProgram('hangs', 'setTimeout(() => {}, 60000);');
    expect(await probeVersion(program, { timeoutMs: 300 })).toEqual({
      kind: 'failed',
      detail: 'it did not answer in 0.3 s',
    });
  });
});
