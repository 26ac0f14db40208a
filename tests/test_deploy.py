"""The container and the service recipes: no container engine runs here, so these tests run what
the recipes would run, with the environment they pass: the Dockerfile's command and its
HEALTHCHECK against the fake Discord and Telegram servers, the settings compose.yaml hands the
bot, and the systemd unit through ``systemd-analyze verify`` and its ``ExecStartPre``."""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.test_operating import (
    DISCORD_TOKEN,
    TELEGRAM_TOKEN,
    Fakes,
    Output,
    _env,
    secret_forms,
)
from tests.test_operations import get, wait_for

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    last = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last:]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in final_stage():
        if keyword == "ENV":
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def exec_form(keyword: str) -> list[str]:
    [rest] = [rest for k, rest in final_stage() if k == keyword]
    if keyword == "HEALTHCHECK":
        rest = rest[rest.index("CMD") + 3 :]
    command = json.loads(rest)
    assert isinstance(command, list)
    return [str(part) for part in command]


def test_the_dockerfile_is_slim_non_root_locked_and_checks_healthz() -> None:
    steps = dockerfile()
    bases = [rest for keyword, rest in steps if keyword == "FROM"]
    assert bases and all(base.startswith("python:3.11-slim") for base in bases), bases
    runs = " ".join(rest for keyword, rest in steps if keyword == "RUN")
    assert "--require-hashes -r requirements/run.txt" in runs  # the locked install
    assert "--no-deps --no-build-isolation" in runs  # the project from the locked tools
    [user] = [rest for keyword, rest in final_stage() if keyword == "USER"]
    assert user not in ("root", "0")
    assert ("STOPSIGNAL", "SIGTERM") in final_stage()
    assert "/healthz" in " ".join(exec_form("HEALTHCHECK"))
    assert exec_form("CMD") == ["rummikub", "run"]
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ".env" in ignored and ".venv" in ignored  # no secret and no local venv in the image


def test_the_images_command_serves_what_its_healthcheck_asks_and_stops_on_its_signal(
    tmp_path: Path,
) -> None:
    fakes = Fakes()
    env = image_env()
    data = tmp_path / "data"  # the image's /data volume
    data.mkdir()
    env["DATABASE_URL"] = env["DATABASE_URL"].replace("/data/", f"{data}/")
    env["METRICS_PORT"] = "0"  # the machine's 9464 may be taken; the image's is checked below
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    given = _env(
        **env,
        TELEGRAM_TOKEN=TELEGRAM_TOKEN,
        TELEGRAM_API_BASE_URL=fakes.urls["telegram"],
        DISCORD_TOKEN=DISCORD_TOKEN,
        DISCORD_API_BASE_URL=fakes.urls["discord"],
        RENDER_IMAGES="false",
    )
    assert image_env()["METRICS_LISTEN"] == "0.0.0.0" and image_env()["METRICS_PORT"] == "9464"
    bot = subprocess.Popen(
        exec_form("CMD"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=data,
        env=given,
    )
    assert bot.stdout is not None
    log = Output(bot.stdout)
    try:
        base = endpoint_of_any(log)
        port = base.rsplit(":", 1)[1]
        check = exec_form("HEALTHCHECK")
        healthy = subprocess.run(check, env={**given, "METRICS_PORT": port}, timeout=30)
        assert healthy.returncode == 0
        wait_for(lambda: get(f"{base}/readyz")[0] == 200, "readiness")
        bot.send_signal(signal.SIGTERM)  # the image's STOPSIGNAL, as docker stop sends it
        code = bot.wait(60)  # compose.yaml's stop_grace_period
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        fakes.close()
    output = log.rest()
    assert code == 0, output[-3000:]
    assert not [form for form in secret_forms() if form in output]
    assert (data / "rummikub.db").exists()  # the state is in the volume
    after = subprocess.run(check, env={**given, "METRICS_PORT": port}, timeout=30)
    assert after.returncode != 0  # nothing answers: unhealthy


def endpoint_of_any(log: Output) -> str:
    """The endpoint's URL from its start line (the image listens on 0.0.0.0)."""
    line = log.until(lambda s: "operations endpoint: http://" in s, "the operations endpoint")
    found = re.search(r"http://([^/\s]+):([0-9]+)/healthz", line)
    assert found is not None
    return f"http://127.0.0.1:{found.group(2)}"


def test_compose_runs_the_bot_on_its_postgresql_with_settings_the_bot_accepts() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    db, bot = compose["services"]["db"], compose["services"]["bot"]
    assert db["image"].startswith("postgres:")
    assert bot["build"] == "."
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["env_file"] == ".env"
    grace = re.fullmatch(r"([0-9]+)s", bot["stop_grace_period"])
    assert grace and int(grace.group(1)) >= 30
    password = "pa55-word_for-test"
    env = {
        key: str(value).replace("${POSTGRES_PASSWORD}", password)
        for key, value in bot["environment"].items()
    }
    user, database = db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]
    assert env["DATABASE_URL"] == f"postgresql+asyncpg://{user}:{password}@db:5432/{database}"
    published = bot["ports"][0].rsplit(":", 1)[1]
    assert published == env["METRICS_PORT"]
    show = (
        "from bot.config import load_settings; s = load_settings(); "
        "print(s.database_url, s.metrics_listen, s.metrics_port, s.secrets())"
    )
    checked = subprocess.run(
        [sys.executable, "-c", show],
        env=_env(**env),
        capture_output=True,
        text=True,
        cwd=ROOT / "docs",  # no .env here
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.split() == [
        env["DATABASE_URL"],
        "0.0.0.0",
        "9464",
        f"['{password}']",  # the password is a secret: redacted from every log line
    ]


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "docs" / "rummikub.service")
    return parser


def test_the_systemd_unit_restarts_on_failure_and_gives_the_bot_time_to_stop() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) >= 30
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["User"] != "root"
    assert shlex.split(service["ExecStart"])[1:] == ["run"]
    assert shlex.split(service["ExecStartPre"])[1:] == ["db", "upgrade"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "rummikub.service").read_text()
    local = tmp_path / "rummikub.service"  # the programs where this checkout has them
    local.write_text(text.replace("/opt/rummikub/.venv/bin/", f"{VENV_BIN}/"))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(local)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def systemd_environment(path: Path) -> dict[str, str]:
    """KEY=value lines the way systemd's EnvironmentFile reads them (# comments)."""
    found = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip()
    return found


def test_the_units_start_step_runs_with_an_environment_file_like_the_example(
    tmp_path: Path,
) -> None:
    service = unit()["Service"]
    environment = systemd_environment(ROOT / ".env.example")
    environment["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'rummikub.db'}"
    program, *arguments = shlex.split(service["ExecStartPre"])
    local = VENV_BIN / Path(program).name
    result = subprocess.run(
        [str(local), *arguments],
        env=_env(**environment),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "upgraded from nothing to revision" in result.stdout


def test_the_sample_dashboard_asks_only_for_metrics_the_bot_exports() -> None:
    from prometheus_client import generate_latest

    from bot.operations import BotMetrics

    exported = set(
        re.findall(r"^# TYPE (\S+) (\S+)", generate_latest(BotMetrics().registry).decode(), re.M)
    )
    names = set()
    for name, kind in exported:
        names.add(name)
        if kind == "histogram":
            names.update({f"{name}_bucket", f"{name}_count", f"{name}_sum"})
        if kind == "counter":
            names.add(f"{name}_total")
    dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
    asked = {
        metric
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for metric in re.findall(r"\b(rummikub_[a-z_]+)", target["expr"])
    }
    assert len(asked) >= 12
    assert asked <= names, asked - names
