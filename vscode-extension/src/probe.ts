/**
 * Runs `... --version` to learn whether a candidate is a working tritonlint, and which one.
 */
import { execFile } from 'node:child_process';

import type { ProgramCommand } from './serverCommand';
import { versionFromOutput } from './version';

export type ProbeResult =
  | { kind: 'found'; version: string }
  /** No such program, or a Python without the tritonlint module. */
  | { kind: 'missing'; reason: 'no-program' | 'no-module'; detail: string }
  /** It ran, but did not say a tritonlint version. */
  | { kind: 'failed'; detail: string };

export type Probe = (program: ProgramCommand) => Promise<ProbeResult>;

export interface ProbeOptions {
  cwd?: string;
  timeoutMs: number;
}

/** Runs `program` (a `--version` command line) and reads what it says. */
export function probeVersion(program: ProgramCommand, options: ProbeOptions): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      program.command,
      program.args,
      { cwd: options.cwd, timeout: options.timeoutMs, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => resolve(classify(error, stdout, stderr, options.timeoutMs)),
    );
  });
}

type ExecError = (Error & { code?: string | number | null; killed?: boolean }) | null;

function classify(error: ExecError, stdout: string, stderr: string, timeoutMs: number): ProbeResult {
  if (error?.code === 'ENOENT') {
    return { kind: 'missing', reason: 'no-program', detail: 'no such program' };
  }
  // `python -m tritonlint` without it: "python3: No module named tritonlint"; a tritonlint
  // script whose environment lost the package: "ModuleNotFoundError: No module named 'tritonlint'".
  if (/No module named '?tritonlint'?\s*$/m.test(stderr)) {
    return { kind: 'missing', reason: 'no-module', detail: 'no module named tritonlint' };
  }
  if (error?.killed) {
    return { kind: 'failed', detail: `it did not answer in ${timeoutMs / 1000} s` };
  }
  if (error) {
    const said = lastLine(stderr) ?? lastLine(stdout);
    const status = typeof error.code === 'number' ? `it exited with status ${error.code}` : error.message;
    return { kind: 'failed', detail: said ? `${status}: ${said}` : status };
  }
  const version = versionFromOutput(stdout);
  if (version === undefined) {
    const said = lastLine(stdout);
    return {
      kind: 'failed',
      detail: said ? `it printed "${said}", not tritonlint's version` : 'it printed no version',
    };
  }
  return { kind: 'found', version };
}

function lastLine(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length > 0 ? lines[lines.length - 1] : undefined;
}
