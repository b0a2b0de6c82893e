/**
 * The extension's entry point: the output channel, the status items, the commands, and the
 * server's life.
 */
import * as vscode from 'vscode';

import { SECTION } from './client';
import { registerCommands } from './commands';
import { ServerController } from './controller';
import { showGraph } from './graphPanel';
import { followAllPbtxtFiles } from './pbtxtFiles';
import { StatusItems } from './statusItems';
import { PROGRAM_SETTINGS } from './trust';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // vscode-languageclient 11 writes to the channel with .info(), .error()...: a LogOutputChannel.
  const log = vscode.window.createOutputChannel('tritonlint', { log: true });
  const server = new ServerController(log, context.extensionUri.fsPath);
  controller = server;
  context.subscriptions.push(
    log,
    server,
    new StatusItems(server, log),
    registerCommands(server),
    vscode.commands.registerCommand('tritonlint.restart', () => server.restart('the Restart Server command')),
    vscode.commands.registerCommand('tritonlint.showOutput', () => log.show()),
    vscode.commands.registerCommand('tritonlint.showGraph', () => showGraph(server, context.extensionUri)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      const changed = [...PROGRAM_SETTINGS, 'importStrategy'].find((key) =>
        event.affectsConfiguration(`${SECTION}.${key}`),
      );
      if (changed) {
        void server.restart(`${SECTION}.${changed} changed`);
      }
    }),
    // Trusted, the workspace's settings and the selected interpreter may name another tritonlint.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.restart('the workspace is trusted')),
    followAllPbtxtFiles(),
  );
  await server.restart('the extension was activated');
}

export function deactivate(): Promise<void> | undefined {
  return controller?.stop();
}
