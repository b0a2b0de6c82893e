import { describe, expect, it } from 'vitest';

import { diagnosticCode, releaseItems, ruleCodeAt } from '../src/customRequests';

describe('ruleCodeAt', () => {
  const line = 'max_batch_size: -1  # tritonlint: disable=TL501,TL1002';

  it('finds the code the cursor is on, at its first and last character', () => {
    const start = line.indexOf('TL501');
    expect(ruleCodeAt(line, start)).toBe('TL501');
    expect(ruleCodeAt(line, start + 5)).toBe('TL501');
    expect(ruleCodeAt(line, line.indexOf('TL1002') + 2)).toBe('TL1002');
  });

  it('finds nothing elsewhere, nor in a longer word', () => {
    expect(ruleCodeAt(line, 3)).toBeUndefined();
    expect(ruleCodeAt('name: "XTL501"', 9)).toBeUndefined();
    expect(ruleCodeAt('TL50', 1)).toBeUndefined();
  });
});

describe('diagnosticCode', () => {
  it('reads a code as a string, a number or with its link', () => {
    expect(diagnosticCode('TL501')).toBe('TL501');
    expect(diagnosticCode({ value: 'TL101' })).toBe('TL101');
    expect(diagnosticCode(7)).toBe('7');
    expect(diagnosticCode(undefined)).toBeUndefined();
  });
});

describe('releaseItems', () => {
  const response = {
    releases: [
      { release: '2.73.0', container: null },
      { release: '2.51.0', container: '24.10' },
      { release: '2.46.0', container: '24.05' },
    ],
  };

  it('lists the project default, then each release newest first, by container where known', () => {
    const items = releaseItems(response, '');
    expect(items.map(({ label, description, value }) => ({ label, description, value }))).toEqual([
      { label: 'Project default', description: 'current', value: undefined },
      { label: '2.73.0', description: undefined, value: '2.73.0' },
      { label: '24.10', description: 'Triton 2.51.0', value: '2.51.0' },
      { label: '24.05', description: 'Triton 2.46.0', value: '2.46.0' },
    ]);
  });

  it('marks the current setting, given as a container or as a release', () => {
    expect(releaseItems(response, '24.05').map((item) => item.description)).toEqual([
      undefined,
      undefined,
      'Triton 2.51.0',
      'Triton 2.46.0 · current',
    ]);
    expect(releaseItems(response, '2.73.0')[1].description).toBe('current');
  });
});
