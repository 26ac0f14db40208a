"""Game records: a finished game as a small text file (like PGN for chess) and its replay.

A record names the rules, the seed and the seats, then lists every turn in the command language
(``draw``, ``arrange R4 R5 R6 / K9 B9 O9``, ``play R5 R6 R7 ; play R8 to 1``). The seed fixes the
deal and every draw, so the turns alone rebuild the whole game; ``replay_record`` plays them
through the rules again and refuses the first turn that is not legal, naming it. The format is
described in docs/records.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.actions import Arrange
from engine.errors import RummikubError
from engine.game import Game, TurnOutcome
from engine.messages import Msg
from engine.notation import parse_meld_tokens
from engine.scoring import GameResult
from engine.settings import Rules
from engine.steps import apply_step
from engine.tiles import Edition, sort_tiles, tiles_text

FORMAT = "rummikub-record 1"
"""The value of the first tag, ``[Format "rummikub-record 1"]``."""

_TAG_RE = re.compile(r'^\[(?P<key>[A-Za-z][A-Za-z0-9]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_TURN_RE = re.compile(r"^(?P<number>[0-9]{1,5})\.\s+(?P<seat>[0-9]{1,2})\s+(?P<command>.*)$")
_SEAT_RE = re.compile(r"^Seat(?P<index>[0-9]{1,2})(?P<ai>AI)?$")
_COMMENT_RE = re.compile(r"\{[^{}]*\}")
_KNOWN_TAGS = ("Format", "Edition", "Rules", "Seed", "Result")


class RecordError(RummikubError):
    """A record that cannot be read, or whose turns the rules refuse; ``turn`` is the turn
    number at fault (None for the tags), ``line`` the 1-based line when known."""

    turn: int | None = None
    line: int | None = None

    def at(self, *, turn: int | None = None, line: int | None = None) -> RecordError:
        """This error, marked with the turn and line it is about."""
        self.turn, self.line = turn, line
        return self


def _reason(err: Exception) -> object:
    """What an error says, still translatable when it is a rules error."""
    return err.msg if isinstance(err, RummikubError) else str(err)


@dataclass(frozen=True, slots=True)
class RecordSeat:
    """A seat of the record: the player's name and, for an AI seat, its strength."""

    name: str
    ai: str | None = None


@dataclass(frozen=True, slots=True)
class RecordTurn:
    """One turn: its number (from 1), the seat that played it and what it did.

    ``command`` is ``draw``, ``penalty`` or draft steps separated by ``;`` (a trailing ``done``
    is allowed), optionally after ``timeout``; ``comment`` is informational and never checked.
    """

    number: int
    seat: int
    command: str
    comment: str = ""
    line: int | None = field(default=None, compare=False)

    def to_text(self) -> str:
        comment = f" {{{self.comment}}}" if self.comment else ""
        return f"{self.number}. {self.seat} {self.command}{comment}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: rules, seed, seats, turns, the result, and free tags (platform, date)."""

    rules: Rules
    seed: int
    seats: tuple[RecordSeat, ...]
    turns: tuple[RecordTurn, ...]
    result: str | None = None  # GameResult.to_text(); None for a game that did not end
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_label(self, seat: int) -> Msg:
        """``Ann, seat 0`` (or ``seat 0`` for a seat with no name)."""
        name = self.seats[seat].name if 0 <= seat < len(self.seats) else ""
        if name:
            return Msg("{name}, seat {seat}", name=name, seat=seat)
        return Msg("seat {seat}", seat=seat)

    def tag(self, key: str) -> str | None:
        return next((v for k, v in self.tags if k == key), None)

    def to_text(self) -> str:
        """The record as text; ``parse_record(record.to_text()) == record``."""
        lines = [
            _tag("Format", FORMAT),
            _tag("Edition", self.rules.edition.value),
            _tag("Rules", self.rules.to_text()),
            _tag("Seed", str(self.seed)),
        ]
        for index, seat in enumerate(self.seats):
            lines.append(_tag(f"Seat{index}", seat.name))
            if seat.ai is not None:
                lines.append(_tag(f"Seat{index}AI", seat.ai))
        lines.extend(_tag(k, v) for k, v in self.tags)
        lines.append(_tag("Result", self.result if self.result is not None else "*"))
        lines.append("")
        lines.extend(turn.to_text() for turn in self.turns)
        return "\n".join(lines) + "\n"


