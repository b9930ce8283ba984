"""GraphiQL served from vendored files, so ``/graphql`` works on a network without internet.

Strawberry's own page loads GraphiQL and React from a CDN. ``api/static/graphiql/`` holds the
pinned builds from the npm registry with their licences (see ``VERSIONS`` there and
``scripts/vendor_graphiql.sh``); :data:`ASSETS_PATH` serves them and :data:`PAGE` loads them.
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

ASSETS_DIR = Path(__file__).resolve().parent / "static" / "graphiql"
ASSETS_PATH = "/static/graphiql"

PAGE = f"""<!doctype html>
<html lang="es">
  <head>
    <meta charset="utf-8" />
    <title>Vigencia · GraphiQL</title>
    <meta name="robots" content="noindex" />
    <style>html, body, #graphiql {{ height: 100%; margin: 0; overflow: hidden; }}</style>
    <link rel="stylesheet" href="{ASSETS_PATH}/graphiql.min.css" />
  </head>
  <body>
    <div id="graphiql">Cargando GraphiQL…</div>
    <script src="{ASSETS_PATH}/react.production.min.js"></script>
    <script src="{ASSETS_PATH}/react-dom.production.min.js"></script>
    <script src="{ASSETS_PATH}/graphiql.min.js"></script>
    <script>
      const url = window.location.href.split("?")[0].split("#")[0];
      const ws = new URL(url);
      ws.protocol = ws.protocol === "https:" ? "wss:" : "ws:";
      const fetcher = GraphiQL.createFetcher({{ url: url, subscriptionUrl: ws.toString() }});
      const root = ReactDOM.createRoot(document.getElementById("graphiql"));
      root.render(React.createElement(GraphiQL, {{
        fetcher: fetcher,
        defaultEditorToolsVisibility: true,
        defaultQuery: "query {{\\n  corpusStats {{\\n    ... on CorpusStatsType {{ total chunks }}\\n  }}\\n}}\\n",
      }}));
    </script>
  </body>
</html>
"""


def assets_route() -> Mount:
    """The vendored GraphiQL files under :data:`ASSETS_PATH`."""
    return Mount(ASSETS_PATH, app=StaticFiles(directory=ASSETS_DIR), name="graphiql-assets")
