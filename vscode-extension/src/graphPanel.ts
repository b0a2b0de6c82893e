/**
 * "tritonlint: Show Ensemble Graph": a webview beside the editor with the graph of the
 * ensemble in the active config (or of the ensembles that run its model), asked of the server
 * (`tritonlint/graph`) again as the user types, and when another config becomes active.
 * A click on a model's box opens its config; on an arrow, the line that writes the tensor.
 */
import * as vscode from 'vscode';

import { LANGUAGE_ID } from './client';
import type { ServerController } from './controller';
import { page } from './graphPage';
import { GRAPH, type GraphAnswer, graphView } from './graphView';
import type { FromPage, ToPage } from './webview/graph';

/** Shows the graph of the active config (the command "Show Ensemble Graph"). */
export function showGraph(server: ServerController, extensionUri: vscode.Uri): void {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== LANGUAGE_ID) {
    void vscode.window.showInformationMessage('Open a Triton model config (config.pbtxt) first.');
    return;
  }
  GraphPanel.show(server, extensionUri, editor.document);
}

/** How long typing must pause before the graph is asked for again. */
export const DEBOUNCE_MS = 400;

export class GraphPanel implements vscode.Disposable {
  private static current: GraphPanel | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts the requests, so that an answer overtaken by a newer request is dropped. */
  private asked = 0;

  /** Shows the graph of `document`, in the panel already open or a new one beside it. */
  static show(server: ServerController, extensionUri: vscode.Uri, document: vscode.TextDocument): void {
    if (GraphPanel.current) {
      GraphPanel.current.follow(document);
      GraphPanel.current.panel.reveal(undefined, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      'tritonlint.graph',
      'Ensemble Graph',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
        retainContextWhenHidden: true,
      },
    );
    GraphPanel.current = new GraphPanel(server, extensionUri, panel, document);
  }

  private constructor(
    private readonly server: ServerController,
    extensionUri: vscode.Uri,
    private readonly panel: vscode.WebviewPanel,
    private document: vscode.TextDocument,
  ) {
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'graphView.js'));
    panel.webview.html = page(panel.webview.cspSource, script.toString(), nonce());
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: FromPage) => void this.received(message)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.languageId === LANGUAGE_ID && event.contentChanges.length > 0) {
          this.later();
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor?.document.languageId === LANGUAGE_ID && editor.document !== this.document) {
          this.follow(editor.document);
        }
      }),
      server.onDidChange(() => this.later()),
    );
  }

  private follow(document: vscode.TextDocument): void {
    this.document = document;
    void this.refresh();
  }

  /** Asks again once typing pauses. */
  private later(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
  }

  private async refresh(): Promise<void> {
    const asked = ++this.asked;
    const client = this.server.runningClient;
    const name = this.document.uri.path.split('/').slice(-2, -1)[0] ?? '';
    this.panel.title = `Ensemble Graph: ${name}`;
    if (!client) {
      this.post({ type: 'problem', message: 'The tritonlint server is not running.' });
      return;
    }
    try {
      const uri = client.code2ProtocolConverter.asUri(this.document.uri);
      const answer = await client.sendRequest<GraphAnswer>(GRAPH, { uri });
      if (asked === this.asked) {
        this.post({ type: 'graph', view: graphView(answer) });
      }
    } catch (error) {
      if (asked === this.asked) {
        this.post({ type: 'problem', message: `tritonlint could not draw the graph: ${String(error)}` });
      }
    }
  }

  private post(message: ToPage): void {
    void this.panel.webview.postMessage(message);
  }

  private async received(message: FromPage): Promise<void> {
    if (message.type === 'ready') {
      await this.refresh();
    } else if (message.type === 'open') {
      await vscode.window.showTextDocument(vscode.Uri.parse(message.uri), { viewColumn: vscode.ViewColumn.One });
    } else if (message.type === 'reveal') {
      const { start, end } = message.place.range;
      const selection = new vscode.Range(start.line, start.character, end.line, end.character);
      await vscode.window.showTextDocument(vscode.Uri.parse(message.place.uri), {
        viewColumn: vscode.ViewColumn.One,
        selection,
      });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (GraphPanel.current === this) {
      GraphPanel.current = undefined;
    }
    vscode.Disposable.from(...this.subscriptions).dispose();
    this.panel.dispose();
  }
}

function nonce(): string {
  const characters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 32 }, () => characters[Math.floor(Math.random() * characters.length)]).join('');
}
