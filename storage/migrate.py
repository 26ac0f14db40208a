"""Alembic, driven from code: the migrations ship inside the package, no alembic.ini needed.

``python -m storage.migrate revision -m "add a column"`` writes a new migration by comparing
the models with a scratch SQLite database upgraded to the current head.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, text

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")

# Any constant works; it only has to be the same for every process of this application.
_PG_MIGRATION_LOCK = 0x52554D4D


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at our packaged scripts, bound to ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError("The packaged migrations have no head revision.")
    return head


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Upgrade the database behind ``connection`` (the caller commits).

    On PostgreSQL a transaction-level advisory lock makes processes that start together
    migrate one after the other instead of racing to create the same tables.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
    command.upgrade(alembic_config(connection), revision)


def _make_revision(message: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        engine = create_engine(f"sqlite:///{Path(scratch) / 'scratch.db'}")
        try:
            with engine.begin() as connection:
                upgrade(connection)
                command.revision(alembic_config(connection), message=message, autogenerate=True)
        finally:
            engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.migrate")
    sub = parser.add_subparsers(dest="command", required=True)
    revision = sub.add_parser("revision", help="write a migration for the model changes")
    revision.add_argument("-m", "--message", required=True)
    sub.add_parser("heads", help="print the head revision")
    args: Any = parser.parse_args(argv)
    if args.command == "revision":
        _make_revision(args.message)
    else:
        print(head_revision())
    return 0


if __name__ == "__main__":
    sys.exit(main())
