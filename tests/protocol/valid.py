"""Every protocol a test makes is checked against the JSON Schema shipped
in the package (tg_mafia/render/protocol/protocol.schema.json)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from tg_mafia.render.protocol import schema_document


@cache
def validator() -> Draft202012Validator:
    schema = schema_document()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def schema_errors(document: Any) -> list[str]:
    """Every way the document breaks the schema, where it does: none for a valid one."""
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
        for error in validator().iter_errors(document)
    ]


def assert_valid(document: Any) -> None:
    errors = schema_errors(document)
    assert not errors, "\n".join(errors[:10])
