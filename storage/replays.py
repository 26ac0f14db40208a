"""Game records of stored games: what ``rummikub export`` and a chat's replay command send.

A stored game keeps its seed, setup and append-only action log; ``record_of`` turns them into a
:mod:`engine.record` record (replaying the log, so a record is only ever made of legal turns)
and checks that the replay ends exactly at the stored snapshot. Only finished games are
exported: a record holds every rack, so a game still being played must not leave the table, and
a cancelled game is not a game played to its end (it has no result; ``history`` shows it as
cancelled). The games a channel can export are numbered like ``replay N``: 1 is the newest
finished game.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from engine.game import Game
from engine.record import GameRecord, RecordError, RecordSeat, record_from_log
from engine.settings import Rules
from storage.errors import NotFoundError, StorageError
from storage.records import StoredGame

if TYPE_CHECKING:
    from storage.db import Database


class RecordUnavailableError(StorageError):
    """There is no record to give: no such game here, or it was not played to its end."""


def rules_of(setup: str) -> Rules:
    """The rules a game was dealt with: the manager stores JSON with a ``rules`` key, older
    callers the rules text itself."""
    text = setup
    try:
        data = json.loads(setup)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("rules"), str):
        text = data["rules"]
    return Rules.from_text(text)


def record_of(game: StoredGame) -> GameRecord:
    """The record of a finished stored game; raises ``RecordUnavailableError`` for one still
    being played or cancelled, and ``StorageError`` if the stored log does not rebuild it."""
    if game.active:
        raise RecordUnavailableError(
            f"Game {game.id} is still being played; its record is ready when it ends."
        )
    if game.status != "finished":
        raise RecordUnavailableError(
            f"Game {game.id} was {game.status}, not played to its end: only finished games "
            "have a record."
        )
    if game.actions is None:
        raise ValueError("record_of needs the game loaded with its actions.")
    seats = [RecordSeat(s.name, s.ai) for s in game.seats]
    tags = [("Platform", game.platform), ("Channel", game.channel_id), ("Game", str(game.id))]
    if game.match_id is not None and game.game_index is not None:
        tags.append(("Match", f"{game.match_id} game {game.game_index + 1}"))
    if game.finished_at is not None:
        tags.append(("Date", game.finished_at.strftime("%Y-%m-%dT%H:%M:%SZ")))
    try:
        record = record_from_log(
            seats, game.seed, rules_of(game.setup), list(game.actions), tags=tags
        )
    except (RecordError, ValueError) as err:
        raise StorageError(f"Game {game.id} cannot be exported: {err}") from err
    replayed = Game.replay(len(seats), game.seed, record.rules, list(game.actions))
    if replayed.to_text() != Game.from_text(game.snapshot).to_text():
        raise StorageError(
            f"Game {game.id} cannot be exported: its action log does not rebuild its snapshot."
        )
    return record


async def record_for_channel(
    db: Database,
    platform: str,
    chat_id: str,
    game_id: int | None = None,
    *,
    nth: int | None = None,
) -> str:
    """The record text of the channel's last finished game, of ``game_id``, or of its ``nth``
    newest finished game (``replay N``'s number; 1 = the newest). A game of another channel is
    refused as if it did not exist; an unfinished or cancelled one with
    ``RecordUnavailableError``."""
    if game_id is None:
        wanted = 1 if nth is None else nth
        if not 1 <= wanted <= 1000:
            raise RecordUnavailableError("Name a game from the history: 1 is the newest.")
        games = await finished_games(db, platform, chat_id, limit=wanted)
        if not games:
            raise RecordUnavailableError("This channel has no finished game yet.")
        if len(games) < wanted:
            count = f"{len(games)} finished game" + ("" if len(games) == 1 else "s")
            raise RecordUnavailableError(f"This channel's history has {count}, not {wanted}.")
        game_id = games[wanted - 1].id
    try:
        game = await db.games.load(game_id)
    except NotFoundError:
        game = None
    if game is None or (game.platform, game.channel_id) != (platform, str(chat_id)):
        raise RecordUnavailableError(f"This channel has no game {game_id}.")
    return record_of(game).to_text()


async def finished_games(
    db: Database, platform: str, chat_id: str, *, limit: int
) -> list[StoredGame]:
    """The channel's finished games, newest first: game ``n`` of this list (from 1) is what
    ``replay n``, the numbers of ``history`` and ``rummikub export --list`` call game ``n``."""
    return await db.games.history(platform, chat_id, limit=limit, finished_only=True)
