/**
 * Which tritonlint the extension runs and why, in a form for the status item and the output
 * channel: `{ version, source, detail, command }`.
 */
import type { Resolution } from './resolve';
import { where } from './resolve';
import { type Candidate, commandLine, withArgs } from './serverCommand';

/** Where the tritonlint that runs came from. */
export type ServerSource = 'setting' | 'interpreter' | 'python extension' | 'project venv' | 'path' | 'bundled';

export interface ServerInfo {
  /** Its version, as its `--version` said. */
  version: string;
  source: ServerSource;
  /** Where it is, and for the bundled copy why the project's own was not used, in words. */
  detail: string;
  /** The server's command line. */
  command: string;
}

/** The description of a resolution that found a tritonlint to run. */
export function serverInfo(resolution: Extract<Resolution, { kind: 'ready' }>): ServerInfo {
  const { candidate, version, reason } = resolution;
  return {
    version,
    source: source(candidate),
    detail: reason ? `${where(candidate)}: ${reason}` : where(candidate),
    command: commandLine(withArgs(candidate, 'lsp')),
  };
}

function source(candidate: Candidate): ServerSource {
  switch (candidate.origin) {
    case 'path-setting':
      return 'setting';
    case 'interpreter-setting':
      return 'interpreter';
    case 'selected-interpreter':
      return 'python extension';
    case 'virtual-env':
    case 'project-venv':
      return 'project venv';
    case 'search-path':
      return 'path';
    case 'bundled':
      return 'bundled';
  }
}
