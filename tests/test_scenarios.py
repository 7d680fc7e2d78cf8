"""Every rule scenario passes: the shared ones (the copies in tests/scenarios_shared
and its sport/ subfolder, and the originals in ../shared/scenarios when that folder is
there) and the project's
own (tests/scenarios); every file of tests/scenarios_bad is unreadable; and the runner
and its CLI can fail, with the documented codes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tg_mafia.cli import main
from tg_mafia.scenario import ScenarioError, load_scenario, run_scenario

REPO = Path(__file__).parents[1]
SHARED_DIR = REPO.parent / "shared" / "scenarios"
SHIPPED_DIR = REPO / "tests" / "scenarios_shared"
# Each shared folder and its shipped copy: the four variants', and sport's.
SHARED_PAIRS = ((SHARED_DIR, SHIPPED_DIR), (SHARED_DIR / "sport", SHIPPED_DIR / "sport"))
OWN_DIR = REPO / "tests" / "scenarios"
BAD_DIR = REPO / "tests" / "scenarios_bad"

MISSING = "missing"


def _files(folder: Path) -> list[object]:
    if not folder.is_dir():
        # Not an empty (skipped) parameter set: a test that fails and says why.
        return [pytest.param(MISSING, id=f"{folder.name}-folder-missing")]
    return [pytest.param(path, id=path.name) for path in sorted(folder.glob("*.yaml"))]


def _run(path: Path | str, folder: Path) -> None:
    if path == MISSING:
        pytest.fail(f"the scenario folder {folder} is missing")
    assert isinstance(path, Path)
    failure = run_scenario(load_scenario(path))
    assert failure is None, f"{path.name}: {failure}"


def _need_shared() -> None:
    """Outside CI a clone may stand alone; CI lays ../shared beside it and must check it."""
    if SHARED_DIR.is_dir():
        return
    message = f"the shared scenarios are not beside the repository: {SHARED_DIR}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: they must be checked)")
    pytest.skip(message)


@pytest.mark.parametrize("path", [p for _, shipped in SHARED_PAIRS for p in _files(shipped)])
def test_shipped_shared_scenario(path: Path | str) -> None:
    _run(path, SHIPPED_DIR)


@pytest.mark.parametrize("path", [p for shared, _ in SHARED_PAIRS for p in _files(shared)])
def test_shared_scenario(path: Path | str) -> None:
    _need_shared()
    _run(path, SHARED_DIR)


@pytest.mark.parametrize(("shared_dir", "shipped_dir"), SHARED_PAIRS, ids=["four", "sport"])
def test_the_shipped_copies_are_the_shared_files(shared_dir: Path, shipped_dir: Path) -> None:
    _need_shared()
    shared = {path.name: path.read_bytes() for path in shared_dir.glob("*.yaml")}
    shipped = {path.name: path.read_bytes() for path in shipped_dir.glob("*.yaml")}
    stale = sorted(name for name in shared if shipped.get(name) != shared[name])
    extra = sorted(set(shipped) - set(shared))
    assert not stale and not extra, (
        f"{shipped_dir} differs from {shared_dir}: refresh {stale}, remove {extra} "
        "(see tests/scenarios_shared/README.md)"
    )


@pytest.mark.parametrize("path", _files(OWN_DIR))
def test_own_scenario(path: Path | str) -> None:
    _run(path, OWN_DIR)


@pytest.mark.parametrize("path", _files(BAD_DIR))
def test_bad_scenario_is_unreadable(path: Path | str) -> None:
    if path == MISSING:
        pytest.fail(f"the folder {BAD_DIR} is missing")
    assert isinstance(path, Path)
    with pytest.raises(ScenarioError):
        load_scenario(path)


def test_the_folders_are_not_empty() -> None:
    assert len(list(SHIPPED_DIR.glob("*.yaml"))) >= 8
    assert len(list((SHIPPED_DIR / "sport").glob("*.yaml"))) >= 6
    assert len(list(OWN_DIR.glob("*.yaml"))) >= 60
    assert len(list(BAD_DIR.glob("*.yaml"))) >= 1


HEADER = """\
name: runner self-test
variant: club
players:
  - Ann: don
  - Ben: mafia
  - Cat: sheriff
  - Dan: doctor
  - Eve: citizen
  - Fay: citizen
  - Gus: citizen
steps:
"""

PASSING = (
    HEADER
    + """\
  - timeout
  - expect: {phase: day 1, speaker: Ann}
"""
)

WRONG_EXPECT = (
    HEADER
    + """\
  - timeout
  - expect: {phase: day 1, speaker: Ben}
"""
)

WRONG_REJECT = (
    HEADER
    + """\
  - timeout
  - reject: [Ann pass]
"""
)

REFUSED_ACT = (
    HEADER
    + """\
  - timeout
  - act: [Ben pass]
"""
)

UNREADABLE = (
    HEADER.replace("variant: club", "variant: club\noptions: {maniac: true}")
    + """\
  - timeout
"""
)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_wrong_expectation_fails_naming_the_step(tmp_path: Path) -> None:
    assert run_scenario(load_scenario(_write(tmp_path, "ok.yaml", PASSING))) is None
    failure = run_scenario(load_scenario(_write(tmp_path, "bad.yaml", WRONG_EXPECT)))
    assert failure is not None
    assert failure.startswith("step 2:"), failure
    assert "speaker" in failure and "Ben" in failure and "Ann" in failure


def test_an_accepted_reject_and_a_refused_act_fail(tmp_path: Path) -> None:
    failure = run_scenario(load_scenario(_write(tmp_path, "reject.yaml", WRONG_REJECT)))
    assert failure is not None and failure.startswith("step 2:"), failure
    assert "Ann pass" in failure
    failure = run_scenario(load_scenario(_write(tmp_path, "act.yaml", REFUSED_ACT)))
    assert failure is not None and failure.startswith("step 2:"), failure
    assert "Ben pass" in failure


def _cli(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[str]]:
    code = main(["scenario", *map(str, paths)])
    lines = capsys.readouterr().out.strip().splitlines()
    return code, lines


def test_cli_exit_codes_and_closing_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path, "good.yaml", PASSING)
    bad = _write(tmp_path, "bad.yaml", WRONG_EXPECT)
    unreadable = _write(tmp_path, "unreadable.yaml", UNREADABLE)

    code, lines = _cli(capsys, good)
    assert code == 0
    assert lines == [f"PASS {good}", "1 passed, 0 failed"]

    code, lines = _cli(capsys, good, bad)
    assert code == 1
    assert lines[0] == f"PASS {good}"
    assert lines[1].startswith(f"FAIL {bad}: step 2:")
    assert lines[-1] == "1 passed, 1 failed"

    code, lines = _cli(capsys, good, unreadable)
    assert code == 2
    assert any(str(unreadable) in line and "maniac" in line for line in lines)
    assert lines[-1] == "1 passed, 1 failed"


def test_cli_runs_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _cli(capsys, OWN_DIR)
    total = len(list(OWN_DIR.glob("*.yaml")))
    assert code == 0, "\n".join(line for line in lines if not line.startswith("PASS"))
    assert lines[-1] == f"{total} passed, 0 failed"
