/**
 * The interpreter selected in the Python extension (`ms-python.python`), where it is installed.
 */
import * as vscode from 'vscode';

const PYTHON_EXTENSION = 'ms-python.python';

/** The part of the Python extension's API used here (its `environments` API). */
interface PythonApi {
  ready?: Promise<void>;
  environments: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
    resolveEnvironment(environment: {
      id: string;
      path: string;
    }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION);
  if (!extension) {
    return undefined;
  }
  const api = extension.isActive ? extension.exports : await extension.activate();
  await api?.ready;
  return api?.environments ? api : undefined;
}

/**
 * The selected interpreter's executable for `resource`'s folder; undefined without the
 * Python extension. A failure of that extension is logged and counts as no selection.
 */
export async function selectedInterpreter(
  log: vscode.LogOutputChannel,
  resource?: vscode.Uri,
): Promise<string | undefined> {
  try {
    const api = await pythonApi();
    if (!api) {
      return undefined;
    }
    const active = api.environments.getActiveEnvironmentPath(resource);
    const resolved = await api.environments.resolveEnvironment(active);
    return resolved?.executable.uri?.fsPath;
  } catch (error) {
    log.warn(`could not ask the Python extension for the selected interpreter: ${String(error)}`);
    return undefined;
  }
}

/** Calls `listener` when another interpreter is selected; nothing without the Python extension. */
export async function onInterpreterChange(
  log: vscode.LogOutputChannel,
  listener: () => void,
): Promise<vscode.Disposable | undefined> {
  try {
    return (await pythonApi())?.environments.onDidChangeActiveEnvironmentPath(() => listener());
  } catch (error) {
    log.warn(`could not follow the Python extension's interpreter selection: ${String(error)}`);
    return undefined;
  }
}
