"""The API speaks English in its errors and codes; the analyst reads Spanish.

Pure: no Streamlit. ``error_es`` rewrites the API's known error messages; ``code_label`` and
``code_help`` give each code a Spanish name and a sentence for the hover.

>>> error_es("topK", "60 is outside 1..50")
'Resultados: 60 está fuera del intervalo 1 a 50.'
>>> error_es("query", "5000 characters, at most 2000")
'Consulta: tiene 5000 caracteres; el máximo es 2000.'
>>> code_label("PRE_REFORM")
'Anterior a la reforma'
"""

from __future__ import annotations

import re
from collections.abc import Callable

FIELDS = {
    "query": "Consulta",  # search, earliest, latest: the field is «Consulta» on their pages
    "question": "Pregunta",  # chat (a chat's query errors are named question)
    "topK": "Resultados",
    "maxReferences": "Referencias como máximo",
    "recencyWeight": "Peso de la recencia",
    "alpha": "Peso vectorial",
    "threshold": "Similitud mínima",
    "maxChunksPerTesis": "Fragmentos por tesis",
    "anioMin": "Año inicial",
    "anioMax": "Año final",
    "limit": "Límite",
    "offset": "Desplazamiento",
    "logId": "Búsqueda registrada",
    "registro": "Registro digital",
    "comment": "Comentario",
    "profile": "Perfil de puntuación",
    "windowHours": "Periodo",
    "filters": "Filtros",
    "materias": "Materias",
    "epocas": "Épocas",
}
SERVICES = {
    "store": "almacén de tesis",
    "embedder": "modelo de vectores",
    "llm": "modelo de lenguaje",
    "log": "registro de búsquedas",
    "judge": "evaluador",
}

_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]
_RULES: list[_Rule] = [
    (
        re.compile(r"^(-?[\d.]+) is outside (-?[\d.]+)\.\.(-?[\d.]+)$"),
        lambda m: f"{m[1]} está fuera del intervalo {m[2]} a {m[3]}.",
    ),
    (
        re.compile(r"^(\d+) characters, at most (\d+)$"),
        lambda m: f"tiene {m[1]} caracteres; el máximo es {m[2]}.",
    ),
    (re.compile(r"^must not be empty$"), lambda m: "no puede estar vacía."),
    (
        re.compile(r"^~(\d+) tokens, at most (\d+)$"),
        lambda m: (
            f"es demasiado larga (unos {m[1]} fragmentos de texto; el máximo es {m[2]}, "
            "alrededor de 150 palabras): resúmala en un párrafo."
        ),
    ),
    (re.compile(r"^contains a NUL character$"), lambda m: "contiene un carácter nulo."),
    (
        re.compile(r"^must be (\d+)\.\.(\d+) characters$"),
        lambda m: f"debe tener de {m[1]} a {m[2]} caracteres.",
    ),
    (
        re.compile(r"^(\d+) is after anioMax (\d+)$"),
        lambda m: f"{m[1]} es posterior al año final {m[2]}.",
    ),
    (
        re.compile(r"^(\d+) is not a registro digital$"),
        lambda m: f"{m[1]} no es un registro digital.",
    ),
    (
        re.compile(r"^(\d+) is not among the results of (.+)$"),
        lambda m: f"{m[1]} no está entre los resultados de esa búsqueda.",
    ),
    (
        re.compile(r"^no logged search with id (.+)$"),
        lambda m: "esa búsqueda ya no está en el registro.",
    ),
    (re.compile(r"^API key required$"), lambda m: "la API pide una clave (VIGENCIA_API_KEY)."),
]


def error_es(field: str | None, message: str) -> str:
    """An ``InputError`` as a Spanish sentence; unknown messages get a generic one."""
    label = FIELDS.get(field or "", field or "Dato")
    text = message.strip()
    for pattern, render in _RULES:
        match = pattern.match(text)
        if match:
            return f"{label}: {render(match)}"
    return f"{label}: valor no aceptado por la API."


