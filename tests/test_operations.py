"""The operations endpoint of the real ``rummikub run``: health, readiness, metrics, JSON logs.

The bot process talks to the fake Telegram Bot API and the fake Discord API and gateway (the
helpers of tests/test_operating.py); these tests read ``/healthz``, ``/readyz`` and
``/metrics`` over HTTP as Kubernetes or Prometheus would, and parse what the process logs.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.test_operating import (
    WAIT,
    Fakes,
    Output,
    secret_forms,
    start_bot,
)

ENDPOINT = re.compile(r"operations endpoint: (http://127\.0\.0\.1:[0-9]+)/healthz")

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def scrape(base: str) -> Samples:
    """Every sample of ``/metrics``, parsed by prometheus_client's own parser."""
    status, text = get(f"{base}/metrics")
    assert status == 200, text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    want = set(labels.items())
    return sum(value for (n, have), value in samples.items() if n == name and want <= have)


def wait_for(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.2)


def endpoint_of(log: Output) -> str:
    line = log.until(lambda s: ENDPOINT.search(s) is not None, "the operations endpoint")
    found = ENDPOINT.search(line)
    assert found is not None
    return found.group(1)


def stop(bot: subprocess.Popen[str], log: Output) -> str:
    """SIGTERM, then everything the process wrote; it must have stopped cleanly."""
    if bot.poll() is None:
        bot.send_signal(signal.SIGTERM)
    code = bot.wait(WAIT)
    output = log.rest()
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    return output


def test_readyz_waits_for_the_discord_gateway_and_the_metrics_move_as_a_game_is_played(
    tmp_path: Path, fakes: Fakes
) -> None:
    fakes.send("discord_hold_ready")
    fakes.expect("discord_ready_held")
    bot, log = start_bot(tmp_path, fakes, METRICS_PORT="0")
    try:
        base = endpoint_of(log)
        assert get(f"{base}/healthz") == (200, '{"status": "ok"}\n')
        fakes.expect("discord_identified")  # connected, the gateway holds READY back
        fakes.expect("telegram_polling")
        status, body = get(f"{base}/readyz")
        assert status == 503
        assert json.loads(body) == {
            "status": "not ready",
            "reason": "discord: the gateway is not ready yet",
        }
        assert body.count("\n") == 1  # one line

        fakes.send("discord_ready")
        wait_for(lambda: get(f"{base}/readyz")[0] == 200, "readiness after READY")
        assert json.loads(get(f"{base}/readyz")[1]) == {"status": "ready"}

        before = scrape(base)
        assert total(before, "rummikub_commands_total") == 0
        assert total(before, "rummikub_database_up") == 1
        assert total(before, "rummikub_platform_api_calls_total", platform="discord") > 0
        fakes.send("telegram_group", text="/new timer=600 games=1")
        wait_for(lambda: total(scrape(base), "rummikub_active_lobbies") == 1, "the lobby")
        fakes.send("telegram_group", text="/addbot easy")
        fakes.send("telegram_group", text="/deal")
        wait_for(lambda: total(scrape(base), "rummikub_active_games") == 1, "the game")
        fakes.send("telegram_group", text="/play Q77")  # no such tile: refused
        for _ in range(3):  # Ann draws when it is her turn; the AI seat moves after her
            fakes.send("telegram_group", text="/draw")

        def played(now: Samples) -> bool:
            return (
                total(now, "rummikub_commands_total", verb="draw") == 3
                and total(now, "rummikub_turns_committed_total", player="human") >= 1
                and total(now, "rummikub_turns_committed_total", player="ai") >= 1
            )

        wait_for(lambda: played(scrape(base)), "the three draws and a turn of each seat")
        after = scrape(base)
    finally:
        if bot.poll() is None:
            stop(bot, log)
    lines = log.rest()
    assert not [form for form in secret_forms() if form in lines]

    assert total(after, "rummikub_commands_total", platform="telegram", verb="start") == 1
    assert total(after, "rummikub_commands_total", platform="telegram", verb="draw") == 3
    assert total(after, "rummikub_command_duration_seconds_count", verb="deal") == 1
    assert total(after, "rummikub_commands_rejected_total", platform="telegram") >= 1
    assert total(after, "rummikub_solver_duration_seconds_count", use="ai", level="easy") >= 1
    assert total(after, "rummikub_database_save_duration_seconds_count") > 0
    sent = total(after, "rummikub_platform_api_calls_total", platform="telegram", outcome="ok")
    assert sent > total(before, "rummikub_platform_api_calls_total", platform="telegram")
    assert total(after, "rummikub_internal_errors_total") == 0
    assert total(after, "rummikub_outbox_backlog_entries") >= 0
    assert total(after, "process_resident_memory_bytes") > 0
    # no player, channel or game id is a label: every label value is from a small set
    labels = {value for (_, have) in after for _, value in have}
    assert not any(re.fullmatch(r"-?[0-9]{3,}", value) for value in labels), labels
    assert not any("Ann" in value for value in labels)


