"""Each language's typography, held entry by entry, so that a fix cannot
come back when an English text changes and its entry is translated again.

- fr: a no-break space U+00A0 (one rule, the one the catalogue uses) before
  `: ; ! ?` and `»`, after `«`; `’`, never a straight `'`; quotation marks
  « … » only.
- ru: «ёлочки», with „лапки“ only inside them; an em dash between words,
  never a hyphen or an en dash.
- ro: „…” and ș ț with the comma below, never ş ţ with a cedilla.
- vi: “…”; every text in NFC; the modern tone-mark placement of the glossary
  (« hòa », not « hoà »).
- every language: no straight double quote, no "..." for "…", no spaced
  hyphen for a dash; every plural form renders, with its placeholders, for
  the numbers Babel's rule sends to it; no fuzzy entry.

A finding names the entry (its msgid) and what is wrong, so that a failure
says what to fix."""

from __future__ import annotations

import gettext
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural

from tg_mafia.commands import i18n as tool
from tg_mafia.i18n import po_path

LOCALES = Path(__file__).resolve().parents[2] / "locales"
LANGUAGES = ("fr", "ru", "ro", "vi")
NBSP = "\u00a0"
# Enough numbers to reach every plural form: French form 1 is for millions.
NUMBERS = (*range(0, 1001), 10**6, 2 * 10**6, 10**9)

_TAG = re.compile(r"<[^<>]*>")
_FIELD = re.compile(r"\{[^{}]*\}")


def catalogue(language: str) -> Catalog:
    return tool.read_catalog(po_path(LOCALES, language), language)


def texts(message: Message) -> list[str]:
    """Every form of the translation, without its HTML tags (an attribute's
    quotes are not the text's)."""
    return [_TAG.sub("", form) for form in tool.translations(message) if form]


def name(message: Message) -> str:
    singular = message.id[0] if isinstance(message.id, tuple | list) else message.id
    context = f"[{message.context}] " if message.context else ""
    return context + singular[:60]


# ----- rules of every language ----------------------------------------------------------


def common_findings(text: str) -> Iterator[str]:
    if '"' in text:
        yield "a straight \" (use the language's quotation marks)"
    if "..." in text:
        yield '"..." instead of "…"'
    if re.search(r"(?:^|\s)-(?:\s|$)", text):
        yield "a hyphen between words (a dash: —)"


# ----- French ---------------------------------------------------------------------------


def french_findings(text: str) -> Iterator[str]:
    bare = _FIELD.sub("X", text)
    for index, char in enumerate(bare):
        before = bare[index - 1] if index else ""
        after = bare[index + 1] if index + 1 < len(bare) else ""
        if char in ":;!?":
            if char == ":" and ((before.isdigit() and after.isdigit()) or after == "/"):
                continue  # 12:30, https://
            if before in ("!", "?") and char in "!?":
                continue  # « ?! »
            if before != NBSP:
                near = bare[max(0, index - 12) : index + 2]
                yield f"{char!r} after {before!r}, not after a no-break space: …{near}"
        elif char == "«" and after != NBSP:
            yield f"« followed by {after!r}, not by a no-break space"
        elif char == "»" and before != NBSP:
            yield f"» after {before!r}, not after a no-break space"
        elif char == "'":
            yield "a straight ' (the apostrophe is ’)"
        elif char in "“”„":
            yield f"{char} (French quotes with « »)"
        elif char == "\u202f":
            yield "a narrow no-break space (the rule here is U+00A0)"


# ----- Russian --------------------------------------------------------------------------


def russian_findings(text: str) -> Iterator[str]:
    outer = inner = False
    for char in text:
        if char == "«":
            if outer:
                yield "«…» inside «…» (inner quotes are „…“)"
            outer = True
        elif char == "»":
            if not outer:
                yield "» closes nothing"
            outer = False
        elif char == "„":
            if not outer:
                yield "„…“ outside «…» (the outer quotes are «ёлочки»)"
            inner = True
        elif char == "“":
            if not inner:
                yield "“ closes nothing („лапки“ open with „)"
            inner = False
        elif char in "”‘’'":
            yield f"{char!r} is not a Russian quotation mark"
    if outer:
        yield "« never closed"
    if re.search(r"\s–\s", text):
        yield "an en dash between words (— is the dash)"


# ----- Romanian -------------------------------------------------------------------------


CEDILLA = {"ş": "ș", "ţ": "ț", "Ş": "Ș", "Ţ": "Ț"}


def romanian_findings(text: str) -> Iterator[str]:
    for wrong, right in CEDILLA.items():
        if wrong in text:
            yield f"{wrong} with a cedilla (Romanian writes {right}, comma below)"
    yield from _pairs(text, "„", "”", "Romanian")
    for char in "«»“":
        if char in text:
            yield f"{char} (Romanian quotes with „…”)"


# ----- Vietnamese -----------------------------------------------------------------------

# The old placement of the tone mark in an open syllable: « hoà », « khoẻ »,
# « thuỷ » (the glossary writes « hòa »); after q the u is part of the
# consonant (« quý » is right).
_OLD_TONES = re.compile(r"(?<![qQ])(?:o[àáảãạ]|o[èéẻẽẹ]|u[ỳýỷỹỵ])(?!\w)")


