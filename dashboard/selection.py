"""What the API offers (read by introspection) and GraphQL documents trimmed to it.

Pure: no I/O. The client asks the API for its schema once (cached) and builds every document
through :func:`operation`, so a field the API does not offer yet is left out of the request
instead of failing it. With no schema (introspection off) documents go out as written.

>>> spec = sel("registro rubro", status=sel("vigente"))
>>> render(spec, "SearchHit", None)
'registro rubro status { vigente }'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Spec = Mapping[str, "Spec | None"]
"""A selection set: field name -> sub-selection (None for a leaf; ``sel("*")`` for all leaves)."""

Operation = Literal["query", "mutation", "subscription"]

INTROSPECTION = """
query Capabilities {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types {
      name kind
      fields { name args { name type { ...T } } type { ...T } }
      inputFields { name type { ...T } }
      enumValues { name }
      possibleTypes { name }
    }
  }
}
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
"""

_LEAF_KINDS = frozenset({"SCALAR", "ENUM"})


def sel(names: str = "", **nested: Spec | None) -> Spec:
    """A selection: ``sel("a b", c=sel("d"))`` is ``a b c { d }``."""
    spec: dict[str, Spec | None] = dict.fromkeys(names.split())
    spec.update(nested)
    return spec


def on(**members: Spec) -> Spec:
    """Fragment hints: ``on(SearchPayload=sel(...))`` is ``... on SearchPayload { ... }``.

    With a known schema a union is selected by applying the whole spec to each member type
    (fields a member lacks are trimmed), so hints only add member-specific fields; without a
    schema they are sent as written.
    """
    spec: dict[str, Spec | None] = {"__typename": None}
    spec.update({f"... on {name}": sub for name, sub in members.items()})
    return spec


@dataclass(frozen=True)
class FieldInfo:
    type_ref: str  # e.g. "[SearchHit!]!"
    named: str  # e.g. "SearchHit"
    args: Mapping[str, str] = field(default_factory=dict)  # arg -> type_ref


@dataclass(frozen=True)
class TypeInfo:
    kind: str
    fields: Mapping[str, FieldInfo] = field(default_factory=dict)
    enum_values: tuple[str, ...] = ()
    possible_types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Schema:
    """The parts of an introspection result the dashboard needs."""

    roots: Mapping[Operation, str]
    types: Mapping[str, TypeInfo]

    @classmethod
    def from_introspection(cls, data: Mapping[str, Any]) -> Schema:
        raw = data["__schema"]
        roots: dict[Operation, str] = {}
        for op, key in (
            ("query", "queryType"),
            ("mutation", "mutationType"),
            ("subscription", "subscriptionType"),
        ):
            if raw.get(key):
                roots[op] = raw[key]["name"]  # type: ignore[index]
        types = {t["name"]: _type_info(t) for t in raw["types"]}
        return cls(roots=roots, types=types)

    def root_of(self, name: str) -> Operation | None:
        """Which operation offers the root field ``name`` (query first), or None."""
        for op in ("query", "mutation", "subscription"):
            root = self.roots.get(op)  # type: ignore[call-overload]
            if root and name in self.types[root].fields:
                return op  # type: ignore[return-value]
        return None

    def has(self, type_name: str, field_name: str) -> bool:
        info = self.types.get(type_name)
        return info is not None and field_name in info.fields

    def enum_values(self, type_name: str) -> tuple[str, ...]:
        info = self.types.get(type_name)
        return info.enum_values if info else ()

    def field_type(self, type_name: str, field_name: str) -> FieldInfo | None:
        info = self.types.get(type_name)
        return info.fields.get(field_name) if info else None


def _type_ref(t: Mapping[str, Any]) -> str:
    if t["kind"] == "NON_NULL":
        return _type_ref(t["ofType"]) + "!"
    if t["kind"] == "LIST":
        return "[" + _type_ref(t["ofType"]) + "]"
    return str(t["name"])


def _named(t: Mapping[str, Any]) -> str:
    while t.get("ofType"):
        t = t["ofType"]
    return str(t["name"])


def _type_info(t: Mapping[str, Any]) -> TypeInfo:
    fields: dict[str, FieldInfo] = {}
    for f in (t.get("fields") or []) + (t.get("inputFields") or []):
        args = {a["name"]: _type_ref(a["type"]) for a in f.get("args") or []}
        fields[f["name"]] = FieldInfo(_type_ref(f["type"]), _named(f["type"]), args)
    values = tuple(v["name"] for v in t.get("enumValues") or [])
    possible = tuple(p["name"] for p in t.get("possibleTypes") or [])
    return TypeInfo(kind=t["kind"], fields=fields, enum_values=values, possible_types=possible)


def render(spec: Spec, type_name: str, schema: Schema | None, depth: int = 0) -> str:
    """The selection set body for ``type_name``, without the fields the schema lacks."""
    flat = {k: v for k, v in spec.items() if not k.startswith("... on ")}
    hints = {k.removeprefix("... on "): v for k, v in spec.items() if k.startswith("... on ")}
    if schema is None:  # hints name the union members; without hints the type is an object
        if not hints:
            return " ".join(dict.fromkeys(_render_flat(flat, type_name, None, depth)))
        frags = [f"... on {m} {{ {render(h or {}, m, None, depth)} }}" for m, h in hints.items()]
        return " ".join(["__typename", *frags])
    info = schema.types.get(type_name)
    if info is not None and info.kind in {"UNION", "INTERFACE"}:
        parts = ["__typename"]
        for member in info.possible_types:
            body = render({**flat, **(hints.get(member) or {})}, member, schema, depth)
            if body.strip() and body != "__typename":
                parts.append(f"... on {member} {{ {body} }}")
        return " ".join(dict.fromkeys(parts))
    own = {**flat, **(hints.get(type_name) or {})}
    return " ".join(dict.fromkeys(_render_flat(own, type_name, schema, depth)))


def _render_flat(spec: Spec, type_name: str, schema: Schema | None, depth: int) -> list[str]:
    parts: list[str] = []
    for key, sub in spec.items():
        if key == "*":
            parts.extend(_all_leaves(type_name, schema, depth))
        elif key == "__typename":
            parts.append(key)
        else:
            parts.extend(_render_field(key, sub, type_name, schema, depth))
    return parts


def _render_field(
    name: str, sub: Spec | None, type_name: str, schema: Schema | None, depth: int
) -> list[str]:
    if schema is None:
        return [name if sub is None else f"{name} {{ {render(sub, '', None, depth + 1)} }}"]
    info = schema.field_type(type_name, name)
    if info is None:
        return []
    kind = schema.types[info.named].kind if info.named in schema.types else "SCALAR"
    if kind in _LEAF_KINDS:
        return [name]
    body = render(sub or sel("*"), info.named, schema, depth + 1)
    return [f"{name} {{ {body} }}"] if body else []


def _all_leaves(type_name: str, schema: Schema | None, depth: int) -> list[str]:
    """Every leaf field of ``type_name`` and, two levels deep, of its object fields."""
    if schema is None or type_name not in schema.types:
        return []
    out: list[str] = []
    for name, info in schema.types[type_name].fields.items():
        if info.args and any(ref.endswith("!") for ref in info.args.values()):
            continue
        kind = schema.types[info.named].kind if info.named in schema.types else "SCALAR"
        if kind in _LEAF_KINDS:
            out.append(name)
        elif kind == "OBJECT" and depth < 2:
            body = render(sel("*"), info.named, schema, depth + 1)
            if body:
                out.append(f"{name} {{ {body} }}")
    return out


def prune_input(value: Any, type_name: str, schema: Schema | None) -> Any:
    """Drop None values and, when the schema is known, input fields it does not accept."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if item is None:
                continue
            info = schema.field_type(type_name, key) if schema else None
            if schema is not None and info is None:
                continue
            out[key] = prune_input(item, info.named if info else "", schema)
        return out
    if isinstance(value, list | tuple):
        return [prune_input(v, type_name, schema) for v in value]
    return value


