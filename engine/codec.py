"""A `GameState` to and from a JSON-able dict (the stored game, fixtures).

cattrs builds both directions from the records' types; this module only
says how: tuples as lists, sets as sorted lists (so that equal states store
equal JSON, whatever order a set was built in), enums as their values, dicts
in their own order (the order things happened in: the dead, the warnings,
the count). A key it does not know is refused, not dropped.

Schema 2 (this one): `{"schema": 2, "variant", "options", "language",
"seed", "phase", "stage", "step", "table": {...}, "clock": {...},
"night": {...}, "day": {...}, "vote": {...}, "activity": {...},
"outcome": {...}}`, one object per record of engine/state.py.

Schema 1 (stored before the records, with no "schema" key) held the same
fields flat; `upgrade_v1` moves them into their records on loading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import fields
from enum import StrEnum
from typing import Any

from cattrs import Converter
from cattrs.strategies import configure_union_passthrough

from engine.state import RECORDS, GameState

SCHEMA = 2

_converter = Converter(
    forbid_extra_keys=True,
    detailed_validation=False,  # faster to load; an error names the bad value alone
    unstruct_collection_overrides={AbstractSet: sorted, Sequence: list},
)
configure_union_passthrough(bool | int | str | None, _converter)  # option values
# A StrEnum is a str, which cattrs passes through as it is: stored as its plain value.
_converter.register_unstructure_hook(StrEnum, lambda member: member.value)
_unstructure = _converter.get_unstructure_hook(GameState)
_structure = _converter.get_structure_hook(GameState)


def encode(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = {"schema": SCHEMA}
    data.update(_unstructure(state))
    return data


def decode(data: Mapping[str, Any]) -> GameState:
    """A stored state of this schema or an earlier one."""
    schema = data.get("schema", 1)
    if schema == 1:
        data = upgrade_v1(data)
    elif schema != SCHEMA:
        raise ValueError(f"a game state of schema {schema}: this version reads 1 to {SCHEMA}")
    state: GameState = _structure({k: v for k, v in data.items() if k != "schema"}, GameState)
    return state


# Schema 1's names of the fields a record names otherwise (record, name in it).
_V1_RENAMED = {
    ("night", "number"): "night",
    ("day", "number"): "day",
    ("night", "victims"): "night_victims",
    ("vote", "round"): "vote_round",
    ("vote", "cancelled"): "vote_cancelled",
}


def upgrade_v1(flat: Mapping[str, Any]) -> dict[str, Any]:
    """A schema-1 state as schema 2: each field into its record. A field it
    lacks (stored before the field existed) keeps its default, as schema 1's
    loader gave it; a state stored before steps counted them by its timer."""
    data: dict[str, Any] = {"schema": SCHEMA}
    moved: set[str] = set()
    for name, record in RECORDS.items():
        part: dict[str, Any] = {}
        data[name] = part
        for f in fields(record):
            old = _V1_RENAMED.get((name, f.name), f.name)
            if old in flat:
                part[f.name] = flat[old]
                moved.add(old)
    data.update((name, value) for name, value in flat.items() if name not in moved)
    data.setdefault("step", flat["timer_id"])
    return data
