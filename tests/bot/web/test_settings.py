"""The board's settings: checked when read, like every other setting, and secret where secret."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import SettingsError, load_settings
from tests.bot.test_config import VARIABLES

WEB = [name for name in VARIABLES if name.startswith("WEB_")]


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in WEB:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    yield


def test_without_a_base_url_there_is_no_board_and_the_defaults_hold() -> None:
    settings = load_settings()
    assert settings.web_base_url is None
    assert (settings.web_listen, settings.web_port) == ("127.0.0.1", 8480)
    assert (settings.web_link_seconds, settings.web_init_data_seconds) == (3600, 3600)
    assert settings.web_secret is None


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("WEB_BASE_URL", "http://board.example.org", "https://"),
        ("WEB_BASE_URL", "ftp://board.example.org", "https://"),
        ("WEB_BASE_URL", "https://board.example.org/?x=1", "without ? or #"),
        ("WEB_PORT", "70000", "0: any free port"),
        ("WEB_LINK_SECONDS", "5", "60 to 604800"),
        ("WEB_INIT_DATA_SECONDS", "9999999", "60 to 604800"),
        ("WEB_LISTEN", "http://0.0.0.0", "an address to listen on"),
    ],
)
def test_a_bad_board_setting_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value).startswith(f"{name}={value!r} is not valid: ")
    assert said in str(refused.value)


def test_a_short_board_secret_is_refused_without_showing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_SECRET", "too-short-secret")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert "too-short-secret" not in str(refused.value)
    assert str(refused.value).startswith("WEB_SECRET is not valid: use at least 32 characters")


def test_the_board_secret_is_a_secret_and_local_http_is_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_SECRET", "s" * 40)
    monkeypatch.setenv("WEB_BASE_URL", "http://127.0.0.1:8480")
    settings = load_settings()
    assert "s" * 40 not in repr(settings)
    assert "s" * 40 in settings.secrets()  # handed to the log filter
    assert settings.web_base_url == "http://127.0.0.1:8480"
