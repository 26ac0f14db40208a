"""The routes: for every verb, who may use it, when, and which part of the manager handles
it. One table instead of an if-ladder; ``Router.dispatch`` runs a parsed command under the
channel's lock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import Command, CommandError
from bot.manager.languages import Languages
from bot.manager.lobby import Lobby
from bot.manager.notices import Notices
from bot.manager.ratings import Ratings
from bot.manager.records import Records
from bot.manager.state import LiveTable, note
from bot.manager.store import Store
from bot.manager.tables import Tables
from bot.manager.turns import Turns
from bot.manager.views import Views, help_text, rules_text
from engine import Rules, RummikubError
from engine.actions import DRAFT_VERBS, parse_action


@dataclass(frozen=True, slots=True)
class Request:
    """One command on its way through the routes: who sent it where, at which table."""

    table: LiveTable
    player: PlayerRef
    command: Command
    admin: bool
    lang: str  # the language the sender reads privately

    @property
    def channel(self) -> ChannelRef:
        return self.table.channel

    @property
    def args(self) -> str:
        return self.command.args

    @property
    def seat(self) -> int:
        seat = self.table.seat_of(self.player)
        assert seat is not None  # routes with a seat rule run only for a seated player
        return seat


Handler = Callable[[Request], Awaitable[list[Reply]]]
Alone = Callable[[PlayerRef, ChannelRef, str, str], Awaitable[list[Reply]]]
"""A handler for a channel with no table: (player, channel, args, the sender's language)."""


@dataclass(frozen=True, slots=True)
class Route:
    """How one verb is handled.

    ``run`` handles it at a table; ``alone`` where the channel has no table (None: "there is
    no game"). ``phase="playing"``: only once dealt (in the lobby it says so). ``seat``:
    "seated" (the sender must have a seat) or "turn" (it must be their turn).
    ``turn_bound``: meant for the turn in play when it arrived; a duplicate queued behind the
    command that ended that turn is refused."""

    run: Handler
    alone: Alone | None = None
    phase: str | None = None
    seat: str | None = None
    turn_bound: bool = False


def build_routes(
    lobby: Lobby,
    turns: Turns,
    views: Views,
    records: Records,
    languages: Languages,
    channel_rules: Callable[[ChannelRef], Awaitable[Rules]],
    ratings: Ratings,
    notices: Notices,
) -> dict[str, Route]:
    """Every verb's route, over the parts that handle them."""

    def tell(request: Request, message: str, **values: object) -> list[Reply]:
        return [languages.tell(request.channel, request.player, request.lang, message, **values)]

    def seats(
        handler: Callable[[LiveTable, PlayerRef, str, bool], Awaitable[list[Reply]]],
    ) -> Handler:
        async def run(r: Request) -> list[Reply]:
            return await handler(r.table, r.player, r.args, r.admin)

        return run

    async def already_running(r: Request) -> list[Reply]:
        return tell(r, "already_running")

    async def rematch(r: Request) -> list[Reply]:
        if r.table.phase != "lobby":
            return tell(r, "already_running")
        return await lobby.join(r.table, r.player, r.args, r.admin)

    # Information: the same with or without a table; always private.
    async def help_(r: Request) -> list[Reply]:
        return [note(r.channel, r.player, help_text(r.lang, r.args))]

    async def help_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        return [note(c, p, help_text(lang, args))]

    async def rules_(r: Request) -> list[Reply]:
        return [note(r.channel, r.player, rules_text(r.lang, r.table.rules))]

    async def rules_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        return [note(c, p, rules_text(lang, await channel_rules(c)))]

    async def leaderboard(r: Request) -> list[Reply]:
        return await leaderboard_alone(r.player, r.channel, r.args, r.lang)

    async def leaderboard_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        """The rating ladder; ``leaderboard wins``: the channel's win counts."""
        what = args.strip().lower()
        if not what:
            return [await ratings.ladder(c, p, lang)]
        return [await records.leaderboard(c, p, lang)]  # wins (bot.commands.SYNTAX)

    async def history(r: Request) -> list[Reply]:
        return await history_alone(r.player, r.channel, r.args, r.lang)

    async def history_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        return [note(c, p, await records.history(c, lang))]

    async def stats(r: Request) -> list[Reply]:
        return [await records.stats(r.channel, r.player, r.args, r.lang)]

    async def stats_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        return [await records.stats(c, p, args, lang)]

    async def notify(r: Request) -> list[Reply]:
        return await notices.command(r.player, r.channel, r.args, r.lang)

    async def language(r: Request) -> list[Reply]:
        return [await languages.set_channel(r.table, r.channel, r.player, r.args)]

    async def language_alone(p: PlayerRef, c: ChannelRef, args: str, lang: str) -> list[Reply]:
        return [await languages.set_channel(None, c, p, args)]

    # The game.
    async def status(r: Request) -> list[Reply]:
        if r.table.phase == "lobby":
            return [views.lobby(r.table)]
        return [note(r.channel, r.player, views.status_text(r.table, r.lang))]

    async def table(r: Request) -> list[Reply]:
        if r.table.phase == "lobby":
            return [views.lobby(r.table)]
        return [await views.table(r.table)]

    async def score(r: Request) -> list[Reply]:
        return [note(r.channel, r.player, views.standings_text(r.table, r.lang))]

    async def rack(r: Request) -> list[Reply]:
        if r.args.strip():
            views.set_sort(r.table, r.player, r.args)
        return [await views.rack(r.table, r.seat)]

    async def sort(r: Request) -> list[Reply]:
        views.set_sort(r.table, r.player, r.args)
        return [await views.rack(r.table, r.seat)]

    async def hint(r: Request) -> list[Reply]:
        return [await turns.hint(r.table, r.seat, r.player)]

    async def panel(r: Request) -> list[Reply]:
        return [await views.panel(r.table, r.seat)]

    async def finish(r: Request) -> list[Reply]:
        return await turns.finish(r.table, r.command.verb)

    async def pick(r: Request) -> list[Reply]:
        return [await turns.pick(r.table, r.seat, r.args)]

    async def target(r: Request) -> list[Reply]:
        return [await turns.target(r.table, r.seat, r.args)]

    async def place(r: Request) -> list[Reply]:
        return await turns.place(r.table, r.seat, r.player)

    async def draft(r: Request) -> list[Reply]:
        action = r.command.action or parse_action(r.command.text)  # read once, at the edge
        return await turns.draft_step(r.table, r.seat, action)

    async def yes(r: Request) -> list[Reply]:
        return await lobby.answer(r.table, r.player, True, r.admin)

    async def no(r: Request) -> list[Reply]:
        return await lobby.answer(r.table, r.player, False, r.admin)

    routes: dict[str, Route] = {
        "start": Route(already_running),
        "rematch": Route(rematch),
        "join": Route(seats(lobby.join)),
        "leave": Route(seats(lobby.leave)),
        "addbot": Route(seats(lobby.addbot)),
        "kick": Route(seats(lobby.kick)),
        "settings": Route(seats(lobby.settings)),
        "cancel": Route(seats(lobby.cancel)),
        "deal": Route(seats(lobby.deal)),
        "yes": Route(yes),
        "no": Route(no),
        "help": Route(help_, alone=help_alone),
        "rules": Route(rules_, alone=rules_alone),
        "leaderboard": Route(leaderboard, alone=leaderboard_alone),
        "history": Route(history, alone=history_alone),
        "stats": Route(stats, alone=stats_alone),
        "notify": Route(notify, alone=notices.command),
        "language": Route(language, alone=language_alone),
        "status": Route(status),
        "table": Route(table),
        "score": Route(score, phase="playing"),
        "rack": Route(rack, phase="playing", seat="seated"),
        "sort": Route(sort, phase="playing", seat="seated"),
        "hint": Route(hint, phase="playing", seat="turn"),
        "panel": Route(panel, phase="playing", seat="turn"),
        "done": Route(finish, phase="playing", seat="turn", turn_bound=True),
        "draw": Route(finish, phase="playing", seat="turn", turn_bound=True),
        "pick": Route(pick, phase="playing", seat="turn", turn_bound=True),
        "target": Route(target, phase="playing", seat="turn", turn_bound=True),
        "place": Route(place, phase="playing", seat="turn", turn_bound=True),
    }
    for verb in DRAFT_VERBS:
        routes[verb] = Route(draft, phase="playing", seat="turn", turn_bound=True)
    return routes


class Router:
    """Runs a parsed command under the channel's lock (the caller holds it): brings an absent
    player back, opens or finds the table, checks the route's rules, runs its handler."""

    def __init__(
        self,
        routes: dict[str, Route],
        tables: Tables,
        store: Store,
        lobby: Lobby,
        languages: Languages,
        notices: Notices,
        ratings: Ratings,
    ) -> None:
        self.routes = routes
        self._tables = tables
        self._store = store
        self._lobby = lobby
        self._languages = languages
        self._notices = notices
        self._ratings = ratings

    def turn_bound(self, verb: str) -> bool:
        route = self.routes.get(verb)
        return route is not None and route.turn_bound

    async def dispatch(
        self,
        player: PlayerRef,
        channel: ChannelRef,
        command: Command,
        admin: bool,
        seen: tuple[int | None, int] | None,
    ) -> list[Reply]:
        verb = command.verb
        route = self.routes[verb]
        if route.turn_bound and seen is not None:
            # Derived: the turn in this process's copy when the command arrived. If this
            # process ended it while the command waited (a double click queued behind the
            # first, a timeout), the command must not act on the next turn.
            memory = self._tables.of(channel)
            if memory is not None and _turn_over(memory, player, seen):
                return [self._languages.tell(channel, player, memory.lang, "turn_over")]
        table = await self._store.current(channel)
        if command.turn is not None:
            # A click on a button made for a turn that is over, or for an earlier step of the
            # draft (a panel left open, or a platform delivering a click twice, also after a
            # restart): one sentence, nothing changes.
            stale = "turn_over" if table is None else table.stale_click(verb, command.turn)
            if stale is not None:
                lang = await self._languages.of_channel(channel) if table is None else table.lang
                said = self._languages.for_player(lang, player)
                return [self._languages.tell(channel, player, said, stale)]
        back: list[Reply] = []
        if table is not None and table.phase == "playing":
            away = table.away_seat_of(player)
            if away is not None:  # any command brings an absent player back at once
                back = await self._lobby.come_back(table, away, player)
        if isinstance(command.problem, CommandError):  # words the verb does not take
            said = await self._languages.error(channel, command.problem, player)
            return [*back, note(channel, player, said)]
        if table is None and verb in ("start", "rematch"):
            opened = (
                await self._lobby.start(player, channel, command.args)
                if verb == "start"
                else await self._lobby.rematch(player, channel)
            )
            opened = await self._notices.opened(self._tables.of(channel), player, opened)
            await self._ratings.note_server(channel)  # its games count on the server's ladder
            await self._store.save_lobby(channel, None)
            return opened
        if table is None:
            return await self._alone(route, player, channel, command)
        before = self._store.lobby_data(channel)
        try:
            return [*back, *await self._run(route, table, player, command, admin)]
        except RummikubError as err:
            if not back:
                raise
            # The come-back is stored (with its outbox): it is told even when the command
            # that brought the player back is refused.
            said = await self._languages.error(channel, err, player)
            return [*back, note(channel, player, said)]
        finally:
            await self._store.save_lobby(channel, before)

    async def _alone(
        self, route: Route, player: PlayerRef, channel: ChannelRef, command: Command
    ) -> list[Reply]:
        """A command in a channel with no table."""
        lang = self._languages.for_player(await self._languages.of_channel(channel), player)
        if route.alone is None:
            return [self._languages.tell(channel, player, lang, "no_game")]
        return await route.alone(player, channel, command.args, lang)

    async def _run(
        self, route: Route, table: LiveTable, player: PlayerRef, command: Command, admin: bool
    ) -> list[Reply]:
        lang = self._languages.for_player(table.lang, player)
        request = Request(table, player, command, admin, lang)
        if route.phase == "playing" and table.phase != "playing":
            return [self._languages.tell(table.channel, player, lang, "playing_only")]
        if route.seat is not None:
            seat = table.seat_of(player)
            if seat is None:
                return [self._languages.tell(table.channel, player, lang, "not_seated")]
            game = table.game
            assert game is not None
            if route.seat == "turn" and seat != game.current:
                current = table.seats[game.current].name
                return [
                    self._languages.tell(table.channel, player, lang, "not_your_turn", name=current)
                ]
        return await route.run(request)


def _turn_over(table: LiveTable, player: PlayerRef, seen: tuple[int | None, int]) -> bool:
    """Whether a command meant for turn ``seen`` arrives when ``player`` is to move in a later
    turn (when it is not their turn, they are told so instead)."""
    if table.game is None or table.game.finished or table.turn_key == seen:
        return False
    seat = table.seat_of(player)
    return seat is not None and seat == table.game.current
