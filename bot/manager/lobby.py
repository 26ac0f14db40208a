"""The lobby: start, join, leave, AI seats, kick, settings, rematch, cancel and deal; and
seats that change hands in a game under way (leave, kick, coming back)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import parse_number, shorten, split_answer
from bot.i18n import t
from bot.manager.channels import Defaults, rules_fields
from bot.manager.confirm import Question, Questions, asking, stale
from bot.manager.deadlines import Deadlines
from bot.manager.languages import Languages
from bot.manager.outbox import Later, announcements, as_written, drawn, keyed, view
from bot.manager.seats import setup_text
from bot.manager.state import (
    AWAY_KEYS,
    AWAY_MOST,
    DEFAULT_AI,
    LiveTable,
    SeatInfo,
    _dt,
    parse_away,
    public,
)
from bot.manager.tables import Tables
from bot.manager.turns import Turns
from bot.manager.views import Views, settings_text
from engine import Match, Rules
from storage import Database


class Lobby:
    """Seats and settings before the deal (and a rematch's lobby); seats that change hands
    while a game runs. Every handler runs under the channel's lock."""

    def __init__(
        self,
        db: Database,
        tables: Tables,
        views: Views,
        turns: Turns,
        deadlines: Deadlines,
        languages: Languages,
        defaults: Defaults,
        questions: Questions,
    ) -> None:
        self._db = db
        self._questions = questions
        self._tables = tables
        self._views = views
        self._turns = turns
        self._deadlines = deadlines
        self._languages = languages
        self._defaults = defaults

    def _tell(self, table: LiveTable, player: PlayerRef, message: str, **values: object) -> Reply:
        return self._languages.tell(table.channel, player, table.lang, message, **values)

    @staticmethod
    def is_host(table: LiveTable, player: PlayerRef, admin: bool) -> bool:
        return admin or table.host.same_person(player)

    # ----- opening a table -----------------------------------------------------------------

    async def start(self, player: PlayerRef, channel: ChannelRef, args: str) -> list[Reply]:
        """Open a lobby (the caller holds the channel's lock and found no table)."""
        settings = await self._db.settings.get(channel.platform, channel.chat_id)
        rules = self._defaults.rules_of(settings)
        lang = self._defaults.language_of(settings)
        away_after: int | None = None
        for part in args.split():
            key, _, value = part.partition("=")
            if key.lower() in AWAY_KEYS:
                valid, away_after = parse_away(value)
                if not valid:
                    return [self._languages.tell(channel, player, lang, "bad_away", most=AWAY_MOST)]
                continue
            rules = rules.with_setting(key, value)
        table = LiveTable(channel, player, rules, lang=lang, away_after=away_after)
        table.seats.append(SeatInfo(player, None, player.display_name or player.user_id))
        self._tables.put(table)
        opened = t(
            table.lang, "lobby_open", host=table.seats[0].name, seats=self._views.seats_text(table)
        )
        return [self._views.lobby(table, opened)]

    async def rematch(self, player: PlayerRef, channel: ChannelRef) -> list[Reply]:
        """After a match: a lobby with the same seats (AI seats included) and settings as its
        last game. The presser is in; it deals once every other person confirmed (Rematch or
        Join), or when the host deals. A seat whose person left or was kicked is not dealt."""
        settings = await self._db.settings.get(channel.platform, channel.chat_id)
        lang = self._defaults.language_of(settings)
        last = await self._db.games.history(channel.platform, channel.chat_id, limit=1)
        if not last or last[0].status != "finished" or last[0].match_id is None:
            return [self._languages.tell(channel, player, lang, "no_rematch")]
        game = last[0]
        setup = json.loads(game.setup)
        lang = setup.get("lang", lang)
        people = [s.player_id for s in game.seats if s.counts_for_person]
        if player.user_id not in people:
            return [self._languages.tell(channel, player, lang, "rematch_players_only")]
        seats = []
        for s in game.seats:
            if s.counts_for_person:
                person = PlayerRef(channel.platform, s.player_id, s.name)
                seats.append(SeatInfo(person, None, s.name, waiting=s.player_id != player.user_id))
            elif s.why is None:
                seats.append(SeatInfo(None, s.ai, s.name))
        old_host = setup["host"]["user_id"]
        host = next((s.player for s in seats if s.player and s.player.user_id == old_host), player)
        table = LiveTable(
            channel,
            host,
            Rules.from_text(setup["rules"]),
            lang=lang,
            seats=seats,
            away_after=setup.get("away_after"),
        )
        self._tables.put(table)
        name = player.display_name or player.user_id
        return await self._deal_if_ready(
            table, t(lang, "rematch_open", name=name, seats=self._views.seats_text(table))
        )

    # ----- seats ---------------------------------------------------------------------------

    async def join(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if table.phase != "lobby":
            return [self._tell(table, player, "lobby_only")]
        seat = table.seat_of(player)
        if seat is not None and table.seats[seat].waiting:
            table.seats[seat].waiting = False
            name = table.seats[seat].name
            return await self._deal_if_ready(table, t(lang, "rematch_yes", name=name))
        if seat is not None:
            return [self._tell(table, player, "already_seated")]
        limit = table.rules.edition.max_players
        if len(table.seats) >= limit:
            return [self._tell(table, player, "table_full", max=limit)]
        name = player.display_name or player.user_id
        table.seats.append(SeatInfo(player, None, name))
        return [self._views.lobby(table, t(lang, "joined", name=name, count=len(table.seats)))]

    async def leave(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        seat = table.seat_of(player)
        if seat is None:
            return [self._tell(table, player, "not_seated")]
        asked = self._ask_first(table, player, Question("leave", None, table.turn_key), args, seat)
        if asked is not None:
            return asked
        rematch = table.phase == "lobby" and any(s.waiting for s in table.seats)
        text = t(table.lang, "left", name=table.seats[seat].name)
        replies = await self._remove_seat(table, seat, text)
        if rematch and self._tables.of(table.channel) is table:
            return await self._deal_if_ready(table, text)  # the others all said yes
        return replies

    async def _deal_if_ready(self, table: LiveTable, text: str) -> list[Reply]:
        """The lobby reply, or, when nobody is left to confirm a rematch, the deal."""
        waiting = [s.name for s in table.seats if s.waiting]
        if waiting or len(table.seats) < 2:
            if waiting:
                text += " " + t(table.lang, "rematch_waiting", names=", ".join(waiting))
            return [self._views.lobby(table, text)]
        return [public(table, text), *await self.deal(table, table.host, "", True)]

    async def _remove_seat(
        self, table: LiveTable, seat: int, text: str, why: str = "left"
    ) -> list[Reply]:
        info = table.seats[seat]
        if table.phase == "lobby":
            del table.seats[seat]
            if not any(s.player for s in table.seats):
                self._tables.pop(table.channel.key)
                return [public(table, text)]
            if info.player is not None and info.player.same_person(table.host):
                table.host = next(s.player for s in table.seats if s.player)
            return [self._views.lobby(table, text)]
        # In a running game the seat is taken over by an AI so the others can finish; the
        # seat stays its player's in the match roster (their scores stay theirs).
        if info.player is None and info.why == "away" and info.owner is not None:
            info = SeatInfo(info.owner, None, info.name)  # kicked while away: the AI stays
        if info.player is None:
            return [public(table, t(table.lang, "kick_ai", name=info.name))]
        if self._ends_game(table, seat):
            ended = "ended_kicked" if why == "kicked" else "ended_left"
            return await self.cancel_game(table, t(table.lang, ended, name=info.name))
        table.seats[seat] = SeatInfo(
            None,
            DEFAULT_AI,
            f"{info.name} (AI)",
            owner=info.owner
            or (info.player and PlayerRef(info.player.platform, info.player.user_id)),
            why=why,
        )
        if info.player is not None and info.player.same_person(table.host):
            table.host = next(s.player for s in table.seats if s.player)
        game = table.game
        assert game is not None and table.game_id is not None
        said = "kicked_game" if why == "kicked" else "left_game"
        items: list[Reply | Later] = [
            public(table, t(table.lang, said, name=info.name, level=DEFAULT_AI))
        ]
        their_turn = game.current == seat
        if their_turn:
            table.draft = None
            table.selection, table.target = [], None
            table.deadline = self._deadlines.clock.now()  # the AI's move is due now
        else:  # the table shows the seat's new name (the AI's turn refreshes it otherwise)
            items.append(view("table", None, partial(self._views.table, table)))
        replies = await self.save_seats(table, items, setup=setup_text(table))
        if their_turn:
            replies.extend(await self._turns.begin_turn(table))
        return replies

    async def save_seats(
        self, table: LiveTable, items: Sequence[Reply | Later], *, setup: str | None = None
    ) -> list[Reply]:
        """Store a change of seats (and host, in ``setup``) mid-game with the position as it
        stands (nothing played, the draft and deadline as they are now), together with what
        it announces (``items``, its outbox entries, as a turn's); the replies, keyed."""
        game = table.game
        assert game is not None and table.game_id is not None
        table.version = await self._db.games.save_turn(
            table.game_id,
            expected_version=table.version,
            snapshot=game.to_text(),
            new_actions=[],
            deadline=_dt(table.deadline) if table.deadline is not None else None,
            draft=table.draft.steps if table.draft is not None else [],
            turn=game.turn,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
            setup=setup,
            announce=announcements(items),
        )
        return keyed(table.game_id, table.version, await drawn(items))

    async def come_back(self, table: LiveTable, seat: int, player: PlayerRef) -> list[Reply]:
        """An absent player sent a command: their seat is theirs again at once (their turn
        starts now with a full timer if the AI had not moved yet, else on their next turn)."""
        game = table.game
        assert game is not None and table.game_id is not None
        info = table.seats[seat]
        table.seats[seat] = SeatInfo(player, None, info.name)
        their_turn = not game.finished and game.current == seat
        items: list[Reply | Later] = [public(table, t(table.lang, "back", name=info.name))]
        if their_turn:
            table.draft = None
            table.selection, table.target = [], None
            table.deadline = self._deadlines.clock.now() + table.rules.turn_seconds
            items.extend(self._turns.human_turn(table))
        else:
            items.append(view("rack", player, partial(self._views.rack, table, seat)))
        replies = await self.save_seats(table, items)
        if their_turn:
            self._deadlines.arm(table)
        return replies

    async def addbot(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        if table.phase != "lobby":
            return [self._tell(table, player, "lobby_only")]
        if table.seat_of(player) is None and not self.is_host(table, player, admin):
            return [self._tell(table, player, "not_seated")]
        level = (args.split() or [DEFAULT_AI])[0].lower()  # one of AI_LEVELS (bot.commands)
        limit = table.rules.edition.max_players
        if len(table.seats) >= limit:
            return [self._tell(table, player, "table_full", max=limit)]
        number = sum(1 for s in table.seats if s.ai) + 1
        table.seats.append(SeatInfo(None, level, f"AI {number} ({level})"))
        text = t(table.lang, "ai_added", level=level, number=len(table.seats))
        return [self._views.lobby(table, text)]

    async def kick(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        if not self.is_host(table, player, admin):
            return [self._tell(table, player, "host_only")]
        what = split_answer(args)[0].lstrip("#")
        index = None
        number = parse_number(what)
        if number is not None:
            if 1 <= number <= len(table.seats):
                index = number - 1
        else:
            for i, seat in enumerate(table.seats):
                if what and (
                    seat.name.lower() == what.lower()
                    or (seat.player and seat.player.user_id == what)
                    or (seat.why == "away" and seat.owner and seat.owner.user_id == what)
                ):
                    index = i
        if index is None:
            return [
                self._tell(
                    table, player, "bad_seat", what=shorten(what) or "?", count=len(table.seats)
                )
            ]
        name = table.seats[index].name
        question = Question("kick", index, table.turn_key)
        asked = self._ask_first(table, player, question, args, index, name=name)
        if asked is not None:
            return asked
        return await self._remove_seat(table, index, t(table.lang, "kicked", name=name), "kicked")

    # ----- settings, cancel, deal ----------------------------------------------------------

    async def settings(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        parts = args.replace("=", " ").split()
        if not parts:
            mine = self._languages.for_player(lang, player)
            shown = settings_text(table.rules, mine, table.away_after)
            return [self._tell(table, player, "settings", settings=shown)]
        if not self.is_host(table, player, admin):
            return [self._tell(table, player, "host_only")]
        if table.phase != "lobby":
            return [self._tell(table, player, "lobby_only")]
        key, value = parts  # a name and a value (bot.commands.SYNTAX)
        name = player.display_name or player.user_id
        if key.lower() in AWAY_KEYS:
            valid, away_after = parse_away(value)
            if not valid:
                return [self._tell(table, player, "bad_away", most=AWAY_MOST)]
            table.away_after = away_after
            changed = t(lang, "setting_changed", name=name, key="away_after", value=value)
            return [self._views.lobby(table, changed)]
        rules = table.rules.with_setting(key, value)
        table.rules = rules
        await self._db.settings.update(
            table.channel.platform,
            table.channel.chat_id,
            language=table.lang,
            **rules_fields(rules),
        )
        changed = t(lang, "setting_changed", name=name, key=key, value=value)
        return [self._views.lobby(table, changed)]

    async def cancel(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        if not self.is_host(table, player, admin):
            return [self._tell(table, player, "host_only")]
        asked = self._ask_first(table, player, Question("cancel", None, table.turn_key), args)
        if asked is not None:
            return asked
        name = player.display_name or player.user_id
        return await self.cancel_game(table, t(table.lang, "cancelled", name=name))

    async def answer(
        self, table: LiveTable, player: PlayerRef, yes: bool, admin: bool
    ) -> list[Reply]:
        """A bare ``yes`` or ``no``: the answer to the question ``player`` was just asked here
        (``leave``, ``kick 2``, ``cancel``), as if typed with it (``leave yes``)."""
        where = (table.channel.key, player.key)
        question = self._questions.open(where, self._deadlines.clock.now())
        if question is None:
            return [self._tell(table, player, "ask_none" if yes else "ask_kept")]
        word = "yes" if yes else "no"
        if question.verb == "kick" and question.seat is not None:
            return await self.kick(table, player, f"{question.seat + 1} {word}", admin)
        handler = self.leave if question.verb == "leave" else self.cancel
        return await handler(table, player, word, admin)

    def _ends_game(self, table: LiveTable, seat: int | None) -> bool:
        """Whether cancelling (``seat`` None) or taking the person out of ``seat`` ends a game
        under way for everybody: nobody else at the table is a person who plays."""
        if table.phase != "playing" or table.game is None or table.game.finished:
            return False
        if seat is None:
            return True
        if table.seats[seat].player is None:
            return False  # an AI seat (one playing for an absent person stays)
        return not any(s.player for i, s in enumerate(table.seats) if i != seat)

    def _ask_first(
        self,
        table: LiveTable,
        player: PlayerRef,
        question: Question,
        args: str,
        seat: int | None = None,
        **values: str,
    ) -> list[Reply] | None:
        """None when the command may act: it ends no game (``seat``: the seat it empties;
        none for cancel), or its ``yes`` answers the open ``question``. Else what to say: the
        question, or, for a ``no`` or a stale ``yes``, that nothing changed."""
        answer = split_answer(args)[1]
        where = (table.channel.key, player.key)
        if answer is False:
            self._questions.drop(where)
            return [self._tell(table, player, "ask_kept")]
        if not self._ends_game(table, seat):
            return None
        lang = self._languages.for_player(table.lang, player)
        now = self._deadlines.clock.now()
        seconds = self._questions.seconds
        if answer is None:
            self._questions.ask(where, question, now)
            return [asking(table.channel, player, lang, question, seconds, values)]
        if self._questions.answer(where, question, now):
            return None
        return [stale(table.channel, player, lang, question, seconds)]

    async def cancel_game(self, table: LiveTable, closing: str) -> list[Reply]:
        """Close the table; a game under way is stored as cancelled together with what that
        announces (the table message's last words, ``closing``: its outbox)."""
        self._deadlines.cancel(table)
        closed = Reply(table.channel, closing, slot="table")
        items: list[Reply | Later] = [as_written(closed)]
        replies = await drawn(items)
        if table.game_id is not None and table.game is not None:
            version = await self._db.games.finish(
                table.game_id,
                expected_version=table.version,
                snapshot=table.game.to_text(),
                new_actions=table.game.log[table.saved_actions :],
                status="cancelled",
                announce=announcements(items),
                close_match=True,  # with the game, in its transaction
            )
            replies = keyed(table.game_id, version, replies)
        elif table.match_id is not None:  # no game under way: the match alone
            match = await self._db.matches.load(table.match_id)
            if match.active:
                await self._db.matches.close(table.match_id, expected_version=match.version)
        self._tables.pop(table.channel.key)
        return replies

    async def deal(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        if table.phase != "lobby":
            return [self._tell(table, player, "lobby_only")]
        if not self.is_host(table, player, admin):
            return [self._tell(table, player, "host_only")]
        if len(table.seats) < 2:
            return [self._tell(table, player, "need_players")]
        games = table.rules.games_for(len(table.seats))
        stored = await self._db.matches.create(
            platform=table.channel.platform,
            channel_id=table.channel.chat_id,
            players=[s.stored(i) for i, s in enumerate(table.seats)],
            games_planned=games,
        )
        table.match = Match(len(table.seats), games)
        table.match_id = stored.id
        table.phase = "playing"
        closed = self._views.lobby_closed(table)  # the lobby message loses its buttons
        return [closed, *await self._turns.new_game(table)]
