/**
 * The language status item (beside *Triton Model Config* in the status bar) and a status bar
 * item: which tritonlint runs, from where, the Triton release it checks against, and the
 * server's state. Clicking either opens the output channel.
 */
import * as vscode from 'vscode';

import { LANGUAGE_ID, SECTION } from './client';
import type { ServerController } from './controller';
import { STATUS, type StatusResponse } from './customRequests';
import { type TargetRelease, present } from './status';

const SHOW_OUTPUT: vscode.Command = { command: 'tritonlint.showOutput', title: 'Show Output' };

/** The server reads a changed setting a moment after VS Code sends it. */
const SETTLE_MS = 1_000;

export class StatusItems implements vscode.Disposable {
  private readonly language = vscode.languages.createLanguageStatusItem('tritonlint.status', {
    language: LANGUAGE_ID,
  });
  private readonly bar = vscode.window.createStatusBarItem('tritonlint.status', vscode.StatusBarAlignment.Right, 100);
  private readonly subscriptions: vscode.Disposable[];
  private target: TargetRelease | undefined;
  /** Counts the questions to the server: only the latest answer is shown. */
  private asked = 0;

  constructor(
    private readonly server: ServerController,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.language.name = 'tritonlint';
    this.language.command = SHOW_OUTPUT;
    this.bar.name = 'tritonlint';
    this.bar.command = SHOW_OUTPUT.command;
    this.subscriptions = [
      server.onDidChange(() => {
        this.show();
        void this.askServer();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.show();
        void this.askServer();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.tritonVersion`)) {
          this.target = this.fromSetting() ?? this.target;
          this.show();
          setTimeout(() => void this.askServer(), SETTLE_MS);
        }
      }),
    ];
    this.show();
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.language.dispose();
    this.bar.dispose();
  }

  private show(): void {
    const view = this.server.view;
    const shown = present({ ...view, target: this.target });
    this.language.text = shown.text;
    this.language.detail = shown.detail;
    this.language.busy = shown.busy;
    this.language.severity =
      shown.severity === 'error' ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    this.bar.text = shown.statusBarText;
    this.bar.tooltip = shown.tooltip;
    this.bar.backgroundColor =
      shown.severity === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    // In a Triton config, or wherever the user is while the server cannot run.
    const editing = vscode.window.activeTextEditor?.document.languageId === LANGUAGE_ID;
    if (editing || view.state.kind === 'error') {
      this.bar.show();
    } else {
      this.bar.hide();
    }
  }

  /** Asks the running server which release it checks the active config against. */
  private async askServer(): Promise<void> {
    const client = this.server.runningClient;
    if (!client) {
      return;
    }
    const question = ++this.asked;
    const document = vscode.window.activeTextEditor?.document;
    const uri = document?.languageId === LANGUAGE_ID ? document.uri.toString() : undefined;
    let target: TargetRelease | undefined;
    try {
      const answer = await client.sendRequest<StatusResponse>(STATUS, uri ? { uri } : {});
      target = {
        release: answer.tritonRelease,
        container: answer.tritonContainer,
        fromSetting: this.fromSetting() !== undefined,
      };
    } catch (error) {
      // A tritonlint older than this request: the setting, where there is one.
      this.log.debug(`${STATUS}: ${String(error)}`);
      target = this.fromSetting();
    }
    if (question === this.asked) {
      this.target = target;
      this.show();
    }
  }

  /** `tritonlint.tritonVersion` for the active document, where it is set. */
  private fromSetting(): TargetRelease | undefined {
    const scope = vscode.window.activeTextEditor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    const value = vscode.workspace.getConfiguration(SECTION, scope).get<string>('tritonVersion', '').trim();
    return value ? { release: value, fromSetting: true } : undefined;
  }
}
