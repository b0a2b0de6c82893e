/**
 * The tritonlint bundled with the extension: `bundled/libs` (scripts/bundle.py puts tritonlint
 * and its pure-Python dependencies there), run by a Python of the user's as
 * `python -I <extension>/bundled/tool/launch.py`. `-I` keeps the working folder, `PYTHONPATH`
 * and the user's site-packages off `sys.path`; the launcher puts `bundled/libs` first on it.
 */
import * as nodePath from 'node:path';

import {
  type Candidate,
  type Choices,
  type Origin,
  type Variables,
  hasPathSetting,
  settingInterpreter,
} from './serverCommand';
import type { Places } from './venv';

/** `tritonlint.importStrategy`: the project's own tritonlint first, or the bundled one alone. */
export type ImportStrategy = 'fromEnvironment' | 'useBundled';

export function importStrategy(value: unknown): ImportStrategy {
  return value === 'useBundled' ? 'useBundled' : 'fromEnvironment';
}

/** The bundled copy of an installed extension. */
export interface Bundle {
  /** The launcher script, an absolute path inside the extension's folder. */
  launcher: string;
}

/** The extension's bundled copy; undefined where it was built without one (`npm run build` alone). */
export function findBundle(extensionFolder: string, places: Places): Bundle | undefined {
  const path = (places.platform ?? process.platform) === 'win32' ? nodePath.win32 : nodePath.posix;
  const bundled = path.join(extensionFolder, 'bundled');
  return places.exists(path.join(bundled, 'libs', 'tritonlint', '__init__.py'))
    ? { launcher: path.join(bundled, 'tool', 'launch.py') }
    : undefined;
}

/**
 * The ways of running the bundled copy, in order: with `tritonlint.interpreter` alone where it
 * is set; else the Python extension's selected interpreter (in a trusted workspace), `python3`
 * and `python` on the PATH. None where `tritonlint.path` names the program, or without a bundle.
 */
export function bundledCandidates(choices: Choices, variables: Variables, bundle: Bundle | undefined): Candidate[] {
  if (!bundle || hasPathSetting(choices)) {
    return [];
  }
  const interpreter = settingInterpreter(choices, variables);
  const pythons: [Origin, string][] = interpreter
    ? [['interpreter-setting', interpreter]]
    : [
        ...(choices.selectedInterpreter && choices.trusted !== false
          ? [['selected-interpreter', choices.selectedInterpreter] as [Origin, string]]
          : []),
        ['search-path', 'python3'],
        ['search-path', 'python'],
      ];
  return pythons.map(([pythonOrigin, python]) => ({
    origin: 'bundled',
    program: { command: python, args: ['-I', bundle.launcher] },
    python,
    pythonOrigin,
  }));
}
