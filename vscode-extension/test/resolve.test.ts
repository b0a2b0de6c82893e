import { describe, expect, it } from 'vitest';

import type { Probe, ProbeResult } from '../src/probe';
import { findServer } from '../src/resolve';
import { type Choices, candidates, commandLine } from '../src/serverCommand';

const VARIABLES = { userHome: '/home/ada', env: {} };
const VENV_PYTHON = '/work/project/.venv/bin/python';

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

function find(choices: Choices, probe: Probe, minimum = '0.1.0') {
  return findServer(candidates(choices, VARIABLES), probe, minimum);
}

const NO_MODULE: ProbeResult = { kind: 'missing', reason: 'no-module', detail: 'no module named tritonlint' };

describe('findServer', () => {
  it('takes the selected interpreter when it has tritonlint', async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.1.0' } });
    const found = await find({ path: '', interpreter: '', selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toMatchObject({ kind: 'ready', version: '0.1.0', candidate: { origin: 'selected-interpreter' } });
    expect(probe.asked).toEqual([`${VENV_PYTHON} -I -m tritonlint --version`]);
  });

  it('goes on to the PATH when the selected interpreter lacks tritonlint', async () => {
    const probe = fakeProbe({
      [`${VENV_PYTHON} -I -m tritonlint --version`]: NO_MODULE,
      'tritonlint --version': { kind: 'found', version: '0.2.0' },
    });
    const found = await find({ path: '', interpreter: '', selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toMatchObject({ kind: 'ready', version: '0.2.0', candidate: { origin: 'search-path' } });
    expect(probe.asked).toEqual([`${VENV_PYTHON} -I -m tritonlint --version`, 'tritonlint --version']);
  });

  it('says where it looked when tritonlint is nowhere', async () => {
    const probe = fakeProbe({ [`${VENV_PYTHON} -I -m tritonlint --version`]: NO_MODULE });
    const found = await find({ path: '', interpreter: '', selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        `tritonlint was not found: the selected Python interpreter (${VENV_PYTHON}) does not have it installed, ` +
        "and there is no tritonlint on the PATH. Install it in your project's Python environment " +
        `("${VENV_PYTHON} -m pip install tritonlint"), or set tritonlint.path or tritonlint.interpreter.`,
    });
  });

  it('without the Python extension, looks on the PATH alone', async () => {
    const found = await find({ path: '', interpreter: '' }, fakeProbe({}));
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        "tritonlint was not found: there is no tritonlint on the PATH. Install it in your project's Python " +
        'environment ("pip install tritonlint"), or set tritonlint.path or tritonlint.interpreter.',
    });
  });

  it('reports a wrong tritonlint.interpreter without trying elsewhere', async () => {
    const probe = fakeProbe({ 'tritonlint --version': { kind: 'found', version: '0.1.0' } });
    const found = await find({ path: '', interpreter: '/opt/py/bin/python3', selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint was not found: the Python of tritonlint.interpreter (/opt/py/bin/python3) does not exist. ' +
        'Install it ("/opt/py/bin/python3 -m pip install tritonlint") or correct the setting.',
    });
    expect(probe.asked).toEqual(['/opt/py/bin/python3 -I -m tritonlint --version']);
  });

  it('reports an interpreter of tritonlint.interpreter that lacks tritonlint', async () => {
    const probe = fakeProbe({ '/opt/py/bin/python3 -I -m tritonlint --version': NO_MODULE });
    const found = await find({ path: '', interpreter: '/opt/py/bin/python3' }, probe);
    expect(found).toMatchObject({
      problem: 'not-found',
      message: expect.stringContaining(
        'the Python of tritonlint.interpreter (/opt/py/bin/python3) does not have it installed',
      ),
    });
  });

  it('reports a wrong tritonlint.path without trying elsewhere', async () => {
    const probe = fakeProbe({ 'tritonlint --version': { kind: 'found', version: '0.1.0' } });
    const found = await find({ path: '/nowhere/tritonlint', interpreter: '' }, probe);
    expect(found).toEqual({
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint was not found: the program of tritonlint.path (/nowhere/tritonlint) does not exist. ' +
        'Install it ("pip install tritonlint") or correct the setting.',
    });
    expect(probe.asked).toEqual(['/nowhere/tritonlint --version']);
  });

  it('refuses a tritonlint older than the minimum, saying how to upgrade it', async () => {
    const probe = fakeProbe({
      [`${VENV_PYTHON} -I -m tritonlint --version`]: { kind: 'found', version: '0.0.9' },
      'tritonlint --version': { kind: 'found', version: '0.1.0' },
    });
    const found = await find({ path: '', interpreter: '', selectedInterpreter: VENV_PYTHON }, probe);
    expect(found).toEqual({
      kind: 'problem',
      problem: 'too-old',
      message:
        `tritonlint 0.0.9 (the selected Python interpreter: ${VENV_PYTHON}) is older than 0.1.0, the oldest ` +
        `this extension works with. Upgrade it: "${VENV_PYTHON} -m pip install --upgrade tritonlint".`,
    });
    expect(probe.asked).toHaveLength(1);
  });

  it('reports a tritonlint that fails to say its version', async () => {
    const probe = fakeProbe({
      'uv run tritonlint --version': { kind: 'failed', detail: 'it exited with status 2: error: no pyproject.toml' },
    });
    const found = await find({ path: ['uv', 'run', 'tritonlint'], interpreter: '' }, probe);
    expect(found).toEqual({
      kind: 'problem',
      problem: 'broken',
      message:
        'tritonlint could not be started (tritonlint.path: uv run tritonlint): "uv run tritonlint --version" ' +
        'failed, it exited with status 2: error: no pyproject.toml. The output channel "tritonlint" may say more.',
    });
  });
});
