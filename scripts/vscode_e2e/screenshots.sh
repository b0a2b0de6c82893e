#!/usr/bin/env bash
# Retakes the VS Code extension README's pictures (vscode-extension/images/diagnostics.png,
# problems.png, hover.png, completion.png, quickfix.png, format.png, status.png,
# rule-docs.png): runs the VS Code end-to-end tests, each session of which copies its
# screenshots there when every step went through.
#
#   scripts/vscode_e2e/screenshots.sh [pytest options]
#
# PYTHON: the interpreter with this checkout's tritonlint and pytest (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
TRITONLINT_E2E_UPDATE_IMAGES=1 exec "${PYTHON:-.venv/bin/python}" -m pytest tests/vscode "$@"
