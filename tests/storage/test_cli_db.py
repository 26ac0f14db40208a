from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli import db as cli_db
from storage.migrate import head_revision
from tests.storage.conftest import needs_postgres


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="rummikub db")
    cli_db.configure(parser)
    return cli_db.main(parser.parse_args(argv))


def test_db_upgrade_creates_then_reports_up_to_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    assert run("current", "--url", url) == 1
    assert "does not exist yet" in capsys.readouterr().out
    assert not (tmp_path / "bot.db").exists()
    assert run("upgrade", "--url", url) == 0
    assert f"upgraded from nothing to revision {head_revision()}" in capsys.readouterr().out
    assert run("upgrade", "--url", url) == 0
    assert "is up to date" in capsys.readouterr().out
    assert run("current", "--url", url) == 0
    assert f"at revision {head_revision()} (up to date)" in capsys.readouterr().out


def test_db_upgrade_uses_database_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    assert run("upgrade") == 0
    assert (tmp_path / "env.db").exists()


def test_db_upgrade_explains_a_bad_url_in_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("upgrade", "--url", "mysql://h/db") == 2
    out = capsys.readouterr().err.strip()
    assert out.startswith("rummikub db: DATABASE_URL is not valid: Database URL")
    assert "neither SQLite nor PostgreSQL" in out and "\n" not in out
    assert run("upgrade", "--url", "postgresql://nobody@127.0.0.1:1/none") == 1
    assert "cannot reach the database" in capsys.readouterr().out


def test_db_upgrade_refuses_a_file_that_is_not_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("these are not the tables you are looking for\n" * 100)
    assert run("upgrade", "--url", f"sqlite:///{notes}") == 2
    out = capsys.readouterr().out.strip()
    assert out.endswith("could not be opened: file is not a database.")
    assert "\n" not in out


@pytest.mark.postgres
def test_db_upgrade_names_a_missing_postgres_database(capsys: pytest.CaptureFixture[str]) -> None:
    url = needs_postgres().rsplit("/", 1)[0] + "/rk_no_such_database"
    assert run("upgrade", "--url", url) == 2
    assert 'database "rk_no_such_database" does not exist.' in capsys.readouterr().out
