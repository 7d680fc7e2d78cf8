"""The official Bot API schema (bot-api.json, shipped beside this module) as a checker.

Requests are parsed against it the way Telegram parses them (form fields arrive as
strings, JSON bodies as typed values; both are coerced to the declared types), and
every object the sandbox builds is checked against it, so the sandbox cannot hand the
bot something Telegram would never send.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from tg_mafia.sandbox.errors import bad_request
from tg_mafia.sandbox.world.files import Upload

PRIMITIVES = frozenset({"Integer", "String", "Boolean", "Float", "True", "InputFile"})
_INT_RE = re.compile(r"^\s*-?\d+\s*$")
_ARRAY = "Array of "


@dataclass(frozen=True)
class FieldSpec:
    name: str
    types: tuple[str, ...]
    required: bool


@dataclass(frozen=True)
class MethodSpec:
    name: str
    fields: Mapping[str, FieldSpec]
    returns: tuple[str, ...]


@dataclass(frozen=True)
class TypeSpec:
    name: str
    fields: Mapping[str, FieldSpec]
    subtypes: tuple[str, ...]


class _Mismatch(Exception):
    pass


def _fields(raw: Any) -> dict[str, FieldSpec]:
    return {
        f["name"]: FieldSpec(f["name"], tuple(f["types"]), bool(f["required"]))
        for f in raw.get("fields", [])
    }


# Telegram's own wording for a few missing parameters the bot is likely to hit.
_MISSING_WORDING = {
    ("sendMessage", "text"): "message text is empty",
    ("editMessageText", "text"): "message text is empty",
}


class Schema:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.version: str = str(data.get("version", "?"))
        # read-only: one Schema serves every sandbox of a process (`bundled`)
        self.methods: Mapping[str, MethodSpec] = MappingProxyType(
            {
                name: MethodSpec(name, _fields(m), tuple(m.get("returns", [])))
                for name, m in data["methods"].items()
            }
        )
        self.types: Mapping[str, TypeSpec] = MappingProxyType(
            {
                name: TypeSpec(name, _fields(t), tuple(t.get("subtypes", [])))
                for name, t in data["types"].items()
            }
        )
        # the bot's capabilities: the User fields that only getMe returns
        self.get_me_fields = tuple(
            f["name"]
            for f in data["types"]["User"].get("fields", [])
            if "Returned only in getMe" in str(f.get("description", ""))
        )
        # Telegram resolves method names case-insensitively
        self._by_lower = {name.lower(): spec for name, spec in self.methods.items()}

    @staticmethod
    def bundled() -> Schema:
        """The Bot API schema shipped with the sandbox, read once per process: it never
        changes, nothing changes a Schema, and a test run builds hundreds of sandboxes,
        each of which would parse and index it again."""
        return _bundled()

    def method(self, name: str) -> MethodSpec | None:
        return self._by_lower.get(name.lower())

    # -- requests -------------------------------------------------------------

    def parse_params(
        self, spec: MethodSpec, raw: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[str]]:
        """Coerce `raw` to the declared types; return (params, unknown parameter names).

        Raises ApiError 400 for a missing required parameter or a value of the wrong type.
        """
        params: dict[str, Any] = {}
        unknown: list[str] = []
        for name, value in raw.items():
            field = spec.fields.get(name)
            if field is None:
                unknown.append(name)  # Telegram ignores it; the call record keeps it
                params[name] = value
                continue
            if value is None:
                continue
            try:
                params[name] = self._coerce(field.types, value)
            except _Mismatch:
                raise bad_request(
                    f'can\'t parse parameter "{name}": expected {" or ".join(field.types)}'
                ) from None
        for field in spec.fields.values():
            if field.required and field.name not in params:
                wording = _MISSING_WORDING.get((spec.name, field.name), f"{field.name} is empty")
                raise bad_request(wording)
        return params, unknown

    def _coerce(self, types: tuple[str, ...], value: Any) -> Any:
        for type_name in types:
            try:
                return self._coerce_one(type_name, value)
            except _Mismatch:
                continue
        raise _Mismatch

    def _coerce_one(self, type_name: str, value: Any) -> Any:
        if isinstance(value, Upload):  # a multipart file part
            if type_name == "InputFile":
                return value
            raise _Mismatch
        if type_name.startswith(_ARRAY):
            if isinstance(value, str):
                value = _json_or_mismatch(value)
            if not isinstance(value, list):
                raise _Mismatch
            inner = type_name[len(_ARRAY) :]
            return [self._coerce_one(inner, item) for item in value]
        scalar = _SCALARS.get(type_name)
        if scalar is not None:
            return scalar(value)
        return self._coerce_object(type_name, value)

    def _coerce_object(self, type_name: str, value: Any) -> Any:
        spec = self.types.get(type_name)
        if isinstance(value, str):
            value = _json_or_mismatch(value)
        if not isinstance(value, dict):
            raise _Mismatch
        if spec is None:
            return value
        if spec.subtypes:
            return self._coerce(spec.subtypes, value)
        out = dict(value)
        for field in spec.fields.values():
            if field.name in value and value[field.name] is not None:
                out[field.name] = self._coerce(field.types, value[field.name])
            elif field.required:
                raise _Mismatch
        return out

    # -- results ----------------------------------------------------------------

    def problems(self, types: tuple[str, ...], value: Any, path: str = "result") -> list[str]:
        """What makes `value` not an instance of any of `types` (empty when it is one)."""
        found: list[str] = []
        for type_name in types:
            mine = self._problems_one(type_name, value, path)
            if not mine:
                return []
            found.extend(mine)
        return found

    def _problems_one(self, type_name: str, value: Any, path: str) -> list[str]:
        if type_name.startswith(_ARRAY):
            if not isinstance(value, list):
                return [f"{path}: expected {type_name}"]
            inner = type_name[len(_ARRAY) :]
            out: list[str] = []
            for index, item in enumerate(value):
                out.extend(self._problems_one(inner, item, f"{path}[{index}]"))
            return out
        ok = {
            "Integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "Float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
            "String": lambda v: isinstance(v, str),
            "Boolean": lambda v: isinstance(v, bool),
            "True": lambda v: v is True,
            "InputFile": lambda v: isinstance(v, str),
        }.get(type_name)
        if ok is not None:
            return [] if ok(value) else [f"{path}: expected {type_name}, got {value!r}"]
        spec = self.types.get(type_name)
        if not isinstance(value, dict):
            return [f"{path}: expected {type_name} object"]
        if spec is None:
            return []
        if spec.subtypes:
            return self.problems(spec.subtypes, value, path)
        out = []
        for field in spec.fields.values():
            if field.name in value:
                out.extend(self.problems(field.types, value[field.name], f"{path}.{field.name}"))
            elif field.required:
                out.append(f"{path}: {type_name} lacks required field {field.name!r}")
        return out


def _integer(value: Any) -> int:
    if isinstance(value, bool):
        raise _Mismatch
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_RE.match(value):
        return int(value)
    raise _Mismatch


def _float(value: Any) -> float:
    if isinstance(value, bool):
        raise _Mismatch
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise _Mismatch from None
    raise _Mismatch


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise _Mismatch


def _string(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise _Mismatch


# How a form field or a JSON value becomes each scalar type (an InputFile given as a
# string is a file_id or a URL).
_SCALARS: Mapping[str, Callable[[Any], Any]] = MappingProxyType(
    {
        "Integer": _integer,
        "Float": _float,
        "Boolean": _boolean,
        "True": _boolean,
        "String": _string,
        "InputFile": _string,
    }
)


def _json_or_mismatch(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise _Mismatch from None


def with_overlay(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """`base` (the scraped schema) brought forward by `overlay`: each of its types and
    methods either new (taken whole) or naming fields that were added or changed (a field
    of that name is replaced, others are appended)."""
    out: dict[str, Any] = {**base, "version": overlay["version"]}
    for section in ("types", "methods"):
        table = {name: dict(entry) for name, entry in base[section].items()}
        for name, change in overlay[section].items():
            fields = [dict(f) for f in change.get("fields", [])]
            if change.get("new") or name not in table:
                table[name] = {k: v for k, v in change.items() if k != "new"} | {"fields": fields}
                continue
            entry = table[name]
            named = {f["name"] for f in fields}
            kept = [f for f in entry.get("fields", []) if f["name"] not in named]
            entry["fields"] = kept + fields
        out[section] = table
    return out


def _read(name: str) -> Any:
    return json.loads(resources.files("tg_mafia.sandbox").joinpath(name).read_text("utf-8"))


@functools.cache
def _bundled() -> Schema:
    # bot-api.json is the newest scraped copy (10.1); bot-api-10.3.json, what changed since
    return Schema(with_overlay(_read("bot-api.json"), _read("bot-api-10.3.json")))
