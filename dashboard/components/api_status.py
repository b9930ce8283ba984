"""How the pages show the API's state: down (with the URL tried), missing features, errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import streamlit as st

from dashboard import client
from dashboard.selection import Schema

P = ParamSpec("P")
T = TypeVar("T")


def show_unreachable(exc: client.ApiError) -> None:
    st.error(
        "**No se pudo conectar con la API de Vigencia.**\n\n"
        f"URL intentada: `{exc.url}`\n\n"
        f"Detalle: {exc.message}\n\n"
        "Inicie la API con `vigencia serve` (o `make run`) o corrija `VIGENCIA_API_URL`.",
        icon=":material/cloud_off:",
    )


def not_available(what: str, missing: str) -> None:
    """The note a page shows where the API lacks an operation or field (yet)."""
    st.info(
        f"**{what}: no disponible aún.** La API en `{client.api_url()}` todavía no ofrece "
        f"`{missing}`.",
        icon=":material/schedule:",
    )


def show_error(exc: client.ApiError) -> None:
    if isinstance(exc, client.ApiUnreachable):
        show_unreachable(exc)
    elif isinstance(exc, client.ApiNotAvailable):
        not_available("Esta función", exc.feature)
    elif isinstance(exc, client.ApiInputError):
        st.warning(f"Dato no válido en `{exc.field}`: {exc.message}", icon=":material/edit:")
    elif isinstance(exc, client.ApiServiceError):
        st.error(
            f"El servicio «{exc.service}» de la API falló: {exc.message}. Intente de nuevo.",
            icon=":material/error:",
        )
    else:
        st.error(f"La API respondió con un error: {exc.message}", icon=":material/error:")


def require_api() -> Schema | None:
    """The API's schema; when the API is down, say so with the URL and stop the page."""
    try:
        return client.capabilities()
    except client.ApiError as exc:
        show_unreachable(exc)
        st.stop()
    raise AssertionError("unreachable")  # pragma: no cover - st.stop() raises


def attempt(what: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
    """Call the client; on failure show why (stopping the page if the API is down)."""
    try:
        return fn(*args, **kwargs)
    except client.ApiNotAvailable as exc:
        not_available(what, exc.feature)
    except client.ApiUnreachable as exc:
        show_unreachable(exc)
        st.stop()
    except client.ApiError as exc:
        show_error(exc)
    return None


def offers(schema: Schema | None, root: str, what: str) -> bool:
    """Whether the API has the root operation ``root``; if not, show the note."""
    if schema is None or schema.root_of(root) is not None:
        return True
    not_available(what, root)
    return False


def refresh_button(key: str) -> None:
    if st.button(
        "Actualizar", key=key, icon=":material/refresh:", help="Vuelve a consultar la API"
    ):
        client.clear_cache()
        st.rerun()
