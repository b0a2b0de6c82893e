/**
 * tritonlint's own requests (tritonlint/lsp/custom_requests.py; docs/editors.md), their
 * answers, and what the commands make of them. Pure: nothing here talks to VS Code.
 */
import type * as vscode from 'vscode';

export const STATUS = 'tritonlint/status';
export const RELEASES = 'tritonlint/releases';
export const RULES = 'tritonlint/rules';
export const RULE_DOCUMENTATION = 'tritonlint/ruleDocumentation';

export interface StatusResponse {
  version: string;
  tritonRelease: string;
  tritonContainer: string | null;
}

export interface Release {
  release: string;
  container: string | null;
}

export interface ReleasesResponse {
  releases: Release[];
}

export interface RuleSummary {
  code: string;
  name: string;
  summary: string;
}

export interface RulesResponse {
  rules: RuleSummary[];
}

export interface RuleDocumentationResponse {
  code: string;
  name: string;
  markdown: string;
}

export interface ReleaseItem extends vscode.QuickPickItem {
  /** What `tritonlint.tritonVersion` is set to; undefined: the setting is removed. */
  value: string | undefined;
}

/**
 * The quick pick of releases, newest first as the server sends them: the container release
 * as the label where known (`24.10`, as NVIDIA's images are named), the release beside it.
 * First, the choice of no setting (the project's `triton-version`, else the newest).
 * `current`: the setting's value now, marked.
 */
export function releaseItems(response: ReleasesResponse, current: string | undefined): ReleaseItem[] {
  const setting = current?.trim() || undefined;
  const items: ReleaseItem[] = [
    {
      label: 'Project default',
      description: setting === undefined ? 'current' : undefined,
      detail: "The project settings' triton-version, else the newest release",
      value: undefined,
    },
  ];
  for (const { release, container } of response.releases) {
    const chosen = setting !== undefined && (setting === release || setting === container);
    const triton = `Triton ${release}`;
    items.push({
      label: container ?? release,
      description:
        [container ? triton : undefined, chosen ? 'current' : undefined].filter(Boolean).join(' · ') || undefined,
      value: release,
    });
  }
  return items;
}

/** A rule code (`TL501`) at `character` of `line`, if the cursor is on one. */
export function ruleCodeAt(line: string, character: number): string | undefined {
  for (const match of line.matchAll(/\bTL\d{3,}\b/g)) {
    const start = match.index ?? 0;
    if (character >= start && character <= start + match[0].length) {
      return match[0];
    }
  }
  return undefined;
}

/** A diagnostic's code as VS Code has it: a string, a number, or with its link. */
export function diagnosticCode(code: string | number | { value: string | number } | undefined): string | undefined {
  if (code === undefined) {
    return undefined;
  }
  return String(typeof code === 'object' ? code.value : code);
}