def operation(
    schema: Schema | None,
    root: str,
    spec: Spec | None,
    variables: Mapping[str, Any],
    fallback_types: Mapping[str, str],
    fallback_op: Operation = "query",
) -> tuple[str, dict[str, Any]] | None:
    """``(document, variables)`` calling ``root``; None when the API does not offer it.

    Argument types come from the schema (``fallback_types`` without one); arguments the
    field does not take and None values are dropped; input objects are pruned likewise.
    """
    op: Operation | None = fallback_op
    arg_types: Mapping[str, str] = fallback_types
    return_type = ""
    if schema is not None:
        op = schema.root_of(root)
        if op is None:
            return None
        info = schema.types[schema.roots[op]].fields[root]
        arg_types, return_type = info.args, info.named
    sent: dict[str, Any] = {}
    for name, value in variables.items():
        if value is None or name not in arg_types:
            continue
        named = arg_types[name].strip("[]!")
        sent[name] = prune_input(value, named, schema)
    decl = ", ".join(f"${n}: {arg_types[n]}" for n in sent)
    call = ", ".join(f"{n}: ${n}" for n in sent)
    head = f"{op} {_camel(root)}" + (f"({decl})" if decl else "")
    target = root + (f"({call})" if call else "")
    body = render(spec, return_type, schema) if spec is not None else ""
    if spec is not None and schema is not None and not body:
        leaf = schema.types.get(return_type)
        body = "" if leaf is None or leaf.kind in _LEAF_KINDS else "__typename"
    selection = f" {{ {body} }}" if body else ""
    return f"{head} {{ {target}{selection} }}", sent


def _camel(name: str) -> str:
    return name[:1].upper() + name[1:]