REFUSALS = {
    "OVERLOADED": "La API está ocupada; reintente en unos segundos.",
    "RATE_LIMITED": "Demasiadas peticiones seguidas a la API; espere unos segundos y reintente.",
    "TIMEOUT": (
        "La API no terminó a tiempo; reintente, o acote la consulta (menos resultados, "
        "filtros o un periodo más corto)."
    ),
    "QUERY_TOO_COMPLEX": (
        "La API rechazó la petición por demasiado costosa; pida menos resultados o un periodo "
        "más corto."
    ),
    "TOO_LARGE": "La petición es demasiado grande para la API; acorte el texto.",
    "UNAUTHENTICATED": (
        "La API pide una clave: inicie el tablero con `VIGENCIA_API_KEY` (la clave de la API)."
    ),
    "BAD_USER_INPUT": "La API no aceptó un dato de la petición.",
    "BAD_REQUEST": "La API no pudo leer la petición.",
    "SERVICE_UNAVAILABLE": "Falló un servicio de la API. Intente de nuevo en unos momentos.",
    "SCHEMA_MISMATCH": (
        "La API no reconoce la petición del tablero: sus versiones no coinciden. Actualice la "
        "API o el tablero, el que esté atrasado."
    ),
}
TRANSIENT = {"OVERLOADED", "RATE_LIMITED", "TIMEOUT"}


def refusal_es(code: str | None, retry_after: int | None = None) -> str:
    """Why the API refused a request (its ``extensions.code``), and what to do about it.

    >>> refusal_es("OVERLOADED", 2)
    'La API está ocupada; reintente en unos segundos (pide esperar 2 s).'
    """
    text = REFUSALS.get(code or "", "La API devolvió un error; si persiste, revise su registro.")
    if retry_after and code in TRANSIENT:
        text = text.removesuffix(".") + f" (pide esperar {retry_after} s)."
    return text


def service_es(service: str | None) -> str:
    return SERVICES.get(service or "", service or "servicio")


CODES: dict[str, tuple[str, str]] = {
    "PRE_REFORM": (
        "Anterior a la reforma",
        "Publicada antes de la reforma de su materia: puede no reflejar el derecho vigente.",
    ),
    "PRE_NOVENA": (
        "Anterior a la Novena Época",
        "Criterio de épocas anteriores a 1995, descartado salvo que se pida lo histórico.",
    ),
    "SUPERSEDED": (
        "Perdió vigencia",
        "Según las notas del SJF, el criterio fue superado, abandonado o sustituido.",
    ),
    "MANY_PRE_REFORM": (
        "Muchas anteriores a la reforma",
        "Una parte grande de los resultados es anterior a la reforma de su materia.",
    ),
    "ALL_PRE_2000": (
        "Todas anteriores a 2000",
        "Búsquedas cuyos resultados son todos anteriores al año 2000.",
    ),
    "INVERSION": (
        "Inversión de fechas",
        "Una tesis antigua quedó por encima de una más reciente y vigente sobre el mismo tema.",
    ),
    "SUPERSEDED_RETRIEVED": (
        "Recuperadas sin vigencia",
        "Se mostraron criterios que perdieron vigencia.",
    ),
    "SUPERSEDED_CITED": (
        "Citadas sin vigencia",
        "Una respuesta citó un criterio que perdió vigencia.",
    ),
    "COVERAGE_GAP": (
        "Hueco de cobertura",
        "Una materia no tiene tesis posteriores a su reforma: hay que actualizar el corpus.",
    ),
}


def code_label(code: str | None) -> str:
    if not code:
        return "—"
    return CODES.get(code, (code.replace("_", " ").capitalize(), ""))[0]


def code_help(code: str | None) -> str:
    return CODES.get(code or "", ("", "Código de la API sin descripción."))[1]


WORDS = {
    "search": "búsqueda",
    "chat": "consulta",
    "relevance": "por relevancia",
    "date_sorted": "por fecha",
    "blend": "mezcla de fecha y relevancia",
    "earliest": "la más antigua",
    "latest": "la más reciente",
    "current": "vigente hoy",
    "default": "predeterminado",
    "seed": "semilla",
    "ok": "correcto",
    "degraded": "con fallos",
    "off": "apagado",
}


def word(value: str | None) -> str:
    """A lowercase API word (route, temporal intent, profile, status) in Spanish."""
    if not value:
        return "—"
    return WORDS.get(value, WORDS.get(value.lower(), value))