def _tag(key: str, value: str) -> str:
    clean = " ".join(value.split())
    escaped = clean.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# ---------------------------------------------------------------------------------------------
# Reading the text (syntax only; the rules are checked by ``replay_record``)


def parse_record(text: str) -> GameRecord:
    """Read a record's tags and turn lines; raises ``RecordError`` naming the line."""
    tags: dict[str, str] = {}
    extra: list[tuple[str, str]] = []
    seat_names: dict[int, str] = {}
    seat_ai: dict[int, str] = {}
    turns: list[RecordTurn] = []
    lines = text.lstrip("\ufeff").splitlines()
    first = next((line.strip() for line in lines if line.strip()), "")
    if first != _tag("Format", FORMAT):
        raise RecordError(
            "This is not a Rummikub record: the first line must be {tag}.",
            tag=_tag("Format", FORMAT),
        )
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("["):
            if turns:
                raise RecordError("Line {line}: tags go before the first turn.", line=number).at(
                    line=number
                )
            match = _TAG_RE.match(line)
            if match is None:
                raise RecordError(
                    'Line {line}: a tag looks like [Seed "12345"], not {text!r}.',
                    line=number,
                    text=line[:60],
                ).at(line=number)
            key, value = match.group("key"), _unescape(match.group("value"))
            seat = _SEAT_RE.match(key)
            target = None if seat is None else seat_ai if seat.group("ai") else seat_names
            index = -1 if seat is None else int(seat.group("index"))
            if (target is not None and index in target) or (target is None and key in tags):
                raise RecordError(
                    "Line {line}: the tag {key} appears twice.", line=number, key=key
                ).at(line=number)
            if target is not None:
                target[index] = value
            elif key in _KNOWN_TAGS:
                tags[key] = value
            else:
                extra.append((key, value))
            continue
        match = _TURN_RE.match(_COMMENT_RE.sub(" ", line).strip())
        if match is None:
            raise RecordError(
                "Line {line}: a turn looks like '12. 0 draw', not {text!r}.",
                line=number,
                text=line[:60],
            ).at(line=number)
        comments = [c[1:-1].strip() for c in _COMMENT_RE.findall(line)]
        command = " ".join(match.group("command").split())
        turn_number = int(match.group("number"))
        expected = len(turns) + 1
        if turn_number != expected:
            raise RecordError(
                "Line {line}: expected turn {expected}, found turn {found}.",
                line=number,
                expected=expected,
                found=turn_number,
            ).at(turn=turn_number, line=number)
        if not command:
            raise RecordError("Turn {number}: the turn says nothing.", number=turn_number).at(
                turn=turn_number, line=number
            )
        turns.append(
            RecordTurn(turn_number, int(match.group("seat")), command, " ".join(comments), number)
        )
    rules = _rules_of(tags)
    seed = _seed_of(tags)
    count = len(seat_names)
    if sorted(seat_names) != list(range(count)) or count < 2:
        raise RecordError("The record must name its seats Seat0, Seat1, ... (at least two).")
    if not count <= rules.edition.max_players:
        raise RecordError(
            "The {edition} edition is for 2 to {most} players; the record's seat count is {count}.",
            edition=rules.edition.value,
            most=rules.edition.max_players,
            count=count,
        )
    stray = sorted(set(seat_ai) - set(seat_names))
    if stray:
        raise RecordError("Seat{index}AI names a seat the record does not have.", index=stray[0])
    for turn in turns:
        if turn.seat >= count:
            raise RecordError(
                "Turn {number}: there is no seat {seat}; the seats are 0 to {last}.",
                number=turn.number,
                seat=turn.seat,
                last=count - 1,
            ).at(turn=turn.number, line=turn.line)
    seats = tuple(RecordSeat(seat_names[i], seat_ai.get(i)) for i in range(count))
    result = tags.get("Result", "*")
    if result != "*":
        try:
            GameResult.from_text(result)
        except (ValueError, KeyError):
            raise RecordError(
                "The Result tag {result!r} is not a game result.", result=result
            ) from None
    return GameRecord(
        rules, seed, seats, tuple(turns), None if result == "*" else result, tuple(extra)
    )


