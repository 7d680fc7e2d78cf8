"""Every code a press can be answered with has its own words, in every language."""

from __future__ import annotations

import pytest

from engine.errors import Reason
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import texts
from tg_mafia.render.texts import Answer


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_and_answer_has_a_popup(language: str) -> None:
    popups = texts.popups(translator(language))
    assert set(popups) == set(Reason) | set(Answer)
    assert all(text.strip() for text in popups.values())


def test_a_code_outside_the_types_has_no_popup() -> None:
    # Formerly an unknown code fell back to "Not now."; now it is a type error,
    # and at run time a KeyError rather than a silent wrong answer.
    with pytest.raises(KeyError):
        texts.popup(translator("en"), "no_such_code")  # type: ignore[arg-type]
