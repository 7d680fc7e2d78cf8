"""`tg-mafia i18n`: keep `locales/` in step with the code.

- `extract`: the template `locales/tg_mafia.pot` from the code (babel.cfg);
- `update`: every language's `.po` from the template, never fuzzy-matched, so a
  changed English string is left untranslated rather than silently wrong;
- `check`: exit 1, printing why, when the catalogues lag the code or a
  translation is missing, fuzzy or would break at run time.

Files are written sorted by msgid, with file names but no line numbers, and
only when their content changes, so diffs show real changes only.
"""

from __future__ import annotations

import argparse
import datetime
import gettext
import re
import string
import sys
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from tg_mafia.commands.arguments import examples
from tg_mafia.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, po_path

PROJECT = "tg-mafia"
HEADER = (
    "# {language} translations for tg-mafia.\n"
    "# Edit msgstr lines only; see docs/i18n.md and the shared GLOSSARY.md."
)
TEMPLATE = f"{DOMAIN}.pot"
# The counts every translation is formatted with: each plural form of fr, ru
# and ro is reached, and 11/21/101 catch rules written for 1 only.
COUNTS = (0, 1, 2, 5, 11, 21, 101)
_ROOT = Path(__file__).resolve().parents[2]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "i18n",
        help="extract, update and check translations",
        description="Keep locales/ in step with the code (in a checkout): `extract` writes "
        "the template from the code, `update` merges it into every language's catalogue, "
        "`check` exits 1 naming every missing, fuzzy or broken translation (docs/i18n.md).",
        epilog=examples("tg-mafia i18n check", "tg-mafia i18n extract && tg-mafia i18n update"),
    )
    parser.add_argument("action", choices=("extract", "update", "check"))
    parser.add_argument(
        "--root", type=Path, default=_ROOT, help="the checkout (babel.cfg, locales/)"
    )
    parser.add_argument(
        "--drop-obsolete",
        action="store_true",
        help="update: forget translations of strings the code no longer has",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root: Path = args.root
    if not (root / "babel.cfg").is_file():
        print(f"tg-mafia i18n: no babel.cfg in {root} (run it in a checkout)", file=sys.stderr)
        return 2
    if args.action == "extract":
        changed = extract(root)
        print(f"{TEMPLATE}: {'written' if changed else 'unchanged'}")
        return 0
    if args.action == "update":
        for language, changed in update(root, drop_obsolete=args.drop_obsolete).items():
            print(f"{language}: {'written' if changed else 'unchanged'}")
        return 0
    problems = check(root)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)" if problems else "catalogues complete")
    return 1 if problems else 0


# -- Reading and writing ----------------------------------------------------


def extract_template(root: Path) -> Catalog:
    """The template the code asks for now (keywords come from babel.cfg)."""
    with (root / "babel.cfg").open() as file:
        method_map, options_map = parse_mapping_cfg(file)  # type: ignore[no-untyped-call]
    template = Catalog(
        domain=DOMAIN,
        project=PROJECT,
        header_comment=HEADER.format(language="Template"),
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, keywords={}, strip_comment_tags=True
    ):
        location = (Path(filename).as_posix(), lineno)
        template.add(message, None, [location], auto_comments=comments, context=context)
    return template


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def render(catalog: Catalog) -> bytes:
    buffer = BytesIO()
    write_po(buffer, catalog, sort_output=True, include_lineno=False)
    return buffer.getvalue()


def save(path: Path, catalog: Catalog) -> bool:
    """Write `catalog` unless the file already says the same; a new template
    date only when the template really changed. True when written."""
    old = path.read_bytes() if path.is_file() else None
    if old is not None and catalog.locale is None:
        catalog.creation_date = read_catalog(path).creation_date
        if render(catalog) == old:
            return False
        catalog.creation_date = datetime.datetime.now(datetime.UTC)
    new = render(catalog)
    if new == old:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


# -- The actions --------------------------------------------------------------


def extract(root: Path) -> bool:
    return save(root / "locales" / TEMPLATE, extract_template(root))


