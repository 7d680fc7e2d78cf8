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

from tg_mafia.ops.metrics import BotMetrics, Snapshot

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


# -- compose's `metrics` profile: Prometheus with deploy/prometheus.yml, Grafana with the
# dashboard provisioned; checked as far as can be without a Docker engine -----------------

DEPLOY = ROOT / "deploy"
PROMETHEUS_CONFIG = DEPLOY / "prometheus.yml"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """A service's volumes, by where they appear in the container: the host path
    (relative to deploy/) or the named volume."""
    found = {}
    for volume in service.get("volumes", []):
        source, target, *_ = volume.split(":")
        found[target] = source
    return found


def host_path(container_path: str, service: dict[str, Any]) -> Path:
    """The file of this host that the container sees at `container_path`."""
    for target, source in sorted(mounts(service).items(), key=lambda m: -len(m[0])):
        if container_path == target or container_path.startswith(target + "/"):
            assert source.startswith("."), f"{container_path} is in a named volume"
            return (DEPLOY / source / os.path.relpath(container_path, target)).resolve()
    raise AssertionError(f"nothing is mounted at {container_path}")


def default_of(value: str) -> str:
    """`${NAME:-default}` -> default."""
    match = re.fullmatch(r"\$\{\w+:-(.*)\}", value)
    return match.group(1) if match else value


def test_every_file_compose_mounts_exists() -> None:
    spec = compose()
    for name, service in spec["services"].items():
        for target, source in mounts(service).items():
            if source.startswith("."):
                assert (DEPLOY / source).exists(), f"{name} mounts {source} at {target}"
            else:
                assert source in spec["volumes"], f"{name}: no volume {source}"


def test_the_metrics_profile_runs_prometheus_and_grafana() -> None:
    services = compose()["services"]
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["metrics"], name
        image = services[name]["image"]
        assert re.fullmatch(r"[\w./-]+:v?\d+\.\d+\.\d+", image), f"{name}: pin {image}"
        published = [port.split(":")[0] for port in services[name]["ports"]]
        assert published == ["127.0.0.1"], f"{name} must stay on the host's loopback"
    # Without the profile nothing else changes: the bots and the database have none.
    assert "profiles" not in services["bot"] and "profiles" not in services["db"]


def test_prometheus_runs_the_shipped_config_and_alerts() -> None:
    prometheus = compose()["services"]["prometheus"]
    flags = dict(arg.split("=", 1) for arg in prometheus["command"])
    config_at = flags["--config.file"]
    assert host_path(config_at, prometheus) == PROMETHEUS_CONFIG
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text())
    # Rule files are named relative to the config, here and in the container alike.
    for rule in config["rule_files"]:
        assert (PROMETHEUS_CONFIG.parent / rule).resolve() == ALERTS
        assert host_path(f"{os.path.dirname(config_at)}/{rule}", prometheus) == ALERTS


def test_prometheus_scrapes_every_replica_where_it_serves_metrics() -> None:
    services = compose()["services"]
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text())
    (job,) = config["scrape_configs"]
    # The alert rules and the dashboard's replica panels look for this job.
    assert job["job_name"] == "tg-mafia" and 'job="tg-mafia"' in ALERTS.read_text()
    (discovery,) = job["dns_sd_configs"]
    bots = {name for name, s in services.items() if s["image"].startswith("tg-mafia:")}
    assert set(discovery["names"]) == bots == {"bot", "bot-b"}
    for name in bots:
        listen = default_of(services[name]["environment"]["HEALTH_LISTEN"])
        host, _, port = listen.rpartition(":")
        assert host == "0.0.0.0" and int(port) == discovery["port"], name


def test_grafana_is_given_prometheus_and_the_dashboard() -> None:
    services = compose()["services"]
    grafana = services["grafana"]
    sources = yaml.safe_load(
        host_path("/etc/grafana/provisioning/datasources/tg-mafia.yml", grafana).read_text()
    )
    (source,) = sources["datasources"]
    port = services["prometheus"]["ports"][0].rsplit(":", 1)[1]
    assert source["type"] == "prometheus" and source["isDefault"]
    assert source["url"] == f"http://prometheus:{port}"
    providers = yaml.safe_load(
        host_path("/etc/grafana/provisioning/dashboards/tg-mafia.yml", grafana).read_text()
    )
    (provider,) = providers["providers"]
    folder = provider["options"]["path"]
    dashboards = [t for t in mounts(grafana) if t.startswith(folder + "/")]
    assert [host_path(t, grafana) for t in dashboards] == [DASHBOARD]


def test_promtool_checks_the_shipped_config() -> None:
    tool = promtool()
    run(tool, "check", "config", PROMETHEUS_CONFIG.name, cwd=PROMETHEUS_CONFIG.parent)
