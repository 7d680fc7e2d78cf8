"""What every sub-command shares: a parser whose errors are one line, help that keeps
its examples as written, and argument types that refuse a bad number in words."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class HelpFormatter(argparse.HelpFormatter):
    """Paragraphs are wrapped as usual; a block whose later lines are indented (an
    example, a list of commands) is kept line for line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        blocks = []
        for block in text.split("\n\n"):
            lines = block.splitlines()
            if any(line.startswith("  ") for line in lines[1:]):
                blocks.append("\n".join(indent + line for line in lines))
            else:
                blocks.append(super()._fill_text(block, width, indent))
        return "\n\n".join(blocks)


class Parser(argparse.ArgumentParser):
    """An argument error is one line on stderr and exit code 2, naming the command and
    where its help is (argparse's own prints the whole usage first)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class CommaList(argparse.Action):
    """A flag given again adds to it: one comma-separated text, as its environment
    variable writes the list (`--token A --token B` is "A,B")."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{given},{values}" if given else values)


def examples(*lines: str) -> str:
    """An epilog of example command lines, each shown as written."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def port(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    number = _whole(text, "a port")
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port (0 to 65535; 0: any free one)")
    return number


def at_least(minimum: int) -> Callable[[str], int]:
    """A whole number of `minimum` or more."""

    def whole(text: str) -> int:
        number = _whole(text, "a whole number")
        if number < minimum:
            raise argparse.ArgumentTypeError(f"{text} is below {minimum}")
        return number

    whole.__name__ = f"number of {minimum} or more"
    return whole


def positive(text: str) -> float:
    """A number above 0."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not number > 0:
        raise argparse.ArgumentTypeError(f"{text} is not above 0")
    return number


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def fail(command: str, message: str, code: int = 2) -> int:
    """A command's refusal: one line on stderr; the exit code to return."""
    print(f"tg-mafia {command}: {message}", file=sys.stderr)
    return code