def _rules_of(tags: dict[str, str]) -> Rules:
    try:
        rules = Rules.from_text(tags.get("Rules", ""))
        if "Edition" in tags:
            edition = Edition(tags["Edition"].strip().lower())
            if "Rules" in tags and "edition=" in tags["Rules"] and edition != rules.edition:
                raise RecordError(
                    "The Edition tag says {edition} but the Rules tag says {rules}.",
                    edition=edition.value,
                    rules=rules.edition.value,
                )
            rules = rules.with_setting("edition", edition.value)
    except RecordError:
        raise
    except ValueError as err:
        raise RecordError(
            "The record's rules are not valid: {reason}", reason=_reason(err)
        ) from None
    return rules


def _seed_of(tags: dict[str, str]) -> int:
    text = tags.get("Seed")
    if text is None:
        raise RecordError('The record has no [Seed "..."] tag; the seed fixes the deal.')
    if re.fullmatch(r"-?[0-9]{1,20}", text.strip()) is None:
        raise RecordError("The Seed tag must be a whole number, not {text!r}.", text=text)
    return int(text)


# ---------------------------------------------------------------------------------------------
# Replaying through the rules


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The game after one turn (``turn`` None: the deal). ``game`` is the live replay game:
    read or render it before asking for the next step, or ``copy()`` it."""

    turn: RecordTurn | None
    outcome: TurnOutcome | None
    game: Game


def replay_record(record: GameRecord) -> Iterator[ReplayStep]:
    """The deal, then the game after each turn; every turn is checked by the rules again, and
    the first refused one raises ``RecordError`` naming it (as does a Result that differs)."""
    try:
        game = Game.new(len(record.seats), record.seed, record.rules)
    except RummikubError as err:
        raise RecordError(
            "The record's setup is not a game: {reason}", reason=_reason(err)
        ) from None
    yield ReplayStep(None, None, game)
    for turn in record.turns:
        reason: object = None
        if game.finished:
            reason = Msg("the game was already over after turn {number}.", number=turn.number - 1)
        elif turn.seat != game.current:
            reason = Msg("it was the turn of {name}.", name=record.seat_label(game.current))
        else:
            try:
                outcome = play_command(game, turn.command)
            except RummikubError as err:
                reason = err.msg
        if reason is not None:
            raise RecordError(
                "Turn {number} ({seat}): {reason}",
                number=turn.number,
                seat=record.seat_label(turn.seat),
                reason=reason,
            ).at(turn=turn.number, line=turn.line)
        yield ReplayStep(turn, outcome, game)
    last = record.turns[-1].number if record.turns else 0
    got = game.result.to_text() if game.result is not None else None
    if record.result is not None and got != record.result:
        if got is None:
            raise RecordError(
                "After turn {number} the replayed game is not over, but the record's Result "
                "is {said}.",
                number=last,
                said=record.result,
            ).at(turn=last or None)
        raise RecordError(
            "After turn {number} the replayed game ends with {got}, but the record's Result "
            "is {said}.",
            number=last,
            got=got,
            said=record.result,
        ).at(turn=last or None)


def replay_game(record: GameRecord) -> Game:
    """The game at the end of the record, after checking every turn."""
    game: Game | None = None
    for step in replay_record(record):
        game = step.game
    assert game is not None
    return game


def play_command(game: Game, command: str) -> TurnOutcome:
    """Play one record turn for the current seat: ``draw``, ``penalty``, draft steps (``;``
    between them, ``done`` optional at the end), each optionally after ``timeout``."""
    words = command.split()
    timed_out = bool(words) and words[0].lower() == "timeout"
    body = " ".join(words[1:] if timed_out else words)
    lowered = body.lower()
    if lowered in ("draw", "done", ""):
        if lowered == "" and not timed_out:
            raise RecordError("The turn says nothing.")
        return game.draw(timed_out=timed_out)
    if lowered == "penalty":
        return game.penalty()
    steps = [s.strip() for s in body.split(";") if s.strip()]
    if steps and steps[-1].lower() == "done":
        steps.pop()
    draft = game.draft()
    for step in steps:
        if step.lower().startswith("arrange "):
            # Records name physical copies (R7#1), so an arrangement is taken exactly.
            melds = parse_meld_tokens(step[len("arrange ") :])
            draft.apply(Arrange(tuple(tuple(m) for m in melds), exact=True))
        else:
            apply_step(draft, step)
    if timed_out:
        draft.validate()  # a record's timed-out play is one the timer committed: it was legal
        return game.timeout(draft)
    return game.commit(draft)


# ---------------------------------------------------------------------------------------------
# Writing a record from a game


def _command_of(entry: str) -> str:
    _, _, rest = entry.partition(" ")
    kind, _, table = rest.partition(" ")
    if kind == "play":
        return f"arrange {table}"
    if kind == "timeout-play":
        return f"timeout arrange {table}"
    if kind == "draw":
        return "draw"
    if kind == "timeout-draw":
        return "timeout draw"
    if kind == "penalty":
        return "timeout penalty"
    raise RecordError(
        "The game log has an entry this format does not know: {entry!r}.", entry=entry
    )


def _comment_of(outcome: TurnOutcome) -> str:
    if outcome.kind == "play":
        text = "+" + tiles_text(sort_tiles(outcome.placed))
    elif outcome.kind == "pass":
        text = "pass, the pool is empty"
    else:
        text = "drew " + tiles_text(outcome.drawn) if outcome.drawn else "drew nothing"
    if outcome.result is not None:
        text += "; game over"
    return text


def record_from_log(
    seats: Sequence[RecordSeat],
    seed: int,
    rules: Rules,
    log: Sequence[str],
    *,
    tags: Sequence[tuple[str, str]] = (),
) -> GameRecord:
    """A record of the game that ``Game.replay(len(seats), seed, rules, log)`` rebuilds; the log
    is replayed (and so checked) on the way. A game not yet over gets no result."""
    game = Game.new(len(seats), seed, rules)
    turns = []
    for entry in log:
        number, seat = game.turn, game.current
        try:
            outcome = game.apply_log_entry(entry)
        except ValueError as err:  # a rules error, or a log entry that is not one
            raise RecordError(
                "Turn {number} of the game log is refused: {reason}",
                number=number,
                reason=_reason(err),
            ).at(turn=number) from None
        turns.append(RecordTurn(number, seat, _command_of(entry), _comment_of(outcome)))
    result = game.result.to_text() if game.result is not None else None
    return GameRecord(rules, seed, tuple(seats), tuple(turns), result, tuple(tags))


def record_from_game(
    game: Game, names: Sequence[str] = (), *, ai: Sequence[str | None] = (), **tags: str
) -> GameRecord:
    """The record of a game played (or replayed) in this process, from its seed and log."""
    seats = [
        RecordSeat(
            names[i] if i < len(names) else f"Player {i + 1}", ai[i] if i < len(ai) else None
        )
        for i in range(game.player_count)
    ]
    return record_from_log(seats, game.seed, game.rules, game.log, tags=tuple(tags.items()))
