"""Remove secrets and internals from text that leaves the process (client errors, log lines).

``redact`` keeps a message readable while hiding what a caller must never see: credentials
inside URLs, bearer tokens and API keys, and (with ``hide_locations``) whole URLs and file
paths, which name hosts and the server's layout.
"""

from __future__ import annotations

import re

_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s:@'\"]*(?::[^/\s@'\"]*)?@")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}")
_KEY_PAIRS = re.compile(
    r"(?i)\b(api[_-]?key|apikey|access[_-]?token|token|secret|password|passwd|key"
    r"|x-api-key)\b(\s*[=:]\s*|\"\s*:\s*\"|'\s*:\s*')[^\s&,;'\"}]+"
)
_SECRET_LIKE = re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}\b")
_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s'\"<>]+")
_PATH = re.compile(r"(?<![\w:/])(?:~|\.{1,2})?/(?:[\w.@+-]+/)+[\w.@+-]*")
REDACTED = "[redacted]"


def redact(text: str, hide_locations: bool = False) -> str:
    """``text`` without credentials; with ``hide_locations`` also without URLs and paths.

    >>> redact("failed for url 'http://user:pass@host/v1' key=abc123")
    "failed for url 'http://[redacted]@host/v1' key=[redacted]"
    >>> redact("cannot open /srv/var/store.sqlite3 at http://h/v1", hide_locations=True)
    'cannot open <path> at <url>'
    """
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _KEY_PAIRS.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    text = _SECRET_LIKE.sub(REDACTED, text)
    if hide_locations:
        text = _URL.sub("<url>", text)
        text = _PATH.sub("<path>", text)
    return text


def redact_secrets(text: str, secrets: tuple[str | None, ...]) -> str:
    """``redact`` plus every configured secret value, wherever it appears."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    return redact(text)
