#!/usr/bin/env bash
# Installs what tests/graph/test_renderers.py and test_graphviz.py run: Chromium and Node as
# the VS Code end-to-end setup installs them (its functions, into the same cache), and the npm
# packages of tools/graph-render/ (mermaid, playwright-core, @hpcc-js/wasm-graphviz) exactly
# as its package-lock.json pins them.
# Idempotent: with Chromium, Node and the lock file unchanged it installs nothing.
#
#   scripts/graph_render/setup.sh
#
# Environment: TRITONLINT_E2E_CACHE and TRITONLINT_E2E_CHROMIUM, as for
# scripts/vscode_e2e/setup.sh.
#
# Exit status: 0 ready (paths in $TRITONLINT_E2E_CACHE/graph-render.json); 77 the machine
# lacks something this script cannot install: the test skips; anything else is a failure.
set -euo pipefail

BROWSER_ONLY=1
# shellcheck source=../vscode_e2e/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/../vscode_e2e/setup.sh"

TOOLS=$ROOT/tools/graph-render
INSTALL=$CACHE/graph-render

graph_render_packages() {
  local installed
  installed="node $(node --version) lock $(sha256sum "$TOOLS/package-lock.json" | cut -c1-64)"
  [[ -d $INSTALL/node_modules && $(cat "$INSTALL/.installed" 2>/dev/null) == "$installed" ]] &&
    return 0
  npm ping >/dev/null 2>&1 || unavailable "the npm registry ($(npm config get registry)) cannot be reached"
  log "graph-render: npm ci"
  rm -rf "$INSTALL" && mkdir -p "$INSTALL"
  cp "$TOOLS/package.json" "$TOOLS/package-lock.json" "$INSTALL/"
  (cd "$INSTALL" && npm ci --no-audit --no-fund --ignore-scripts >install.log 2>&1) ||
    fail "npm ci of tools/graph-render (in $INSTALL): $(tail -20 "$INSTALL/install.log")"
  printf '%s\n' "$installed" >"$INSTALL/.installed"
}

mkdir -p "$CACHE"
system_packages
node_and_npm
export PATH=$NODE_BIN:$PATH npm_config_update_notifier=false
graph_render_packages
cat >"$CACHE/graph-render.json" <<JSON
{
  "node": "$NODE_BIN/node",
  "chromium": "$CHROMIUM",
  "modules": "$INSTALL/node_modules"
}
JSON