def test_json_logs_at_debug_are_one_object_a_line_with_context_and_no_secret(
    tmp_path: Path, fakes: Fakes
) -> None:
    bot, log = start_bot(
        tmp_path, fakes, LOG_FORMAT="json", HTTP_LOG_LEVEL="DEBUG", METRICS_PORT="0"
    )
    try:
        fakes.expect("telegram_polling")
        fakes.expect("discord_identified")
        fakes.send("telegram_group", text="/help")
        fakes.send("discord_slash", path="help")
        assert "Commands:" in " ".join(fakes.expect("discord_answered")["texts"])
        time.sleep(1.0)  # the Telegram answer's log lines
    finally:
        output = stop(bot, log)

    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) > 20
    records = []
    for line in lines:
        record = json.loads(line)  # every line is one JSON object
        assert isinstance(record, dict), line
        assert {"time", "level", "logger", "message"} <= set(record), line
        records.append(record)
    leaked = [form for form in secret_forms() if form in output]
    assert not leaked, f"tokens in the log: {leaked}"
    assert any(r["logger"] == "httpx" and "<redacted>" in r["message"] for r in records)
    handled = [r for r in records if r["logger"] == "rummikub.commands"]
    assert {r.get("platform") for r in handled} == {"telegram", "discord"}, handled
    assert all(r.get("channel") for r in handled)
    assert all(r["time"].endswith("+00:00") for r in records)


@pytest.mark.postgres
def test_readyz_is_503_while_the_database_is_down_and_200_once_it_is_back(
    tmp_path: Path, fakes: Fakes
) -> None:
    import asyncio

    import asyncpg

    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set")
    server = url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"ops_ready_{uuid.uuid4().hex[:10]}"

    async def admin(*statements: str) -> None:
        connection = await asyncpg.connect(server)
        try:
            for statement in statements:
                await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        bot_url = url.rsplit("/", 1)[0] + f"/{name}"
        bot, log = start_bot(tmp_path, fakes, METRICS_PORT="0", DATABASE_URL=bot_url)
        try:
            base = endpoint_of(log)
            wait_for(lambda: get(f"{base}/readyz")[0] == 200, "readiness")
            asyncio.run(
                admin(
                    f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false',
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE datname = '{name}' AND pid <> pg_backend_pid()",
                )
            )
            wait_for(lambda: get(f"{base}/readyz")[0] == 503, "503 with the database away")
            status, body = get(f"{base}/readyz")
            assert status == 503 and json.loads(body)["reason"].startswith("database: ")
            assert get(f"{base}/healthz")[0] == 200  # alive all the same: no restart needed
            assert total(scrape(base), "rummikub_database_up") == 0
            asyncio.run(admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
            wait_for(lambda: get(f"{base}/readyz")[0] == 200, "200 with the database back")
        finally:
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
                bot.wait(WAIT)
    finally:
        asyncio.run(
            admin(
                f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true',
                f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            )
        )
