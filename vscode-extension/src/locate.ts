/**
 * Finds the tritonlint to start on this machine: the plan of resolve.ts over the real file
 * system, the extension's bundled copy and `--version` probes, each written to the output
 * channel with what it answered, and the choice made with its reason.
 */
import { existsSync } from 'node:fs';
import type * as vscode from 'vscode';

import { findBundle } from './bundle';
import { type Probe, probeVersion } from './probe';
import { type Resolution, findServer, plan } from './resolve';
import { type Choices, type Variables, commandLine } from './serverCommand';
import { serverInfo } from './serverInfo';
import type { Places } from './venv';
import { MINIMUM_SERVER_VERSION } from './version';

/** `--version` loads Python; a cold start on a busy machine can take seconds. */
const PROBE_TIMEOUT_MS = 30_000;

const PLACES: Places = { exists: existsSync };

/** `cwd`: the working folder of the probes (workingFolder in serverCommand.ts). */
export async function locateServer(
  log: vscode.LogOutputChannel,
  extensionFolder: string,
  choices: Choices,
  variables: Variables,
  cwd: string,
): Promise<Resolution> {
  const bundle = findBundle(extensionFolder, PLACES);
  const places = plan(choices, variables, PLACES, bundle);
  log.info(
    `tritonlint.importStrategy: ${places.strategy}; ` +
      (bundle ? `the bundled copy: ${bundle.launcher}` : 'this build has no bundled copy'),
  );
  const probe: Probe = async (program) => {
    const result = await probeVersion(program, { cwd, timeoutMs: PROBE_TIMEOUT_MS });
    log.info(`${commandLine(program)}: ${result.kind === 'found' ? `tritonlint ${result.version}` : result.detail}`);
    return result;
  };
  const resolution = await findServer(places, probe, MINIMUM_SERVER_VERSION);
  if (resolution.kind === 'ready') {
    const info = serverInfo(resolution);
    log.info(`using tritonlint ${info.version} (${info.source}): ${info.detail}`);
  }
  return resolution;
}
