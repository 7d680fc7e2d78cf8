"""deploy/prometheus/alerts.yml and deploy/grafana-dashboard.json: they load, every metric
they name is one /metrics exposes, and (with promtool, from Debian's prometheus package)
every expression parses and every alert fires when its test says."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tg_mafia.metrics import BotMetrics, Snapshot

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
ALERT_TESTS = ROOT / "deploy" / "prometheus" / "alerts.test.yml"
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
# Metric names in PromQL: ours and the process collector's; `up` is Prometheus' own.
METRIC_NAME = re.compile(r"\b((?:tg_mafia|process)_[a-z_]+)\b")


def exposed(tmp_path: Path) -> set[str]:
    """Every sample name /metrics shows once each metric has moved."""
    metrics = BotMetrics("r1")
    metrics.api_call("sendMessage", "429")
    metrics.update_handled(object(), 0.01)
    metrics.update_errors.inc()
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'x.db'}")
    metrics.watch(engine)
    with pytest.raises(sa.exc.OperationalError), engine.connect() as connection:
        connection.execute(sa.text("SELECT * FROM nothing"))
    engine.dispose()
    metrics.observe(Snapshot({("classic", "night"): 1}, 2, 3.0, 1), 0, draining=False)
    text = metrics.exposition().decode()
    return {
        sample.name for family in text_string_to_metric_families(text) for sample in family.samples
    }


def alert_rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def dashboard_exprs() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


def test_the_alerts_are_the_ones_worth_having() -> None:
    rules = alert_rules()
    assert {rule["alert"] for rule in rules} == {
        "TgMafiaOutboxBehind",
        "TgMafiaFloodControl",
        "TgMafiaReplicaDown",
        "TgMafiaNoReplicaUp",
        "TgMafiaDatabaseErrors",
    }
    for rule in rules:
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]


def test_the_dashboard_loads() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    panels = dashboard["panels"]
    assert len({panel["id"] for panel in panels}) == len(panels) >= 10
    for panel in panels:
        assert panel["targets"] and panel["datasource"]["uid"] == "${datasource}"
    assert [v["name"] for v in dashboard["templating"]["list"]] == ["datasource"]


@pytest.mark.parametrize("source", ["alerts", "dashboard"])
def test_every_metric_named_is_exposed(source: str, tmp_path: Path) -> None:
    exprs = [r["expr"] for r in alert_rules()] if source == "alerts" else dashboard_exprs()
    named = {name for expr in exprs for name in METRIC_NAME.findall(expr)}
    assert named, "no metric found in the expressions"
    missing = named - exposed(tmp_path)
    assert not missing, f"{source} names metrics /metrics does not expose: {missing}"


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("promtool is missing: .ci/run installs Debian's prometheus package")
        pytest.skip("promtool missing (apt-get install prometheus)")
    return found


def run(*argv: str, cwd: Path) -> None:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_promtool_checks_and_tests_the_alerts() -> None:
    tool = promtool()
    run(tool, "check", "rules", ALERTS.name, cwd=ALERTS.parent)
    run(tool, "test", "rules", ALERT_TESTS.name, cwd=ALERTS.parent)


def test_promtool_parses_every_dashboard_query(tmp_path: Path) -> None:
    tool = promtool()
    rules = [
        {"record": f"dashboard:query_{n}", "expr": expr} for n, expr in enumerate(dashboard_exprs())
    ]
    path = tmp_path / "dashboard-queries.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    run(tool, "check", "rules", path.name, cwd=tmp_path)