def vietnamese_findings(text: str) -> Iterator[str]:
    if unicodedata.normalize("NFC", text) != text:
        yield "not in NFC (a tone mark as a combining character)"
    yield from _pairs(text, "“", "”", "Vietnamese")
    for char in "«»„":
        if char in text:
            yield f"{char} (Vietnamese quotes with “…”)"
    for match in _OLD_TONES.finditer(unicodedata.normalize("NFC", text)):
        yield f"old tone-mark placement «{match.group(0)}» (the glossary writes « hòa »)"


def _pairs(text: str, opening: str, closing: str, language: str) -> Iterator[str]:
    depth = 0
    for char in text:
        if char == opening:
            depth += 1
        elif char == closing:
            if not depth:
                yield f"{closing} closes nothing ({language} quotes open with {opening})"
            depth = max(0, depth - 1)
    if depth:
        yield f"{opening} never closed"


RULES: dict[str, Callable[[str], Iterator[str]]] = {
    "fr": french_findings,
    "ru": russian_findings,
    "ro": romanian_findings,
    "vi": vietnamese_findings,
}


# ----- plural forms ---------------------------------------------------------------------


def plural_findings(message: Message, plural: Callable[[int], int], forms: int) -> Iterator[str]:
    """Every form, rendered for the numbers that select it, keeps the English
    placeholders (a form chosen for a single number may say it in words)."""
    if not message.pluralizable:
        return
    english = tool.fields(message.id[1])
    strings = tool.translations(message)
    for index in range(forms):
        numbers = [n for n in NUMBERS if plural(n) == index]
        if index >= len(strings) or not strings[index]:
            yield f"plural form {index} (n = {numbers[:3]}…) is missing"
            continue
        form = strings[index]
        missing = english - tool.fields(form)
        if missing and not (len(numbers) == 1 and len(missing) == 1):
            yield f"plural form {index} (n = {numbers[:3]}…) lacks {sorted(missing)}"
        for n in numbers[:50]:
            try:
                form.format(**dict.fromkeys(english | tool.fields(form), n))
            except (KeyError, ValueError, IndexError) as error:
                yield f"plural form {index} does not render for n = {n}: {error!r}"
                break


# ----- the findings of a catalogue ------------------------------------------------------


def findings(language: str) -> list[str]:
    catalog = catalogue(language)
    plural, forms = gettext.c2py(catalog.plural_expr), catalog.num_plurals
    found = ["the header is fuzzy"] if catalog.fuzzy else []
    for message in tool.messages(catalog):
        problems: list[str] = []
        if message.fuzzy:
            problems.append("fuzzy: the English changed and the entry was not reviewed")
        for text in texts(message):
            problems += common_findings(text)
            problems += RULES[language](text)
        problems += plural_findings(message, plural, forms)
        found += [f"{name(message)!r}: {problem}" for problem in dict.fromkeys(problems)]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_keeps_its_language_s_typography(language: str) -> None:
    found = findings(language)
    assert not found, f"{len(found)} finding(s) in {language}:\n" + "\n".join(found)


# ----- the checks catch what they are for -----------------------------------------------


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fr", "Voix : {players}"),  # an ordinary space before the colon
        ("fr", "Plus que {n} secondes!"),
        ("fr", "Partie « {title} »"),  # ordinary spaces inside the quotes
        ("fr", "tu n'as pas joué"),
        ("ru", 'Игра "{title}"'),
        ("ru", "Игра «{title}» - начало"),
        ("ru", "“Спасибо”"),
        ("ro", "Jocul «{title}»"),
        ("ro", "Jocul „{title}“"),
        ("ro", "Ieşit"),
        ("vi", "Ván «{title}»"),
        ("vi", unicodedata.normalize("NFD", "Đêm")),
        ("vi", "hoà"),
    ],
)
def test_a_wrong_text_is_found(language: str, text: str) -> None:
    assert list(common_findings(text)) + list(RULES[language](text))


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fr", f"Voix{NBSP}: {{players}} — «{NBSP}{{title}}{NBSP}» à 12:30{NBSP}!"),
        ("ru", "Игра «{title}» — «Крёстный „отец“»"),
        ("ro", "Jocul „{title}” – 7–20 jucători, Ieșit"),
        ("vi", "Ván “{title}”: hòa, quý, hoàn toàn"),
    ],
)
def test_a_right_text_passes(language: str, text: str) -> None:
    assert list(common_findings(text)) + list(RULES[language](text)) == []


def test_a_plural_form_without_its_count_is_found() -> None:
    russian = gettext.c2py(get_plural("ru").plural_expr)
    message = Message(("{n} vote", "{n} votes"), ("одна голос", "{n} голоса", "{n} голосов"))
    assert list(plural_findings(message, russian, 3))  # form 0 also serves 21, 31…
    romanian = gettext.c2py(get_plural("ro").plural_expr)
    message = Message(("{n} vote", "{n} votes"), ("un vot", "{n} voturi", "{n} de voturi"))
    assert list(plural_findings(message, romanian, 3)) == []  # form 0 serves 1 only
