/**
 * Where tritonlint may be, in the order the extension tries: the `tritonlint.path` setting,
 * the `tritonlint.interpreter` setting, the Python extension's selected interpreter (in a
 * trusted workspace only), the `PATH`. A setting the user wrote is the only place tried: a
 * wrong one is reported, not passed over for another tritonlint.
 *
 * Nothing of the workspace is run unless the user chose it: a Python runs tritonlint as
 * `python -I -m tritonlint` (isolated: never a `tritonlint/` package of the working folder),
 * and every process starts in {@link workingFolder}, never in a workspace folder.
 */

/** A program and its arguments. */
export interface ProgramCommand {
  command: string;
  args: string[];
}

export type Origin = 'path-setting' | 'interpreter-setting' | 'selected-interpreter' | 'search-path';

/** One way of running tritonlint; the subcommand (`lsp`, `--version`) is added to it. */
export interface Candidate {
  origin: Origin;
  program: ProgramCommand;
  /** Set where tritonlint is run as `python -m tritonlint`: that Python. */
  python?: string;
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
}

/** What `${...}` in a setting stands for. */
export interface Variables {
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
}

/** The places to try, in order. */
export function candidates(choices: Choices, variables: Variables): Candidate[] {
  const path = programSetting(choices.path).map((part) => expandVariables(part, variables));
  if (path.length > 0) {
    const [command, ...args] = path;
    return [{ origin: 'path-setting', program: { command, args } }];
  }
  const interpreter = stringSetting(choices.interpreter);
  if (interpreter) {
    return [pythonCandidate('interpreter-setting', expandVariables(interpreter, variables))];
  }
  const found: Candidate[] = [];
  if (choices.selectedInterpreter && choices.trusted !== false) {
    found.push(pythonCandidate('selected-interpreter', choices.selectedInterpreter));
  }
  found.push({ origin: 'search-path', program: { command: 'tritonlint', args: [] } });
  return found;
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

function pythonCandidate(origin: Origin, python: string): Candidate {
  return { origin, program: { command: python, args: ['-I', '-m', 'tritonlint'] }, python };
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
