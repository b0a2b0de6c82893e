/**
 * The bundled copy: where the extension finds it, how it is started, and (where
 * `npm run bundle` has built bundled/libs) that it runs with a Python that has no tritonlint.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { bundledCandidates, findBundle, importStrategy } from '../src/bundle';
import { probeVersion } from '../src/probe';
import { withArgs } from '../src/serverCommand';
import { projectVenvs, virtualEnvOf, virtualEnvPython } from '../src/venv';

const EXTENSION = resolve(__dirname, '..');
const BUILT = existsSync(join(EXTENSION, 'bundled', 'libs', 'tritonlint', '__init__.py'));
const variables = { userHome: '/home/ada', env: {} };

describe('findBundle', () => {
  it('finds the launcher inside the extension where bundled/libs has tritonlint', () => {
    const files = new Set(['/ext/bundled/libs/tritonlint/__init__.py']);
    const bundle = findBundle('/ext', { exists: (path) => files.has(path), platform: 'linux' });
    expect(bundle).toEqual({ launcher: '/ext/bundled/tool/launch.py' });
  });

  it('finds none in a build without bundled/libs', () => {
    expect(findBundle('/ext', { exists: () => false, platform: 'linux' })).toBeUndefined();
  });

  it('names a launcher that the repository has', () => {
    const bundle = findBundle(EXTENSION, { exists: () => true });
    expect(bundle && existsSync(bundle.launcher)).toBe(true);
  });
});

describe('the bundled command line', () => {
  const bundle = { launcher: '/ext/bundled/tool/launch.py' };

  it('runs the launcher isolated (-I), by its absolute path inside the extension', () => {
    const [first] = bundledCandidates({ path: '', interpreter: '' }, variables, bundle);
    expect(withArgs(first, 'lsp')).toEqual({ command: 'python3', args: ['-I', '/ext/bundled/tool/launch.py', 'lsp'] });
  });

  it('is not used when tritonlint.path names the program, nor without a bundle', () => {
    expect(bundledCandidates({ path: '/opt/tritonlint', interpreter: '' }, variables, bundle)).toEqual([]);
    expect(bundledCandidates({ path: '', interpreter: '' }, variables, undefined)).toEqual([]);
  });

  it('reads the strategy, fromEnvironment unless useBundled', () => {
    expect(importStrategy('useBundled')).toBe('useBundled');
    expect(importStrategy('fromEnvironment')).toBe('fromEnvironment');
    expect(importStrategy(undefined)).toBe('fromEnvironment');
    expect(importStrategy(42)).toBe('fromEnvironment');
  });
});

describe('virtual environments on Windows', () => {
  it('have their Python in Scripts\\python.exe', () => {
    const files = new Set([
      'C:\\src\\proj\\.git',
      'C:\\src\\proj\\.venv\\Scripts\\python.exe',
      'C:\\src\\proj\\.venv\\pyvenv.cfg',
    ]);
    const places = { exists: (path: string) => files.has(path), platform: 'win32' as const };
    expect(virtualEnvPython('C:\\src\\proj\\.venv', places)).toBe('C:\\src\\proj\\.venv\\Scripts\\python.exe');
    expect(projectVenvs('C:\\src\\proj\\models', places)).toEqual([
      { venv: 'C:\\src\\proj\\.venv', python: 'C:\\src\\proj\\.venv\\Scripts\\python.exe' },
    ]);
    expect(virtualEnvOf('C:\\src\\proj\\.venv\\Scripts\\python.exe', places)).toBe('C:\\src\\proj\\.venv');
  });
});

/** A Python 3.10 or newer without tritonlint: the system's, where it has none. */
function plainPython(): string | undefined {
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(python, ['-I', '-c', 'import sys; assert sys.version_info >= (3, 10); import tritonlint'], {
        stdio: 'ignore',
      });
    } catch (error) {
      // It runs, but has no tritonlint (or is too old: then it is not used).
      const status = (error as { status?: number }).status;
      if (status === 1 && isRecent(python)) {
        return python;
      }
    }
  }
  return undefined;
}

function isRecent(python: string): boolean {
  try {
    execFileSync(python, ['-I', '-c', 'import sys; assert sys.version_info >= (3, 10)'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const PLAIN_PYTHON = BUILT ? plainPython() : undefined;
const elsewhere = mkdtempSync(join(tmpdir(), 'tritonlint-bundled-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

describe.skipIf(!PLAIN_PYTHON)('the bundled copy, built', () => {
  it('says its version, run by a Python without tritonlint', async () => {
    const bundle = findBundle(EXTENSION, { exists: existsSync });
    const [candidate] = bundledCandidates({ path: '', interpreter: PLAIN_PYTHON }, variables, bundle);
    const result = await probeVersion(withArgs(candidate, '--version'), { cwd: elsewhere, timeoutMs: 30_000 });
    expect(result).toMatchObject({ kind: 'found' });
  });
});
