"""GraphiQL served from vendored files, so ``/graphql`` works on a network without internet.

Strawberry's own page loads GraphiQL and React from a CDN. ``api/static/graphiql/`` holds the
pinned builds from the npm registry, gzipped, with their licences (see ``VERSIONS`` there and
``scripts/vendor_graphiql.sh``); :data:`ASSETS_PATH` serves them (compressed to browsers that
accept gzip) and :data:`PAGE` loads them.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

ASSETS_DIR = Path(__file__).resolve().parent / "static" / "graphiql"
ASSETS_PATH = "/static/graphiql"
MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}

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


@cache
def compressed(name: str) -> bytes | None:
    """The gzipped bytes of one vendored file (``name`` without ``.gz``), read once."""
    if Path(name).suffix not in MEDIA_TYPES or "/" in name:
        return None
    path = ASSETS_DIR / f"{name}.gz"
    return path.read_bytes() if path.is_file() else None


def asset(name: str) -> bytes | None:
    """One vendored file as the browser runs it."""
    data = compressed(name)
    return None if data is None else gzip.decompress(data)


async def serve_asset(request: Request) -> Response:
    name = request.path_params["name"]
    data = compressed(name)
    if data is None:
        return PlainTextResponse("Not Found", 404)
    headers = {"cache-control": "public, max-age=86400", "vary": "accept-encoding"}
    media_type = MEDIA_TYPES[Path(name).suffix]
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(data, media_type=media_type, headers=headers | {"content-encoding": "gzip"})
    return Response(gzip.decompress(data), media_type=media_type, headers=headers)


def assets_route() -> Route:
    """The vendored GraphiQL files under :data:`ASSETS_PATH`."""
    return Route(ASSETS_PATH + "/{name}", serve_asset, name="graphiql-assets")
