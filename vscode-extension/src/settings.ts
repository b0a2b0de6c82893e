/**
 * What the extension answers when the server asks for the section `tritonlint`
 * (`workspace/configuration`): the settings the server reads, not those that say how the
 * extension starts it.
 */

/** The keys of the section that are the server's. */
export const SERVER_SETTINGS = ['tritonVersion', 'select', 'ignore', 'run'] as const;

export type ServerSettings = Partial<Record<(typeof SERVER_SETTINGS)[number], unknown>>;

/** The server's settings out of the whole section as VS Code has it. */
export function serverSettings(section: unknown): ServerSettings {
  const settings: ServerSettings = {};
  if (typeof section !== 'object' || section === null) {
    return settings;
  }
  for (const key of SERVER_SETTINGS) {
    const value = (section as Record<string, unknown>)[key];
    if (value !== undefined) {
      settings[key] = value;
    }
  }
  return settings;
}
