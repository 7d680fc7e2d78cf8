"""A call (calls.py) as the outbox stores it, and back: a JSON object whose "m" is
the kind of call (Method), its fields by name, those at their default left out, and
the forum topic it goes to ("topic", when not 0).

Made by cattrs from the types; its shape is the one the calls had before they had a
class each, so that the calls a bot left in the outbox before an upgrade still load
after it (tests/shell/test_calls_json.py keeps one of each): an edit's `every` and
`spare` and a topic's or a restriction's `open` and `players` sit in an "extra"
object, and a key no call reads any more (an announcement's "mergeable") is ignored."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, get_args

from cattrs import Converter
from cattrs.strategies import configure_tagged_union

from tg_mafia.render.calls import Edit, Op, Restrict, Topic
from tg_mafia.render.pictures.data import PictureData, picture_data

TAG: Final = "m"
TOPIC: Final = "topic"
EXTRA: Final = "extra"
# The fields each kind of call keeps in its "extra" object.
IN_EXTRA: Final[Mapping[type, tuple[str, ...]]] = {
    Edit: ("every", "spare"),
    Topic: ("open",),
    Restrict: ("open", "players"),
}

_converter = Converter(
    omit_if_default=True,  # as before: no null, no false, no empty extra
    detailed_validation=False,
    unstruct_collection_overrides={Sequence: list},
)
_converter.register_structure_hook(PictureData, lambda data, _: picture_data(data))
_converter.register_unstructure_hook(PictureData, dict)


def _with_extra(cl: type, names: tuple[str, ...]) -> None:
    """`cl`'s hooks, with the fields `names` in the "extra" object."""
    unstructure = _converter.get_unstructure_hook(cl)
    structure = _converter.get_structure_hook(cl)

    def nested(op: Any) -> dict[str, Any]:
        data: dict[str, Any] = unstructure(op)
        extra = {name: data.pop(name) for name in names if name in data}
        if extra:
            data[EXTRA] = extra
        return data

    def flat(data: Mapping[str, Any], _: type) -> Any:
        extra = data.get(EXTRA) or {}
        return structure({**data, **{n: extra[n] for n in names if n in extra}}, cl)

    _converter.register_unstructure_hook(cl, nested)
    _converter.register_structure_hook(cl, flat)


for _cl, _names in IN_EXTRA.items():
    _with_extra(_cl, _names)
TAGS: Final[Mapping[type, str]] = {cl: cl.method.value for cl in get_args(Op)}
configure_tagged_union(Op, _converter, tag_generator=TAGS.__getitem__, tag_name=TAG)
_unstructure: Callable[[Op], dict[str, Any]] = _converter.get_unstructure_hook(Op)
_structure: Callable[[Mapping[str, Any], Any], Op] = _converter.get_structure_hook(Op)


def to_json(op: Op, topic: int = 0) -> dict[str, Any]:
    """The call as the outbox stores it, going to the forum topic `topic` (0: none)."""
    data = _unstructure(op)
    stored = {TAG: data.pop(TAG), **data}  # the kind first, as a row reads
    if topic:
        stored[TOPIC] = topic
    return stored


def from_json(data: Mapping[str, Any]) -> Op:
    """A stored call (its "topic" aside: `topic_of`). KeyError or ValueError
    (or another of cattrs' errors) for one that is not a call this version makes."""
    return _structure(data, Op)


def readable(data: Mapping[str, Any]) -> Op | None:
    """A stored call, or None for one this version cannot read (the sender drops it
    when its turn comes; until then it merges with nothing and supersedes nothing)."""
    try:
        return from_json(data)
    except Exception:
        return None


def key_in(data: Mapping[str, Any]) -> str | None:
    """The living message a stored call names, read without loading the call (the
    sender looks through a chat's backlog for the next call to the same message)."""
    key = data.get("key")
    return key if isinstance(key, str) else None


def topic_of(data: Mapping[str, Any]) -> int:
    """The forum topic a stored call goes to (0: the chat itself, or General)."""
    return int(data.get(TOPIC, 0))
