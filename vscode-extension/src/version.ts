/**
 * tritonlint's version, as `tritonlint --version` prints it, and whether it is recent enough.
 *
 * Versions are Python package versions (PEP 440): `0.1.0`, `0.2.0rc1`, `0.2.0.dev3`,
 * `0.1.0.post1`, `0.1.0+local`. A checkout installed with `pip install -e` reports the
 * version of its pyproject.toml.
 */

/** The oldest tritonlint whose language server this extension is written for. */
export const MINIMUM_SERVER_VERSION = '0.1.0';

export interface Version {
  /** The numbers of the release (`1.0.0` and `1` compare equal). */
  release: number[];
  /** A pre-release: its phase (0 alpha, 1 beta, 2 release candidate) and number. */
  pre?: [number, number];
  post?: number;
  dev?: number;
}

const PATTERN =
  /^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:[-_.]?(?:post|rev|r)[-_.]?(\d*)|-(\d+))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;

const PHASES: Record<string, number> = {
  a: 0,
  alpha: 0,
  b: 1,
  beta: 1,
  c: 2,
  rc: 2,
  pre: 2,
  preview: 2,
};

/** Reads a version; undefined where the text is not one. */
export function parseVersion(text: string): Version | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const [, release, phase, preNumber, postNumber, implicitPost, devNumber] = match;
  const version: Version = { release: release.split('.').map(Number) };
  if (phase !== undefined) {
    version.pre = [PHASES[phase.toLowerCase()], Number(preNumber || 0)];
  }
  const post = postNumber ?? implicitPost;
  if (post !== undefined) {
    version.post = Number(post || 0);
  }
  if (devNumber !== undefined) {
    version.dev = Number(devNumber || 0);
  }
  return version;
}

/** The version that `tritonlint --version` printed (`tritonlint 0.1.0`), if it printed one. */
export function versionFromOutput(output: string): string | undefined {
  const match = /^\s*tritonlint\s+(\S+)\s*$/m.exec(output);
  return match && parseVersion(match[1]) ? match[1] : undefined;
}

/** Negative, zero or positive as `a` comes before, equals or comes after `b` (PEP 440 order). */
export function compareVersions(a: Version, b: Version): number {
  const width = Math.max(a.release.length, b.release.length);
  const left = [...padded(a.release, width), ...qualifiers(a)];
  const right = [...padded(b.release, width), ...qualifiers(b)];
  for (let i = 0; i < left.length; i++) {
    if (left[i] !== right[i]) {
      return left[i] < right[i] ? -1 : 1;
    }
  }
  return 0;
}

/** Whether `found` is `minimum` or newer; false where either is not a version. */
export function isAtLeast(found: string, minimum: string): boolean {
  const have = parseVersion(found);
  const need = parseVersion(minimum);
  return have !== undefined && need !== undefined && compareVersions(have, need) >= 0;
}

function padded(release: number[], width: number): number[] {
  return [...release, ...Array<number>(width - release.length).fill(0)];
}

/** Numbers that sort the pre-, post- and development releases of one release. */
function qualifiers(version: Version): number[] {
  let pre: number[];
  if (version.pre) {
    pre = version.pre;
  } else if (version.post === undefined && version.dev !== undefined) {
    pre = [-Infinity, 0]; // 1.0.dev1 comes before 1.0a1
  } else {
    pre = [Infinity, 0];
  }
  return [...pre, version.post ?? -Infinity, version.dev ?? Infinity];
}
