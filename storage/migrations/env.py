"""Alembic environment: runs on the connection that ``storage.migrate`` hands over."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlmodel.sql.sqltypes import AutoString

from storage.models import UTCDateTime, metadata

connection = context.config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError(
        "Run migrations through `rummikub db upgrade` or storage.migrate, not the alembic CLI."
    )


def render_item(kind: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Write our column types as plain SQLAlchemy types, so migrations never import models."""
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if kind == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False


context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,  # lets SQLite alter tables in future migrations
    compare_type=True,
    render_item=render_item,
)
with context.begin_transaction():
    context.run_migrations()
