/**
 * Picks the tritonlint to start, and says what is wrong when none will do.
 *
 * With `tritonlint.importStrategy` `fromEnvironment` (the default), the first place of the
 * project's environment that has a recent enough tritonlint is the one; where none has, the
 * bundled copy runs, with the first Python 3.10 or newer that starts it. With `useBundled`,
 * the bundled copy alone. `tritonlint.path` overrides both: that program alone is run.
 */
import { type Bundle, type ImportStrategy, bundledCandidates, importStrategy } from './bundle';
import type { Probe, ProbeResult } from './probe';
import { type Candidate, type Choices, type Variables, candidates, commandLine, withArgs } from './serverCommand';
import type { Places } from './venv';
import { isAtLeast } from './version';

/** What is tried, in order. */
export interface Plan {
  strategy: ImportStrategy;
  /** The places of the project's environment that may have tritonlint. */
  environment: Candidate[];
  /** The ways of running the bundled copy: none without a bundle, or with `tritonlint.path`. */
  bundled: Candidate[];
  /** Whether the extension has a bundled copy. */
  hasBundle: boolean;
}

export type Resolution =
  | {
      kind: 'ready';
      candidate: Candidate;
      version: string;
      /** For the bundled copy: why the project's environment was not used. */
      reason?: string;
    }
  | { kind: 'problem'; problem: 'not-found' | 'too-old' | 'broken' | 'no-python'; message: string };

/** One place tried, and what its `--version` answered. */
interface Tried {
  candidate: Candidate;
  result: ProbeResult;
}

/** The launcher's words for a Python older than tritonlint supports (bundled/tool/launch.py). */
const TOO_OLD_PYTHON = /tritonlint needs Python 3\.10 or newer, not [\d.]+/;

/** The places to try for these settings. */
export function plan(choices: Choices, variables: Variables, places: Places, bundle: Bundle | undefined): Plan {
  const environment = candidates(choices, variables, places);
  const strategy = importStrategy(choices.importStrategy);
  const pathSetting = environment[0]?.origin === 'path-setting';
  return {
    strategy,
    environment: strategy === 'useBundled' && !pathSetting ? [] : environment,
    bundled: bundledCandidates(choices, variables, bundle),
    hasBundle: bundle !== undefined,
  };
}

export async function findServer(plan: Plan, probe: Probe, minimum: string): Promise<Resolution> {
  const environment: Tried[] = [];
  for (const candidate of plan.environment) {
    const result = await probe(withArgs(candidate, '--version'));
    if (result.kind === 'found' && isAtLeast(result.version, minimum)) {
      return { kind: 'ready', candidate, version: result.version };
    }
    environment.push({ candidate, result });
  }
  const bundled: Tried[] = [];
  for (const candidate of plan.bundled) {
    const result = await probe(withArgs(candidate, '--version'));
    if (result.kind === 'found') {
      return { kind: 'ready', candidate, version: result.version, reason: whyBundled(plan, environment, minimum) };
    }
    bundled.push({ candidate, result });
  }
  return problem(plan, environment, bundled, minimum);
}

function whyBundled(plan: Plan, environment: Tried[], minimum: string): string {
  if (plan.strategy === 'useBundled') {
    return 'tritonlint.importStrategy is useBundled';
  }
  for (const { candidate, result } of environment) {
    if (result.kind === 'found') {
      return `tritonlint ${result.version} (${where(candidate)}) is older than ${minimum}`;
    }
  }
  const failed = environment.find(({ result }) => result.kind === 'failed');
  if (failed) {
    return `tritonlint (${where(failed.candidate)}) did not start`;
  }
  return "the project's environment has no tritonlint";
}

function problem(plan: Plan, environment: Tried[], bundled: Tried[], minimum: string): Resolution {
  const brokenBundle = bundled.find(({ result }) => result.kind === 'failed' && !TOO_OLD_PYTHON.test(result.detail));
  if (brokenBundle) {
    return broken(brokenBundle);
  }
  if (plan.strategy === 'useBundled' && !plan.hasBundle && environment.length === 0) {
    return {
      kind: 'problem',
      problem: 'not-found',
      message:
        'tritonlint.importStrategy is useBundled, but this build of the extension has no bundled tritonlint ' +
        '(it is added by "npm run package"). Set tritonlint.importStrategy to fromEnvironment.',
    };
  }
  if (bundled.length > 0) {
    return noPython(environment, bundled);
  }
  const tooOld = environment.find(({ result }) => result.kind === 'found');
  if (tooOld?.result.kind === 'found') {
    return {
      kind: 'problem',
      problem: 'too-old',
      message:
        `tritonlint ${tooOld.result.version} (${where(tooOld.candidate)}) is older than ${minimum}, ` +
        `the oldest this extension works with. Upgrade it: ${upgradeAdvice(tooOld.candidate)}.`,
    };
  }
  const failed = environment.find(({ result }) => result.kind === 'failed');
  if (failed) {
    return broken(failed);
  }
  const missing = environment.map(({ candidate, result }) => whyMissing(candidate, result));
  const [first] = environment;
  let advice: string;
  if (first?.candidate.origin === 'path-setting' || first?.candidate.origin === 'interpreter-setting') {
    advice =
      first.result.kind === 'missing' && first.result.reason === 'no-program'
        ? 'Correct the setting.'
        : `Correct the setting, or install tritonlint ${installAdvice(first.candidate)}.`;
  } else {
    const venv = environment.find(({ candidate }) => candidate.venv)?.candidate;
    advice = `Install it ${installAdvice(venv)}, or set tritonlint.path or tritonlint.interpreter.`;
  }
  return {
    kind: 'problem',
    problem: 'not-found',
    message: `tritonlint was not found: ${missing.join(', and ')}. ${advice}`,
  };
}

