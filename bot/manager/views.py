"""What the manager shows: racks, tables, panels, the lobby, standings, status, help and rules,
as ``Reply`` objects drawn from a live table (pictures through the presenter, words in the
reader's language)."""

from __future__ import annotations

from bot.api import Button, PlayerRef, Reply, Select, SelectOption
from bot.commands import KNOWN_VERBS, CommandError, parse_command, usage
from bot.i18n import duration, say, t
from bot.manager.languages import Languages
from bot.manager.notices import with_notice
from bot.manager.state import CommandErrorAsRule, LiveTable, away_limit, public
from bot.presenter import Presenter
from bot.scheduler import Scheduler
from engine import Rules
from engine.tiles import sort_tiles


class Views:
    """Game state turned into replies; reads nothing but the table it is given."""

    def __init__(self, presenter: Presenter, clock: Scheduler, languages: Languages) -> None:
        self.presenter = presenter
        self._clock = clock
        self._languages = languages

    # ----- a game's messages ---------------------------------------------------------------

    @staticmethod
    def set_sort(table: LiveTable, player: PlayerRef, args: str) -> None:
        """``sort colour|number``: how ``player``'s rack is ordered at this table."""
        value = args.strip().lower()
        if value.startswith("num"):
            table.sort_by[player.key] = "number"
        elif value.startswith("col"):
            table.sort_by[player.key] = "color"
        else:
            raise CommandErrorAsRule(usage("sort"))

    async def rack(self, table: LiveTable, seat: int) -> Reply:
        """The seat's rack, privately, in its owner's language (pictures too)."""
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        sort_by = table.sort_by.get(info.player.key, "color")
        draft = table.draft if table.draft is not None and table.draft.seat == seat else None
        lang = await self._languages.read_for(table.lang, info.player)
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

    async def table(self, table: LiveTable) -> Reply:
        """The table message everyone sees, with whose turn it is."""
        game = table.game
        assert game is not None
        names = [s.name for s in table.seats]
        left = self.seconds_left(table)
        text = self.presenter.table_text(game, names, left, lang=table.lang)
        images = await self.presenter.table_images(game, names, left, lang=table.lang)
        buttons = (
            (
                Button(t(table.lang, "button_my_turn"), "panel", "primary"),
                Button(t(table.lang, "button_my_rack"), "rack"),
                Button(t(table.lang, "button_status"), "status"),
            ),
        )
        current = table.current_seat
        mentions = (current.player,) if current is not None and current.player else ()
        return public(table, text, images=images, slot="table", buttons=buttons, mentions=mentions)

    async def panel(self, table: LiveTable, seat: int, *, selection: bool = False) -> Reply:
        """The seat's turn panel: the draft, a tile picker, a target picker and buttons; with
        ``selection`` (the answer to pick and target) it always says what is selected and
        where it goes, also when nothing is."""
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        draft = table.draft or game.draft(seat)
        lang = await self._languages.read_for(table.lang, info.player)
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
        # Each acts on this turn (and the draft's on this step): a later click is refused.
        mark = table.click_mark
        buttons = (
            (
                Button(t(lang, "button_place"), "place", "primary", turn=mark("place")),
                Button(
                    t(lang, "button_auto"),
                    "auto " + " ".join(table.selection),
                    "primary",
                    turn=mark("auto"),
                ),
                Button(t(lang, "button_undo"), "undo", turn=mark("undo")),
                Button(t(lang, "button_reset"), "reset", turn=mark("reset")),
            ),
            (
                Button(t(lang, "button_draw"), "draw", "secondary", turn=mark("draw")),
                Button(t(lang, "button_done"), "done", "success", turn=mark("done")),
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

    async def standings(self, table: LiveTable, head: str) -> Reply:
        """A game's end: ``head`` (who won, the scores) over the match standings."""
        text = head + "\n" + self.standings_text(table)
        images = (
            await self.presenter.standings_images(
                table.match, [s.name for s in table.seats], lang=table.lang
            )
            if table.match
            else ()
        )
        return public(table, text, images=images)

    def seconds_left(self, table: LiveTable) -> float | None:
        if table.deadline is None:
            return None
        return max(0.0, table.deadline - self._clock.now())

    def status_text(self, table: LiveTable, lang: str | None = None) -> str:
        game, match = table.game, table.match
        assert game is not None and match is not None
        counts = ", ".join(
            f"{s.name} {len(p.rack)}" for s, p in zip(table.seats, game.players, strict=True)
        )
        left = self.seconds_left(table)
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

    def standings_text(self, table: LiveTable, lang: str | None = None) -> str:
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

    # ----- the lobby -----------------------------------------------------------------------

    def seats_text(self, table: LiveTable) -> str:
        parts = []
        for i, seat in enumerate(table.seats, start=1):
            mark = " " + t(table.lang, "seat_waiting") if seat.waiting else ""
            parts.append(f"{i}. {seat.name}{mark}")
        return ", ".join(parts)

    def lobby(self, table: LiveTable, text: str | None = None) -> Reply:
        """The lobby message: what just happened (``text``) over the seats and settings, with
        the lobby's buttons. It is edited in place, so it always shows the whole lobby."""
        lang = table.lang
        seats = self.seats_text(table)
        state = t(
            lang,
            "lobby_state",
            seats=seats,
            settings=settings_text(table.rules, lang, table.away_after),
        )
        body = state if not text else text if seats in text else text + "\n" + state
        buttons = (
            (
                Button(t(lang, "button_join"), "join", "success"),
                Button(t(lang, "button_leave"), "leave", "secondary"),
                Button(t(lang, "button_add_ai"), "addbot", "primary"),
                Button(t(lang, "button_deal"), "deal", "success"),
            ),
        )
        return with_notice(public(table, body, buttons=buttons, slot="lobby"), table)

    def lobby_closed(self, table: LiveTable) -> Reply:
        """The lobby message once dealt: the seats and settings, without buttons."""
        lang = table.lang
        text = t(
            lang,
            "lobby_state",
            seats=self.seats_text(table),
            settings=settings_text(table.rules, lang, table.away_after),
        )
        return public(table, text, slot="lobby")


def settings_text(rules: Rules, lang: str, away_after: int | None = None) -> str:
    """A table's settings in one line."""
    games = rules.match_games if rules.match_games is not None else t(lang, "games_players")
    away = away_limit(rules, away_after)
    return t(
        lang,
        "settings_line",
        edition=rules.edition.value,
        threshold=rules.opening_threshold,
        timer=duration(rules.turn_seconds),
        games=games,
        hints=t(lang, "setting_on" if rules.hints else "setting_off"),
        away=away if away else t(lang, "setting_off"),
    )


def help_text(lang: str, args: str) -> str:
    """The commands, or how to use one."""
    verb = args.strip().lower()
    if verb:
        try:
            verb = parse_command(verb).verb
        except CommandError as err:
            return say(lang, err)
        return t(lang, "help_verb", usage=say(lang, usage(verb)))
    return t(lang, "help", verbs=", ".join(KNOWN_VERBS))


def rules_text(lang: str, rules: Rules) -> str:
    """The rules and a table's settings."""
    return t(
        lang,
        "rules",
        threshold=rules.opening_threshold,
        seconds=rules.turn_seconds,
        penalty=rules.timeout_penalty,
        settings=settings_text(rules, lang),
    )
