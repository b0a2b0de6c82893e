/**
 * The settings that name a program to run, and how they are read in a workspace the user has
 * not trusted: from the user's own settings only, never from the workspace's
 * (`.vscode/settings.json` is the workspace's to write: it could name any program).
 *
 * package.json declares the same keys as `restrictedConfigurations`, so that VS Code tells
 * the user they are ignored there; the extension does not rely on that alone.
 */

/** The keys of the section `tritonlint` that name a program. */
export const PROGRAM_SETTINGS = ['path', 'interpreter'] as const;

/** The values of one setting at each level, as `WorkspaceConfiguration.inspect` has them. */
export interface Inspected {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The value that applies: the most specific level that sets one; in an untrusted workspace,
 * the user's (global) value or the default, whatever the workspace sets.
 */
export function effectiveValue(inspected: Inspected | undefined, trusted: boolean): unknown {
  if (!inspected) {
    return undefined;
  }
  const levels = trusted
    ? [inspected.workspaceFolderValue, inspected.workspaceValue, inspected.globalValue, inspected.defaultValue]
    : [inspected.globalValue, inspected.defaultValue];
  return levels.find((value) => value !== undefined);
}
