"""`tg-mafia i18n` on a small project of its own, and the checks it applies
to each message (which the catalogue tests apply to locales/)."""

from __future__ import annotations

import argparse
import gettext
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural

from tg_mafia.commands import i18n as tool
from tg_mafia.i18n import LANGUAGES, Catalogues, po_path

ROOT = Path(__file__).resolve().parents[2]

SOURCE = """
from tg_mafia.i18n import N_

ROLE = N_("Doctor")

def texts(t, n):
    # TRANSLATORS: the end of a game.
    t.gettext("<b>The town wins!</b>")
    t.ngettext("{n} player", "{n} players", n)
    t.pgettext("button", "Vote")
    t.npgettext("tally", "{n} vote", "{n} votes", n)
"""

TRANSLATIONS: dict[str, dict[str, str | tuple[str, ...]]] = {
    "fr": {
        "Doctor": "Médecin",
        "<b>The town wins!</b>": "<b>La ville l'emporte !</b>",
        "{n} player": ("{n} joueur", "{n} joueurs", "{n} joueurs"),
        "Vote": "Voter",
        "{n} vote": ("{n} voix", "{n} voix", "{n} voix"),
    },
    "ru": {
        "Doctor": "Доктор",
        "<b>The town wins!</b>": "<b>Мирные жители победили!</b>",
        "{n} player": ("{n} игрок", "{n} игрока", "{n} игроков"),
        "Vote": "Голосовать",
        "{n} vote": ("{n} голос", "{n} голоса", "{n} голосов"),
    },
    "ro": {
        "Doctor": "Doctor",
        "<b>The town wins!</b>": "<b>Cetățenii câștigă!</b>",
        "{n} player": ("un jucător", "{n} jucători", "{n} de jucători"),
        "Vote": "Votează",
        "{n} vote": ("un vot", "{n} voturi", "{n} de voturi"),
    },
    "vi": {
        "Doctor": "Bác sĩ",
        "<b>The town wins!</b>": "<b>Người dân thắng!</b>",
        "{n} player": ("{n} người chơi",),
        "Vote": "Bỏ phiếu",
        "{n} vote": ("{n} phiếu",),
    },
}


def run(root: Path, action: str) -> int:
    return tool.run(argparse.Namespace(action=action, root=root, drop_obsolete=False))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "babel.cfg", tmp_path)
    (tmp_path / "tg_mafia").mkdir()
    (tmp_path / "tg_mafia" / "texts.py").write_text(SOURCE, encoding="utf-8")
    assert run(tmp_path, "extract") == 0
    assert run(tmp_path, "update") == 0
    return tmp_path


def entry(catalog: Catalog, msgid: str) -> Message:
    message = catalog.get(msgid)
    assert message is not None
    return message


def translate(root: Path) -> None:
    for language, strings in TRANSLATIONS.items():
        path = po_path(root / "locales", language)
        catalog = tool.read_catalog(path, language)
        for message in tool.messages(catalog):
            singular = message.id if isinstance(message.id, str) else message.id[0]
            message.string = strings[singular]
        tool.save(path, catalog)


