/**
 * The language client for `tritonlint lsp`.
 */
import type * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

import type { ProgramCommand } from './serverCommand';
import { serverSettings } from './settings';

export const LANGUAGE_ID = 'triton-config';
export const SECTION = 'tritonlint';

/** A client (not started) for the server that `program` starts, on standard input and output. */
export function createClient(
  program: ProgramCommand,
  cwd: string | undefined,
  log: vscode.LogOutputChannel,
): LanguageClient {
  // No `transport`: the client then talks over stdio without adding `--stdio` to the command.
  const serverOptions: ServerOptions = { command: program.command, args: program.args, options: { cwd } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: LANGUAGE_ID }],
    outputChannel: log,
    // Tells the server when the section changes; it then asks for it again.
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          return answers.map((answer, i) => (params.items[i]?.section === SECTION ? serverSettings(answer) : answer));
        },
      },
    },
  };
  return new LanguageClient(SECTION, 'tritonlint', serverOptions, clientOptions);
}
