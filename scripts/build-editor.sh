#!/usr/bin/env bash
# Bundles the kata page's editor (CodeMirror 6 from the npm registry, editor/) with esbuild into
# static/vendor/editor.js, which is git-ignored; `cargo build` then compiles it into the binary.
# Without the bundle the kata page keeps its plain textarea. Needs node and npm at build time
# only: the service never fetches anything at run time.
set -euo pipefail
cd "$(dirname "$0")/../editor"
npm ci --no-audit --no-fund --loglevel=error
mkdir -p ../static/vendor
node_modules/.bin/esbuild src/editor.js --bundle --minify --format=iife --target=es2020 \
  --outfile=../static/vendor/editor.js
echo "build-editor.sh: wrote static/vendor/editor.js; rebuild the server to embed it"