def test_extract_finds_every_keyword_and_translator_comment(project: Path) -> None:
    template = tool.read_catalog(project / "locales" / tool.TEMPLATE)
    keys = {
        (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
        for message in tool.messages(template)
    }
    assert keys == {
        (None, "Doctor"),
        (None, "<b>The town wins!</b>"),
        (None, ("{n} player", "{n} players")),
        ("button", "Vote"),
        ("tally", ("{n} vote", "{n} votes")),
    }
    assert entry(template, "<b>The town wins!</b>").auto_comments == ["the end of a game."]
    text = (project / "locales" / tool.TEMPLATE).read_text(encoding="utf-8")
    assert "#: tg_mafia/texts.py\n" in text  # file names, no line numbers


def test_update_creates_each_catalogue_with_babels_plural_header(project: Path) -> None:
    for language in LANGUAGES:
        catalog = tool.read_catalog(po_path(project / "locales", language), language)
        assert catalog.plural_expr == get_plural(language).plural_expr
        assert not catalog.fuzzy


def test_check_fails_until_translated_then_passes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(project, "check") == 1
    assert "fr: 'Doctor': not translated" in capsys.readouterr().out
    translate(project)
    assert run(project, "check") == 0
    assert tool.update(project) == dict.fromkeys(LANGUAGES, False)
    assert tool.extract(project) is False


def test_translations_are_used_at_run_time(project: Path) -> None:
    translate(project)
    catalogues = Catalogues(project / "locales")
    ro = catalogues.translator("ro")
    assert [ro.ngettext("{n} player", "{n} players", n).format(n=n) for n in (1, 2, 20)] == [
        "un jucător",
        "2 jucători",
        "20 de jucători",
    ]
    assert catalogues.translator("fr").pgettext("button", "Vote") == "Voter"
    assert catalogues.translator("vi").npgettext("tally", "{n} vote", "{n} votes", 5) == "{n} phiếu"


def test_check_reports_code_changes_and_fuzzy_entries(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    translate(project)
    texts = project / "tg_mafia" / "texts.py"
    texts.write_text(SOURCE.replace("The town wins!", "The citizens win!"), encoding="utf-8")
    assert run(project, "check") == 1
    assert "lacks (None, '<b>The citizens win!</b>', None)" in capsys.readouterr().out
    assert run(project, "extract") == 0 and run(project, "update") == 0
    # No fuzzy matching: the changed string is untranslated, never a guess.
    fr = tool.read_catalog(po_path(project / "locales", "fr"), "fr")
    assert entry(fr, "<b>The citizens win!</b>").string == ""
    entry(fr, "Doctor").flags.add("fuzzy")
    tool.save(po_path(project / "locales", "fr"), fr)
    assert run(project, "check") == 1
    out = capsys.readouterr().out
    assert "fr: 'Doctor': fuzzy" in out
    assert "fr: '<b>The citizens win!</b>': not translated" in out


def test_check_outside_a_checkout(tmp_path: Path) -> None:
    assert run(tmp_path, "check") == 2


# -- The checks on one message ---------------------------------------------------


def problems(
    language: str, msgid: str | tuple[str, str], string: str | tuple[str, ...]
) -> list[str]:
    rule = get_plural(language)
    message = Message(msgid, string)
    return tool.message_problems(
        message, gettext.c2py(rule.plural_expr), rule.num_plurals, language
    )


def test_a_good_translation_has_no_problem() -> None:
    assert problems("fr", "Host: {name}", "Meneur : {name}") == []


@pytest.mark.parametrize(
    ("language", "string", "expected"),
    [
        ("ro", ("un minut", "{n} minute", "{n} de minute"), []),
        ("en", ("a minute", "{n} minutes"), []),
        ("ru", ("одну минуту", "{n} минуты", "{n} минут"), ["form 0 has placeholders"]),
        ("fr", ("une minute", "{n} minutes", "{n} minutes"), ["form 0 has placeholders"]),
        ("ru", ("{n} минуту {x}", "{n} минуты", "{n} минут"), ["form 0 has placeholders"]),
    ],
)
def test_only_a_form_for_a_single_count_may_drop_n(
    language: str, string: tuple[str, ...], expected: list[str]
) -> None:
    found = problems(language, ("{n} minute", "{n} minutes"), string)
    assert [problem.split(" [")[0] for problem in found] == expected


@pytest.mark.parametrize(
    ("msgid", "string", "fragment"),
    [
        ("Host: {name}", "Meneur : {nom}", "placeholders"),
        ("Host: {name}", "Meneur : {name", "malformed placeholder"),
        ("Day {0}", "Jour {0}", "positional placeholder"),
        ("<b>The town wins!</b>", "<b>La ville l'emporte !", "never closed"),
        ("<b>The town wins!</b>", "<i>La ville l'emporte !</i>", "has tags"),
        ("<b>The town wins!</b>", "<b>La ville</i> l'emporte !</b>", "closes nothing"),
        ("The town wins!", "La ville & les citoyens", "bare"),
        ("The town wins!", "", "not translated"),
    ],
)
def test_a_broken_translation_is_reported(msgid: str, string: str, fragment: str) -> None:
    assert any(fragment in problem for problem in problems("fr", msgid, string))


def test_entities_and_escaped_braces_are_fine() -> None:
    assert problems("fr", "R&amp;D {{x}} {name}", "R&amp;D {{x}} {name}") == []


def test_a_wrong_number_of_plural_forms_is_reported() -> None:
    found = problems("ru", ("{n} player", "{n} players"), ("{n} игрок", "{n} игрока"))
    assert "2 plural forms, the language has 3" in found


def test_a_fuzzy_translation_is_reported() -> None:
    message = Message("Doctor", "Médecin", flags=["fuzzy"])
    assert tool.message_problems(message, gettext.c2py("(n > 1)"), 2, "fr")[0].startswith("fuzzy")
