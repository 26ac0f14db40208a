"""A player's data deleted on request (``rummikub db forget PLATFORM:USER``).

What the bot stores about a person is their platform user id, the name they showed, and their
language. Forgetting deletes the language and the ids of the messages the bot keeps editing for
them, and gives every game, match and leaderboard row they appear in a neutral name and a new
random id instead (``Player 7f3a`` / ``forgotten-7f3a...``), in one transaction. Nothing that
makes the other players' history true changes: seeds, action logs and scores stay as they were,
so every finished game still replays and every leaderboard still adds up (the forgotten
player's totals stay, under the neutral name, linked to nobody).

A player still seated at an unfinished game or an open lobby is refused: the running bot holds
that table in memory and would write the name back. Forget them once that game has ended (or
after ``cancel``).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Text, cast, delete, or_, update
from sqlmodel import col, select

from storage.errors import StorageError
from storage.models import (
    ChannelSettingsRow,
    GameRow,
    LobbyRow,
    MatchRow,
    MessageSlotRow,
    OutboxRow,
    PlayerLanguageRow,
    PlayerStatRow,
)

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from storage.connection import Connection


class PlayerAtTableError(StorageError):
    """The player sits at an unfinished game or an open lobby; ``channels`` says where."""

    def __init__(self, channels: list[str]) -> None:
        self.channels = channels
        where = ", ".join(channels)
        super().__init__(
            f"They are still at a table in {where}: forget them once that game has ended "
            "(or after cancel there)."
        )


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting changed: the neutral name and id now in the player's place, and how
    many stored rows of each kind were rewritten or deleted."""

    name: str
    user_id: str
    games: int = 0
    matches: int = 0
    leaderboard_rows: int = 0
    languages: int = 0
    message_ids: int = 0
    outbox_entries: int = 0

    @property
    def anything(self) -> bool:
        return any(
            (
                self.games,
                self.matches,
                self.leaderboard_rows,
                self.languages,
                self.message_ids,
                self.outbox_entries,
            )
        )


def _mentions(column: Any, user_id: str) -> Any:
    """A cheap first filter: the JSON column (or JSON text) holds the id as a string."""
    return cast(column, Text).contains(json.dumps(user_id), autoescape=True)


def _renamed(people: list[dict[str, Any]], user_id: str, new: tuple[str, str]) -> bool:
    """Give the entries of ``people`` (``player_id``, ``name``) with ``user_id`` the new id and
    name, in place; whether any was."""
    found = False
    for person in people:
        if person.get("player_id") == user_id:
            person["player_id"], person["name"] = new
            found = True
    return found


def _renamed_host(setup: str, user_id: str, new: tuple[str, str]) -> str | None:
    """The game's setup JSON with the host renamed, or None when the host is someone else."""
    try:
        data = json.loads(setup)
    except ValueError:
        return None  # an older setup: the rules text alone, no host
    host = data.get("host") if isinstance(data, dict) else None
    if not isinstance(host, dict) or host.get("user_id") != user_id:
        return None
    data["host"] = {"user_id": new[0], "name": new[1]}
    return json.dumps(data)


def _in_lobby(data: dict[str, Any], user_id: str) -> bool:
    host = data.get("host") or {}
    return host.get("user_id") == user_id or any(
        seat.get("user_id") == user_id for seat in data.get("seats", ())
    )


async def _tables_with(session: AsyncSession, platform: str, user_id: str) -> list[str]:
    """The channels where the player sits at an unfinished game or an open lobby."""
    busy: list[str] = []
    games = await session.execute(
        select(GameRow).where(
            col(GameRow.platform) == platform,
            col(GameRow.finished_at).is_(None),
            or_(_mentions(GameRow.seats, user_id), _mentions(GameRow.setup, user_id)),
        )
    )
    for game in games.scalars():
        seats = [dict(seat) for seat in game.seats]
        if _renamed(seats, user_id, ("", "")) or _renamed_host(game.setup, user_id, ("", "")):
            busy.append(f"{platform}:{game.channel_id}")
    lobbies = await session.execute(
        select(LobbyRow).where(
            col(LobbyRow.platform) == platform, _mentions(LobbyRow.data, user_id)
        )
    )
    busy.extend(
        f"{platform}:{lobby.channel_id}"
        for lobby in lobbies.scalars()
        if _in_lobby(dict(lobby.data), user_id)
    )
    return sorted(set(busy))


async def forget_player(db: Connection, platform: str, user_id: str) -> Forgotten:
    """Forget ``platform:user_id`` (see the module's docstring); raises
    :class:`PlayerAtTableError` while they sit at an unfinished table."""
    token = uuid.uuid4().hex
    new = (f"forgotten-{token[:16]}", f"Player {token[:4]}")
    async with db.transaction() as session:
        busy = await _tables_with(session, platform, user_id)
        if busy:
            raise PlayerAtTableError(busy)

        games = await session.execute(
            select(GameRow).where(
                col(GameRow.platform) == platform,
                or_(_mentions(GameRow.seats, user_id), _mentions(GameRow.setup, user_id)),
            )
        )
        game_ids: list[int] = []
        for game in games.scalars():
            seats = [dict(seat) for seat in game.seats]
            seated = _renamed(seats, user_id, new)
            setup = _renamed_host(game.setup, user_id, new)
            if seated:
                game.seats = seats  # a new value, so the JSON change is saved
            if setup is not None:
                game.setup = setup
            if (seated or setup is not None) and game.id is not None:
                game_ids.append(game.id)

        matches = await session.execute(
            select(MatchRow).where(
                col(MatchRow.platform) == platform, _mentions(MatchRow.players, user_id)
            )
        )
        match_count = 0
        for match in matches.scalars():
            players = [dict(p) for p in match.players]
            standings = [dict(s) for s in match.standings]
            if _renamed(players, user_id, new) | _renamed(standings, user_id, new):
                match.players, match.standings = players, standings
                match_count += 1

        stats = await session.execute(
            update(PlayerStatRow)
            .where(col(PlayerStatRow.platform) == platform, col(PlayerStatRow.user_id) == user_id)
            .values(user_id=new[0], display_name=new[1])
        )
        languages = await session.execute(
            delete(PlayerLanguageRow).where(
                col(PlayerLanguageRow.platform) == platform,
                col(PlayerLanguageRow.user_id) == user_id,
            )
        )
        slots = await session.execute(
            delete(MessageSlotRow).where(
                col(MessageSlotRow.platform) == platform,
                or_(
                    col(MessageSlotRow.owner) == user_id, col(MessageSlotRow.channel_id) == user_id
                ),
            )
        )
        await session.execute(  # the settings of their private chat with the bot
            delete(ChannelSettingsRow).where(
                col(ChannelSettingsRow.platform) == platform,
                col(ChannelSettingsRow.channel_id) == user_id,
            )
        )
        # What their games announced (names in sentences), and any entry naming them
        outbox_filter = _mentions(OutboxRow.payload, user_id)
        if game_ids:
            outbox_filter = or_(outbox_filter, col(OutboxRow.game_id).in_(game_ids))
        outbox = await session.execute(delete(OutboxRow).where(outbox_filter))
    return Forgotten(
        name=new[1],
        user_id=new[0],
        games=len(game_ids),
        matches=match_count,
        leaderboard_rows=_count(stats),
        languages=_count(languages),
        message_ids=_count(slots),
        outbox_entries=_count(outbox),
    )


def _count(result: Any) -> int:
    return int(getattr(result, "rowcount", 0) or 0)
