"""Games and turns: dealing, turn flow, timers and deadlines, AI moves and the draft."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from functools import partial

from bot.api import Button, PlayerRef, Reply
from bot.commands import (
    parse_number,
    usage,
)
from bot.i18n import duration, say, t
from bot.manager.outbox import Later, announcements, drawn, keyed, view
from bot.manager.state import (
    DEFAULT_AI,
    CommandErrorAsRule,
    LiveTable,
    RummikubErrorText,
    _dt,
)
from engine import Draft, Game, RummikubError, TurnOutcome
from engine.ai import choose_move
from engine.draft import NOTHING_TO_UNDO
from engine.hints import hint_text
from engine.messages import Msg
from engine.scoring import EndReason
from engine.tiles import sort_tiles, tiles_text
from storage import (
    ConflictError,
)


class TurnRoom:
    """Turns, deadlines, AI moves and draft steps.

    A part of :class:`bot.manager.GameManager`; it works on the manager's state."""

    # ----- games and turns -----------------------------------------------------------------

    def _setup_text(self, table: LiveTable) -> str:
        return json.dumps(
            {
                "rules": table.rules.to_text(),
                "host": {"user_id": table.host.user_id, "name": table.host.display_name},
                "lang": table.lang,
                "players": len(table.seats),
                "away_after": table.away_after,
            }
        )

    def _next_deadline(self, table: LiveTable) -> float:
        """When the turn now beginning ends: a human's after the turn timer; an AI's move is
        due at once (stored like any deadline, so a restart runs it)."""
        now = self.scheduler.now()
        return now if table.ai_due else now + table.rules.turn_seconds

    async def _new_game(self, table: LiveTable) -> list[Reply]:
        assert table.match is not None
        seed = self.rng.randrange(2**62)
        game = Game.new(len(table.seats), seed, table.rules)
        table.game = game
        table.draft = None
        table.selection, table.target = [], None
        table.saved_actions = 0
        deadline = self._next_deadline(table)
        table.deadline = deadline
        lang = table.lang
        starter = table.seats[game.starter].name
        text = t(
            lang, "dealt", number=table.match.game_number, games=table.match.games, starter=starter
        )
        # The deal's replies are stored with the new game (its outbox), like a turn's.
        items: list[Reply | Later] = [self._public(table, text)]
        for seat, info in enumerate(table.seats):
            if info.player is not None:
                items.append(view("rack", info.player, partial(self._rack_reply, table, seat)))
        human_first = table.seats[game.current].ai is None
        if human_first:
            items.extend(self._human_turn(table))
        stored = await self.games.create(
            platform=table.channel.platform,
            channel_id=table.channel.chat_id,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
            seed=seed,
            setup=self._setup_text(table),
            snapshot=game.to_text(),
            turn=game.turn,
            deadline=_dt(deadline),
            match_id=table.match_id,
            game_index=len(table.match.results),
            announce=announcements(items),
        )
        table.game_id = stored.id
        table.version = stored.version
        replies = keyed(stored.id, stored.version, await drawn(items))
        if human_first:
            self._arm_timers(table)
        else:
            replies.extend(await self._begin_turn(table))
        return replies

    async def _begin_turn(self, table: LiveTable) -> list[Reply]:
        """Start the turn that is stored as begun: an AI moves now, a human gets the table,
        the call and their panel, and the timers are armed."""
        game = table.game
        assert game is not None
        seat = table.seats[game.current]
        if seat.ai is not None:
            self._cancel_timers(table)
            return await self._run_ai_turns(table)
        self._arm_timers(table)
        return await drawn(self._human_turn(table))

    def _human_turn(self, table: LiveTable) -> list[Reply | Later]:
        """What a human's turn begins with: the table, the call, and their panel."""
        game = table.game
        assert game is not None
        seat = table.seats[game.current]
        assert seat.player is not None
        replies: list[Reply | Later] = [view("table", None, partial(self._table_reply, table))]
        replies.append(
            self._public(
                table,
                t(
                    table.lang,
                    "your_turn",
                    mention=seat.name,
                    time=duration(table.rules.turn_seconds),
                ),
                mentions=(seat.player,),
            )
        )
        replies.append(view("panel", seat.player, partial(self._panel_reply, table, game.current)))
        return replies

    def _arm_timers(self, table: LiveTable) -> None:
        """Schedule what the stored game says is next: a due AI move at once, else the
        reminder and the timeout of the human's turn. Each timer knows the turn it is for."""
        self._cancel_timers(table)
        game = table.game
        if game is None or game.finished or table.game_id is None:
            return
        key = table.channel.key
        turn = table.turn_key
        if table.ai_due:
            self.scheduler.schedule_at(
                f"{key}:ai", self.scheduler.now(), lambda: self._on_timer(key, turn, "ai")
            )
            return
        if table.deadline is None:
            return
        seconds = table.rules.turn_seconds
        before = self.warn_before if seconds < 3600 else min(3600.0, seconds / 4)
        warn_at = table.deadline - before
        if warn_at > self.scheduler.now() and seconds > 2 * before:
            self.scheduler.schedule_at(
                f"{key}:warn", warn_at, lambda: self._on_timer(key, turn, "warn")
            )
        self.scheduler.schedule_at(
            f"{key}:expire", table.deadline, lambda: self._on_timer(key, turn, "expire")
        )

    def _cancel_timers(self, table: LiveTable) -> None:
        for kind in ("warn", "expire", "ai"):
            self.scheduler.cancel(f"{table.channel.key}:{kind}")

    async def _on_timer(self, key: str, turn: tuple[int | None, int], kind: str) -> None:
        """Run a timer's job if its turn is still the one being played (checked against
        storage, so a process never acts on a stale copy), then send what it says. No
        exception escapes: a failure is logged, counted, and the stored game reloaded."""
        replies: list[Reply] = []
        async with self._lock(key):
            table = self.tables.get(key)
            if table is None:
                return
            channel = table.channel
            try:
                current = await self._fresh(table)
                if current is None or current.game is None or current.game.finished:
                    return
                if current.turn_key != turn:
                    return  # that turn is over (the fresh copy armed its own timers)
                if kind == "ai" and not current.ai_due:
                    return
                if kind != "ai" and not await self._claim(current, kind):
                    return  # another process acts on it (_run_ai_turns claims AI moves)
                if kind == "warn":
                    replies = await self._warning(current)
                elif kind == "expire":
                    replies = await self._time_out(current)
                else:
                    replies = await self._run_ai_turns(current)
            except ConflictError:
                await self._reload_quietly(channel)
                return
            except Exception:
                self._internal("the %s timer of %s failed", kind, key)
                await self._reload_quietly(channel)
                return
            finally:
                self.boards.changed(key)
        await self._send(replies)

    async def _claim(self, table: LiveTable, kind: str) -> bool:
        """Whether this process acts on the table's current deadline of ``kind``. Reminders
        are claimed for good (sent at most once, by one process). In shared mode timeouts and
        AI moves are leased; a process that loses checks again when the lease runs out."""
        if kind != "warn" and not self.shared:
            return True
        game_id, turn = table.turn_key
        assert game_id is not None
        now = self.scheduler.now()
        until = None if kind == "warn" else _dt(now + self.lease_seconds)
        won = await self.claims.claim(
            game_id, turn, kind, owner=self.owner, now=_dt(now), until=until
        )
        if won is True:
            return True
        if isinstance(won, datetime):  # someone else holds a lease: look again after it
            key, turn_key = table.channel.key, table.turn_key
            self.scheduler.schedule_at(
                f"{key}:{kind}",
                won.timestamp() + 0.5,
                lambda: self._on_timer(key, turn_key, kind),
            )
        return False

    async def _warning(self, table: LiveTable) -> list[Reply]:
        assert table.game is not None
        seat = table.seats[table.game.current]
        if seat.player is None or table.deadline is None:
            return []
        left = duration(table.deadline - self.scheduler.now())
        text = t(table.lang, "warning", mention=seat.name, time=left)
        mine = await self._player_lang(table.lang, seat.player)
        return [
            Reply(
                table.channel,
                t(mine, "warning", mention=seat.name, time=left),
                private_to=seat.player,
            ),
            self._public(table, text, mentions=(seat.player,)),
        ]

    async def _time_out(self, table: LiveTable) -> list[Reply]:
        assert table.game is not None
        outcome = table.game.timeout(table.draft)
        return await self._after_turn(table, outcome)

    async def _finish_turn(self, table: LiveTable, verb: str) -> list[Reply]:
        game = table.game
        assert game is not None
        draft = table.draft
        if verb == "done" and draft is not None and draft.changed:
            outcome = game.commit(draft)  # raises with the first problem; nothing changes
        else:
            outcome = game.draw()
        return await self._after_turn(table, outcome)

    async def _after_turn(self, table: LiveTable, outcome: TurnOutcome) -> list[Reply]:
        """Persist the finished turn (with the next deadline, or the result) together with
        what it announces (the outbox: its news lines, and which views to refresh), then
        start the next turn. The replies are drawn before the save, from memory, so that the
        save can store them; each carries its outbox key (``Reply.delivers``). A failure to
        store leaves memory ahead of storage; the caller's catch-all reloads the stored game."""
        game = table.game
        assert game is not None and table.game_id is not None
        self._cancel_timers(table)
        table.draft = None
        table.selection, table.target = [], None
        new_actions = game.log[table.saved_actions :]
        seats_before = [s.stored(i) for i, s in enumerate(table.seats)]
        away = self._note_missed(table, outcome)
        seats_now = [s.stored(i) for i, s in enumerate(table.seats)]
        items: list[Reply | Later] = [self._public(table, self._outcome_text(table, outcome))]
        if away is not None:
            items.append(away)
        mover = table.seats[outcome.seat]
        if mover.player is not None:
            items.append(view("rack", mover.player, partial(self._rack_reply, table, outcome.seat)))
        human_next = False
        if game.finished:
            assert game.result is not None
            result = game.result
            table.deadline = None
            items.extend(self._game_over(table))
            table.version = await self.games.finish(
                table.game_id,
                expected_version=table.version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                result={"text": result.to_text()},
                scores=list(result.scores),
                winner=result.winner,
                announce=announcements(items),
            )
        else:
            deadline = self._next_deadline(table)
            table.deadline = deadline
            human_next = table.seats[game.current].ai is None
            if human_next:
                items.extend(self._human_turn(table))
            table.version = await self.games.save_turn(
                table.game_id,
                expected_version=table.version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                deadline=_dt(deadline),
                draft=[],
                turn=game.turn,
                seats=seats_now if seats_now != seats_before else None,
                announce=announcements(items),
            )
        table.saved_actions = len(game.log)
        replies = keyed(table.game_id, table.version, await drawn(items))
        if game.finished:
            replies.extend(await self._after_game(table))
        elif human_next:
            self._arm_timers(table)
        else:
            replies.extend(await self._begin_turn(table))
        return replies

    def _outcome_text(self, table: LiveTable, outcome: TurnOutcome) -> str:
        lang = table.lang
        name = table.seats[outcome.seat].name
        if outcome.kind == "play":
            key = "timeout_play" if outcome.timed_out else "played"
            return t(lang, key, name=name, tiles=tiles_text(sort_tiles(outcome.placed)))
        if outcome.kind == "penalty":
            return t(lang, "timeout_penalty", name=name, count=len(outcome.drawn))
        if outcome.kind == "pass":
            return t(lang, "passed", name=name)
        return t(lang, "timeout_draw" if outcome.timed_out else "drew", name=name)

    def _game_over(self, table: LiveTable) -> list[Reply | Later]:
        """The end of a game as the channel sees it (the match records the result)."""
        game, match = table.game, table.match
        assert game is not None and game.result is not None and match is not None
        result = game.result
        lang = table.lang
        winner = table.seats[result.winner].name
        key = "game_over_out" if result.reason is EndReason.OUT else "game_over_blocked"
        scores = ", ".join(f"{table.seats[i].name} {s:+d}" for i, s in enumerate(result.scores))
        match.record(result)
        head = "\n".join([t(lang, key, name=winner), t(lang, "scores", scores=scores)])
        replies: list[Reply | Later] = [view("table", None, partial(self._table_reply, table))]
        standings = {"text": head + "\n" + self._standings_text(table)}  # the picture is not kept
        replies.append(Later(standings, partial(self._standings_reply, table, head)))
        if match.finished:
            names = " & ".join(table.seats[s].name for s in match.winners())
            rematch = (Button(t(lang, "button_rematch"), "rematch", "success"),)
            replies.append(
                self._public(table, t(lang, "match_over", names=names), buttons=(rematch,))
            )
            return replies
        replies.append(
            self._public(table, t(lang, "match_next", number=match.game_number, games=match.games))
        )
        return replies

    async def _after_game(self, table: LiveTable) -> list[Reply]:
        """Once a game's end is stored: the match's next game, or the table closes."""
        assert table.match is not None
        if table.match.finished:
            self.tables.pop(table.channel.key, None)
            return []
        return await self._new_game(table)

    async def _run_ai_turns(self, table: LiveTable) -> list[Reply]:
        """The AI seat to move plays its turn, then the game goes on (another AI seat plays
        too, until a human is to move or the game ends). Every AI turn is stored before the
        next begins; in shared mode each AI move is leased first so one process plays it."""
        game = table.game
        assert game is not None
        if game.finished or not table.ai_due:
            return []
        if not await self._claim(table, "ai"):
            return []
        seat = game.current
        level = table.seats[seat].ai or DEFAULT_AI
        melds = await asyncio.to_thread(choose_move, game, seat, level)
        outcome: TurnOutcome | None = None
        if melds is not None:
            draft = game.draft(seat)
            try:
                draft.arrange_melds(melds)
                outcome = game.commit(draft)
            except RummikubError:  # never expected: the AI uses the same checks
                self._internal("AI move refused in %s; drawing instead", table.channel.key)
        if outcome is None:
            outcome = game.draw(seat)
        return await self._after_turn(table, outcome)

    # ----- the draft -----------------------------------------------------------------------

    def _draft_for(self, table: LiveTable, seat: int) -> Draft:
        assert table.game is not None
        if table.draft is None or table.draft.seat != seat:
            table.draft = table.game.draft(seat)
        return table.draft

    async def _draft_step(self, table: LiveTable, seat: int, text: str) -> list[Reply]:
        draft = self._draft_for(table, seat)
        if text.split()[0] in ("undo", "u") and not draft.can_undo:
            player = table.seats[seat].player
            assert player is not None  # only a person types undo
            lang = self._lang_for(table.lang, player)
            return [self._note(table.channel, player, say(lang, NOTHING_TO_UNDO))]
        if text.split()[0] == "auto":  # the solver may think for a while: off the event loop
            await asyncio.to_thread(draft.apply_text, text)
        else:
            draft.apply_text(text)  # raises a one-sentence error and changes nothing
        if table.game_id is not None:
            table.version = await self.games.save_draft(
                table.game_id, expected_version=table.version, draft=draft.steps
            )
        return [await self._panel_reply(table, seat)]

    async def _pick(self, table: LiveTable, seat: int, args: str) -> Reply:
        from engine.notation import parse_tokens

        draft = self._draft_for(table, seat)
        rack_codes = {t.code for t in draft.rack} | {str(t) for t in draft.rack}
        for token in parse_tokens(args):
            code = token.tile.code
            if code not in rack_codes and str(token.tile) not in rack_codes:
                raise RummikubErrorText(
                    "There is no {tile} {where}.", tile=str(token.tile), where=Msg("on your rack")
                )
            if code in table.selection:
                table.selection.remove(code)
            else:
                table.selection.append(code)
        return await self._panel_reply(table, seat)

    async def _target(self, table: LiveTable, seat: int, args: str) -> Reply:
        value = args.strip().lower().lstrip("#")
        number = parse_number(value)
        if value in ("", "new"):
            table.target = None
        elif number is not None:
            draft = self._draft_for(table, seat)
            table.target = draft._slot_index(number) + 1  # no such meld: says which exist
        else:
            raise CommandErrorAsRule(usage("target"))
        return await self._panel_reply(table, seat)

    async def _hint(self, table: LiveTable, seat: int, player: PlayerRef) -> Reply:
        lang = self._lang_for(table.lang, player)
        if not table.rules.hints:
            return self._tell(table.channel, player, lang, "hint_off")
        assert table.game is not None
        hint = await asyncio.to_thread(hint_text, table.game, seat, table.draft)
        if hint is None:
            return self._tell(table.channel, player, lang, "hint_none")
        return self._tell(table.channel, player, lang, "hint", text=say(lang, hint))
