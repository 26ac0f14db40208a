"""Ratings as players see them: the ladder (``leaderboard``, with a picture), and a player's
rating, its history as a line and their results against each AI level (in ``stats``); and
which server a channel belongs to, as its adapter says (ratings are kept per server or
group: ``storage.ratings``)."""

from __future__ import annotations

from bot.api import Button, ChannelRef, Image, PlayerRef, Reply, ServerOf
from bot.i18n import t
from bot.manager.faults import Faults
from bot.manager.state import note
from bot.presenter import Presenter
from renderers.ladder import LadderRow, ladder_view, rating_chart_view
from renderers.words import signed
from storage import Database, RatingEntry
from storage.rating_reads import TREND_GAMES
from storage.skill import PROVISIONAL_GAMES, person_entity

"""The id of the server (a Discord guild) a channel belongs to, or None when not known."""

LADDER_ROWS = 10
HISTORY_GAMES = 60  # the rating line shows the last 60 games
MARK = "?"  # after a provisional rating


def ai_name(level: str, edition: str) -> str:
    """An AI level's name: its level, and the edition when it is not classic (``hard (XP)``)."""
    return level if edition in ("", "classic") else f"{level} ({edition.upper()})"


def ai_label(entry: RatingEntry) -> str:
    level, _, edition = entry.key.partition(":")
    return ai_name(level, edition)


class Ratings:
    """Reads ratings for replies; never changes one (finished games do, in storage)."""

    def __init__(self, db: Database, presenter: Presenter, faults: Faults) -> None:
        self._db = db
        self._presenter = presenter
        self._faults = faults
        self._server_of: dict[str, ServerOf] = {}

    def set_server_of(self, platform: str, lookup: ServerOf) -> None:
        """How to learn the server of a channel on ``platform`` (a Discord adapter knows each
        channel's guild). Without one, a channel is its own scope (a Telegram group)."""
        self._server_of[platform] = lookup

    async def note_server(self, channel: ChannelRef) -> None:
        """Store the server of ``channel`` when its adapter knows it (when a lobby opens, so
        its games are rated on the server's ladder; the first time, its older games move
        there). A failure is logged and changes nothing: the stored scope stays."""
        lookup = self._server_of.get(channel.platform)
        if lookup is None:
            return
        try:
            server = await lookup(channel)
            if server:
                await self._db.ratings.link(channel.platform, channel.chat_id, server)
        except Exception:
            self._faults("cannot note the server of %s", channel.key)

    async def scope(self, channel: ChannelRef) -> str:
        """The scope the channel's games are rated in (its server noted first)."""
        await self.note_server(channel)
        return await self._db.ratings.scope_of(channel.platform, channel.chat_id)

    async def ladder(self, channel: ChannelRef, player: PlayerRef, lang: str) -> Reply:
        """The rating ladder of the channel's server or group, privately, with its picture
        (the asker's row highlighted, and added below the top when they are not in it) and a
        button for the channel's win counts."""
        platform = channel.platform
        scope = await self.scope(channel)
        entries = await self._db.ratings.ladder(platform, scope, limit=LADDER_ROWS)
        if not entries:
            return note(channel, player, t(lang, "ladder_empty") + " " + t(lang, "ladder_more"))
        mine = person_entity(player.user_id)
        if all(e.entity != mine for e in entries):
            found = await self._db.ratings.entry(platform, scope, mine)
            if found is not None:
                entries.append(found)
        people = await self._db.ratings.people(platform, scope)
        lines = []
        for e in entries:
            mark = MARK if e.provisional else ""
            if e.is_ai:
                lines.append(
                    t(lang, "ladder_ai_row", name=ai_label(e), rating=e.display, games=e.games)
                )
            else:
                lines.append(
                    t(
                        lang,
                        "ladder_row",
                        rank=e.rank,
                        name=e.name,
                        rating=e.display,
                        mark=mark,
                        games=e.games,
                        trend=signed(e.trend),
                    )
                )
        text = t(lang, "ladder", rows="; ".join(lines))
        if any(e.provisional and not e.is_ai for e in entries):
            text += " " + t(lang, "ladder_provisional", count=PROVISIONAL_GAMES)
        text += " " + t(lang, "ladder_more")
        rows = [
            LadderRow(
                name=ai_label(e) if e.is_ai else e.name,
                rating=e.display,
                games=e.games,
                trend=e.trend,
                rank=e.rank,
                provisional=e.provisional and not e.is_ai,
                ai=e.is_ai,
                highlight=e.entity == mine,
            )
            for e in entries
        ]
        view = ladder_view(
            rows, people=people, provisional_games=PROVISIONAL_GAMES, trend_games=TREND_GAMES
        )
        images = await self._presenter.ladder_images(view, lang=lang)
        wins = (Button(t(lang, "button_win_counts"), "leaderboard wins"),)
        return Reply(channel, text, images=images, buttons=(wins,), private_to=player)

    async def of_player(
        self, channel: ChannelRef, user_id: str, name: str, lang: str
    ) -> tuple[str, tuple[Image, ...]]:
        """A person's rating for ``stats``: a sentence (their rating, rank, games, trend and
        how they do against each AI level) and the line of their rating after each game;
        nothing when they have no rating in the channel's server or group."""
        platform = channel.platform
        scope = await self.scope(channel)
        entity = person_entity(user_id)
        entry = await self._db.ratings.entry(platform, scope, entity)
        if entry is None:
            return "", ()
        text = t(
            lang,
            "stats_rating",
            rating=entry.display,
            mark=MARK if entry.provisional else "",
            rank=entry.rank,
            people=await self._db.ratings.people(platform, scope),
            games=entry.games,
            trend=signed(entry.trend),
        )
        if entry.provisional:
            text += " " + t(lang, "stats_provisional", count=PROVISIONAL_GAMES)
        against = await self._db.ratings.against_ai(platform, scope, entity)
        if against:
            rows = "; ".join(
                t(
                    lang,
                    "stats_ai_row",
                    level=ai_name(a.level, a.edition),
                    games=a.games,
                    ahead=a.ahead,
                    place=a.best_place,
                    seats=a.best_of,
                )
                for a in against
            )
            text += " " + t(lang, "stats_ai", rows=rows)
        history = await self._db.ratings.history(platform, scope, entity, limit=HISTORY_GAMES)
        points = [history[0].before, *(p.display for p in history)]
        view = rating_chart_view(
            name,
            points,
            first_game=entry.games - len(history) + 1,
            provisional_games=PROVISIONAL_GAMES,
        )
        return text, await self._presenter.rating_images(view, lang=lang)
