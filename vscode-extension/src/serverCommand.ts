/**
 * Where tritonlint may be, in the order the extension tries: the `tritonlint.path` setting,
 * the `tritonlint.interpreter` setting, the Python extension's selected interpreter,
 * `$VIRTUAL_ENV`, a `.venv/` or `venv/` of the workspace folder (or of a folder above it, up to
 * its git root), `tritonlint` on the `PATH`. A setting the user wrote is the only place tried:
 * a wrong one is reported, not passed over for another tritonlint. Where none has tritonlint,
 * the extension runs its bundled copy (bundle.ts).
 *
 * Nothing of the workspace is run unless the user chose it: a Python runs tritonlint as
 * `python -I -m tritonlint` (isolated: never a `tritonlint/` package of the working folder),
 * every process starts in {@link workingFolder}, never in a workspace folder, and in an
 * untrusted workspace its environments (the selected interpreter, `$VIRTUAL_ENV`, `.venv/`)
 * are not tried: they are the workspace's programs.
 */
import { type Places, projectVenvs, virtualEnvPython, virtualEnvOf } from './venv';

/** A program and its arguments. */
export interface ProgramCommand {
  command: string;
  args: string[];
}

export type Origin =
  | 'path-setting'
  | 'interpreter-setting'
  | 'selected-interpreter'
  | 'virtual-env'
  | 'project-venv'
  | 'search-path'
  | 'bundled';

/** One way of running tritonlint; the subcommand (`lsp`, `--version`) is added to it. */
export interface Candidate {
  origin: Origin;
  program: ProgramCommand;
  /** Set where tritonlint is run by a Python (`python -m tritonlint`, the bundled copy): that Python. */
  python?: string;
  /** The virtual environment that {@link python} belongs to, where it is one's. */
  venv?: string;
  /** The bundled copy only: where its Python was found. */
  pythonOrigin?: Origin;
}

/** What the extension knows when it looks for tritonlint. */
export interface Choices {
  /** `tritonlint.path` as read from the settings: a path, a command as a list, or empty. */
  path: unknown;
  /** `tritonlint.interpreter` as read from the settings. */
  interpreter: unknown;
  /** The Python extension's selected interpreter, where that extension is installed. */
  selectedInterpreter?: string;
  /**
   * Whether the workspace is trusted (default: yes). In an untrusted workspace the selected
   * interpreter is not tried: the Python extension may have picked the workspace's own
   * environment (`.venv/bin/python`), a program the workspace chose.
   */
  trusted?: boolean;
  /** `tritonlint.importStrategy` as read from the settings. */
  importStrategy?: unknown;
}

/** What `${...}` in a setting stands for. */
export interface Variables {
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
}

/**
 * The places to try, in order. `places` looks for the project's virtual environments; without
 * it none is found (nor is a Python known to be a virtual environment's).
 */
export function candidates(choices: Choices, variables: Variables, places?: Places): Candidate[] {
  const path = programSetting(choices.path).map((part) => expandVariables(part, variables));
  if (path.length > 0) {
    const [command, ...args] = path;
    return [{ origin: 'path-setting', program: { command, args } }];
  }
  const interpreter = settingInterpreter(choices, variables);
  if (interpreter) {
    return [pythonCandidate('interpreter-setting', interpreter, places)];
  }
  const found: Candidate[] = [];
  if (choices.trusted !== false) {
    if (choices.selectedInterpreter) {
      found.push(pythonCandidate('selected-interpreter', choices.selectedInterpreter, places));
    }
    const active = variables.env.VIRTUAL_ENV;
    if (active && places) {
      const python = virtualEnvPython(active, places);
      if (places.exists(python)) {
        found.push({ ...pythonCandidate('virtual-env', python), venv: active });
      }
    }
    if (variables.workspaceFolder && places) {
      for (const { venv, python } of projectVenvs(variables.workspaceFolder, places)) {
        found.push({ ...pythonCandidate('project-venv', python), venv });
      }
    }
  }
  found.push({ origin: 'search-path', program: { command: 'tritonlint', args: [] } });
  // The selected interpreter is often the project's .venv: it is tried once.
  return found.filter(
    (candidate, i) => found.findIndex((other) => other.python === candidate.python) === i || !candidate.python,
  );
}

/** Whether a setting names the tritonlint (or the Python) to run, so that no other place is tried. */
export function chosenBySetting(choices: Choices): boolean {
  return hasPathSetting(choices) || stringSetting(choices.interpreter) !== undefined;
}

/** Whether `tritonlint.path` names a program: it alone is then run, bundled copy or not. */
export function hasPathSetting(choices: Choices): boolean {
  return programSetting(choices.path).length > 0;
}

/** `tritonlint.interpreter` with its variables expanded; undefined where it is not set. */
export function settingInterpreter(choices: Choices, variables: Variables): string | undefined {
  const interpreter = stringSetting(choices.interpreter);
  return interpreter ? expandVariables(interpreter, variables) : undefined;
}

/**
 * The working folder of every process the extension starts (the `--version` probe and the
 * server): its own folder. In a workspace folder, `python -m` would import a `tritonlint/`
 * package found there, and a relative `PATH` entry would find the workspace's programs.
 */
export function workingFolder(extensionFolder: string): string {
  return extensionFolder;
}

/** The command line that runs `candidate` with `args` added. */
export function withArgs(candidate: Candidate, ...args: string[]): ProgramCommand {
  return { command: candidate.program.command, args: [...candidate.program.args, ...args] };
}

/** The command line as a shell would take it, for messages and the log. */
export function commandLine(program: ProgramCommand): string {
  return [program.command, ...program.args].map(quoted).join(' ');
}

/**
 * Replaces `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`; a variable
 * with no value (no folder open, an unset environment variable) is left as written.
 */
export function expandVariables(value: string, variables: Variables): string {
  const expanded = value.replace(/\$\{(workspaceFolder|userHome|env:([^}]+))\}/g, (whole, name, env) => {
    const replacement =
      env !== undefined
        ? variables.env[env]
        : name === 'workspaceFolder'
          ? variables.workspaceFolder
          : variables.userHome;
    return replacement ?? whole;
  });
  return /^~(?=$|[/\\])/.test(expanded) ? variables.userHome + expanded.slice(1) : expanded;
}

function pythonCandidate(origin: Origin, python: string, places?: Places): Candidate {
  const candidate: Candidate = { origin, program: { command: python, args: ['-I', '-m', 'tritonlint'] }, python };
  const venv = places && virtualEnvOf(python, places);
  return venv ? { ...candidate, venv } : candidate;
}

/** A path or a command list as its parts; empty where nothing usable is set. */
function programSetting(value: unknown): string[] {
  if (Array.isArray(value)) {
    const parts = value.filter((part): part is string => typeof part === 'string');
    return parts.length > 0 && parts[0].trim() !== '' ? parts : [];
  }
  const path = stringSetting(value);
  return path ? [path] : [];
}

function stringSetting(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function quoted(part: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`;
}
