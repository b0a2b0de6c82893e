import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { plan } from '../src/resolve';
import { candidates, commandLine, withArgs } from '../src/serverCommand';
import { PROGRAM_SETTINGS, effectiveValue } from '../src/trust';

const manifest = JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8'));

describe('untrusted workspaces', () => {
  it('are supported in part, with every setting that names a program restricted', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    expect(untrusted.supported).toBe('limited');
    const restricted = PROGRAM_SETTINGS.map((key) => `tritonlint.${key}`);
    expect([...untrusted.restrictedConfigurations].sort()).toEqual([...restricted].sort());
    for (const key of restricted) {
      expect(untrusted.description).toContain(key);
    }
  });

  it('declares every restricted setting, and no other setting names a program', () => {
    const properties: Record<string, { markdownDescription?: string; description?: string }> =
      manifest.contributes.configuration.properties;
    for (const key of PROGRAM_SETTINGS) {
      expect(Object.keys(properties)).toContain(`tritonlint.${key}`);
    }
    const naming = Object.entries(properties)
      .filter(([, property]) =>
        /\b(program|executable|interpreter|command)\b/i.test(
          `${property.markdownDescription ?? ''} ${property.description ?? ''}`,
        ),
      )
      .map(([key]) => key)
      .filter((key) => !key.startsWith('tritonlint.trace'));
    expect(naming.sort()).toEqual(PROGRAM_SETTINGS.map((key) => `tritonlint.${key}`).sort());
  });
});

describe('effectiveValue', () => {
  const levels = {
    defaultValue: '',
    globalValue: '/home/ada/.local/bin/tritonlint',
    workspaceValue: './evil',
    workspaceFolderValue: './evil-too',
  };

  it('takes the most specific value in a trusted workspace', () => {
    expect(effectiveValue(levels, true)).toBe('./evil-too');
    expect(effectiveValue({ ...levels, workspaceFolderValue: undefined }, true)).toBe('./evil');
  });

  it("takes the user's value, never the workspace's, in an untrusted one", () => {
    expect(effectiveValue(levels, false)).toBe('/home/ada/.local/bin/tritonlint');
    expect(effectiveValue({ ...levels, globalValue: undefined }, false)).toBe('');
    expect(effectiveValue({ workspaceValue: ['sh', '-c', 'evil'] }, false)).toBeUndefined();
  });
});

describe('the selected interpreter', () => {
  const variables = { userHome: '/home/ada', env: {} };
  const choices = { path: '', interpreter: '', selectedInterpreter: '/work/project/.venv/bin/python' };

  it('is tried in a trusted workspace', () => {
    expect(candidates({ ...choices, trusted: true }, variables).map((c) => c.origin)).toEqual([
      'selected-interpreter',
      'search-path',
    ]);
  });

  it("is not tried in an untrusted one: it may be the workspace's own environment", () => {
    expect(candidates({ ...choices, trusted: false }, variables).map((c) => c.origin)).toEqual(['search-path']);
  });
});

describe("the workspace's own environments", () => {
  const project = '/work/project';
  const files = new Set([`${project}/.venv/bin/python`, `${project}/venv/bin/python`, '/opt/active/bin/python']);
  const places = { exists: (path: string) => files.has(path), platform: 'linux' as const };
  const variables = { workspaceFolder: project, userHome: '/home/ada', env: { VIRTUAL_ENV: '/opt/active' } };
  const bundle = { launcher: '/ext/bundled/tool/launch.py' };

  it('are tried in a trusted workspace', () => {
    expect(candidates({ path: '', interpreter: '', trusted: true }, variables, places).map((c) => c.origin)).toEqual([
      'virtual-env',
      'project-venv',
      'project-venv',
      'search-path',
    ]);
  });

  it('are not run in an untrusted one: the bundled copy runs with a Python of the PATH', () => {
    const untrusted = { path: '', interpreter: '', trusted: false, selectedInterpreter: `${project}/.venv/bin/python` };
    const { environment, bundled } = plan(untrusted, variables, places, bundle);
    const lines = [...environment, ...bundled].map((candidate) => commandLine(withArgs(candidate, 'lsp')));
    expect(lines).toEqual([
      'tritonlint lsp',
      'python3 -I /ext/bundled/tool/launch.py lsp',
      'python -I /ext/bundled/tool/launch.py lsp',
    ]);
    expect(lines.join('\n')).not.toContain(project);
  });
});
