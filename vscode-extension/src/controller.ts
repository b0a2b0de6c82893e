/**
 * Finds tritonlint, starts its language server, restarts it when asked or when the settings
 * that choose it change, and tells the user when it cannot: in the status items for as long
 * as the problem lasts, in a notification once per problem (see problemState.ts).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { type LanguageClient, State } from 'vscode-languageclient/node';

import { SECTION, createClient } from './client';
import { locateServer } from './locate';
import { onInterpreterChange, selectedInterpreter } from './python';
import { INITIAL, type ProblemEvent, type ProblemState, noticeOutlives, reduce } from './problemState';
import { type Choices, type Variables, chosenBySetting, commandLine, withArgs, workingFolder } from './serverCommand';
import { type ServerInfo, serverInfo } from './serverInfo';
import type { StatusView } from './status';
import { effectiveValue } from './trust';

/** The command that shows the output channel (registered in extension.ts). */
const SHOW_OUTPUT_COMMAND = 'tritonlint.showOutput';

/** Where the notification's link leads: how to install tritonlint for the extension. */
export const INSTALL_DOCS_URL =
  'https://github.com/tritonlint/tritonlint/blob/main/vscode-extension/README.md#requirements';

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private pending: Promise<void> = Promise.resolve();
  private interpreterWatch: vscode.Disposable | undefined;
  private problems: ProblemState = INITIAL;
  /** The notification of the current problem, while it is on screen. */
  private notice: { problem: string; close: () => void } | undefined;
  private running: ServerInfo | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the server's state or the tritonlint that runs it changes. */
  readonly onDidChange = this.changed.event;

  /** `extensionFolder`: the extension's own folder, where the processes it starts run. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly extensionFolder: string,
  ) {}

  /** Stops the server, if running, and starts it again; calls run one after the other. */
  restart(reason: string): Promise<void> {
    this.pending = this.pending
      .then(() => this.replace(reason))
      .catch((error: unknown) => {
        const message = `tritonlint: the server could not be started: ${String(error)}`;
        this.log.error(message);
        this.report({ type: 'problem', message });
      });
    return this.pending;
  }

  /** The server's state and which tritonlint runs it, for the status items. */
  get view(): StatusView {
    return { state: this.problems.state, server: this.running };
  }

  /** The tritonlint that runs, where it came from and why; undefined while none does. */
  get server(): ServerInfo | undefined {
    return this.running;
  }

  /** The language client, once its server is running. */
  get runningClient(): LanguageClient | undefined {
    return this.problems.state.kind === 'ready' ? this.client : undefined;
  }

  /** Whether the server is chosen by the settings, not by the Python extension or the PATH. */
  static chosenBySettings(): boolean {
    return chosenBySetting(choices());
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (error) {
        this.log.warn(`the server did not stop cleanly: ${String(error)}`);
      }
    }
  }

  dispose(): void {
    this.interpreterWatch?.dispose();
    this.notice?.close();
    this.changed.dispose();
    void this.stop();
  }

  private async replace(reason: string): Promise<void> {
    this.log.info(`starting the server (${reason})`);
    await this.stop();
    this.running = undefined;
    this.report({ type: 'starting' });
    const folder = vscode.workspace.workspaceFolders?.[0];
    const workspaceFolder = folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
    // Never the workspace folder: see workingFolder.
    const cwd = workingFolder(this.extensionFolder);
    let chosen = choices();
    if (!ServerController.chosenBySettings() && chosen.trusted) {
      chosen = { ...chosen, selectedInterpreter: await selectedInterpreter(this.log, folder?.uri) };
      await this.watchInterpreter();
    }
    // In an untrusted workspace ${workspaceFolder} is left as written: a setting of the user's
    // does not run a program of a workspace the user has not trusted.
    const known = variables(chosen.trusted ? workspaceFolder : undefined);
    const resolution = await locateServer(this.log, this.extensionFolder, chosen, known, cwd);
    if (resolution.kind === 'problem') {
      this.log.error(resolution.message);
      this.report({ type: 'problem', message: resolution.message });
      return;
    }
    const program = withArgs(resolution.candidate, 'lsp');
    this.log.info(`running ${commandLine(program)} (tritonlint ${resolution.version})`);
    const client = createClient(program, cwd, this.log);
    this.client = client;
    // The language client restarts a server that stopped by itself, a few times.
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return;
      }
      if (newState === State.Running) {
        this.report({ type: 'ready' });
      } else if (newState === State.Stopped && this.problems.state.kind === 'ready') {
        this.report({ type: 'stopped', reason: 'the server stopped (the output channel says why)' });
      }
    });
    try {
      await client.start();
      this.running = serverInfo(resolution);
      // locateServer said which tritonlint and why; now that it answers:
      this.log.info(`the server is ready (tritonlint ${this.running.version}, ${this.running.source})`);
      this.report({ type: 'ready' });
    } catch (error) {
      this.client = undefined;
      const message = `The tritonlint server (${commandLine(program)}) did not start: ${String(error)}`;
      this.log.error(message);
      this.report({ type: 'problem', message });
    }
  }

  /** Updates the state; a problem not notified since the server was last ready is notified. */
  private report(event: ProblemEvent): void {
    const { next, notify } = reduce(this.problems, event);
    this.problems = next;
    this.changed.fire();
    if (this.notice && !noticeOutlives(this.notice.problem, next.state)) {
      this.notice.close();
      this.notice = undefined;
    }
    if (notify !== undefined) {
      this.notify(notify);
    }
  }

  /** Restarts the server when another interpreter is selected, while no setting chooses it. */
  private async watchInterpreter(): Promise<void> {
    if (this.interpreterWatch) {
      return;
    }
    this.interpreterWatch = await onInterpreterChange(this.log, () => {
      if (!ServerController.chosenBySettings()) {
        void this.restart('another Python interpreter was selected');
      }
    });
  }

  /**
   * Shows `message` in a notification that closes itself once the problem is over (an error
   * message cannot be closed by the extension, and would stay beside working squiggles).
   */
  private notify(message: string): void {
    this.notice?.close();
    let close = (): void => {};
    const over = new Promise<void>((resolve) => {
      close = resolve;
    });
    this.notice = { problem: message, close };
    const links = `[Show Output](command:${SHOW_OUTPUT_COMMAND}) · [How to Install](${INSTALL_DOCS_URL})`;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'tritonlint', cancellable: true },
      (progress, dismissed) => {
        progress.report({ message: `${message} ${links}` });
        dismissed.onCancellationRequested(close);
        return over;
      },
    );
  }
}

/**
 * The settings that choose tritonlint, as they apply to the first workspace folder; in an
 * untrusted workspace, the user's settings only (see trust.ts).
 */
function choices(): Choices {
  const settings = vscode.workspace.getConfiguration(SECTION, vscode.workspace.workspaceFolders?.[0]?.uri);
  const trusted = vscode.workspace.isTrusted;
  return {
    path: effectiveValue(settings.inspect('path'), trusted),
    interpreter: effectiveValue(settings.inspect('interpreter'), trusted),
    importStrategy: settings.get('importStrategy'),
    trusted,
  };
}

function variables(workspaceFolder?: string): Variables {
  return { workspaceFolder, userHome: os.homedir(), env: process.env };
}
