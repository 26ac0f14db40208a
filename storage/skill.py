"""The rating model, with no database: who a seat's result counts for, the final order of a
finished game, one game's update and the value a ladder shows.

The update is ``openskill``'s Plackett-Luce model (Weng and Lin's Bayesian rating for games of
any number of players, with ties), at its default parameters: a new rating is mu 25, sigma
25/3; beta 25/6; tau 25/300 (a little uncertainty added before every game, so a rating keeps
moving). The ladder shows a conservative value, ``1000 + 40 * (mu - 3 * sigma)``: 1000 for a
newcomer, rising as the model grows sure of a good player. The same functions serve the live
update (in the finished game's transaction) and the migration that rates the history, so both
give the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0
SIGMA = MU / 3
Z = 3.0  # the display value is mu - Z * sigma: 99.7% sure the skill is at least that
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
PROVISIONAL_GAMES = 5  # fewer rated games than this: the rating is shown as provisional

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

PERSON = "person"
AI = "ai"


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as the model keeps it: the mean and the uncertainty of a skill."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    """The conservative value the ladder ranks by (an int; 1000 for a new rating)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a finished game as the ratings see it: the rating it counts for
    (``entity``), the name to show, and its place (1 first; equal places are ties)."""

    seat: int
    entity: str
    kind: str  # PERSON or AI
    name: str
    place: int
    won: bool


def person_entity(player_id: str) -> str:
    return f"{PERSON}:{player_id}"


def ai_entity(level: str, edition: str) -> str:
    """One rating per AI level and edition (an XP table is another game for the AI)."""
    return f"{AI}:{level}:{edition}"


def edition_of(setup: str) -> str:
    """The edition a stored game was played with, from its setup (JSON with the rules text,
    or the rules text alone); classic when it does not say."""
    rules = setup
    try:
        data = json.loads(setup)
    except ValueError:
        data = None
    if isinstance(data, dict):
        rules = str(data.get("rules", ""))
    for part in rules.split():
        key, _, value = part.partition("=")
        if key == "edition" and value:
            return value
    return "classic"


def entrants(
    seats: Sequence[Mapping[str, Any]],
    winner: int,
    rack_values: Sequence[int],
    edition: str,
) -> list[Entrant]:
    """Who each seat counts for and where it finished: the winner first, then the others by
    the value left on their rack (equal values tie). A person's seat counts for them, also
    while an AI played it because they were away; a seat whose person left or was kicked
    counts for that person in last place (leaving does not dodge a loss); an AI seat from the
    start counts for its level."""
    if len(rack_values) != len(seats) or not 0 <= winner < len(seats):
        raise ValueError("A rated game needs a rack value per seat and a seated winner.")
    keys: list[tuple[int, int]] = []
    for index, seat in enumerate(seats):
        why = seat.get("why")
        if seat.get("ai") is not None and why in ("left", "kicked"):
            keys.append((2, 0))  # after everyone who finished the game
        elif index == winner:
            keys.append((0, 0))
        else:
            keys.append((1, int(rack_values[index])))
    out = []
    for index, seat in enumerate(seats):
        place = 1 + sum(1 for key in keys if key < keys[index])
        ai, why = seat.get("ai"), seat.get("why")
        if ai is not None and why is None:
            entity, kind = ai_entity(str(ai), edition), AI
        else:
            entity, kind = person_entity(str(seat["player_id"])), PERSON
        name = str(seat.get("name", ""))
        if kind == PERSON and ai is not None:
            name = name.removesuffix(" (AI)")  # the seat's name while an AI played it
        out.append(Entrant(index, entity, kind, name, place, index == winner))
    return out


@dataclass(frozen=True, slots=True)
class Update:
    """One entity's rating before and after a game (``best`` its best place in it)."""

    entity: str
    before: Skill
    after: Skill
    best: int
    won: bool


def rate(players: Sequence[Entrant], priors: Mapping[str, Skill]) -> dict[str, Update]:
    """Every entity's new rating after one game. ``priors`` holds the ratings they had (an
    entity missing there is new). Seats of the same entity (two hard AI seats) each take part
    with its rating; the entity keeps the mean of their results."""
    if len({p.entity for p in players}) < 2:
        return {}  # one person against their own AI: nothing to learn
    teams = [[_rating(priors.get(p.entity, Skill()))] for p in players]
    rated = MODEL.rate(teams, ranks=[float(p.place) for p in players])
    results: dict[str, list[PlackettLuceRating]] = {}
    for player, team in zip(players, rated, strict=True):
        results.setdefault(player.entity, []).append(team[0])
    updates = {}
    for entity, ratings in results.items():
        mine = [p for p in players if p.entity == entity]
        updates[entity] = Update(
            entity,
            priors.get(entity, Skill()),
            Skill(
                sum(r.mu for r in ratings) / len(ratings),
                sum(r.sigma for r in ratings) / len(ratings),
            ),
            min(p.place for p in mine),
            any(p.won for p in mine),
        )
    return updates


def _rating(skill: Skill) -> PlackettLuceRating:
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What a rating replay needs of one stored, finished game."""

    game_id: int
    scope: str
    seats: Sequence[Mapping[str, Any]]
    setup: str
    result_text: str


def parse_result(text: str) -> tuple[int, tuple[int, ...]]:
    """The winner and the rack values from a stored result (``GameResult.to_text``); a
    ValueError when the text is not one."""
    fields = dict(part.split("=", 1) for part in text.split()[1:] if "=" in part)
    try:
        return int(fields["winner"]), tuple(int(v) for v in fields["racks"].split(","))
    except (KeyError, ValueError) as exc:
        raise ValueError(f"{text[:60]!r} is not a game result a rating can read.") from exc


def game_entrants(game: FinishedGame) -> list[Entrant]:
    """The entrants of a stored game (a ValueError when its result cannot be read)."""
    winner, racks = parse_result(game.result_text)
    return entrants(game.seats, winner, racks, edition_of(game.setup))
