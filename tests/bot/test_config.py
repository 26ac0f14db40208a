"""The settings object: what an operator writes in ``.env`` is read once, checked, and the same
for every command (the bot and ``rummikub db`` cannot disagree about the database)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"
VARIABLES = (
    "DATABASE_URL",
    "OUTBOX_LEASE_SECONDS",
    "DISCORD_TOKEN",
    "DISCORD_API_BASE_URL",
    "TELEGRAM_TOKEN",
    "TELEGRAM_API_BASE_URL",
    "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_LISTEN",
    "TELEGRAM_WEBHOOK_PORT",
    "TELEGRAM_WEBHOOK_SECRET",
    "WEB_BASE_URL",
    "WEB_LISTEN",
    "WEB_PORT",
    "WEB_LINK_SECONDS",
    "WEB_INIT_DATA_SECONDS",
    "WEB_SECRET",
    "TURN_SECONDS",
    "LANGUAGE",
    "RENDER_IMAGES",
    "THEME",
    "LOG_LEVEL",
    "HTTP_LOG_LEVEL",
    "LOG_FORMAT",
    "METRICS_LISTEN",
    "METRICS_PORT",
)


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A working directory with no .env and none of our variables in the environment."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_blank_values_in_the_env_file_count_as_unset(clean: Path) -> None:
    (clean / ".env").write_text(
        "TELEGRAM_WEBHOOK_SECRET=\nDATABASE_URL=\nTHEME=\nTURN_SECONDS=\nTELEGRAM_TOKEN=\n"
    )
    settings = load_settings()
    assert settings.telegram_webhook_secret is None
    assert settings.telegram_token is None
    assert settings.database_url == "sqlite+aiosqlite:///rummikub.db"
    assert settings.theme == "light"
    assert settings.turn_seconds == 60


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("THEME", "drak", "use light or dark"),
        ("LANGUAGE", "de", "use en or pl"),
        ("LOG_LEVEL", "loud", "use DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("HTTP_LOG_LEVEL", "chatty", "use DEBUG, INFO"),
        ("TURN_SECONDS", "5", "10 to 604800 seconds"),
        ("TURN_SECONDS", "soon", "use a whole number"),
        ("TELEGRAM_WEBHOOK_PORT", "0", "1 to 65535"),
        ("RENDER_IMAGES", "maybe", "use true or false"),
        ("TELEGRAM_WEBHOOK_URL", "http://example.org/hook", "https://"),
        ("TELEGRAM_API_BASE_URL", "localhost:8081", "http:// or https://"),
        ("DATABASE_URL", "mysql://h/db", "neither SQLite nor PostgreSQL"),
        ("TELEGRAM_WEBHOOK_SECRET", "with spaces in it", "A-Z, a-z, 0-9"),
        ("TELEGRAM_WEBHOOK_LISTEN", "http://0.0.0.0", "an address to listen on"),
    ],
)
def test_a_bad_value_is_one_line_that_names_the_variable(
    clean: Path, name: str, value: str, reason: str
) -> None:
    (clean / ".env").write_text(f"{name}={value}\n")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{name}")
    assert reason in message
    if name == "TELEGRAM_WEBHOOK_SECRET":
        assert value not in message  # a secret is never echoed, not even a wrong one


def test_a_mistyped_token_is_refused_without_printing_it(clean: Path) -> None:
    os.environ["TELEGRAM_TOKEN"] = "bot" + TOKEN  # pasted with the URL's "bot" prefix
    try:
        with pytest.raises(SettingsError) as caught:
            load_settings()
    finally:
        del os.environ["TELEGRAM_TOKEN"]
    assert str(caught.value).startswith("TELEGRAM_TOKEN is not valid")
    assert TOKEN not in str(caught.value)


def test_several_bad_values_give_one_line_each(clean: Path) -> None:
    (clean / ".env").write_text("THEME=drak\nLANGUAGE=de\n")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    lines = str(caught.value).splitlines()
    assert sorted(line.split("=")[0] for line in lines) == ["LANGUAGE", "THEME"]


def test_tokens_are_secrets_that_a_repr_does_not_show(clean: Path) -> None:
    (clean / ".env").write_text(f"TELEGRAM_TOKEN={TOKEN}\nDISCORD_TOKEN=abc.def.ghijklmnop\n")
    settings = load_settings()
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert "abc.def.ghijklmnop" not in repr(settings)
    assert settings.secret("telegram_token") == TOKEN
    assert set(settings.secrets()) == {TOKEN, "abc.def.ghijklmnop"}


def test_values_are_read_case_insensitively_and_options_win(clean: Path) -> None:
    (clean / ".env").write_text("THEME=Dark\nLOG_LEVEL=debug\nLANGUAGE=PL\n")
    settings = load_settings()
    assert (settings.theme, settings.log_level, settings.language) == ("dark", "DEBUG", "pl")
    assert load_settings(theme="light").theme == "light"


def _rummikub(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def test_db_upgrade_and_current_use_the_database_of_the_env_file(tmp_path: Path) -> None:
    target = tmp_path / "data" / "from-env.db"
    (tmp_path / ".env").write_text(f"DATABASE_URL=sqlite+aiosqlite:///{target}\n")
    missing = _rummikub(["db", "current"], tmp_path)
    assert missing.returncode == 1 and "does not exist yet" in missing.stdout
    assert not target.exists()  # asking did not create an empty database
    upgrade = _rummikub(["db", "upgrade"], tmp_path)
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    assert target.exists()
    assert not (tmp_path / "rummikub.db").exists()
    assert "from-env.db upgraded from nothing" in upgrade.stdout
    current = _rummikub(["db", "current"], tmp_path)
    assert current.returncode == 0, current.stdout + current.stderr
    assert "from-env.db is at revision" in current.stdout and "(up to date)" in current.stdout


@pytest.mark.parametrize("command", [["run"], ["db", "current"], ["play"]])
def test_a_bad_setting_stops_every_command_with_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / ".env").write_text("THEME=drak\n")
    result = _rummikub(command, tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"rummikub {command[0]}: THEME='drak' is not valid: use light or dark."
    ]


def test_the_example_env_file_lists_every_variable_and_loads_as_it_is(clean: Path) -> None:
    from bot.config import BotSettings

    example = (ROOT / ".env.example").read_text()
    listed = {line.split("=")[0] for line in example.splitlines() if line and line[0] != "#"}
    assert listed == {name.upper() for name in BotSettings.model_fields}
    assert set(VARIABLES) == listed  # the tests here clear exactly these
    (clean / ".env").write_text(example)
    settings = load_settings()
    assert settings.discord_token is None and settings.telegram_token is None
    readme = (ROOT / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in listed)


@pytest.mark.postgres
async def test_db_upgrade_reaches_the_postgresql_of_the_env_file(tmp_path: Path) -> None:
    import asyncio

    from tests.storage.conftest import needs_postgres
    from tests.storage.scratch import scratch_schema

    url = needs_postgres()
    (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n")
    async with scratch_schema(url) as schema:
        upgrade = await asyncio.to_thread(
            _rummikub, ["db", "upgrade", "--schema", schema], tmp_path
        )
        assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
        assert (
            "postgresql+asyncpg://" in upgrade.stdout and "upgraded from nothing" in upgrade.stdout
        )
        assert not (tmp_path / "rummikub.db").exists()
        current = await asyncio.to_thread(
            _rummikub, ["db", "current", "--schema", schema], tmp_path
        )
        assert "(up to date)" in current.stdout, current.stdout + current.stderr
