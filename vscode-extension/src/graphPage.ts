/**
 * The HTML of the ensemble graph's webview. Pure: nothing here talks to VS Code.
 */

/**
 * The webview's page: its script (from the extension's dist/) and inline style, nothing else
 * (the Content-Security-Policy forbids any other source, the network included).
 */
export function page(cspSource: string, script: string, nonce: string): string {
  const policy = [
    "default-src 'none'",
    `script-src ${cspSource} 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Ensemble Graph</title>
<style nonce="${nonce}">
body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: 12px; }
h2 { font-size: 14px; font-weight: 600; }
svg.ensemble { display: block; max-width: 100%; height: auto; margin-bottom: 16px; border: 1px solid var(--vscode-panel-border, #8884); }
svg text { fill: var(--vscode-foreground); text-anchor: middle; font-size: 12px; }
svg text.title { text-anchor: start; font-weight: 600; }
svg text.detail { fill: var(--vscode-descriptionForeground); font-size: 11px; }
.node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-foreground); stroke-width: 1; }
.node.input rect, .node.output rect { stroke: var(--vscode-textLink-foreground); }
.node.unproduced rect, .node.unused rect { stroke-dasharray: 4 3; }
.node.cycle rect { stroke-dasharray: 6 2 1 2; }
.frame rect { fill: var(--vscode-sideBar-background, #8881); stroke: var(--vscode-textLink-foreground); stroke-width: 1; stroke-dasharray: 5 3; }
svg text.frame-title { text-anchor: start; font-weight: 600; }
svg text.frame-title.link { cursor: pointer; fill: var(--vscode-textLink-foreground); }
svg text.frame-title.link:hover { text-decoration: underline; }
.node.link { cursor: pointer; }
.node.link:hover rect { stroke-width: 2; }
.edge .line { fill: none; stroke: var(--vscode-foreground); stroke-width: 1.2; }
.edge .hit { fill: none; stroke: transparent; stroke-width: 12; }
.edge { cursor: pointer; }
.edge:hover .line { stroke-width: 2.5; }
.edge text.label { font-size: 11px; fill: var(--vscode-descriptionForeground); }
marker path { fill: var(--vscode-foreground); }
.error rect, .edge.error .line { stroke: var(--vscode-errorForeground, #c62828); stroke-width: 2; }
.warning rect, .edge.warning .line { stroke: var(--vscode-editorWarning-foreground, #b8860b); stroke-width: 2; }
.info rect, .edge.info .line { stroke: var(--vscode-editorInfo-foreground, #1565c0); }
#tooltip { position: fixed; white-space: pre-wrap; max-width: 60ch; padding: 4px 8px;
  background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground);
  border: 1px solid var(--vscode-editorHoverWidget-border); pointer-events: none; z-index: 10; }
#problem { color: var(--vscode-errorForeground); }
</style>
</head>
<body data-state="waiting">
<p id="problem" hidden></p>
<div id="graph"><p>Asking tritonlint for the graph…</p></div>
<div id="tooltip" hidden></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