def updated(template: Catalog, path: Path, language: str, *, drop_obsolete: bool) -> Catalog:
    """The catalogue at `path` (a new one if missing) merged with `template`."""
    if path.is_file():
        catalog = read_catalog(path, language)
    else:
        catalog = Catalog(
            locale=language,
            domain=DOMAIN,
            project=PROJECT,
            header_comment=HEADER.format(language=language),
            creation_date=template.creation_date,
            fuzzy=False,
        )
    catalog.update(
        template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False
    )
    if drop_obsolete:
        catalog.obsolete.clear()
    return catalog


def update(root: Path, *, drop_obsolete: bool = False) -> dict[str, bool]:
    locales = root / "locales"
    template = read_catalog(locales / TEMPLATE)
    return {
        language: save(
            po_path(locales, language),
            updated(template, po_path(locales, language), language, drop_obsolete=drop_obsolete),
        )
        for language in LANGUAGES
    }


def check(root: Path) -> list[str]:
    locales = root / "locales"
    template_path = locales / TEMPLATE
    if not template_path.is_file():
        return [f"{TEMPLATE}: missing (run `tg-mafia i18n extract`)"]
    template = read_catalog(template_path)
    problems = [
        f"{TEMPLATE}: {problem} (run `tg-mafia i18n extract`)"
        for problem in key_differences(extract_template(root), template)
    ]
    for language in LANGUAGES:
        path = po_path(locales, language)
        if not path.is_file():
            problems.append(f"{language}: missing {path} (run `tg-mafia i18n update`)")
            continue
        catalog = read_catalog(path, language)
        problems += [
            f"{language}: {problem} (run `tg-mafia i18n update`)"
            for problem in key_differences(template, catalog)
        ]
        problems += [f"{language}: {problem}" for problem in catalogue_problems(catalog, language)]
    return problems + [f"{TEMPLATE}: {problem}" for problem in source_problems(template)]


# -- What a catalogue must satisfy ---------------------------------------------


def key_differences(expected: Catalog, actual: Catalog) -> list[str]:
    """Messages one catalogue has and the other lacks (msgid, plural, context)."""
    want, have = _keys(expected), _keys(actual)
    return [f"lacks {key!r}" for key in sorted(want - have, key=repr)] + [
        f"has {key!r}, no longer in the code" for key in sorted(have - want, key=repr)
    ]


def _keys(catalog: Catalog) -> set[tuple[str | None, str, str | None]]:
    keys = set()
    for message in messages(catalog):
        singular, plural = _source(message)
        keys.add((message.context, singular, plural))
    return keys


def messages(catalog: Catalog) -> list[Message]:
    """The catalogue's messages, without its header entry."""
    return [message for message in catalog if message.id]


def source_problems(template: Catalog) -> list[str]:
    """The English source held to the same bar: each message checked as its
    own translation."""
    english = get_plural(DEFAULT_LANGUAGE)
    plural = gettext.c2py(english.plural_expr)
    problems = []
    for message in messages(template):
        as_translation = Message(message.id, message.id, context=message.context)
        problems += [
            f"{message.id!r}: {problem}"
            for problem in message_problems(as_translation, plural, english.num_plurals, "source")
        ]
    return problems


def catalogue_problems(catalog: Catalog, language: str) -> list[str]:
    problems = []
    expected = get_plural(language)
    if (catalog.num_plurals, catalog.plural_expr) != (expected.num_plurals, expected.plural_expr):
        problems.append(f"Plural-Forms is {catalog.plural_forms!r}, Babel says {str(expected)!r}")
    if catalog.fuzzy:
        problems.append("the header is marked fuzzy")
    plural = gettext.c2py(catalog.plural_expr)
    for message in messages(catalog):
        problems += [
            f"{message.id!r}: {problem}"
            for problem in message_problems(message, plural, catalog.num_plurals, language)
        ]
    return problems


def message_problems(
    message: Message, plural: Callable[[int], int], num_plurals: int, language: str
) -> list[str]:
    """Why this message would be wrong or break when sent; English may leave
    msgstr empty (the source is English)."""
    if message.fuzzy:
        return ["fuzzy (check the translation, then remove the fuzzy flag)"]
    forms = translations(message)
    if not any(forms):
        return [] if language == DEFAULT_LANGUAGE else ["not translated"]
    problems = []
    if message.pluralizable and len(forms) != num_plurals:
        problems.append(f"{len(forms)} plural forms, the language has {num_plurals}")
    if not all(forms):
        problems.append("a plural form is empty")
    problems += placeholder_problems(message, plural, num_plurals)
    problems += markup_problems(message)
    problems += format_problems(message, plural)
    return problems


