import { describe, expect, it } from 'vitest';

import { compareVersions, isAtLeast, parseVersion, versionFromOutput } from '../src/version';

function order(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) {
    throw new Error(`not versions: ${a}, ${b}`);
  }
  return Math.sign(compareVersions(left, right));
}

describe('versionFromOutput', () => {
  it('reads what tritonlint --version prints', () => {
    expect(versionFromOutput('tritonlint 0.1.0\n')).toBe('0.1.0');
    expect(versionFromOutput('tritonlint 1.2.0rc1')).toBe('1.2.0rc1');
  });

  it('finds the line among others (a warning printed before it)', () => {
    expect(versionFromOutput('some warning\ntritonlint 0.3.0.dev2+g1234\n')).toBe('0.3.0.dev2+g1234');
  });

  it('is undefined for another program or no version', () => {
    expect(versionFromOutput('Python 3.11.7')).toBeUndefined();
    expect(versionFromOutput('tritonlint unknown')).toBeUndefined();
    expect(versionFromOutput('')).toBeUndefined();
  });
});

describe('compareVersions', () => {
  it('compares the numbers of a release as numbers', () => {
    expect(order('0.10.0', '0.9.0')).toBe(1);
    expect(order('0.1', '0.1.0')).toBe(0);
    expect(order('1.0.0.0', '1')).toBe(0);
    expect(order('0.1.1', '0.1.0')).toBe(1);
    expect(order('0.1.0', '0.1.0.1')).toBe(-1);
  });

  it('puts development and pre-releases before their release, post-releases after', () => {
    const sorted = [
      '0.2.0.dev1',
      '0.2.0a1',
      '0.2.0b2',
      '0.2.0rc1.dev3',
      '0.2.0rc1',
      '0.2.0',
      '0.2.0.post1.dev1',
      '0.2.0.post1',
    ];
    for (let i = 0; i + 1 < sorted.length; i++) {
      expect(order(sorted[i], sorted[i + 1]), `${sorted[i]} < ${sorted[i + 1]}`).toBe(-1);
      expect(order(sorted[i + 1], sorted[i])).toBe(1);
    }
  });

  it('reads the spellings PEP 440 normalises alike', () => {
    expect(order('0.2.0-RC1', '0.2.0rc1')).toBe(0);
    expect(order('0.2.0c1', '0.2.0rc1')).toBe(0);
    expect(order('0.2.0alpha', '0.2.0a0')).toBe(0);
    expect(order('0.2.0-1', '0.2.0.post1')).toBe(0);
    expect(order('v0.2.0', '0.2.0')).toBe(0);
  });

  it('ignores a local version label', () => {
    expect(order('0.1.0+editable', '0.1.0')).toBe(0);
  });
});

describe('isAtLeast', () => {
  it('accepts the minimum and anything newer', () => {
    expect(isAtLeast('0.1.0', '0.1.0')).toBe(true);
    expect(isAtLeast('0.1.1', '0.1.0')).toBe(true);
    expect(isAtLeast('1.0.0', '0.9.9')).toBe(true);
  });

  it('refuses older versions, also the pre-releases of the minimum', () => {
    expect(isAtLeast('0.0.9', '0.1.0')).toBe(false);
    expect(isAtLeast('0.1.0rc1', '0.1.0')).toBe(false);
    expect(isAtLeast('0.1.0.dev5', '0.1.0')).toBe(false);
  });

  it('refuses what is not a version', () => {
    expect(isAtLeast('unknown', '0.1.0')).toBe(false);
    expect(parseVersion('1.0.0-beta.1.x')).toBeUndefined();
  });
});
