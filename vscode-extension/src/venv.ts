/**
 * The project's virtual environments: `.venv/` and `venv/` in the workspace folder, and in each
 * folder above it up to its git root (the folder holding `.git`), as a monorepo keeps one
 * environment at its top for the packages below.
 */
import * as nodePath from 'node:path';

/** What is asked of the file system (injected, so that tests need no real folders). */
export interface Places {
  /** Whether a file or folder exists at `path`. */
  exists(path: string): boolean;
  /** The operating system the paths are for (default: this one). */
  platform?: NodeJS.Platform;
}

/** The names of a project's virtual environment folder, in the order they are tried. */
export const VENV_NAMES = ['.venv', 'venv'] as const;

/** The Python of the virtual environment in `venv`. */
export function virtualEnvPython(venv: string, places: Places): string {
  const path = pathModule(places);
  return platform(places) === 'win32' ? path.join(venv, 'Scripts', 'python.exe') : path.join(venv, 'bin', 'python');
}

/**
 * The virtual environment that `python` (`<venv>/bin/python`) belongs to, known by its
 * `pyvenv.cfg`; undefined for any other Python (a system one may refuse `pip install`).
 */
export function virtualEnvOf(python: string, places: Places): string | undefined {
  const path = pathModule(places);
  const venv = path.dirname(path.dirname(python));
  return places.exists(path.join(venv, 'pyvenv.cfg')) ? venv : undefined;
}

/** The folders searched for a virtual environment: `folder`, then those above it up to its git root. */
export function searchedFolders(folder: string, places: Places): string[] {
  const path = pathModule(places);
  const folders: string[] = [];
  for (let current = folder; ; current = path.dirname(current)) {
    folders.push(current);
    if (places.exists(path.join(current, '.git'))) {
      return folders;
    }
    if (path.dirname(current) === current) {
      // No git root above: the workspace folder alone is the project.
      return [folder];
    }
  }
}

/** The virtual environments found for `folder`, nearest first, each with its Python. */
export function projectVenvs(folder: string, places: Places): { venv: string; python: string }[] {
  const path = pathModule(places);
  return searchedFolders(folder, places)
    .flatMap((searched) => VENV_NAMES.map((name) => path.join(searched, name)))
    .map((venv) => ({ venv, python: virtualEnvPython(venv, places) }))
    .filter(({ python }) => places.exists(python));
}

function platform(places: Places): NodeJS.Platform {
  return places.platform ?? process.platform;
}

function pathModule(places: Places): typeof nodePath.posix {
  return platform(places) === 'win32' ? nodePath.win32 : nodePath.posix;
}
