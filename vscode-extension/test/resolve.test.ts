import { describe, expect, it } from 'vitest';

import type { Bundle } from '../src/bundle';
import type { Probe, ProbeResult } from '../src/probe';
import { type Resolution, findServer, plan } from '../src/resolve';
import { type Choices, commandLine, withArgs } from '../src/serverCommand';
import { serverInfo } from '../src/serverInfo';
import type { Places } from '../src/venv';

const PROJECT = '/work/project';
const VENV_PYTHON = `${PROJECT}/.venv/bin/python`;
const LAUNCHER = '/home/ada/.vscode/extensions/tritonlint.tritonlint-0.1.0/bundled/tool/launch.py';
const BUNDLE: Bundle = { launcher: LAUNCHER };
const NO_MODULE: ProbeResult = { kind: 'missing', reason: 'no-module', detail: 'no module named tritonlint' };
const OLD_PYTHON: ProbeResult = {
  kind: 'failed',
  detail: 'it exited with status 3: tritonlint needs Python 3.10 or newer, not 3.8 (/usr/bin/python3)',
};

/** A file system holding `files` (and the folders above them). */
function fakePlaces(files: string[]): Places {
  const existing = new Set(files);
  for (const file of files) {
    for (let folder = file; folder !== '/';) {
      folder = folder.slice(0, folder.lastIndexOf('/')) || '/';
      existing.add(folder);
    }
  }
  return { exists: (path) => existing.has(path), platform: 'linux' };
}

/** A probe that answers from a table of command lines and records what it was asked. */
function fakeProbe(answers: Record<string, ProbeResult>): Probe & { asked: string[] } {
  const asked: string[] = [];
  const probe = async (program: { command: string; args: string[] }) => {
    const line = commandLine(program);
    asked.push(line);
    return answers[line] ?? { kind: 'missing', reason: 'no-program', detail: 'no such program' };
  };
  return Object.assign(probe, { asked });
}

interface Setup {
  files?: string[];
  env?: Record<string, string>;
  bundle?: Bundle;
  workspaceFolder?: string;
}

function planFor(choices: Choices, setup: Setup = {}) {
  const variables = { workspaceFolder: setup.workspaceFolder ?? PROJECT, userHome: '/home/ada', env: setup.env ?? {} };
  return plan(choices, variables, fakePlaces(setup.files ?? []), setup.bundle);
}

function find(choices: Choices, probe: Probe, setup: Setup = {}, minimum = '0.1.0'): Promise<Resolution> {
  return findServer(planFor(choices, setup), probe, minimum);
}

/** The `--version` command lines tried, in order. */
function order(choices: Choices, setup: Setup = {}): string[] {
  const { environment, bundled } = planFor(choices, setup);
  return [...environment, ...bundled].map((candidate) => commandLine(withArgs(candidate, '--version')));
}

