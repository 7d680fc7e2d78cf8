"""Players' names as the table shows them: cleaned of what can fool a
reader, and short enough for a button on a phone."""

from __future__ import annotations

import unicodedata
from typing import Final

import regex

NAME_LIMIT: Final = 16  # graphemes: about what a button two to a row shows
STORED_LIMIT: Final = 64
# Format characters that change how text around them looks or reads: the
# bidi overrides and isolates, zero-width spaces and joiners, soft hyphens.
_INVISIBLE = regex.compile(r"\p{Cf}|\p{Cc}|\p{Co}|\p{Cs}|\p{Zl}|\p{Zp}")
_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")
_GRAPHEME = regex.compile(r"\X")


def clean_name(raw: str) -> str:
    """The name without invisible and direction-changing characters, its
    spaces collapsed; "?" when nothing readable is left."""
    text = unicodedata.normalize("NFC", raw)

    def drop(match: regex.Match[str]) -> str:
        # A zero-width joiner is kept inside an emoji sequence (👩‍👩‍👧), nowhere else.
        if match.group() == "\u200d":
            before, after = text[: match.start()].rstrip("\ufe0f"), text[match.end() :]
            if before and after and _PICTOGRAPH.match(before[-1]) and _PICTOGRAPH.match(after):
                return "\u200d"
        return ""

    kept = " ".join(_INVISIBLE.sub(drop, text).split())
    return cut(kept, STORED_LIMIT, ellipsis=False) or "?"


def cut(name: str, limit: int = NAME_LIMIT, ellipsis: bool = True) -> str:
    """At most `limit` graphemes (an emoji or a letter with its accents is
    one), with … when cut."""
    if len(name) <= limit:
        return name  # a grapheme is one code point or more: nothing to cut (and no regex)
    graphemes = _GRAPHEME.findall(name)
    if len(graphemes) <= limit:
        return name
    kept = graphemes[: limit - 1] if ellipsis else graphemes[:limit]
    return "".join(kept).rstrip() + ("…" if ellipsis else "")