/** The bundled copy found no Python to run it (none, or none recent enough). */
function noPython(environment: Tried[], bundled: Tried[]): Resolution {
  // A Python tried for its own tritonlint, then for the bundled copy, is named once.
  const looked = new Set([...environment, ...bundled].map(({ candidate, result }) => whyMissing(candidate, result)));
  const interpreterSetting = bundled[0].candidate.pythonOrigin === 'interpreter-setting';
  const advice = interpreterSetting
    ? 'Set tritonlint.interpreter to a Python 3.10 or newer.'
    : 'Install Python 3.10 or newer (https://www.python.org/downloads/) and run "tritonlint: Restart Server", ' +
      `or install tritonlint ${installAdvice(undefined)}.`;
  return {
    kind: 'problem',
    problem: 'no-python',
    message:
      'tritonlint could not be started: it needs Python 3.10 or newer, to run its own or the copy bundled ' +
      `with the extension, and none was found: ${[...looked].join(', ')}. ${advice}`,
  };
}

function broken({ candidate, result }: Tried): Resolution {
  return {
    kind: 'problem',
    problem: 'broken',
    message:
      `tritonlint could not be started (${where(candidate)}): ` +
      `"${commandLine(withArgs(candidate, '--version'))}" failed, ${result.kind === 'failed' ? result.detail : ''}. ` +
      'The output channel "tritonlint" may say more.',
  };
}

/** Where a candidate's tritonlint is, for messages. */
export function where(candidate: Candidate): string {
  switch (candidate.origin) {
    case 'path-setting':
      return `tritonlint.path: ${commandLine(candidate.program)}`;
    case 'interpreter-setting':
      return `tritonlint.interpreter: ${candidate.python}`;
    case 'selected-interpreter':
      return `the selected Python interpreter: ${candidate.python}`;
    case 'virtual-env':
      return `$VIRTUAL_ENV: ${candidate.venv}`;
    case 'project-venv':
      return `the virtual environment ${candidate.venv}`;
    case 'search-path':
      return 'on the PATH';
    case 'bundled':
      return `the bundled copy, run with ${candidate.python}`;
  }
}

/** Why a candidate that did not start tritonlint was passed over, for messages. */
function whyMissing(candidate: Candidate, result: ProbeResult): string {
  if (result.kind === 'found') {
    return `${where(candidate)} has tritonlint ${result.version}`;
  }
  if (result.kind === 'failed') {
    const tooOld = TOO_OLD_PYTHON.exec(result.detail);
    return tooOld ? `${pythonPlace(candidate)} is too old (${tooOld[0]})` : `${where(candidate)} failed`;
  }
  const noProgram = result.reason === 'no-program';
  switch (candidate.origin) {
    case 'path-setting':
      return noProgram
        ? `the program of tritonlint.path (${candidate.program.command}) does not exist`
        : `the command of tritonlint.path (${commandLine(candidate.program)}) has no tritonlint module`;
    case 'search-path':
      return noProgram ? 'there is no tritonlint on the PATH' : 'the tritonlint on the PATH cannot import its module';
    case 'bundled':
      return noProgram ? `${pythonPlace(candidate)} does not exist` : 'the bundled copy is incomplete';
    default:
      return noProgram
        ? `${pythonPlace(candidate)} does not exist`
        : `${pythonPlace(candidate)} does not have it installed`;
  }
}

/** The Python that runs a candidate, and where it was found, for messages. */
function pythonPlace(candidate: Candidate): string {
  switch (candidate.origin === 'bundled' ? candidate.pythonOrigin : candidate.origin) {
    case 'interpreter-setting':
      return `the Python of tritonlint.interpreter (${candidate.python})`;
    case 'selected-interpreter':
      return `the selected Python interpreter (${candidate.python})`;
    case 'virtual-env':
      return `the Python of $VIRTUAL_ENV (${candidate.python})`;
    case 'project-venv':
      return `the Python of ${candidate.venv} (${candidate.python})`;
    default:
      return candidate.origin === 'bundled' ? `${candidate.python} on the PATH` : `${candidate.program.command}`;
  }
}

/**
 * How to install tritonlint, with commands that work on any system: pip only in a virtual
 * environment (a system Python may be externally managed, PEP 668, and refuse it).
 */
export function installAdvice(candidate: Candidate | undefined): string {
  if (candidate?.venv && candidate.python) {
    return `in ${candidate.venv} ("${commandLine({ command: candidate.python, args: ['-m', 'pip', 'install', 'tritonlint'] })}")`;
  }
  return (
    'with pipx ("pipx install tritonlint") or in a virtual environment of the project ' +
    '("python3 -m venv .venv && .venv/bin/pip install tritonlint")'
  );
}

function upgradeAdvice(candidate: Candidate): string {
  if (candidate.venv && candidate.python) {
    return `"${commandLine({ command: candidate.python, args: ['-m', 'pip', 'install', '--upgrade', 'tritonlint'] })}"`;
  }
  return 'where it was installed ("pipx upgrade tritonlint" if with pipx)';
}