def translations(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def _source(message: Message) -> tuple[str, str | None]:
    if isinstance(message.id, tuple | list):
        return message.id[0], message.id[1]
    return message.id, None


# Placeholders: str.format fields, compared by name.


def fields(text: str) -> set[str]:
    """The names of the `{...}` fields in `text` (ValueError if malformed)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def single_count_forms(plural: Callable[[int], int], num_plurals: int) -> set[int]:
    """The plural forms chosen for exactly one count: only those may say the
    number in words and drop `{n}` (English and Romanian "1"; every Russian
    form also serves 21, 31, ..., so it must keep `{n}`)."""
    chosen = [plural(n) for n in range(1001)]
    return {form for form in range(num_plurals) if chosen.count(form) == 1}


def placeholder_problems(
    message: Message, plural: Callable[[int], int], num_plurals: int
) -> list[str]:
    singular, plural_id = _source(message)
    try:
        expected = fields(plural_id if plural_id is not None else singular)
        forms = [fields(form) for form in translations(message)]
    except ValueError as error:
        return [f"malformed placeholder: {error}"]
    problems = [
        f"positional placeholder {{{name}}}; use names"
        for name in expected
        if not name or name.isdigit()
    ]
    may_drop_n = single_count_forms(plural, num_plurals) if plural_id is not None else set()
    for index, names in enumerate(forms):
        if names == expected or (index in may_drop_n and names == expected - {"n"}):
            continue
        problems.append(
            f"form {index} has placeholders {sorted(names)}, the source {sorted(expected)}"
        )
    return problems


# Markup: Telegram's HTML parse mode rejects unbalanced tags and bare < or &.

_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)([^<>]*)>")
_BARE = re.compile(r"[<>]|&(?!(?:amp|lt|gt|quot|#\d+|#x[0-9a-fA-F]+);)")


def markup(text: str) -> tuple[list[str], list[str]]:
    """The tags of `text`, sorted, and what is wrong with its nesting."""
    problems: list[str] = []
    open_tags: list[str] = []
    for closing, name, _ in _TAG.findall(text):
        if not closing:
            open_tags.append(name)
        elif not open_tags or open_tags.pop() != name:
            problems.append(f"</{name}> closes nothing open")
    problems += [f"<{name}> is never closed" for name in open_tags]
    return sorted(match.group(0) for match in _TAG.finditer(text)), problems


def markup_problems(message: Message) -> list[str]:
    sources = [text for text in _source(message) if text is not None]
    source_tags, _ = markup(sources[-1])
    source_bare = len(_BARE.findall(_TAG.sub("", sources[-1])))
    problems = []
    for index, form in enumerate(translations(message)):
        tags, nesting = markup(form)
        problems += [f"form {index}: {problem}" for problem in nesting]
        if tags != source_tags:
            problems.append(f"form {index} has tags {tags}, the source {source_tags}")
        if len(_BARE.findall(_TAG.sub("", form))) > source_bare:
            problems.append(f"form {index} has a bare < > or &; write &lt; &gt; &amp;")
    return problems


# Formatting: what the bot will do with the message, for several counts.


class _Dummy:
    """Stands for any placeholder value: any attribute, item or format spec."""

    def __getattr__(self, name: str) -> _Dummy:
        return self

    def __getitem__(self, key: object) -> _Dummy:
        return self

    def __format__(self, spec: str) -> str:
        return "x"


def format_problems(message: Message, plural: Callable[[int], int]) -> list[str]:
    forms = translations(message)
    problems = []
    for n in COUNTS:
        form = plural(n) if message.pluralizable else 0
        if form >= len(forms):
            problems.append(f"no plural form {form} for n={n}")
            break
        text = forms[form]
        try:
            names = fields(text)
            values: dict[str, object] = {re.split(r"[.\[]", name)[0]: _Dummy() for name in names}
            values["n"] = n
            text.format(**values)
        except (ValueError, KeyError, IndexError, TypeError) as error:
            problems.append(f"fails to format for n={n}: {error!r}")
            break
    return problems
