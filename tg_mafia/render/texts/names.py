"""Players' names as the table shows them: cleaned of what can fool a
reader, short enough for a button on a phone, never blank, and never
mistaken for another seat.

Beside its seat number ("5 · Olga") a name is shown:
- as "Player 5" when nothing of it shows (a Hangul filler, zero-width or
  combining characters only, spaces of any kind, a Braille blank…);
- between the language's quotation marks when a word of it starts with a
  digit of any script (3, ３, ③, ٣, Ⅲ, 3️⃣, "#3") or it holds a dot like the
  seat separator: "3 · Olga", "3 Olga" or "Player 3" in seat 5 reads
  5 · «3 · Olga», never as seat 3; "Ann, 2 · Ben" cannot split a list of
  seats. Digits inside a word ("Alex2000", "P3") are no seat number and
  stay bare. Double and angle quotation marks inside a quoted name are
  dropped, so its own end cannot be forged ("Ann» 2 · «Ben").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import regex

from tg_mafia.i18n import Translator

NAME_LIMIT: Final = 16  # graphemes: about what a button two to a row shows
STORED_LIMIT: Final = 64
# Format characters that change how text around them looks or reads: the
# bidi overrides and isolates, zero-width spaces and joiners, soft hyphens.
_INVISIBLE = regex.compile(r"\p{Cf}|\p{Cc}|\p{Co}|\p{Cs}|\p{Zl}|\p{Zp}")
# Letters and symbols drawn as an empty space: Hangul fillers, the Braille blank.
_FILLERS = regex.compile(r"[\u115f\u1160\u3164\uffa0\u2800]")
# What draws nothing: spaces, ignorables (joiners, variation selectors,
# fillers), marks with no letter to sit on, and unassigned or private code points.
_UNSEEN = regex.compile(
    r"[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{C}\u2800\U0001d159]"
)
_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")
_GRAPHEME = regex.compile(r"\X")
# A digit of any script that starts a word, or a dot like the " · " between seat and name.
_SEAT_LIKE = regex.compile(
    r"(?<![\p{L}\p{M}\p{N}])\p{N}"
    r"|[\u00b7\u0387\u16eb\u2022\u2024\u2027\u2219\u22c5\u2e31\u30fb\ua78f\uff65]"
)
# Quotation marks that could close or open a quoted name, in any of the catalogues' styles.
_QUOTES = regex.compile(r"[\"«»‹›“”„‟″ˮ＂〝〞〟]")


def clean_name(raw: str) -> str:
    """The name without invisible and direction-changing characters, its
    spaces (and what draws as one) collapsed; "" when nothing shows."""
    text = unicodedata.normalize("NFC", raw)

    def drop(match: regex.Match[str]) -> str:
        # A zero-width joiner is kept inside an emoji sequence (👩‍👩‍👧), nowhere else.
        if match.group() == "\u200d":
            before, after = text[: match.start()].rstrip("\ufe0f"), text[match.end() :]
            if before and after and _PICTOGRAPH.match(before[-1]) and _PICTOGRAPH.match(after):
                return "\u200d"
        return ""

    kept = " ".join(_FILLERS.sub(" ", _INVISIBLE.sub(drop, text)).split())
    kept = cut(kept, STORED_LIMIT, ellipsis=False)
    return "" if is_blank(kept) else kept


def is_blank(name: str) -> bool:
    """Nothing of `name` shows: a reader would see an empty space."""
    return not _UNSEEN.sub("", name)


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


def placeholder(t: Translator, seat: int) -> str:
    """What a seat whose name shows nothing is called."""
    # TRANSLATORS: a player whose Telegram name shows nothing (blank characters
    # only), called by their seat number: "Player 5" sits in seat 5.
    return t.gettext("Player {seat}").format(seat=seat)


def seat_like(name: str) -> bool:
    """`name` has something a reader could take for a seat number."""
    return _SEAT_LIKE.search(name) is not None


@dataclass(frozen=True)
class SeatName:
    """A name as shown beside its seat: `text` inside `frame` ("{name}", or
    the language's quotation marks around it)."""

    text: str
    frame: str = "{name}"

    def __str__(self) -> str:
        return self.frame.format(name=self.text)


def seat_name(name: str, seat: int, t: Translator, limit: int | None = NAME_LIMIT) -> SeatName:
    """The name of the player in `seat`, as the table shows it (see the
    module's docstring); cut to `limit` graphemes (None: whole)."""
    if is_blank(name):
        return SeatName(placeholder(t, seat))
    shown = cut(name, limit) if limit is not None else name
    if not seat_like(shown):
        return SeatName(shown)
    # TRANSLATORS: quotation marks around a player's name that starts with a
    # number (a name "3 Olga" in seat 5 shows as 5 · “3 Olga”). Use the language's
    # own marks: « {name} » with no-break spaces in French, „{name}” in Romanian.
    frame = t.gettext("“{name}”")
    return SeatName(" ".join(_QUOTES.sub("", shown).split()), frame)


def person_name(name: str, t: Translator) -> str:
    """A name shown with no seat beside it (a host's, a leaderboard's):
    "(no name)" when nothing of it shows."""
    if is_blank(name):
        # TRANSLATORS: stands for a host, or a player on a leaderboard, whose
        # Telegram name shows nothing.
        return t.gettext("(no name)")
    return name


def listed_name(names: Mapping[int, str], user_id: int, t: Translator) -> str:
    """A player's name on a leaderboard: their id when it is not known."""
    name = names.get(user_id)
    return str(user_id) if name is None else person_name(name, t)
