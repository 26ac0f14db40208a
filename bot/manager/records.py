"""A channel's records: leaderboard, history, a player's stats across a server or group (with
a picture of their last match), and the replay of a finished game with its record attached."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.api import ChannelRef, File, Image, PlayerRef, Reply
from bot.commands import parse_number, shorten
from bot.i18n import t, translator
from bot.manager.languages import Languages
from bot.manager.state import ServerChannels, note
from bot.presenter import Presenter
from renderers.scoreline import scoreline_view
from storage import Database

RECORD_FILENAME = "game.rkr"
RECORD_MIME = "text/plain"  # UTF-8 text (docs/records.md); chat clients offer it as a download


class Records:
    """Reads finished games and scores; never changes a game."""

    def __init__(self, db: Database, presenter: Presenter, languages: Languages) -> None:
        self._db = db
        self._presenter = presenter
        self._languages = languages
        self._server_channels: dict[str, ServerChannels] = {}

    def set_server_channels(self, platform: str, lookup: ServerChannels) -> None:
        """How ``stats`` finds the other channels of a channel's server or group on
        ``platform`` (a Discord adapter lists its guild's text channels). Without one, a
        channel stands alone (a Telegram group is one chat)."""
        self._server_channels[platform] = lookup

    async def channels_of(self, channel: ChannelRef) -> list[str]:
        lookup = self._server_channels.get(channel.platform)
        ids = [channel.chat_id]
        if lookup is not None:
            ids.extend(str(c) for c in await lookup(channel))
        return list(dict.fromkeys(ids))

    async def leaderboard(self, channel: ChannelRef, lang: str) -> str:
        entries = await self._db.stats.leaderboard(channel.platform, channel.chat_id)
        if not entries:
            return t(lang, "leaderboard_empty")
        rows = "; ".join(
            t(
                lang,
                "leaderboard_row",
                rank=i,
                name=e.name,
                won=e.games_won,
                played=e.games_played,
                total=f"{e.total_score:+d}",
            )
            for i, e in enumerate(entries, start=1)
        )
        return t(lang, "leaderboard", rows=rows)

    async def history(self, channel: ChannelRef, lang: str) -> str:
        """The channel's last games, newest first: each finished one with the number that
        ``replay`` and ``rummikub export --list`` give it, a cancelled one marked so."""
        from engine.scoring import GameResult

        games = await self._db.games.history(channel.platform, channel.chat_id, limit=5)
        if not games:
            return t(lang, "history_empty")
        rows = []
        number = 0
        for g in games:
            when = g.finished_at.strftime("%Y-%m-%d %H:%M") if g.finished_at else "?"
            if g.status != "finished":
                rows.append(t(lang, "history_cancelled", when=when))
                continue
            number += 1
            if g.result and "text" in g.result:
                result = GameResult.from_text(g.result["text"])
                winner = g.seats[result.winner].name
                score = f"{result.scores[result.winner]:+d}"
                row = t(lang, "history_won", when=when, name=winner, score=score, number=number)
            else:
                row = t(lang, "history_ended", when=when, number=number)
            rows.append(row)
        key = "history" if number else "history_none_finished"
        return t(lang, key, rows="; ".join(rows))

    async def stats(self, channel: ChannelRef, player: PlayerRef, args: str, lang: str) -> Reply:
        """A player's record over this channel, or every channel of its server where the
        platform lists them (the sender's, or the one named: a display name, a user id or a
        mention), with a picture of their last match, game by game; privately, in ``lang``
        (the asker's)."""
        ids = await self.channels_of(channel)
        who = args.strip()
        person = player.user_id
        if who:
            found = await self._find_player(channel.platform, ids, who)
            if found is None:
                return note(channel, player, t(lang, "stats_unknown", name=shorten(who)))
            person = found
        record = await self._db.stats.across_channels(channel.platform, ids, person)
        if record is None:
            name = shorten(who) or player.display_name or person
            span = "stats_none_server" if len(ids) > 1 else "stats_none"  # what was searched
            return note(channel, player, t(lang, span, name=name))
        average = record.average_score
        best = "-" if record.best_score is None else f"{record.best_score:+d}"
        if record.best_game_at is not None:
            best += f" ({record.best_game_at.strftime('%Y-%m-%d')})"
        text = t(
            lang,
            "stats",
            name=record.name,
            channels=record.channels,
            played=record.games_played,
            won=record.games_won,
            average="-" if average is None else f"{average:+.1f}",
            best=best,
            matches_won=record.matches_won,
            matches=record.matches_played,
        )
        match = await self._db.matches.last_with_player(channel.platform, ids, person)
        images: tuple[Image, ...] = ()
        if match is not None:
            seat = next((i for i, s in enumerate(match.players) if s.player_id == person), None)
            view = scoreline_view(
                tuple(s.name for s in match.players),
                tuple(tuple(r.scores) for r in match.results),
                tuple(r.winner for r in match.results),
                match.games_planned,
                highlight=seat,
                date=match.created_at.strftime("%Y-%m-%d"),
            )
            images = await self._presenter.scoreline_images(view, lang=lang)
        return Reply(channel, text, images=images, private_to=player)

    async def _find_player(self, platform: str, ids: Sequence[str], who: str) -> str | None:
        """The user id of a player named by display name, user id or mention (``<@123>``,
        ``@name``), among those with a record in ``ids``."""
        wanted = who.strip().removeprefix("<@").removeprefix("!").removesuffix(">")
        wanted = wanted.removeprefix("@").strip().lower()
        for chat_id in ids:
            for entry in await self._db.stats.leaderboard(platform, chat_id, limit=1000):
                if wanted in (entry.player_id.lower(), entry.name.lower()):
                    return entry.player_id
        return None

    async def replay(self, channel: ChannelRef, player: PlayerRef, args: str) -> list[Reply]:
        """The animation of the channel's last finished game (or its ``nth`` newest finished
        game, as ``history`` numbers them; a cancelled game has no replay), posted with the
        game's record; drawn in a worker thread, outside the lock."""
        from engine.record import parse_record
        from renderers.animation import animate
        from storage.replays import finished_games, record_for_channel

        lang = await self._languages.of_channel(channel)
        what = args.strip().lstrip("#")
        nth = parse_number(what) if what else 1
        if nth is None or nth < 1:
            return [self._languages.tell(channel, player, lang, "replay_usage")]
        games = await finished_games(self._db, channel.platform, channel.chat_id, limit=nth)
        if not games:
            return [self._languages.tell(channel, player, lang, "replay_none")]
        if len(games) < nth:
            return [self._languages.tell(channel, player, lang, "replay_nth", count=len(games))]
        game = games[nth - 1]
        record = await record_for_channel(
            self._db, channel.platform, channel.chat_id, game_id=game.id
        )
        translate = translator(lang)
        gif = await asyncio.to_thread(
            lambda: animate(parse_record(record), fmt="gif", translate=translate)
        )
        when = game.finished_at.strftime("%Y-%m-%d %H:%M") if game.finished_at else "?"
        caption = t(lang, "replay", when=when, names=", ".join(s.name for s in game.seats))
        attached = File(RECORD_FILENAME, record.encode(), RECORD_MIME)
        return [
            Reply(channel, caption, images=(Image("replay.gif", gif, caption),), files=(attached,))
        ]
