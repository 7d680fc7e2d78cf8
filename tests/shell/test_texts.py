"""Every reason the engine gives for refusing a move has a player-facing
text of its own (not the fallback), in every language; names are cleaned
and cut by grapheme; deadlines are date_time entities."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import Reason
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import texts
from tg_mafia.render.texts.names import clean_name, cut
from tg_mafia.render.texts.timefmt import deadline_html

ENGINE = Path(__file__).parents[2] / "engine"


def engine_codes() -> set[str]:
    """The reasons the engine's source refuses a move with (each a `Reason`)."""
    source = "\n".join(path.read_text() for path in ENGINE.glob("*.py"))
    used = set(re.findall(r"Reason\.([A-Z_]+)", source))
    return {reason.value for reason in Reason if reason.name in used}


def test_the_engine_has_many_codes() -> None:
    assert len(engine_codes()) >= 30


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_code_has_its_own_text(language: str) -> None:
    t = translator(language)
    known = texts.popups(t)
    missing = engine_codes() - set(known)
    assert not missing, f"no popup for {sorted(missing)}"
    fallback = t.gettext("Not now.")
    assert all(known[c] != fallback for c in engine_codes() - {"not_now"})


def test_names_lose_what_fools_a_reader() -> None:
    assert clean_name("Ol\u200bga") == "Olga"
    assert clean_name("\u202eadmin\u202c") == "admin"
    assert clean_name("Ann\u2066e\u2069") == "Anne"
    assert clean_name("  Jo   \n Ann  ") == "Jo Ann"
    assert clean_name("\u200b\u200d") == ""  # shown as "Player N" (tests/shell/test_names.py)
    assert clean_name("👩\u200d👩\u200d👧") == "👩\u200d👩\u200d👧"  # a family emoji stays whole
    assert clean_name("Ol\u200dga") == "Olga"


def test_names_are_cut_by_grapheme() -> None:
    assert cut("Nguyễn Thị Minh Khai", 8) == "Nguyễn…"  # the space before … goes
    flags = "🇻🇳" * 10
    assert cut(flags, 4) == "🇻🇳" * 3 + "…"  # never half a flag
    assert cut("Ann", 16) == "Ann"


@given(st.text(max_size=40), st.integers(min_value=1, max_value=20))
def test_a_name_that_fits_is_kept_whole_and_a_cut_one_fits(name: str, limit: int) -> None:
    graphemes = len(regex.findall(r"\X", name))
    shown = cut(name, limit)
    if graphemes <= limit:
        assert shown == name
    else:
        assert shown.endswith("…")
        assert len(regex.findall(r"\X", shown)) <= limit


def test_a_deadline_is_a_date_time_entity() -> None:
    html = deadline_html(1_796_126_460.4)
    assert html == '<tg-time unix="1796126460" format="T">12:01:00 UTC</tg-time>'
