#!/usr/bin/env bash
# Bundles the kata page's editor (CodeMirror 6 from the npm registry, editor/) with esbuild into
# static/vendor/editor.js. The bundle is committed, so a fresh checkout serves the editor with no
# npm step; run this after changing editor/ and commit the result. The build is reproducible from
# editor/package-lock.json, and .ci/run rebuilds it and fails when the committed file differs.
# `cargo build` compiles the bundle into the binary; without it the kata page keeps its textarea.
set -euo pipefail
cd "$(dirname "$0")/../editor"
npm ci --no-audit --no-fund --loglevel=error
mkdir -p ../static/vendor
node_modules/.bin/esbuild src/editor.js --bundle --minify --format=iife --target=es2020 \
  --outfile=../static/vendor/editor.js
echo "build-editor.sh: wrote static/vendor/editor.js; rebuild the server to embed it"
