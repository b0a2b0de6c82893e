import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { SERVER_SETTINGS, serverSettings } from '../src/settings';

describe('serverSettings', () => {
  it("answers the server's settings and leaves out how the extension starts it", () => {
    const section = {
      path: '/opt/venv/bin/tritonlint',
      interpreter: '',
      tritonVersion: '24.05',
      select: ['TL1', 'TL2'],
      ignore: ['TL020'],
      run: 'onSave',
      allPbtxtFiles: false,
      trace: { server: 'off' },
    };
    expect(serverSettings(section)).toEqual({
      tritonVersion: '24.05',
      select: ['TL1', 'TL2'],
      ignore: ['TL020'],
      run: 'onSave',
    });
  });

  it('answers an empty object for a missing section', () => {
    expect(serverSettings(null)).toEqual({});
    expect(serverSettings(undefined)).toEqual({});
  });

  it('answers only settings that the extension declares', () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8'));
    const declared = Object.keys(manifest.contributes.configuration.properties);
    for (const key of SERVER_SETTINGS) {
      expect(declared).toContain(`tritonlint.${key}`);
    }
  });
});
