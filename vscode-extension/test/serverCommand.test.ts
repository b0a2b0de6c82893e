import { describe, expect, it } from 'vitest';

import { type Choices, candidates, commandLine, expandVariables, withArgs } from '../src/serverCommand';

const VARIABLES = { workspaceFolder: '/work/project', userHome: '/home/ada', env: { VENV: '/opt/venv' } };

function lines(choices: Choices): string[] {
  return candidates(choices, VARIABLES).map(
    (candidate) => `${candidate.origin}: ${commandLine(withArgs(candidate, 'lsp'))}`,
  );
}

describe('candidates', () => {
  it('tries the selected interpreter, then the PATH, when no setting names tritonlint', () => {
    expect(lines({ path: '', interpreter: '', selectedInterpreter: '/work/project/.venv/bin/python' })).toEqual([
      'selected-interpreter: /work/project/.venv/bin/python -I -m tritonlint lsp',
      'search-path: tritonlint lsp',
    ]);
  });

  it('tries the PATH alone without the Python extension', () => {
    expect(lines({ path: '', interpreter: '' })).toEqual(['search-path: tritonlint lsp']);
    expect(lines({ path: undefined, interpreter: undefined })).toEqual(['search-path: tritonlint lsp']);
  });

  it('takes tritonlint.path alone: an executable', () => {
    expect(
      lines({
        path: '/opt/tl/bin/tritonlint',
        interpreter: '/usr/bin/python3',
        selectedInterpreter: '/usr/bin/python3',
      }),
    ).toEqual(['path-setting: /opt/tl/bin/tritonlint lsp']);
  });

  it('takes tritonlint.path alone: a command as a list', () => {
    expect(lines({ path: ['uv', 'run', '--with', 'tritonlint', 'tritonlint'], interpreter: '' })).toEqual([
      'path-setting: uv run --with tritonlint tritonlint lsp',
    ]);
  });

  it('keeps a path with spaces as one program', () => {
    const [candidate] = candidates({ path: '/Users/ada/My Tools/tritonlint', interpreter: '' }, VARIABLES);
    expect(withArgs(candidate, '--version')).toEqual({
      command: '/Users/ada/My Tools/tritonlint',
      args: ['--version'],
    });
    expect(commandLine(withArgs(candidate, '--version'))).toBe("'/Users/ada/My Tools/tritonlint' --version");
  });

  it('takes tritonlint.interpreter alone when tritonlint.path is empty', () => {
    expect(lines({ path: [], interpreter: '/opt/venv/bin/python', selectedInterpreter: '/usr/bin/python3' })).toEqual([
      'interpreter-setting: /opt/venv/bin/python -I -m tritonlint lsp',
    ]);
  });

  it('passes over settings that are blank or of the wrong type', () => {
    expect(lines({ path: '   ', interpreter: 42, selectedInterpreter: '/usr/bin/python3' })).toEqual([
      'selected-interpreter: /usr/bin/python3 -I -m tritonlint lsp',
      'search-path: tritonlint lsp',
    ]);
    expect(lines({ path: [''], interpreter: '' })).toEqual(['search-path: tritonlint lsp']);
  });

  it('expands variables in both settings', () => {
    expect(lines({ path: ['${env:VENV}/bin/tritonlint'], interpreter: '' })).toEqual([
      'path-setting: /opt/venv/bin/tritonlint lsp',
    ]);
    expect(lines({ path: '', interpreter: '${workspaceFolder}/.venv/bin/python' })).toEqual([
      'interpreter-setting: /work/project/.venv/bin/python -I -m tritonlint lsp',
    ]);
  });
});

describe('expandVariables', () => {
  it('replaces the folder, the home folder, environment variables and a leading ~', () => {
    expect(expandVariables('${workspaceFolder}/.venv/bin/python', VARIABLES)).toBe('/work/project/.venv/bin/python');
    expect(expandVariables('${userHome}/bin/tritonlint', VARIABLES)).toBe('/home/ada/bin/tritonlint');
    expect(expandVariables('~/venv/bin/python', VARIABLES)).toBe('/home/ada/venv/bin/python');
    expect(expandVariables('~', VARIABLES)).toBe('/home/ada');
    expect(expandVariables('${env:VENV}/bin/python', VARIABLES)).toBe('/opt/venv/bin/python');
  });

  it('leaves what it cannot replace as written', () => {
    expect(expandVariables('${env:UNSET}/python', VARIABLES)).toBe('${env:UNSET}/python');
    expect(expandVariables('${workspaceFolder}/python', { userHome: '/home/ada', env: {} })).toBe(
      '${workspaceFolder}/python',
    );
    expect(expandVariables('${config:python.defaultInterpreterPath}', VARIABLES)).toBe(
      '${config:python.defaultInterpreterPath}',
    );
    expect(expandVariables('/opt/~x/python', VARIABLES)).toBe('/opt/~x/python');
    expect(expandVariables('~ada/python', VARIABLES)).toBe('~ada/python');
  });
});
