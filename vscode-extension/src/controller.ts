/**
 * Finds tritonlint, starts its language server, restarts it when asked or when the settings
 * that choose it change, and tells the user when it cannot.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

import { SECTION, createClient } from './client';
import { locateServer } from './locate';
import { onInterpreterChange, selectedInterpreter } from './python';
import { type Choices, type Variables, chosenBySetting, commandLine, withArgs, workingFolder } from './serverCommand';
import { type ServerInfo, serverInfo } from './serverInfo';
import { effectiveValue } from './trust';

/** Where the notification's button leads: how to install tritonlint for the extension. */
export const INSTALL_DOCS_URL =
  'https://github.com/tritonlint/tritonlint/blob/main/vscode-extension/README.md#requirements';

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private pending: Promise<void> = Promise.resolve();
  private interpreterWatch: vscode.Disposable | undefined;
  private running: ServerInfo | undefined;
  private readonly serverChanged = new vscode.EventEmitter<ServerInfo | undefined>();
  /** Fires when a server starts (with its description) or none could (undefined). */
  readonly onDidChangeServer = this.serverChanged.event;

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
        this.notify(message);
      });
    return this.pending;
  }

  /** The tritonlint that runs, where it came from and why; undefined while none does. */
  get server(): ServerInfo | undefined {
    return this.running;
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
    this.serverChanged.dispose();
    void this.stop();
  }

  private async replace(reason: string): Promise<void> {
    this.log.info(`starting the server (${reason})`);
    await this.stop();
    this.announce(undefined);
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
      this.notify(resolution.message);
      return;
    }
    const program = withArgs(resolution.candidate, 'lsp');
    this.log.info(`running ${commandLine(program)} (tritonlint ${resolution.version})`);
    const client = createClient(program, cwd, this.log);
    this.client = client;
    try {
      await client.start();
      this.announce(serverInfo(resolution));
    } catch (error) {
      this.client = undefined;
      const message = `The tritonlint server (${commandLine(program)}) did not start: ${String(error)}`;
      this.log.error(message);
      this.notify(message);
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

  private announce(info: ServerInfo | undefined): void {
    this.running = info;
    this.serverChanged.fire(info);
  }

  private notify(message: string): void {
    const install = 'How to Install';
    const output = 'Show Output';
    void vscode.window.showErrorMessage(message, install, output).then((choice) => {
      if (choice === install) {
        void vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS_URL));
      } else if (choice === output) {
        this.log.show();
      }
    });
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
