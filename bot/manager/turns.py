"""Games and turns: dealing, a turn's end (stored with what it announces), AI moves, and the
draft steps of the player to move."""

from __future__ import annotations

import asyncio
import random
from functools import partial

from bot.api import Button, PlayerRef, Reply
from bot.commands import parse_number, usage
from bot.i18n import duration, say, t
from bot.manager.deadlines import Deadlines
from bot.manager.faults import Faults
from bot.manager.languages import Languages
from bot.manager.outbox import Later, announcements, drawn, keyed, view
from bot.manager.seats import note_missed, setup_text
from bot.manager.state import (
    DEFAULT_AI,
    CommandErrorAsRule,
    LiveTable,
    RummikubErrorText,
    _dt,
    note,
    public,
)
from bot.manager.tables import Tables
from bot.manager.views import Views
from bot.operations import note_turn, timed_solver
from engine import Draft, Game, RummikubError, Tile, TurnOutcome
from engine.actions import Action, Auto, Play, Undo
from engine.ai import choose_move
from engine.draft import NOTHING_TO_UNDO
from engine.hints import hint_text
from engine.messages import Msg
from engine.notation import TileToken, parse_tokens
from engine.scoring import EndReason
from engine.steps import apply_action
from engine.tiles import sort_tiles, tiles_text
from storage import GameRepository


