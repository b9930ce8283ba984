"""How the pages show the API's state: down (with the URL tried) and errors, in Spanish."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import streamlit as st

from dashboard import client
from dashboard.formatting import escape_md
from dashboard.spanish import REFUSALS, TRANSIENT, error_es, refusal_es, service_es
from dashboard.stats_payloads import CorpusStats

P = ParamSpec("P")
T = TypeVar("T")


def show_unreachable(exc: client.ApiError) -> None:
    st.error(
        "**No se pudo conectar con la API de Vigencia.**\n\n"
        f"URL intentada: `{exc.url}`\n\n"
        f"Detalle: {escape_md(exc.message)}\n\n"
        "Inicie la API con `vigencia serve` (o `make run`) o corrija `VIGENCIA_API_URL`.",
        icon=":material/cloud_off:",
    )


def show_error(exc: client.ApiError) -> None:
    if isinstance(exc, client.ApiUnreachable):
        show_unreachable(exc)
    elif isinstance(exc, client.ApiInputError):
        st.warning(error_es(exc.field, exc.message), icon=":material/edit:")
    elif isinstance(exc, client.ApiServiceError):
        st.error(
            f"Falló el {service_es(exc.service)} de la API. Intente de nuevo en unos momentos.",
            icon=":material/error:",
        )
    elif isinstance(exc, client.ApiResponseError) and exc.code in TRANSIENT:
        st.warning(refusal_es(exc.code, exc.retry_after), icon=":material/hourglass_top:")
    else:
        code = exc.code if isinstance(exc, client.ApiResponseError) else None
        detail = "" if code in REFUSALS else f"\n\nDetalle: {escape_md(exc.message)}"
        st.error(refusal_es(code) + detail, icon=":material/error:")


def require_api() -> CorpusStats | None:
    """The corpus statistics (the filters' options); when the API is down, say so and stop.

    None when the API answers but cannot count its corpus (a ServiceError, shown).
    """
    return attempt("Estadísticas del corpus", client.corpus_stats)


def attempt(what: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
    """Call the client; on failure show why (stopping the page if the API is down)."""
    try:
        return fn(*args, **kwargs)
    except client.ApiUnreachable as exc:
        show_unreachable(exc)
        st.stop()
    except client.ApiError as exc:
        show_error(exc)
    return None


def refresh_button(key: str) -> None:
    if st.button(
        "Actualizar", key=key, icon=":material/refresh:", help="Vuelve a consultar la API"
    ):
        client.clear_cache()
        st.rerun()
