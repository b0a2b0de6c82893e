/**
 * What the status items say: which tritonlint runs and where it came from, the Triton release
 * it checks against, and the server's state. Pure: extension.ts puts it on the items.
 */
import type { ServerInfo, ServerSource } from './serverInfo';

export type ServerState = { kind: 'starting' } | { kind: 'ready' } | { kind: 'error'; reason: string };

/** The Triton release checked against: from the setting, else as the server says. */
export interface TargetRelease {
  release: string;
  container?: string | null;
  fromSetting: boolean;
}

export interface StatusView {
  state: ServerState;
  /** The tritonlint that runs (see serverInfo.ts); undefined while none does. */
  server?: ServerInfo;
  target?: TargetRelease;
}

export type Severity = 'information' | 'error';

/** The text of the language status item and the status bar item. */
export interface Presentation {
  /** The language status item's text. */
  text: string;
  /** The language status item's detail, below its text. */
  detail: string;
  /** The status bar item's text (with a codicon). */
  statusBarText: string;
  tooltip: string;
  severity: Severity;
  busy: boolean;
}

const SOURCE_LABELS: Record<ServerSource, string> = {
  'project venv': "the project's environment",
  bundled: 'bundled with the extension',
  path: 'the PATH',
  setting: 'tritonlint.path',
  interpreter: 'tritonlint.interpreter',
  'python extension': "the Python extension's interpreter",
};

export function sourceLabel(source: ServerSource): string {
  return SOURCE_LABELS[source];
}

/** `Triton 2.46.0 (24.05)`: the release, and its container where known. */
export function releaseText(target: TargetRelease): string {
  const container = target.container && target.container !== target.release ? ` (${target.container})` : '';
  return `Triton ${target.release}${container}`;
}

/** Where the running tritonlint came from, for the tooltip: `from the PATH (...)`, `bundled with the extension (...)`. */
function originText(server: ServerInfo): string {
  const label = sourceLabel(server.source);
  return `${server.source === 'bundled' ? label : `from ${label}`} (${server.detail})`;
}

export function present(view: StatusView): Presentation {
  const { state, server: resolution, target } = view;
  const name = resolution ? `tritonlint ${resolution.version}` : 'tritonlint';
  const origin = resolution ? originText(resolution) : undefined;
  switch (state.kind) {
    case 'starting':
      return {
        text: name,
        detail: 'starting',
        statusBarText: `$(sync~spin) ${name}`,
        tooltip: lines(`${name}: starting`, origin),
        severity: 'information',
        busy: true,
      };
    case 'error':
      return {
        text: name,
        detail: `error: ${state.reason}`,
        statusBarText: `$(error) ${name}`,
        tooltip: lines(`${name}: ${state.reason}`, origin, 'Click to show the output.'),
        severity: 'error',
        busy: false,
      };
    case 'ready': {
      const release = target ? releaseText(target) : undefined;
      const chosen = target ? (target.fromSetting ? 'tritonlint.tritonVersion' : 'project settings or default') : '';
      return {
        text: name,
        detail: [release, resolution ? sourceLabel(resolution.source) : undefined].filter(Boolean).join(', '),
        statusBarText: `$(check) ${name}${release ? ` · ${release}` : ''}`,
        tooltip: lines(`${name}: ready`, origin, release ? `Checks against ${release} (${chosen}).` : undefined),
        severity: 'information',
        busy: false,
      };
    }
  }
}

function lines(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part)).join('\n');
}