class Turns:
    """A match's games, turn by turn. Every end of a turn is stored (with its outbox) before
    anyone is told; the next turn then begins (an AI moves at once, a human gets a timer)."""

    def __init__(
        self,
        games: GameRepository,
        tables: Tables,
        views: Views,
        deadlines: Deadlines,
        languages: Languages,
        faults: Faults,
        rng: random.Random,
    ) -> None:
        self._games = games
        self._tables = tables
        self._views = views
        self._deadlines = deadlines
        self._languages = languages
        self._faults = faults
        self._rng = rng

    # ----- games and turns -----------------------------------------------------------------

    async def new_game(self, table: LiveTable) -> list[Reply]:
        """Deal the match's next game, store it with what the deal announces, start it."""
        assert table.match is not None
        seed = self._rng.randrange(2**62)
        game = Game.new(len(table.seats), seed, table.rules)
        table.game = game
        table.draft = None
        table.selection, table.target = [], None
        table.saved_actions = 0
        deadline = self._deadlines.next_deadline(table)
        table.deadline = deadline
        lang = table.lang
        starter = table.seats[game.starter].name
        text = t(
            lang, "dealt", number=table.match.game_number, games=table.match.games, starter=starter
        )
        # The deal's replies are stored with the new game (its outbox), like a turn's.
        items: list[Reply | Later] = [public(table, text)]
        for seat, info in enumerate(table.seats):
            if info.player is not None:
                items.append(view("rack", info.player, partial(self._views.rack, table, seat)))
        human_first = table.seats[game.current].ai is None
        if human_first:
            items.extend(self.human_turn(table))
        stored = await self._games.create(
            platform=table.channel.platform,
            channel_id=table.channel.chat_id,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
            seed=seed,
            setup=setup_text(table),
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
            self._deadlines.arm(table)
        else:
            replies.extend(await self.begin_turn(table))
        return replies

    async def begin_turn(self, table: LiveTable) -> list[Reply]:
        """Start the turn that is stored as begun: an AI moves now, a human gets the table,
        the call and their panel, and the timers are armed."""
        game = table.game
        assert game is not None
        seat = table.seats[game.current]
        if seat.ai is not None:
            self._deadlines.cancel(table)
            return await self.run_ai_turns(table)
        self._deadlines.arm(table)
        return await drawn(self.human_turn(table))

    def human_turn(self, table: LiveTable) -> list[Reply | Later]:
        """What a human's turn begins with: the table, the call, and their panel."""
        game = table.game
        assert game is not None
        seat = table.seats[game.current]
        assert seat.player is not None
        replies: list[Reply | Later] = [view("table", None, partial(self._views.table, table))]
        call = t(
            table.lang, "your_turn", mention=seat.name, time=duration(table.rules.turn_seconds)
        )
        replies.append(public(table, call, mentions=(seat.player,)))
        replies.append(view("panel", seat.player, partial(self._views.panel, table, game.current)))
        return replies

    async def warning(self, table: LiveTable) -> list[Reply]:
        """The reminder before the deadline: privately, and in the channel."""
        assert table.game is not None
        seat = table.seats[table.game.current]
        if seat.player is None or table.deadline is None:
            return []
        left = duration(table.deadline - self._deadlines.clock.now())
        text = t(table.lang, "warning", mention=seat.name, time=left)
        mine = await self._languages.read_for(table.lang, seat.player)
        return [
            Reply(
                table.channel,
                t(mine, "warning", mention=seat.name, time=left),
                private_to=seat.player,
            ),
            public(table, text, mentions=(seat.player,)),
        ]

    async def time_out(self, table: LiveTable) -> list[Reply]:
        assert table.game is not None
        outcome = table.game.timeout(table.draft)
        return await self.after_turn(table, outcome)

    async def finish(self, table: LiveTable, verb: str) -> list[Reply]:
        """``done`` (commit the draft; with nothing played, draw) or ``draw``."""
        game = table.game
        assert game is not None
        draft = table.draft
        if verb == "done" and draft is not None and draft.changed:
            outcome = game.commit(draft)  # raises with the first problem; nothing changes
        else:
            outcome = game.draw()
        return await self.after_turn(table, outcome)

    async def after_turn(self, table: LiveTable, outcome: TurnOutcome) -> list[Reply]:
        """Persist the finished turn (with the next deadline, or the result) together with
        what it announces (the outbox: its news lines, and which views to refresh), then
        start the next turn. The replies are drawn before the save, from memory, so that the
        save can store them; each carries its outbox key (``Reply.delivers``). A failure to
        store leaves memory ahead of storage; the caller's catch-all reloads the stored game."""
        game = table.game
        assert game is not None and table.game_id is not None
        self._deadlines.cancel(table)
        table.draft = None
        table.selection, table.target = [], None
        new_actions = game.log[table.saved_actions :]
        seats_before = [s.stored(i) for i, s in enumerate(table.seats)]
        away = note_missed(table, outcome)
        seats_now = [s.stored(i) for i, s in enumerate(table.seats)]
        items: list[Reply | Later] = [public(table, self.outcome_text(table, outcome))]
        if away is not None:
            items.append(away)
        mover = table.seats[outcome.seat]
        if mover.player is not None:
            items.append(view("rack", mover.player, partial(self._views.rack, table, outcome.seat)))
        human_next = False
        if game.finished:
            assert game.result is not None
            result = game.result
            table.deadline = None
            items.extend(self._game_over(table))
            table.version = await self._games.finish(
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
            deadline = self._deadlines.next_deadline(table)
            table.deadline = deadline
            human_next = table.seats[game.current].ai is None
            if human_next:
                items.extend(self.human_turn(table))
            table.version = await self._games.save_turn(
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
        note_turn(table, outcome)  # for the metrics (bot.operations)
        replies = keyed(table.game_id, table.version, await drawn(items))
        if game.finished:
            replies.extend(await self._after_game(table))
        elif human_next:
            self._deadlines.arm(table)
        else:
            replies.extend(await self.begin_turn(table))
        return replies

    def outcome_text(self, table: LiveTable, outcome: TurnOutcome) -> str:
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
        replies: list[Reply | Later] = [view("table", None, partial(self._views.table, table))]
        standings = {"text": head + "\n" + self._views.standings_text(table)}  # no picture kept
        replies.append(Later(standings, partial(self._views.standings, table, head)))
        if match.finished:
            names = " & ".join(table.seats[s].name for s in match.winners())
            rematch = (Button(t(lang, "button_rematch"), "rematch", "success"),)
            replies.append(public(table, t(lang, "match_over", names=names), buttons=(rematch,)))
            return replies
        replies.append(
            public(table, t(lang, "match_next", number=match.game_number, games=match.games))
        )
        return replies

    async def _after_game(self, table: LiveTable) -> list[Reply]:
        """Once a game's end is stored: the match's next game, or the table closes."""
        assert table.match is not None
        if table.match.finished:
            self._tables.pop(table.channel.key)
            return []
        return await self.new_game(table)

    async def run_ai_turns(self, table: LiveTable) -> list[Reply]:
        """The AI seat to move plays its turn, then the game goes on (another AI seat plays
        too, until a human is to move or the game ends). Every AI turn is stored before the
        next begins; in shared mode each AI move is leased first so one process plays it."""
        game = table.game
        assert game is not None
        if game.finished or not table.ai_due:
            return []
        if not await self._deadlines.claim(table, "ai"):
            return []
        seat = game.current
        level = table.seats[seat].ai or DEFAULT_AI
        melds = await asyncio.to_thread(timed_solver("ai", choose_move, level), game, seat, level)
        outcome: TurnOutcome | None = None
        if melds is not None:
            draft = game.draft(seat)
            try:
                draft.arrange_melds(melds)
                outcome = game.commit(draft)
            except RummikubError:  # never expected: the AI uses the same checks
                self._faults("AI move refused in %s; drawing instead", table.channel.key)
        if outcome is None:
            outcome = game.draw(seat)
        return await self.after_turn(table, outcome)

    # ----- the draft -----------------------------------------------------------------------

    def _draft_for(self, table: LiveTable, seat: int) -> Draft:
        assert table.game is not None
        if table.draft is None or table.draft.seat != seat:
            table.draft = table.game.draft(seat)
        return table.draft

    async def draft_step(self, table: LiveTable, seat: int, action: Action) -> list[Reply]:
        """One step of the draft (play, move, split, swap, arrange, auto, undo, reset), read
        once at the edge into its engine action, stored before the panel shows it."""
        draft = self._draft_for(table, seat)
        if isinstance(action, Undo) and not draft.can_undo:
            player = table.seats[seat].player
            assert player is not None  # only a person types undo
            lang = self._languages.for_player(table.lang, player)
            return [note(table.channel, player, say(lang, NOTHING_TO_UNDO))]
        if isinstance(action, Auto):  # the solver may think for a while: off the event loop
            await asyncio.to_thread(timed_solver("auto", apply_action), draft, action)
        else:
            apply_action(draft, action)  # raises a one-sentence error and changes nothing
        player = table.seats[seat].player
        panel = view("panel", player, partial(self._views.panel, table, seat))
        if table.game_id is None:
            return await drawn([panel])
        # The panel's refresh is stored with the step (its outbox entry), so a crash right
        # after the step still shows it.
        table.version = await self._games.save_draft(
            table.game_id,
            expected_version=table.version,
            draft=draft.steps,
            announce=announcements([panel]),
        )
        return keyed(table.game_id, table.version, await drawn([panel]))

    async def place(self, table: LiveTable, seat: int, player: PlayerRef) -> list[Reply]:
        """The panel's Place: the selected tiles to the chosen target, as a ``play`` step
        (built from the selection, not from text)."""
        if not table.selection:
            lang = self._languages.for_player(table.lang, player)
            return [self._languages.tell(table.channel, player, lang, "nothing_selected")]
        tokens = tuple(
            TileToken(Tile.parse(code), None, index, code)
            for index, code in enumerate(table.selection, start=1)
        )
        action = Play(tokens, table.target)
        table.selection = []
        return await self.draft_step(table, seat, action)

    async def pick(self, table: LiveTable, seat: int, args: str) -> Reply:
        """Select (or unselect) rack tiles for the panel's Place."""
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
        return await self._views.panel(table, seat, selection=True)

    async def target(self, table: LiveTable, seat: int, args: str) -> Reply:
        """Where the panel's Place puts the selected tiles: a meld, or a new one."""
        value = args.strip().lower().lstrip("#")
        number = parse_number(value)
        if value in ("", "new"):
            table.target = None
        elif number is not None:
            draft = self._draft_for(table, seat)
            table.target = draft._slot_index(number) + 1  # no such meld: says which exist
        else:
            raise CommandErrorAsRule(usage("target"))
        return await self._views.panel(table, seat, selection=True)

    async def hint(self, table: LiveTable, seat: int, player: PlayerRef) -> Reply:
        """The best play from where the draft is, as commands to type (where hints are on)."""
        lang = self._languages.for_player(table.lang, player)
        if not table.rules.hints:
            return self._languages.tell(table.channel, player, lang, "hint_off")
        assert table.game is not None
        hint = await asyncio.to_thread(
            timed_solver("hint", hint_text), table.game, seat, table.draft
        )
        if hint is None:
            return self._languages.tell(table.channel, player, lang, "hint_none")
        return self._languages.tell(table.channel, player, lang, "hint", text=say(lang, hint))
