"""One game of Rummikub: setup, turns, timeouts, the end, a text snapshot and exact replay."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine.actions import Arrange
from engine.draft import Draft
from engine.errors import GameOverError, IllegalMoveError, NotationError, NotYourTurnError
from engine.melds import Meld
from engine.notation import parse_meld_tokens, parse_tokens
from engine.scoring import GameResult, score_blocked, score_out
from engine.settings import Rules
from engine.tiles import Edition, Face, Tile

SNAPSHOT_HEADER = "rummikub-snapshot 1"

# Snapshots use only strict codes ("R7", "R7#1", "J#1=R4"), so they are read with table
# look-ups instead of the forgiving parser: resuming thousands of stored games stays fast.
_CODES: dict[str, Tile] = {t.code: t for copies in (Edition.XP,) for t in copies.all_tiles()}
_FACES: dict[str, Face] = {str(t.face): t.face for t in Edition.XP.all_tiles() if t.copy == 0}
_FACES.update({str(n): Face(None, n) for n in range(1, 14)})


def _tiles_from_codes(text: str) -> list[Tile]:
    tiles = []
    for code in text.split():
        tile = _CODES.get(code)
        tiles.append(tile if tile is not None else parse_tokens(code)[0].tile)
    return tiles


def _melds_from_codes(text: str) -> list[Meld]:
    melds = []
    for part in text.split(" / "):
        if not part.strip():
            continue
        tiles: list[Tile] = []
        pins: dict[int, Face] = {}
        for index, code in enumerate(part.split()):
            head, _, pin = code.partition("=")
            tile = _CODES.get(head)
            if tile is None:
                token = parse_tokens(code)[0]
                tile, pin_face = token.tile, token.pin
            else:
                pin_face = _FACES.get(pin) if pin else None
                if pin and pin_face is None:
                    pin_face = parse_tokens(code)[0].pin
            tiles.append(tile)
            if pin_face is not None:
                pins[index] = pin_face
        melds.append(Meld.build(tiles, pins))
    return melds


@dataclass
class PlayerState:
    """A seat's private state: the rack, whether the initial meld is made, the newest tile."""

    rack: list[Tile]
    melded: bool = False
    drawn: Tile | None = None


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """What a finished turn did, for announcements and highlighting."""

    seat: int
    kind: str  # "play" | "draw" | "penalty" | "pass"
    placed: tuple[Tile, ...] = ()
    drawn: tuple[Tile, ...] = ()
    timed_out: bool = False
    result: GameResult | None = None

    @property
    def log_entry(self) -> str:
        return f"{self.seat} {self.kind}"