const NOTHING: Choices = { path: '', interpreter: '' };
const PIP_OUTSIDE_A_VENV = /(^|[\s"(])pip3? install|-m pip install/;

describe('the discovery order', () => {
  it('tries every place of the environment, then the bundled copy with each Python on the PATH', () => {
    const setup = {
      files: [VENV_PYTHON, `${PROJECT}/venv/bin/python`, '/opt/active/bin/python'],
      env: { VIRTUAL_ENV: '/opt/active' },
      bundle: BUNDLE,
    };
    expect(order({ ...NOTHING, selectedInterpreter: '/usr/local/bin/python3.12' }, setup)).toEqual([
      '/usr/local/bin/python3.12 -I -m tritonlint --version',
      '/opt/active/bin/python -I -m tritonlint --version',
      `${VENV_PYTHON} -I -m tritonlint --version`,
      `${PROJECT}/venv/bin/python -I -m tritonlint --version`,
      'tritonlint --version',
      `/usr/local/bin/python3.12 -I ${LAUNCHER} --version`,
      `python3 -I ${LAUNCHER} --version`,
      `python -I ${LAUNCHER} --version`,
    ]);
  });

  it('looks for a venv in the folders above the workspace folder, up to its git root', () => {
    const setup = {
      workspaceFolder: '/repo/packages/models',
      files: ['/repo/.git/HEAD', '/repo/.venv/bin/python', '/.venv/bin/python', '/repo/packages/venv/bin/python'],
    };
    expect(order(NOTHING, setup)).toEqual([
      '/repo/packages/venv/bin/python -I -m tritonlint --version',
      '/repo/.venv/bin/python -I -m tritonlint --version',
      'tritonlint --version',
    ]);
  });

  it('looks in the workspace folder alone where it is in no git repository', () => {
    const setup = {
      workspaceFolder: '/data/models',
      files: ['/data/.venv/bin/python', '/data/models/.venv/bin/python'],
    };
    expect(order(NOTHING, setup)).toEqual([
      '/data/models/.venv/bin/python -I -m tritonlint --version',
      'tritonlint --version',
    ]);
  });

  it("tries the selected interpreter once when it is the project's .venv", () => {
    expect(order({ ...NOTHING, selectedInterpreter: VENV_PYTHON }, { files: [VENV_PYTHON] })).toEqual([
      `${VENV_PYTHON} -I -m tritonlint --version`,
      'tritonlint --version',
    ]);
  });

  it("does not run the workspace's environments in an untrusted workspace: the bundled copy with a PATH Python", () => {
    const setup = { files: [VENV_PYTHON], env: { VIRTUAL_ENV: `${PROJECT}/.venv` }, bundle: BUNDLE };
    expect(order({ ...NOTHING, selectedInterpreter: VENV_PYTHON, trusted: false }, setup)).toEqual([
      'tritonlint --version',
      `python3 -I ${LAUNCHER} --version`,
      `python -I ${LAUNCHER} --version`,
    ]);
  });

  it('with useBundled, runs the bundled copy alone', () => {
    const setup = { files: [VENV_PYTHON], bundle: BUNDLE };
    expect(order({ ...NOTHING, importStrategy: 'useBundled' }, setup)).toEqual([
      `python3 -I ${LAUNCHER} --version`,
      `python -I ${LAUNCHER} --version`,
    ]);
    expect(order({ ...NOTHING, interpreter: '/opt/py/bin/python3', importStrategy: 'useBundled' }, setup)).toEqual([
      `/opt/py/bin/python3 -I ${LAUNCHER} --version`,
    ]);
  });

  it('runs tritonlint.path alone, whatever the strategy', () => {
    const choices = { path: '/opt/tl/bin/tritonlint', interpreter: '', importStrategy: 'useBundled' };
    expect(order(choices, { bundle: BUNDLE, files: [VENV_PYTHON] })).toEqual(['/opt/tl/bin/tritonlint --version']);
  });

  it('tries tritonlint.interpreter for its own tritonlint, then to run the bundled copy', () => {
    expect(order({ ...NOTHING, interpreter: '/opt/py/bin/python3' }, { bundle: BUNDLE, files: [VENV_PYTHON] })).toEqual(
      ['/opt/py/bin/python3 -I -m tritonlint --version', `/opt/py/bin/python3 -I ${LAUNCHER} --version`],
    );
  });
});

describe('findServer', () => {
  it("takes the project's .venv when it has tritonlint", async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.2.0' } });
    const found = await find(NOTHING, probe, { files: [VENV_PYTHON, `${PROJECT}/.venv/pyvenv.cfg`], bundle: BUNDLE });
    expect(found).toMatchObject({ kind: 'ready', version: '0.2.0', candidate: { origin: 'project-venv' } });
    expect(found.kind === 'ready' && serverInfo(found)).toEqual({
      version: '0.2.0',
      source: 'project venv',
      detail: `the virtual environment ${PROJECT}/.venv`,
      command: `${VENV_PYTHON} -I -m tritonlint lsp`,
    });
    expect(probe.asked).toEqual([`${VENV_PYTHON} -I -m tritonlint --version`]);
  });

  it('takes the selected interpreter when it has tritonlint', async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.1.0' } });
    const found = await find({ ...NOTHING, selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toMatchObject({ kind: 'ready', version: '0.1.0', candidate: { origin: 'selected-interpreter' } });
    expect(found.kind === 'ready' && serverInfo(found).source).toBe('python extension');
  });

  it('goes on to the PATH when the selected interpreter lacks tritonlint', async () => {
    const probe = fakeProbe({
      [`${VENV_PYTHON} -I -m tritonlint --version`]: NO_MODULE,
      'tritonlint --version': { kind: 'found', version: '0.2.0' },
    });
    const found = await find({ ...NOTHING, selectedInterpreter: VENV_PYTHON }, probe, { bundle: BUNDLE });
    expect(found).toMatchObject({ kind: 'ready', version: '0.2.0', candidate: { origin: 'search-path' } });
    expect(found.kind === 'ready' && serverInfo(found)).toMatchObject({ source: 'path', detail: 'on the PATH' });
  });

  it('runs the bundled copy with python3 from the PATH where the environment has no tritonlint', async () => {
    const probe = fakeProbe({ [`python3 -I ${LAUNCHER} --version`]: { kind: 'found', version: '0.1.0' } });
    const found = await find(NOTHING, probe, { bundle: BUNDLE });
    expect(found.kind).toBe('ready');
    expect(found.kind === 'ready' && serverInfo(found)).toEqual({
      version: '0.1.0',
      source: 'bundled',
      detail: "the bundled copy, run with python3: the project's environment has no tritonlint",
      command: `python3 -I ${LAUNCHER} lsp`,
    });
    expect(probe.asked).toEqual(['tritonlint --version', `python3 -I ${LAUNCHER} --version`]);
  });

  it('passes over a Python too old for tritonlint', async () => {
    const probe = fakeProbe({
      [`python3 -I ${LAUNCHER} --version`]: OLD_PYTHON,
      [`python -I ${LAUNCHER} --version`]: { kind: 'found', version: '0.1.0' },
    });
    const found = await find(NOTHING, probe, { bundle: BUNDLE });
    expect(found.kind === 'ready' && withArgs(found.candidate, 'lsp')).toEqual({
      command: 'python',
      args: ['-I', LAUNCHER, 'lsp'],
    });
  });

  it("runs the bundled copy where the project's tritonlint is too old, and says so", async () => {
    const probe = fakeProbe({
      [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.0.9' },
      [`python3 -I ${LAUNCHER} --version`]: { kind: 'found', version: '0.1.0' },
    });
    const found = await find(NOTHING, probe, { files: [VENV_PYTHON], bundle: BUNDLE });
    expect(found.kind === 'ready' && serverInfo(found).detail).toBe(
      `the bundled copy, run with python3: tritonlint 0.0.9 (the virtual environment ${PROJECT}/.venv) is older than 0.1.0`,
    );
  });

  it('says useBundled is why the bundled copy runs', async () => {
    const probe = fakeProbe({ [`python3 -I ${LAUNCHER} --version`]: { kind: 'found', version: '0.1.0' } });
    const found = await find({ ...NOTHING, importStrategy: 'useBundled' }, probe, { bundle: BUNDLE });
    expect(found.kind === 'ready' && serverInfo(found).detail).toBe(
      'the bundled copy, run with python3: tritonlint.importStrategy is useBundled',
    );
  });

  it('runs the bundled copy with tritonlint.interpreter where that Python lacks tritonlint', async () => {
    const probe = fakeProbe({
      '/opt/py/bin/python3 -I -m tritonlint --version': NO_MODULE,
      [`/opt/py/bin/python3 -I ${LAUNCHER} --version`]: { kind: 'found', version: '0.1.0' },
    });
    const found = await find({ ...NOTHING, interpreter: '/opt/py/bin/python3' }, probe, { bundle: BUNDLE });
    expect(found.kind === 'ready' && serverInfo(found)).toMatchObject({
      source: 'bundled',
      command: `/opt/py/bin/python3 -I ${LAUNCHER} lsp`,
    });
  });

  it('says how to get a Python where none runs the bundled copy', async () => {
    const probe = fakeProbe({ [`python3 -I ${LAUNCHER} --version`]: OLD_PYTHON });
    const found = await find(NOTHING, probe, { bundle: BUNDLE });
    expect(found).toEqual({
      kind: 'problem',
      problem: 'no-python',
      message:
        'tritonlint could not be started: it needs Python 3.10 or newer, to run its own or the copy bundled with ' +
        'the extension, and none was found: there is no tritonlint on the PATH, python3 on the PATH is too old ' +
        '(tritonlint needs Python 3.10 or newer, not 3.8), python on the PATH does not exist. Install Python 3.10 ' +
        'or newer (https://www.python.org/downloads/) and run "tritonlint: Restart Server", or install tritonlint ' +
        'with pipx ("pipx install tritonlint") or in a virtual environment of the project ' +
        '("python3 -m venv .venv && .venv/bin/pip install tritonlint").',
    });
  });

  it('reports a bundled copy that fails for another reason than the Python', async () => {
    const probe = fakeProbe({
      [`python3 -I ${LAUNCHER} --version`]: { kind: 'failed', detail: 'it exited with status 1: ImportError: x' },
    });
    const found = await find(NOTHING, probe, { bundle: BUNDLE });
    expect(found).toMatchObject({
      problem: 'broken',
      message: expect.stringContaining(`"python3 -I ${LAUNCHER} --version" failed, it exited with status 1`),
    });
  });

  it('without a bundle, says where it looked and how to install tritonlint in the venv found', async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: NO_MODULE });
    const found = await find(NOTHING, probe, { files: [VENV_PYTHON] });
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        `tritonlint was not found: the Python of ${PROJECT}/.venv (${VENV_PYTHON}) does not have it installed, ` +
        `and there is no tritonlint on the PATH. Install it in ${PROJECT}/.venv ` +
        `("${VENV_PYTHON} -m pip install tritonlint"), or set tritonlint.path or tritonlint.interpreter.`,
    });
  });

  it('without a bundle or a venv, advises pipx or a new venv, never pip on the system Python', async () => {
    const found = await find(
      { ...NOTHING, selectedInterpreter: '/usr/bin/python3' },
      fakeProbe({
        '/usr/bin/python3 -I -m tritonlint --version': NO_MODULE,
      }),
    );
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint was not found: the selected Python interpreter (/usr/bin/python3) does not have it installed, ' +
        'and there is no tritonlint on the PATH. Install it with pipx ("pipx install tritonlint") or in a virtual ' +
        'environment of the project ("python3 -m venv .venv && .venv/bin/pip install tritonlint"), or set ' +
        'tritonlint.path or tritonlint.interpreter.',
    });
  });

  it('says a useBundled without a bundle cannot run', async () => {
    const found = await find({ ...NOTHING, importStrategy: 'useBundled' }, fakeProbe({}));
    expect(found).toMatchObject({
      problem: 'not-found',
      message: expect.stringContaining('has no bundled tritonlint'),
    });
  });

  it('reports a wrong tritonlint.interpreter without trying elsewhere', async () => {
    const probe = fakeProbe({ 'tritonlint --version': { kind: 'found', version: '0.1.0' } });
    const found = await find(
      { ...NOTHING, interpreter: '/opt/py/bin/python3', selectedInterpreter: VENV_PYTHON },
      probe,
    );
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint was not found: the Python of tritonlint.interpreter (/opt/py/bin/python3) does not exist. ' +
        'Correct the setting.',
    });
    expect(probe.asked).toEqual(['/opt/py/bin/python3 -I -m tritonlint --version']);
  });

  it('with a bundle, says a tritonlint.interpreter that does not exist needs correcting', async () => {
    const probe = fakeProbe({});
    const found = await find({ ...NOTHING, interpreter: '/opt/py/bin/python3' }, probe, { bundle: BUNDLE });
    expect(found).toMatchObject({
      problem: 'no-python',
      message: expect.stringMatching(
        /none was found: the Python of tritonlint.interpreter \(\/opt\/py\/bin\/python3\) does not exist\. Set tritonlint.interpreter to a Python 3.10 or newer\.$/,
      ),
    });
  });

  it('reports a wrong tritonlint.path without trying elsewhere, bundled copy or not', async () => {
    const probe = fakeProbe({ 'tritonlint --version': { kind: 'found', version: '0.1.0' } });
    const found = await find({ path: '/nowhere/tritonlint', interpreter: '' }, probe, { bundle: BUNDLE });
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint was not found: the program of tritonlint.path (/nowhere/tritonlint) does not exist. Correct the setting.',
    });
    expect(probe.asked).toEqual(['/nowhere/tritonlint --version']);
  });

  it('goes on past a tritonlint older than the minimum, to a recent one', async () => {
    const probe = fakeProbe({
      [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.0.9' },
      'tritonlint --version': { kind: 'found', version: '0.1.0' },
    });
    const found = await find({ ...NOTHING, selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toMatchObject({ kind: 'ready', version: '0.1.0', candidate: { origin: 'search-path' } });
  });

  it('without a bundle, refuses a tritonlint older than the minimum, saying how to upgrade it in its venv', async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.0.9' } });
    const found = await find({ ...NOTHING, selectedInterpreter: VENV_PYTHON }, probe, {
      files: [VENV_PYTHON, `${PROJECT}/.venv/pyvenv.cfg`],
    });
    expect(found).toEqual({
      kind: 'problem',
      problem: 'too-old',
      message:
        `tritonlint 0.0.9 (the selected Python interpreter: ${VENV_PYTHON}) is older than 0.1.0, the oldest ` +
        `this extension works with. Upgrade it: "${VENV_PYTHON} -m pip install --upgrade tritonlint".`,
    });
  });

  it('reports a tritonlint that fails to say its version', async () => {
    const probe = fakeProbe({
      'uv run tritonlint --version': { kind: 'failed', detail: 'it exited with status 2: error: no pyproject.toml' },
    });
    const found = await find({ path: ['uv', 'run', 'tritonlint'], interpreter: '' }, probe, { bundle: BUNDLE });
    expect(found).toEqual({
      kind: 'problem',
      problem: 'broken',
      message:
        'tritonlint could not be started (tritonlint.path: uv run tritonlint): "uv run tritonlint --version" ' +
        'failed, it exited with status 2: error: no pyproject.toml. The output channel "tritonlint" may say more.',
    });
  });
});

describe('the advice', () => {
  it('never names pip outside a virtual environment', async () => {
    const cases: [Choices, Record<string, ProbeResult>, Setup][] = [
      [NOTHING, {}, {}],
      [NOTHING, {}, { bundle: BUNDLE }],
      [
        { ...NOTHING, selectedInterpreter: '/usr/bin/python3' },
        { '/usr/bin/python3 -I -m tritonlint --version': NO_MODULE },
        {},
      ],
      [
        { ...NOTHING, interpreter: '/usr/bin/python3' },
        { '/usr/bin/python3 -I -m tritonlint --version': NO_MODULE },
        {},
      ],
      [NOTHING, { 'tritonlint --version': { kind: 'found', version: '0.0.1' } }, {}],
      [{ path: '/usr/local/bin/tritonlint', interpreter: '' }, {}, {}],
    ];
    for (const [choices, answers, setup] of cases) {
      const found = await find(choices, fakeProbe(answers), setup);
      expect(found.kind).toBe('problem');
      expect(found.kind === 'problem' && found.message).not.toMatch(PIP_OUTSIDE_A_VENV);
    }
  });
});
