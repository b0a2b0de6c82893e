/**
 * Picks the tritonlint to start among the candidates, and says what is wrong when none will do.
 */
import type { Probe } from './probe';
import { type Candidate, commandLine, withArgs } from './serverCommand';
import { isAtLeast } from './version';

export type Resolution =
  | { kind: 'ready'; candidate: Candidate; version: string }
  | { kind: 'problem'; problem: 'not-found' | 'too-old' | 'broken'; message: string };

/**
 * Tries the candidates in order: the first that has tritonlint is the one, if it is recent
 * enough; one that is missing tritonlint passes on to the next.
 */
export async function findServer(candidates: Candidate[], probe: Probe, minimum: string): Promise<Resolution> {
  const missing: string[] = [];
  for (const candidate of candidates) {
    const result = await probe(withArgs(candidate, '--version'));
    if (result.kind === 'found') {
      if (isAtLeast(result.version, minimum)) {
        return { kind: 'ready', candidate, version: result.version };
      }
      return {
        kind: 'problem',
        problem: 'too-old',
        message:
          `tritonlint ${result.version} (${where(candidate)}) is older than ${minimum}, ` +
          `the oldest this extension works with. Upgrade it: ${installCommand(candidate, true)}.`,
      };
    }
    if (result.kind === 'failed') {
      return {
        kind: 'problem',
        problem: 'broken',
        message:
          `tritonlint could not be started (${where(candidate)}): ` +
          `"${commandLine(withArgs(candidate, '--version'))}" failed, ${result.detail}. ` +
          'The output channel "tritonlint" may say more.',
      };
    }
    missing.push(result.reason === 'no-module' ? hasNoModule(candidate) : notFound(candidate));
  }
  return { kind: 'problem', problem: 'not-found', message: notFoundMessage(candidates, missing) };
}

function notFoundMessage(candidates: Candidate[], missing: string[]): string {
  const origin = candidates[0]?.origin;
  const advice =
    origin === 'path-setting' || origin === 'interpreter-setting'
      ? `Install it (${installCommand(candidates[0], false)}) or correct the setting.`
      : `Install it in your project's Python environment (${installCommand(candidates[0], false)}), ` +
        'or set tritonlint.path or tritonlint.interpreter.';
  return `tritonlint was not found: ${missing.join(', and ')}. ${advice}`;
}

function where(candidate: Candidate): string {
  switch (candidate.origin) {
    case 'path-setting':
      return `tritonlint.path: ${commandLine(candidate.program)}`;
    case 'interpreter-setting':
      return `tritonlint.interpreter: ${candidate.python}`;
    case 'selected-interpreter':
      return `the selected Python interpreter: ${candidate.python}`;
    case 'search-path':
      return 'on the PATH';
  }
}

function notFound(candidate: Candidate): string {
  switch (candidate.origin) {
    case 'path-setting':
      return `the program of tritonlint.path (${candidate.program.command}) does not exist`;
    case 'interpreter-setting':
      return `the Python of tritonlint.interpreter (${candidate.python}) does not exist`;
    case 'selected-interpreter':
      return `the selected Python interpreter (${candidate.python}) does not exist`;
    case 'search-path':
      return 'there is no tritonlint on the PATH';
  }
}

function hasNoModule(candidate: Candidate): string {
  switch (candidate.origin) {
    case 'path-setting':
      return `the command of tritonlint.path (${commandLine(candidate.program)}) has no tritonlint module`;
    case 'interpreter-setting':
      return `the Python of tritonlint.interpreter (${candidate.python}) does not have it installed`;
    case 'selected-interpreter':
      return `the selected Python interpreter (${candidate.python}) does not have it installed`;
    case 'search-path':
      return 'the tritonlint on the PATH cannot import its module';
  }
}

/** How to install (or upgrade) tritonlint where the candidate would run it. */
function installCommand(candidate: Candidate, upgrade: boolean): string {
  const pip = candidate.python ? `${commandLine({ command: candidate.python, args: [] })} -m pip` : 'pip';
  return `"${pip} install ${upgrade ? '--upgrade ' : ''}tritonlint"`;
}
