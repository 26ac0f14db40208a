"""What the manager shows: racks, tables, panels, standings, help, stats and replays as
``Reply`` objects."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.api import Button, ChannelRef, File, Image, PlayerRef, Reply, Select, SelectOption
from bot.commands import (
    KNOWN_VERBS,
    CommandError,
    parse_command,
    parse_number,
    shorten,
    usage,
)
from bot.i18n import duration, say, t, translator
from bot.manager.state import (
    CommandErrorAsRule,
    LiveTable,
)
from engine import Rules
from engine.tiles import sort_tiles
from renderers.scoreline import scoreline_view

RECORD_FILENAME = "game.rkr"
RECORD_MIME = "text/plain"  # UTF-8 text (docs/records.md); chat clients offer it as a download


class ViewRoom:
    """Game state turned into replies.

    A part of :class:`bot.manager.GameManager`; it works on the manager's state."""

    # ----- views ---------------------------------------------------------------------------

    def _set_sort(self, table: LiveTable, player: PlayerRef, args: str) -> None:
        value = args.strip().lower()
        if value.startswith("num"):
            table.sort_by[player.key] = "number"
        elif value.startswith("col"):
            table.sort_by[player.key] = "color"
        else:
            raise CommandErrorAsRule(usage("sort"))

    async def _rack_reply(self, table: LiveTable, seat: int) -> Reply:
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        sort_by = table.sort_by.get(info.player.key, "color")
        draft = table.draft if table.draft is not None and table.draft.seat == seat else None
        lang = await self._player_lang(table.lang, info.player)  # the owner's, pictures too
        text = self.presenter.rack_line(game, seat, sort_by, lang=lang, draft=draft)
        images = await self.presenter.rack_images(game, seat, sort_by, lang=lang, draft=draft)
        return Reply(
            table.channel,
            text,
            images=images,
            private_to=info.player,
            slot="rack",
            buttons=(
                (
                    Button(t(lang, "button_sort_colour"), "sort colour"),
                    Button(t(lang, "button_sort_number"), "sort number"),
                ),
            ),
        )

    async def _table_reply(self, table: LiveTable) -> Reply:
        game = table.game
        assert game is not None
        text = self.presenter.table_text(
            game, [s.name for s in table.seats], self._seconds_left(table), lang=table.lang
        )
        images = await self.presenter.table_images(
            game, [s.name for s in table.seats], self._seconds_left(table), lang=table.lang
        )
        buttons = (
            (
                Button(t(table.lang, "button_my_turn"), "panel", "primary"),
                Button(t(table.lang, "button_my_rack"), "rack"),
                Button(t(table.lang, "button_status"), "status"),
            ),
        )
        current = table.current_seat
        mentions = (current.player,) if current is not None and current.player else ()
        return self._public(
            table, text, images=images, slot="table", buttons=buttons, mentions=mentions
        )

    async def _panel_reply(self, table: LiveTable, seat: int, *, selection: bool = False) -> Reply:
        """The turn panel; with ``selection`` (the answer to pick and target) it always says
        what is selected and where it goes, also when nothing is."""
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        draft = table.draft or game.draft(seat)
        lang = await self._player_lang(table.lang, info.player)  # the owner's, pictures too
        sort_by = table.sort_by.get(info.player.key, "color")
        text = self.presenter.draft_text(draft, lang=lang, sort_by=sort_by)
        target = str(table.target) if table.target else "new"
        if table.selection:
            text += "\n" + t(lang, "selected", tiles=" ".join(table.selection), target=target)
        elif selection:
            text += "\n" + t(lang, "selected_none", target=target)
        rack = sort_tiles(draft.rack, sort_by)
        options = tuple(
            SelectOption(str(tile), tile.code, tile.code in table.selection) for tile in rack
        )
        numbers = [i + 1 for i, s in enumerate(draft.slots) if s.tiles]
        targets = (
            SelectOption(t(lang, "option_new_meld"), "new", table.target is None),
            *tuple(
                SelectOption(t(lang, "option_meld", number=n), str(n), table.target == n)
                for n in numbers
            ),
        )
        selects = (
            Select("pick", t(lang, "select_tiles"), options, 0, min(len(options), 25) or 1),
            Select("target", t(lang, "select_target"), targets[:25], 1, 1),
        )
        buttons = (
            (
                Button(t(lang, "button_place"), "place", "primary"),
                Button(t(lang, "button_auto"), "auto " + " ".join(table.selection), "primary"),
                Button(t(lang, "button_undo"), "undo"),
                Button(t(lang, "button_reset"), "reset"),
            ),
            (
                Button(t(lang, "button_draw"), "draw", "secondary"),
                Button(t(lang, "button_done"), "done", "success"),
            ),
        )
        images = await self.presenter.draft_images(draft, sort_by, lang=lang)
        return Reply(
            table.channel,
            text,
            images=images,
            buttons=buttons,
            selects=selects,
            private_to=info.player,
            slot="panel",
        )

    async def _standings_reply(self, table: LiveTable, head: str) -> Reply:
        text = head + "\n" + self._standings_text(table)
        images = (
            await self.presenter.standings_images(
                table.match, [s.name for s in table.seats], lang=table.lang
            )
            if table.match
            else ()
        )
        return self._public(table, text, images=images)

    def _seconds_left(self, table: LiveTable) -> float | None:
        if table.deadline is None:
            return None
        return max(0.0, table.deadline - self.scheduler.now())

    def _status_text(self, table: LiveTable, lang: str | None = None) -> str:
        game, match = table.game, table.match
        assert game is not None and match is not None
        counts = ", ".join(
            f"{s.name} {len(p.rack)}" for s, p in zip(table.seats, game.players, strict=True)
        )
        left = self._seconds_left(table)
        return t(
            lang or table.lang,
            "status",
            number=match.game_number,
            games=match.games,
            turn=game.turn,
            name=table.seats[game.current].name,
            time=duration(left) if left is not None else "-",
            pool=len(game.pool),
            counts=counts,
        )

    def _standings_text(self, table: LiveTable, lang: str | None = None) -> str:
        lang = lang or table.lang
        match = table.match
        if match is None:
            return t(lang, "playing_only")
        rows = "; ".join(
            t(
                lang,
                "standings_row",
                rank=row.rank,
                name=table.seats[row.seat].name,
                won=row.games_won,
                total=f"{row.total:+d}",
            )
            for row in match.standings()
        )
        return t(lang, "standings", played=len(match.results), games=match.games, rows=rows)

    def _help(self, lang: str, args: str) -> str:
        verb = args.strip().lower()
        if verb:
            try:
                verb = parse_command(verb).verb
            except CommandError as err:
                return say(lang, err)
            return t(lang, "help_verb", usage=say(lang, usage(verb)))
        return t(lang, "help", verbs=", ".join(KNOWN_VERBS))

    def _rules_text(self, lang: str, rules: Rules) -> str:
        return t(
            lang,
            "rules",
            threshold=rules.opening_threshold,
            seconds=rules.turn_seconds,
            penalty=rules.timeout_penalty,
            settings=self._settings_text(rules, lang),
        )

    async def _leaderboard(self, channel: ChannelRef, lang: str) -> str:
        entries = await self.stats.leaderboard(channel.platform, channel.chat_id)
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

    async def _stats(self, channel: ChannelRef, player: PlayerRef, args: str, lang: str) -> Reply:
        """A player's record over every channel of this server or group (the sender's, or the
        one named: a display name, a user id or a mention), with a picture of their last
        match, game by game; privately, in ``lang`` (the asker's)."""
        ids = await self._channels_of(channel)
        who = args.strip()
        person = player.user_id
        if who:
            found = await self._find_player(channel.platform, ids, who)
            if found is None:
                return self._note(channel, player, t(lang, "stats_unknown", name=shorten(who)))
            person = found
        record = await self.stats.across_channels(channel.platform, ids, person)
        if record is None:
            name = shorten(who) or player.display_name or person
            return self._note(channel, player, t(lang, "stats_none", name=name))
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
        match = await self.matches.last_with_player(channel.platform, ids, person)
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
            images = await self.presenter.scoreline_images(view, lang=lang)
        return Reply(channel, text, images=images, private_to=player)

    async def _find_player(self, platform: str, ids: Sequence[str], who: str) -> str | None:
        """The user id of a player named by display name, user id or mention (``<@123>``,
        ``@name``), among those with a record in ``ids``."""
        wanted = who.strip().removeprefix("<@").removeprefix("!").removesuffix(">")
        wanted = wanted.removeprefix("@").strip().lower()
        for chat_id in ids:
            for entry in await self.stats.leaderboard(platform, chat_id, limit=1000):
                if wanted in (entry.player_id.lower(), entry.name.lower()):
                    return entry.player_id
        return None

    async def _replay(self, channel: ChannelRef, player: PlayerRef, args: str) -> list[Reply]:
        """The animation of the channel's last finished game (or the ``nth`` newest of its
        history), posted with the game's record; drawn in a worker thread, outside the lock."""
        from engine.record import parse_record
        from renderers.animation import animate
        from storage.replays import record_for_channel

        lang = await self.language(channel)
        what = args.strip().lstrip("#")
        nth = parse_number(what) if what else 1
        if nth is None or nth < 1:
            return [self._tell(channel, player, lang, "replay_usage")]
        games = await self.games.history(channel.platform, channel.chat_id, limit=nth)
        if not games:
            return [self._tell(channel, player, lang, "replay_none")]
        if len(games) < nth:
            return [self._tell(channel, player, lang, "replay_nth", count=len(games))]
        game = games[nth - 1]
        record = await record_for_channel(
            self.db, channel.platform, channel.chat_id, game_id=game.id
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

    async def _history(self, channel: ChannelRef, lang: str) -> str:
        games = await self.games.history(channel.platform, channel.chat_id, limit=5)
        if not games:
            return t(lang, "history_empty")
        rows = []
        for g in games:
            when = g.finished_at.strftime("%Y-%m-%d %H:%M") if g.finished_at else "?"
            if g.result and "text" in g.result:
                from engine.scoring import GameResult

                result = GameResult.from_text(g.result["text"])
                winner = g.seats[result.winner].name
                score = f"{result.scores[result.winner]:+d}"
                rows.append(t(lang, "history_won", when=when, name=winner, score=score))
            else:
                status = "history_cancelled" if g.status == "cancelled" else "history_ended"
                rows.append(t(lang, status, when=when))
        return t(lang, "history", rows="; ".join(rows))
