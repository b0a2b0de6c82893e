/**
 * The commands that ask the running server: Fix All, Format, Show Rule Documentation and
 * Select Triton Release. Each says so when the server is not running.
 */
import * as vscode from 'vscode';
import {
  CodeActionRequest,
  CodeActionTriggerKind,
  DocumentFormattingRequest,
  type LanguageClient,
} from 'vscode-languageclient/node';

import { LANGUAGE_ID, SECTION } from './client';
import type { ServerController } from './controller';
import {
  RELEASES,
  RULES,
  RULE_DOCUMENTATION,
  type ReleasesResponse,
  type RuleDocumentationResponse,
  type RulesResponse,
  diagnosticCode,
  releaseItems,
  ruleCodeAt,
} from './customRequests';

/** The code action kind of the server's fixer (`tritonlint --fix` on the file). */
export const FIX_ALL_KIND = 'source.fixAll.tritonlint';
/** The scheme of the rule documentation shown in the markdown preview. */
export const RULE_SCHEME = 'tritonlint-rule';

export function registerCommands(server: ServerController): vscode.Disposable {
  const documentation = new RuleDocuments();
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, documentation),
    vscode.commands.registerCommand('tritonlint.fixAll', () => fixAll(server)),
    vscode.commands.registerCommand('tritonlint.format', () => format(server)),
    vscode.commands.registerCommand('tritonlint.showRuleDocumentation', (code?: unknown) =>
      showRuleDocumentation(server, documentation, typeof code === 'string' ? code : undefined),
    ),
    vscode.commands.registerCommand('tritonlint.selectTritonRelease', () => selectTritonRelease(server)),
    vscode.commands.registerCommand(SHOW_PLACES, showPlaces),
  );
}

/** The command of the server's code lenses ("run by 2 ensembles", "runs 3 models"). */
export const SHOW_PLACES = 'tritonlint.showPlaces';

interface ProtocolPosition {
  line: number;
  character: number;
}

interface ProtocolLocation {
  uri: string;
  range: { start: ProtocolPosition; end: ProtocolPosition };
}

/**
 * The places a code lens counts, in a references peek under the lens: its arguments are
 * those of `editor.action.showReferences`, as LSP JSON (tritonlint/lsp/code_lens.py).
 */
async function showPlaces(uri: unknown, position: unknown, locations: unknown): Promise<void> {
  if (typeof uri !== 'string' || !Array.isArray(locations)) {
    return;
  }
  const at = (p: ProtocolPosition) => new vscode.Position(p.line, p.character);
  const found = (locations as ProtocolLocation[]).map(
    (l) => new vscode.Location(vscode.Uri.parse(l.uri), new vscode.Range(at(l.range.start), at(l.range.end))),
  );
  await vscode.commands.executeCommand(
    'editor.action.showReferences',
    vscode.Uri.parse(uri),
    at(position as ProtocolPosition),
    found,
  );
}

/** The server, or undefined after telling the user it is not running. */
function running(server: ServerController): LanguageClient | undefined {
  const client = server.runningClient;
  if (!client) {
    const state = server.view.state;
    const why = state.kind === 'error' ? `: ${state.reason}` : ` (${state.kind})`;
    void vscode.window.showWarningMessage(`The tritonlint server is not running${why}`);
  }
  return client;
}

/** The active editor, where it shows a Triton config. */
function configEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== LANGUAGE_ID) {
    void vscode.window.showInformationMessage('Open a Triton model config (config.pbtxt) first.');
    return undefined;
  }
  return editor;
}

