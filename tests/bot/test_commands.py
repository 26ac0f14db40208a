"""The command language's one table of verbs and what each takes (issue 21, defect 15), and
typos that must never land on a verb that ends a game (defect 1). A command with words its
verb does not take is refused in one sentence with its usage and changes nothing: checked on
the parser and through the real manager on a SQLite file, in a game under way."""

from __future__ import annotations

import string

import pytest

from bot.api import Reply
from bot.commands import (
    ALIASES,
    ALL_VERBS,
    DESTRUCTIVE,
    SYNTAX,
    CommandError,
    Syntax,
    Takes,
    check_syntax,
    parse_command,
)
from bot.manager.state import describe
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

TAKE_NOTHING = sorted(verb for verb, syntax in SYNTAX.items() if syntax.takes is Takes.NOTHING)


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


def test_every_verb_declares_what_it_takes_as_plain_data() -> None:
    assert set(SYNTAX) == set(ALL_VERBS)
    assert all(isinstance(s, Syntax) and isinstance(s.takes, Takes) for s in SYNTAX.values())
    assert set(DESTRUCTIVE) == {"leave", "cancel", "kick"}
    assert {"done", "draw", "undo", "reset", "panel", "place", "join", "deal"} <= set(TAKE_NOTHING)


async def game_on_anns_turn(h: Harness) -> None:
    """Ann and Bob, Ann to move with one step in her draft."""
    await h.say(ANN, "start timer=3600")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    if h.game.current != h.seat(ANN):
        await h.say(BOB, "draw")
    rack = h.game.players[h.seat(ANN)].rack
    await h.say(ANN, f"play {rack[0]}")  # a draft step (not legal yet: it need not be)


async def snapshot(h: Harness) -> tuple[object, ...]:
    stored = await h.db.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
    assert stored is not None
    table = h.manager.tables[CHANNEL.key]
    return describe(table), stored.version, list(stored.draft), table.selection


async def test_done_now_is_refused_and_draws_nothing(h: Harness) -> None:
    await game_on_anns_turn(h)
    before = await snapshot(h)
    (said,) = await h.say(ANN, "done now")
    assert said.private_to == ANN
    assert said.text == (
        "'done' does not take 'now'; nothing was changed. Write it like: done (end your turn; "
        "with nothing played you draw a tile)."
    )
    assert await snapshot(h) == before


async def test_undo_undo_undoes_nothing(h: Harness) -> None:
    await game_on_anns_turn(h)
    rack = h.game.players[h.seat(ANN)].rack
    await h.say(ANN, f"play {rack[1]}")
    before = await snapshot(h)
    assert texts(await h.say(ANN, "undo undo")).startswith("'undo' does not take 'undo';")
    assert await snapshot(h) == before
    assert len(h.manager.tables[CHANNEL.key].draft.steps) == 2  # type: ignore[union-attr]


@pytest.mark.parametrize("verb", TAKE_NOTHING)
async def test_a_verb_that_takes_nothing_refuses_trailing_words_and_changes_nothing(
    h: Harness, verb: str
) -> None:
    await game_on_anns_turn(h)
    before = await snapshot(h)
    (said,) = await h.say(ANN, f"{verb} it all")
    assert said.private_to == ANN and not said.buttons
    assert said.text.startswith(f"'{verb}' does not take 'it all'; nothing was changed. ")
    assert "Write it like: " + verb in said.text
    assert await snapshot(h) == before


@pytest.mark.parametrize(
    ("text", "extra"),
    [
        ("addbot hard now", "now"),
        ("sort number please", "please"),
        ("sort up", "up"),
        ("rack colour now", "now"),
        ("target 1 now", "now"),
        ("target up", "up"),
        ("help swap now", "now"),
        ("settings hints on now", "now"),
        ("start threshold 25", "threshold"),
        ("language me pl now", "now"),
        ("cancel now", "now"),
        ("leave yes please", "yes please"),
        ("replay 1 now", "now"),
        ("replay last", "last"),
    ],
)
async def test_words_a_verb_does_not_take_are_refused_with_its_usage(
    h: Harness, text: str, extra: str
) -> None:
    await game_on_anns_turn(h)
    before = await snapshot(h)
    (said,) = await h.say(ANN, text)
    verb = parse_command(text).verb
    assert said.text.startswith(f"'{verb}' does not take '{extra}'; nothing was changed."), said
    assert said.private_to == ANN
    assert await snapshot(h) == before


@pytest.mark.parametrize("text", ["sort", "kick", "kick yes", "settings hints", "play"])
def test_a_verb_missing_what_it_needs_gets_its_usage(text: str) -> None:
    command = parse_command(text)
    with pytest.raises(CommandError, match=r"^Write it like: "):
        check_syntax(command.verb, command.args)


@pytest.mark.parametrize(
    "text",
    [
        "done",
        "addbot",
        "addbot hard",
        "rack",
        "rack number",
        "sort colour",
        "target new",
        "target #2",
        "replay",
        "replay #2",
        "settings",
        "settings hints=on",
        "start threshold=25 timer=3600 away=3",
        "help",
        "help swap",
        "language me pl",
        "stats Ann Smith",
        "kick 2",
        "kick Ann Smith yes",
        "cancel yes",
        "leave no",
        "pick R5 red 6",
        "auto",
        "play R5 R6 R7 to 2",
        "move R7 from 2 to new",
        "split 2 at R6",
        "swap J in 4 with O9 from 2",
        "arrange R4 R5 R6 / K9 B9 O9",
    ],
)
def test_what_the_readme_shows_is_taken(text: str) -> None:
    command = parse_command(text)
    check_syntax(command.verb, command.args)


async def test_a_refusal_is_said_in_the_players_language(h: Harness) -> None:
    await game_on_anns_turn(h)
    await h.say(ANN, "language me pl")
    (said,) = await h.say(ANN, "draw it")
    assert said.text == (
        "Polecenie 'draw' nie przyjmuje 'it'; nic nie zmieniono. Napisz tak: draw (dobierz "
        "jedną kostkę i zakończ ruch)."
    )


async def test_clear_resets_the_draft_instead_of_being_taken_for_leave(h: Harness) -> None:
    await game_on_anns_turn(h)
    said = await h.say(ANN, "clear")
    assert "leave" not in texts(said)
    draft = h.manager.tables[CHANNEL.key].draft
    assert draft is not None and not draft.changed  # back to the start of the turn
    assert CHANNEL.key in h.manager.tables and h.seat(ANN) is not None


def one_edit_typos(word: str) -> set[str]:
    """Every word one deletion, transposition, substitution or insertion away."""
    letters = string.ascii_lowercase
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    changes = {a + c + b[1:] for a, b in splits if b for c in letters}
    inserts = {a + c + b for a, b in splits for c in letters}
    return deletes | swaps | changes | inserts


@pytest.mark.parametrize(
    "word",
    sorted(DESTRUCTIVE | {alias for alias, verb in ALIASES.items() if verb in DESTRUCTIVE}),
)
def test_no_typo_is_steered_to_a_verb_that_ends_a_game(word: str) -> None:
    known = set(ALL_VERBS) | set(ALIASES)
    for typo in sorted(one_edit_typos(word) - known):
        try:
            parse_command(typo)
        except CommandError as err:
            said = str(err)
            assert not any(f"mean {verb!r}" in said for verb in DESTRUCTIVE), (typo, said)
