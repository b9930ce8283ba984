#!/usr/bin/env bash
# Re-fetch the GraphiQL files served at /static/graphiql from the npm registry (npm pack), with
# their licences. Pins: api/static/graphiql/VERSIONS. Run from the repository root.
set -euo pipefail
dest="$(pwd)/api/static/graphiql"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent graphiql@3.8.3 react@18.2.0 react-dom@18.2.0 >/dev/null
for f in *.tgz; do mkdir -p "${f%.tgz}"; tar xzf "$f" -C "${f%.tgz}"; done
cp graphiql-3.8.3/package/graphiql.min.js graphiql-3.8.3/package/graphiql.min.css "$dest/"
cp graphiql-3.8.3/package/LICENSE "$dest/LICENSE.graphiql"
cp react-18.2.0/package/umd/react.production.min.js "$dest/"
cp react-18.2.0/package/LICENSE "$dest/LICENSE.react"
cp react-dom-18.2.0/package/umd/react-dom.production.min.js "$dest/"
cp react-dom-18.2.0/package/LICENSE "$dest/LICENSE.react-dom"
cd "$dest"
files="graphiql.min.js graphiql.min.css react.production.min.js react-dom.production.min.js"
sha256sum $files  # for VERSIONS: the files as the browser runs them
for f in $files; do gzip -9 -n -f "$f"; done  # stored and served gzipped