/** The server's `source.fixAll.tritonlint` action on the active config, applied. */
async function fixAll(server: ServerController): Promise<void> {
  const editor = configEditor();
  const client = editor && running(server);
  if (!editor || !client) {
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = await client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    range: client.code2ProtocolConverter.asRange(whole),
    context: { diagnostics: [], only: [FIX_ALL_KIND], triggerKind: CodeActionTriggerKind.Invoked },
  });
  const fix = actions?.find((action) => 'kind' in action && action.kind === FIX_ALL_KIND);
  if (!fix || !('edit' in fix) || !fix.edit) {
    void vscode.window.setStatusBarMessage('tritonlint: nothing to fix safely', 3_000);
    return;
  }
  await vscode.workspace.applyEdit(await client.protocol2CodeConverter.asWorkspaceEdit(fix.edit));
}

/** The server's formatting of the active config (as `tritonlint format` writes it), applied. */
async function format(server: ServerController): Promise<void> {
  const editor = configEditor();
  const client = editor && running(server);
  if (!editor || !client) {
    return;
  }
  const document = editor.document;
  const edits = await client.sendRequest(DocumentFormattingRequest.type, {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    options: { tabSize: Number(editor.options.tabSize) || 2, insertSpaces: editor.options.insertSpaces !== false },
  });
  if (!edits || edits.length === 0) {
    // Already formatted, or refused for a syntax error (the server logs which).
    void vscode.window.setStatusBarMessage('tritonlint: no formatting changes (the output channel says why)', 3_000);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.set(document.uri, await client.protocol2CodeConverter.asTextEdits(edits));
  await vscode.workspace.applyEdit(edit);
}

/**
 * The documentation of a rule: the one given, else that of the tritonlint finding under the
 * cursor, else the code under the cursor, else the one the user picks.
 */
async function showRuleDocumentation(
  server: ServerController,
  documents: RuleDocuments,
  given: string | undefined,
): Promise<void> {
  const client = running(server);
  if (!client) {
    return;
  }
  const code = given ?? codeAtCursor() ?? (await pickRule(client));
  if (!code) {
    return;
  }
  let answer: RuleDocumentationResponse;
  try {
    answer = await client.sendRequest<RuleDocumentationResponse>(RULE_DOCUMENTATION, { code });
  } catch (error) {
    void vscode.window.showErrorMessage(`tritonlint: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const uri = documents.put(answer);
  await vscode.commands.executeCommand('markdown.showPreview', uri);
}

function codeAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const position = editor.selection.active;
  const finding = vscode.languages
    .getDiagnostics(editor.document.uri)
    .find((diagnostic) => diagnostic.source === 'tritonlint' && diagnostic.range.contains(position));
  return diagnosticCode(finding?.code) ?? ruleCodeAt(editor.document.lineAt(position.line).text, position.character);
}

async function pickRule(client: LanguageClient): Promise<string | undefined> {
  const { rules } = await client.sendRequest<RulesResponse>(RULES, {});
  const picked = await vscode.window.showQuickPick(
    rules.map((rule) => ({ label: rule.code, description: rule.name, detail: rule.summary })),
    { title: 'tritonlint: Show Rule Documentation', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.label;
}

/** The documentation shown, by rule: `tritonlint-rule:/TL501.md`. */
class RuleDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(answer: RuleDocumentationResponse): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${answer.code}.md` });
    const before = this.texts.get(uri.toString());
    this.texts.set(uri.toString(), answer.markdown);
    if (before !== undefined && before !== answer.markdown) {
      this.changed.fire(uri); // another tritonlint version documents it otherwise
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** Writes the release picked to the workspace's `tritonlint.tritonVersion`; the server re-checks. */
async function selectTritonRelease(server: ServerController): Promise<void> {
  const client = running(server);
  if (!client) {
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  const settings = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const response = await client.sendRequest<ReleasesResponse>(RELEASES, {});
  const picked = await vscode.window.showQuickPick(releaseItems(response, settings.get<string>('tritonVersion')), {
    title: 'tritonlint: the Triton release to check against',
    placeHolder: 'A container release (24.10) or a Triton release (2.51.0)',
    matchOnDescription: true,
  });
  if (!picked) {
    return;
  }
  const target = folder ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await settings.update('tritonVersion', picked.value, target);
}
