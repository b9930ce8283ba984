"""GraphiQL at /graphql loads only vendored files served by the API (no CDN, no internet)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from api.app import create_app
from api.graphiql import ASSETS_DIR, ASSETS_PATH
from api.services.container import Services


def test_graphiql_page_and_assets_are_local(bundled: Services) -> None:
    with TestClient(create_app(services=bundled)) as client:
        page = client.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 200
        sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert sources and all(s.startswith(ASSETS_PATH + "/") for s in sources)
        assert "unpkg" not in page.text and "cdn" not in page.text.lower()
        for source in sources:
            asset = client.get(source)
            assert asset.status_code == 200 and len(asset.content) > 1000, source


def test_vendored_assets_keep_their_licences() -> None:
    names = {p.name for p in ASSETS_DIR.iterdir()}
    assert {"LICENSE.graphiql", "LICENSE.react", "LICENSE.react-dom", "VERSIONS"} <= names
    for licence in ("LICENSE.graphiql", "LICENSE.react", "LICENSE.react-dom"):
        assert "MIT License" in (ASSETS_DIR / licence).read_text(encoding="utf-8")
    css = (ASSETS_DIR / "graphiql.min.css").read_text(encoding="utf-8")
    assert not re.search(r"url\((?!data:)", css)  # fonts and images inlined
