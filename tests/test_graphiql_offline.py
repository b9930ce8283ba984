"""GraphiQL at /graphql loads only vendored files served by the API (no CDN, no internet)."""

from __future__ import annotations

import hashlib
import re

from starlette.testclient import TestClient

from api.app import create_app
from api.graphiql import ASSETS_DIR, ASSETS_PATH, asset
from api.services.container import Services


def test_graphiql_page_and_assets_are_local(bundled: Services) -> None:
    with TestClient(create_app(services=bundled)) as client:
        page = client.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 200
        sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert sources and all(s.startswith(ASSETS_PATH + "/") for s in sources)
        assert "unpkg" not in page.text and "cdn" not in page.text.lower()
        for source in sources:
            served = client.get(source)  # httpx asks for gzip and decompresses
            assert served.status_code == 200 and len(served.content) > 1000, source
            assert served.headers["content-encoding"] == "gzip"
            assert served.content == asset(source.rsplit("/", 1)[1])
        plain = client.get(
            f"{ASSETS_PATH}/react.production.min.js", headers={"accept-encoding": ""}
        )
        assert "content-encoding" not in plain.headers
        assert plain.text.startswith("/**") and "React" in plain.text
        for missing in ("nothing.js", "VERSIONS", "LICENSE.react", "..%2Fgraphiql.py"):
            assert client.get(f"{ASSETS_PATH}/{missing}").status_code == 404, missing


def test_vendored_assets_keep_their_licences() -> None:
    names = {p.name for p in ASSETS_DIR.iterdir()}
    assert {"LICENSE.graphiql", "LICENSE.react", "LICENSE.react-dom", "VERSIONS"} <= names
    for licence in ("LICENSE.graphiql", "LICENSE.react", "LICENSE.react-dom"):
        assert "MIT License" in (ASSETS_DIR / licence).read_text(encoding="utf-8")
    css = (asset("graphiql.min.css") or b"").decode("utf-8")
    assert not re.search(r"url\((?!data:)", css)  # fonts and images inlined


def test_vendored_assets_match_their_pinned_checksums() -> None:
    pinned = re.findall(r"^([0-9a-f]{64})  (\S+)$", (ASSETS_DIR / "VERSIONS").read_text(), re.M)
    assert len(pinned) == 4
    for digest, name in pinned:
        assert hashlib.sha256(asset(name) or b"").hexdigest() == digest, name