@dataclass
class Game:
    """The whole state of one game. Mutated only through turns; see ``Draft`` for a turn."""

    rules: Rules
    seed: int
    players: list[PlayerState]
    table: list[Meld]
    pool: list[Tile]
    current: int
    starter: int
    turn: int = 1
    passes: int = 0
    result: GameResult | None = None
    log: list[str] = field(default_factory=list)
    last: TurnOutcome | None = None
    start_draws: list[list[tuple[int, Tile]]] = field(default_factory=list)

    # ----- setup ---------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, rules: Rules | None = None) -> Game:
        """Deal a new game: draw for the first player (ties redraw), then 14 tiles each."""
        rules = rules or Rules()
        edition = rules.edition
        if not 2 <= players <= edition.max_players:
            raise IllegalMoveError(
                "The {edition} edition is for 2 to {most} players, not {players}.",
                edition=edition.value,
                most=edition.max_players,
                players=players,
            )
        rng = random.Random(seed)
        tiles = edition.all_tiles()
        rng.shuffle(tiles)
        contenders = list(range(players))
        rounds: list[list[tuple[int, Tile]]] = []
        while True:
            draws: list[tuple[int, Tile]] = []
            for seat in contenders:
                tile = tiles.pop()
                while tile.is_joker:  # a joker has no number: draw again
                    draws.append((seat, tile))
                    tile = tiles.pop()
                draws.append((seat, tile))
            rounds.append(draws)
            best = max(t.number for _, t in draws if not t.is_joker)
            contenders = [s for s, t in draws if not t.is_joker and t.number == best]
            if len(contenders) == 1:
                break
        starter = contenders[0]
        tiles = edition.all_tiles()
        rng.shuffle(tiles)
        states = []
        for _ in range(players):
            rack = [tiles.pop() for _ in range(rules.rack_size)]
            states.append(PlayerState(rack))
        return cls(rules, seed, states, [], tiles, starter, starter, start_draws=rounds)

    # ----- reading -------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "playing"

    @property
    def player_count(self) -> int:
        return len(self.players)

    def rack(self, seat: int) -> list[Tile]:
        return list(self.players[seat].rack)

    def all_tiles(self) -> list[Tile]:
        tiles = list(self.pool)
        for p in self.players:
            tiles.extend(p.rack)
        for meld in self.table:
            tiles.extend(meld.tiles)
        return tiles

    def conservation_problem(self) -> str | None:
        """None when every tile of the box is in exactly one place, else what is wrong."""
        counts = Counter(self.all_tiles())
        expected = set(self.rules.edition.all_tiles())
        doubled = sorted(str(t) for t, c in counts.items() if c > 1)
        missing = expected - set(counts)
        extra = set(counts) - expected
        if doubled or missing or extra:
            return (
                f"tile conservation broken: doubled {doubled}, missing "
                f"{sorted(map(str, missing))}, unknown {sorted(map(str, extra))}"
            )
        return None

    def check_conservation(self) -> None:
        problem = self.conservation_problem()
        if problem:
            raise RuntimeError(problem)

    # ----- turns ---------------------------------------------------------------------------

    def _check_turn(self, seat: int | None) -> int:
        if self.finished:
            raise GameOverError("The game is over.")
        if seat is not None and seat != self.current:
            raise NotYourTurnError("It is not your turn.")
        return self.current

    def draft(self, seat: int | None = None) -> Draft:
        """A fresh draft for the current player."""
        return Draft(self, self._check_turn(seat))

    def _draft_is_current(self, draft: Draft) -> None:
        if (
            draft.game is not self
            or draft.seat != self.current
            or draft.base_table != tuple(self.table)
            or draft.base_rack != tuple(self.players[self.current].rack)
        ):
            raise IllegalMoveError("That draft belongs to an earlier turn.")

    def commit(self, draft: Draft) -> TurnOutcome:
        """Check the draft and make it the table; raises with the first problem."""
        seat = self._check_turn(draft.seat)
        self._draft_is_current(draft)
        final = draft.validate()
        placed = draft.played
        return self._apply_play(seat, final, list(draft.rack), placed, timed_out=False)

    def _apply_play(
        self,
        seat: int,
        final: list[Meld],
        rack: list[Tile],
        placed: tuple[Tile, ...],
        *,
        timed_out: bool,
    ) -> TurnOutcome:
        player = self.players[seat]
        self.table = final
        player.rack = rack
        player.melded = True
        player.drawn = None
        self.passes = 0
        table_code = " / ".join(m.code() for m in final)
        kind = "timeout-play" if timed_out else "play"
        self.log.append(f"{seat} {kind} {table_code}")
        result = None
        if not rack:
            result = score_out([p.rack for p in self.players], seat)
        outcome = TurnOutcome(seat, "play", placed, (), timed_out, result)
        self._end_turn(outcome)
        return outcome

    def draw(self, seat: int | None = None, *, timed_out: bool = False) -> TurnOutcome:
        """Draw one tile and end the turn (with an empty pool: pass)."""
        seat = self._check_turn(seat)
        drawn = self._take_from_pool(seat, 1)
        kind = "draw" if drawn else "pass"
        self.log.append(f"{seat} timeout-draw" if timed_out else f"{seat} draw")
        outcome = TurnOutcome(seat, kind, (), drawn, timed_out)
        return self._after_no_play(outcome, bool(drawn))

    def penalty(self, seat: int | None = None) -> TurnOutcome:
        """Timeout with an unfinished rearrangement: table as it was, draw the penalty."""
        seat = self._check_turn(seat)
        drawn = self._take_from_pool(seat, self.rules.timeout_penalty)
        self.log.append(f"{seat} penalty")
        outcome = TurnOutcome(seat, "penalty", (), drawn, True)
        return self._after_no_play(outcome, bool(drawn))

    def timeout(self, draft: Draft | None) -> TurnOutcome:
        """The turn timer ran out: commit a legal draft, draw 1 if nothing changed, else the
        table goes back, the tiles return to the rack and the player draws 3."""
        seat = self._check_turn(None)
        if draft is not None:
            self._draft_is_current(draft)
        if draft is None or not draft.changed:
            return self.draw(seat, timed_out=True)
        if draft.is_legal:
            final = draft.validate()
            return self._apply_play(seat, final, list(draft.rack), draft.played, timed_out=True)
        return self.penalty(seat)

    def _take_from_pool(self, seat: int, count: int) -> tuple[Tile, ...]:
        player = self.players[seat]
        drawn = []
        for _ in range(min(count, len(self.pool))):
            tile = self.pool.pop()
            player.rack.append(tile)
            drawn.append(tile)
        player.drawn = drawn[-1] if drawn else None
        return tuple(drawn)

    def _after_no_play(self, outcome: TurnOutcome, drew: bool) -> TurnOutcome:
        self.passes = 0 if drew else self.passes + 1
        if not drew and self.passes >= len(self.players):
            result = score_blocked([p.rack for p in self.players], self.starter)
            outcome = TurnOutcome(outcome.seat, outcome.kind, (), (), outcome.timed_out, result)
        self._end_turn(outcome)
        return outcome

    def _end_turn(self, outcome: TurnOutcome) -> None:
        self.last = outcome
        if outcome.result is not None:
            self.result = outcome.result
            return
        self.current = (self.current + 1) % len(self.players)
        self.turn += 1

    # ----- replay --------------------------------------------------------------------------

    def apply_log_entry(self, entry: str) -> TurnOutcome:
        """Apply one logged turn (``"2 play R4 R5 R6 / ..."``, ``"0 draw"``, ``"1 penalty"``,
        ``"0 timeout-draw"``, ``"2 timeout-play ..."``), re-checking it against the rules."""
        seat_text, _, rest = entry.partition(" ")
        kind, _, table = rest.partition(" ")
        seat = int(seat_text)
        if kind in ("draw", "timeout-draw"):
            return self.draw(seat, timed_out=kind == "timeout-draw")
        if kind == "penalty":
            return self.penalty(seat)
        if kind in ("play", "timeout-play"):
            draft = self.draft(seat)
            melds = parse_meld_tokens(table)
            draft.apply(Arrange(tuple(tuple(m) for m in melds), exact=True))
            if kind == "play":
                return self.commit(draft)
            final = draft.validate()
            return self._apply_play(seat, final, list(draft.rack), draft.played, timed_out=True)
        raise NotationError("Unknown log entry {entry!r}.", entry=entry)

    @classmethod
    def replay(cls, players: int, seed: int, rules: Rules | None, log: list[str]) -> Game:
        """Rebuild a game from its seed and action log; every turn is checked again."""
        game = cls.new(players, seed, rules)
        for entry in log:
            game.apply_log_entry(entry)
        return game

    # ----- snapshot text -------------------------------------------------------------------

    def to_text(self) -> str:
        """The whole position as text (like chess FEN); ``Game.from_text`` inverts it."""

        def codes(tiles: list[Tile]) -> str:
            return " ".join(t.code for t in tiles)

        lines = [
            SNAPSHOT_HEADER,
            f"rules {self.rules.to_text()}",
            f"seed {self.seed}",
            f"turn {self.turn} current {self.current} starter {self.starter} passes {self.passes}",
            f"pool {codes(self.pool)}".rstrip(),
            f"table {' / '.join(m.code() for m in self.table)}".rstrip(),
        ]
        for seat, p in enumerate(self.players):
            drawn = p.drawn.code if p.drawn else "-"
            melded = "melded" if p.melded else "new"
            lines.append(f"player {seat} {melded} {drawn} : {codes(p.rack)}".rstrip())
        if self.last is not None:
            o = self.last
            lines.append(
                f"last {o.seat} {o.kind} {'timeout' if o.timed_out else 'intime'} : "
                f"{codes(list(o.placed))} : {codes(list(o.drawn))}".rstrip()
            )
        if self.result is not None:
            lines.append(f"result {self.result.to_text()}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Game:
        lines = text.strip("\n").split("\n")
        if not lines or lines[0] != SNAPSHOT_HEADER:
            raise NotationError("This is not a Rummikub snapshot (bad first line).")
        values: dict[str, str] = {}
        players: list[PlayerState] = []
        last: TurnOutcome | None = None
        for line in lines[1:]:
            key, _, rest = line.partition(" ")
            if key == "player":
                head, _, rack = rest.partition(":")
                _, melded, drawn = head.split()
                rack_tiles = _tiles_from_codes(rack)
                drawn_tile = None if drawn == "-" else _tiles_from_codes(drawn)[0]
                players.append(PlayerState(rack_tiles, melded == "melded", drawn_tile))
            elif key == "last":
                head, placed, drawn = [*(part.strip() for part in rest.split(":")), "", ""][:3]
                seat, kind, timing = head.split()
                last = TurnOutcome(
                    int(seat),
                    kind,
                    tuple(_tiles_from_codes(placed)),
                    tuple(_tiles_from_codes(drawn)),
                    timing == "timeout",
                )
            else:
                values[key] = rest
        turn_fields = ["turn", *values["turn"].split()]
        turn_info = dict(zip(turn_fields[::2], turn_fields[1::2], strict=True))
        table = _melds_from_codes(values.get("table", ""))
        pool = _tiles_from_codes(values.get("pool", ""))
        result = GameResult.from_text(values["result"]) if "result" in values else None
        if last is not None and result is not None:
            last = TurnOutcome(
                last.seat, last.kind, last.placed, last.drawn, last.timed_out, result
            )
        game = cls(
            Rules.from_text(values["rules"]),
            int(values["seed"]),
            players,
            table,
            pool,
            int(turn_info["current"]),
            int(turn_info["starter"]),
            int(turn_info["turn"]),
            int(turn_info["passes"]),
            result,
            [],
            last,
        )
        return game

    def copy(self) -> Game:
        clone = Game.from_text(self.to_text())
        clone.log = list(self.log)
        clone.start_draws = [list(r) for r in self.start_draws]
        return clone
