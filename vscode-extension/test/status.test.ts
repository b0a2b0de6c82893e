import { describe, expect, it } from 'vitest';

import type { ServerInfo } from '../src/serverInfo';
import { present } from '../src/status';

const VENV: ServerInfo = {
  version: '0.3.0',
  source: 'project venv',
  detail: '/repo/.venv/bin/python',
  command: '/repo/.venv/bin/python -I -m tritonlint lsp',
};

describe('present', () => {
  it('says the server is starting, busy', () => {
    const shown = present({ state: { kind: 'starting' }, server: VENV });
    expect(shown).toMatchObject({
      text: 'tritonlint 0.3.0',
      detail: 'starting',
      statusBarText: '$(sync~spin) tritonlint 0.3.0',
      severity: 'information',
      busy: true,
    });
  });

  it('says starting without a version before one is found', () => {
    const shown = present({ state: { kind: 'starting' } });
    expect(shown.text).toBe('tritonlint');
    expect(shown.statusBarText).toBe('$(sync~spin) tritonlint');
    expect(shown.tooltip).toBe('tritonlint: starting');
  });

  it('when ready, says the version, its origin and the Triton release with its container', () => {
    const shown = present({
      state: { kind: 'ready' },
      server: VENV,
      target: { release: '2.46.0', container: '24.05', fromSetting: true },
    });
    expect(shown).toMatchObject({
      text: 'tritonlint 0.3.0',
      detail: "Triton 2.46.0 (24.05), the project's environment",
      statusBarText: '$(check) tritonlint 0.3.0 · Triton 2.46.0 (24.05)',
      severity: 'information',
      busy: false,
    });
    expect(shown.tooltip).toBe(
      "tritonlint 0.3.0: ready\nfrom the project's environment (/repo/.venv/bin/python)\n" +
        'Checks against Triton 2.46.0 (24.05) (tritonlint.tritonVersion).',
    );
  });

  it('when ready, names a release without a known container alone, and each origin', () => {
    const shown = present({
      state: { kind: 'ready' },
      server: { ...VENV, source: 'bundled', detail: 'bundled/tritonlint' },
      target: { release: '2.73.0', container: null, fromSetting: false },
    });
    expect(shown.detail).toBe('Triton 2.73.0, bundled with the extension');
    expect(shown.statusBarText).toBe('$(check) tritonlint 0.3.0 · Triton 2.73.0');
    expect(shown.tooltip).toBe(
      'tritonlint 0.3.0: ready\nbundled with the extension (bundled/tritonlint)\n' +
        'Checks against Triton 2.73.0 (project settings or default).',
    );
    for (const [source, label] of [
      ['path', 'the PATH'],
      ['setting', 'tritonlint.path'],
      ['interpreter', 'tritonlint.interpreter'],
      ['python extension', "the Python extension's interpreter"],
    ] as const) {
      expect(present({ state: { kind: 'ready' }, server: { ...VENV, source } }).detail).toBe(label);
    }
  });

  it('shows an error with its reason, as an error', () => {
    const shown = present({ state: { kind: 'error', reason: 'tritonlint was not found' } });
    expect(shown).toMatchObject({
      text: 'tritonlint',
      detail: 'error: tritonlint was not found',
      statusBarText: '$(error) tritonlint',
      severity: 'error',
      busy: false,
    });
    expect(shown.tooltip).toBe('tritonlint: tritonlint was not found\nClick to show the output.');
  });
});
