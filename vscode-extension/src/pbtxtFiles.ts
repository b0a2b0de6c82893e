/**
 * `tritonlint.allPbtxtFiles`: every `*.pbtxt` opened becomes a Triton config, not only
 * `config.pbtxt` (which the language contribution claims by its name).
 */
import * as vscode from 'vscode';

import { LANGUAGE_ID, SECTION } from './client';

const SETTING = 'allPbtxtFiles';

/** Follows the setting for the documents open now and those opened later. */
export function followAllPbtxtFiles(): vscode.Disposable {
  adoptOpenDocuments();
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(adopt),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.${SETTING}`)) {
        adoptOpenDocuments();
      }
    }),
  );
}

function adoptOpenDocuments(): void {
  vscode.workspace.textDocuments.forEach(adopt);
}

function adopt(document: vscode.TextDocument): void {
  if (
    document.uri.scheme === 'file' &&
    document.fileName.endsWith('.pbtxt') &&
    document.languageId !== LANGUAGE_ID &&
    vscode.workspace.getConfiguration(SECTION, document.uri).get<boolean>(SETTING, false)
  ) {
    void vscode.languages.setTextDocumentLanguage(document, LANGUAGE_ID);
  }
}
