"""What ``hint`` says, from where the player's draft is, and that its commands are accepted."""

from __future__ import annotations

from bot.i18n import say
from bot.manager import hint_text
from engine import Draft, Game
from engine.hints import Hint, hint
from engine.steps import apply_step
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.engine.helpers import position


def followed(draft: Draft) -> tuple[Hint, Draft]:
    """The hint for ``draft`` and the draft after typing its commands one by one."""
    found = hint(draft)
    assert found is not None
    for command in found.commands:
        apply_step(draft, command)  # raises if the hint offered a refused command
    assert tuple(s.text() for s in draft.slots) == found.table
    assert draft.is_legal
    return found, draft


def test_a_plain_hint_names_the_change_and_the_auto_command() -> None:
    game = position(["R7 K1 B9", "K5"], "R4 R5 R6", melded=[True, False])
    message = hint_text(game, 0)
    assert message is not None
    assert str(message) == "Added R7 to meld 1. (type: auto R7)"
    assert say("pl", message) == "Dołożono R7 do układu 1. (wpisz: auto R7)"


def test_a_hint_takes_a_joker_from_the_table_when_that_plays_more() -> None:
    # Without the swap only O5 fits (in the group, as its fourth tile). Putting O5 in the
    # joker's place frees the joker for R10 R11: three rack tiles instead of one.
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[True, True])
    message = hint_text(game, 0)
    assert message is not None
    english = str(message)
    assert english.startswith("Put O5 in place of the joker in meld 1; new set R10 R11 J=R12.")
    assert say("pl", message).startswith("Połóż O5 w miejsce dżokera w układzie 1; nowy układ")
    _, draft = followed(game.draft(0))
    assert [str(t) for t in draft.rack] == ["K1"]
    game.commit(draft)


def test_no_swap_hint_before_the_initial_meld() -> None:
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[False, True])
    assert hint_text(game, 0) is None  # 30 points cannot be reached from this rack


# ----- defect 4: hint works from the draft ----------------------------------------------------


def test_hint_after_a_played_tile_does_not_name_that_tile() -> None:
    game = position(["K6 K10 K11 O4 O5", "B1"], "K7 K8 K9 / O1 O2 O3", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "play K6 to 1")
    found, draft = followed(draft)
    assert all("K6" not in command for command in found.commands)
    assert not draft.rack


def test_hint_after_its_own_swap_does_not_repeat_it() -> None:
    game = position(["O5 R10 R11 K1", "K9"], "K5 B5 J", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "swap J in 1 with O5")
    found, draft = followed(draft)
    assert all(not command.startswith("swap") for command in found.commands)
    assert [str(t) for t in draft.rack] == ["K1"]


def test_hint_finds_a_swap_with_a_table_tile() -> None:
    # The only play: K8 from meld 2 takes the joker's place, and the joker joins B4 O4.
    game = position(["B4 O4 R1", "B1"], "K6 K7 J K9 / K8 B8 O8 R8", melded=[True, True])
    found, draft = followed(game.draft(0))
    assert found.commands == ("auto B4 O4",)
    assert [str(t) for t in draft.rack] == ["R1"]
    game.commit(draft)


def test_hint_takes_the_short_way() -> None:
    game = position(["O2 K4 O4 R13", "B1"], "O1 J O3 / B7 B8 B9", melded=[True, True])
    found, draft = followed(game.draft(0))
    assert len(found.commands) == 1
    assert [str(t) for t in draft.rack] == ["R13"]


def test_a_hint_fits_on_one_line() -> None:
    game = position(
        ["R4 K4 B4 O7 O8 O9 K10 K11 K12 B1 B2 B3", "B13"],
        "R5 R6 R7 / K5 K6 K7 / B5 B6 B7 / O4 O5 O6",
        melded=[True, True],
    )
    message = hint_text(game, 0)
    assert message is not None and "\n" not in str(message)
    assert str(message).count(";") <= 4


def test_a_legal_draft_that_is_already_best_is_told_to_finish() -> None:
    game = position(["R7 K1", "B1"], "R4 R5 R6", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "play R7 to 1")
    found = hint(draft)
    assert found is not None and found.commands == ()
    assert "done" in str(found.message())


def test_the_bot_hint_reads_the_players_draft() -> None:
    game: Game = position(["K6 K10 K11", "B1"], "K7 K8 K9 / O1 O2 O3", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "play K6 to 1")
    message = hint_text(game, 0, draft)
    assert message is not None and "K6" not in str(message).split("(type:")[1]


# ----- through the bot: the same path as typed commands -------------------------------------


async def test_hint_commands_typed_in_the_chat_are_each_accepted(h: Harness) -> None:
    await h.say(ANN, "start hints=on")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    mover = [ANN, BOB][h.game.current]
    await h.give(h.seat(mover), "R8 R9 R10 R11 R12 R13")
    await h.say(mover, "play R8 R9 R10")  # 27 points: not yet an initial meld
    text = "\n".join(r.text for r in await h.say(mover, "hint") if r.private_to == mover)
    commands = text.split("(type: ", 1)[1].rstrip(")").split("; ")
    assert all("R8" not in c.split() for c in commands), text  # R8 is already on the table
    table = h.manager.tables[CHANNEL.key]
    for command in commands:
        steps = len(table.draft.steps) if table.draft else 0
        await h.say(mover, command)
        assert table.draft is not None and len(table.draft.steps) == steps + 1, command
    turn = h.game.turn
    await h.say(mover, "done")
    assert h.game.turn == turn + 1
    assert [m.text() for m in h.game.table] == ["R8 R9 R10 R11 R12 R13"]


async def test_undo_with_nothing_to_undo_is_a_plain_answer_in_the_chat(h: Harness) -> None:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    mover = [ANN, BOB][h.game.current]
    replies = await h.say(mover, "undo")
    assert [r.text for r in replies] == ["There is nothing to undo."]
    assert replies[0].private_to == mover


def test_a_legal_draft_the_solver_cannot_better_is_not_told_to_draw() -> None:
    # The player took the joker and played it; nothing else fits, and the solver alone would
    # not find this retrieval from the start of the turn.
    game = position(["O5 R10 R11", "K9"], "K5 B5 J", melded=[True, True])
    draft = game.draft(0)
    apply_step(draft, "swap J in 1 with O5")
    apply_step(draft, "play R10 R11 J")
    found = hint(draft)
    assert found is not None and found.commands == ()
