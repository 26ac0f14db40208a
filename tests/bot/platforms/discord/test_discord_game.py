"""Whole games on Discord: the real GameManager (SQLite file, fake clock) behind the real
discord.py client, which talks HTTP to the fake Discord API and gets interactions as gateway
payloads. Players act only through slash commands, buttons and selects; the test looks at the
game state only to decide what a sensible player would do next.
"""

from __future__ import annotations

import pytest

from bot.api import PlayerRef
from bot.platforms.discord.sender import TEXT_STALE_BUTTON
from tests.bot.platforms.discord.playing import (
    Live,
    all_attachments,
    play_turn,
)
from tests.fakes.discord_api import FakeDiscord, Member

MAX_TURNS = 400
# aiohttp's own multipart reader (inside the fake server) trips this deprecation.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


@pytest.mark.slow
async def test_a_whole_game_from_start_to_the_last_tile(live: Live, fake: FakeDiscord) -> None:
    """Two humans and an AI seat play one game to its end. Alice has DMs open and plays with
    the turn panel; Bob refuses DMs and plays with slash commands; the bot restarts midway
    and one of Alice's turns runs out of time."""
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    carol = h.member("carol")  # watches the channel, never plays
    fake.refuse_dm.add(bob.id)
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}

    turns = 0
    restarted = timed_out = False
    while live.running and not live.game.finished:
        turns += 1
        assert turns < MAX_TURNS, "the game did not end"
        game = live.game
        seat_player = live.manager.tables[live.key].seats[game.current].player  # type: ignore[union-attr]
        assert seat_player is not None  # AI seats move inside the humans' commands
        member = humans[seat_player.user_id]
        if turns == 6 and not restarted:
            restarted = True
            await live.restart()
            continue
        if member is alice and restarted and not timed_out:
            timed_out = True
            before = game.turn
            await live.clock.advance(game.rules.turn_seconds + 1)
            await h.settle()
            assert live.game.turn > before or not live.running
            continue
        await play_turn(live, member, use_panel=member is alice)

    assert restarted and timed_out
    # both ways of playing were used: Alice's panel (pick, place, buttons), Bob's slash commands
    alice_verbs = {text.split()[0] for name, text in live.command_log if name == "alice"}
    bob_verbs = {text.split()[0] for name, text in live.command_log if name == "bob"}
    assert {"pick", "place", "done"} <= alice_verbs
    assert "arrange" in bob_verbs or "draw" in bob_verbs
    channel_text = "\n".join(
        text for m in fake.channel_messages(h.channel_id) for text in m.all_texts()
    )
    assert "Rummikub! " in channel_text or "lowest rack" in channel_text
    assert "The match is over. Winner:" in channel_text

    # one table message, edited in place on every committed turn, saying whose turn it is
    (table,) = live.table_messages()
    assert len(table.versions) > 10
    assert sum("to play" in text and "left" in text for text in table.all_texts()) > 10
    turn_calls = [m for m in fake.channel_messages(h.channel_id) if "it's your turn" in m.text]
    assert turn_calls
    for call in turn_calls:
        mentioned = [int(u) for u in call.allowed_mentions["users"]]  # type: ignore[index]
        assert len(mentioned) == 1 and f"<@{mentioned[0]}>" in call.text

    # DMs: Alice got her rack and panels by DM; Bob, who refuses DMs, was told once
    alice_dms = [text for m in fake.dms_to(alice.id) for text in m.all_texts()]
    assert any(text.startswith("Your rack (14)") for text in alice_dms)
    assert any(text.startswith("Your turn") for text in alice_dms)
    assert not fake.dms_to(bob.id)
    notices = [m for m in fake.channel_messages(h.channel_id) if "direct messages" in m.text]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].text

    # every interaction was acknowledged once and in time
    interactions = list(fake.interactions.values())
    assert all(not i.errors for i in interactions)
    assert max(i.acked_after or 0.0 for i in interactions) < 1.0

    assert_no_rack_leaks(live, [alice, bob, carol])


def assert_no_rack_leaks(live: Live, members: list[Member]) -> None:
    """Nobody ever saw a rack, draft or panel meant for someone else: not its text, not its
    images. Channel messages never carry a rack at all."""
    fake = live.fake
    channel = {live.h.channel_id}
    for message in fake.channel_messages(live.h.channel_id):
        for text in message.all_texts():
            assert "Your rack" not in text
        assert not message.selects()
        assert all(
            name == "table.png" or name.startswith("standings")
            for name, _ in all_attachments(message)
        )
    for viewer in members:
        seen = fake.visible_to(viewer.id, channel)
        texts = {text for m in seen for text in m.all_texts()}
        images = {data for m in seen for _, data in all_attachments(m)}
        for reply in live.private_log:
            assert reply.private_to is not None
            if reply.private_to.user_id == str(viewer.id):
                continue
            if reply.slot in ("rack", "panel"):
                assert reply.text not in texts
            for image in reply.images:
                assert image.png not in images


async def test_not_your_turn_and_not_seated_are_answered_privately(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    current = humans[seat_player.user_id]
    other = bob if current is alice else alice
    turn = live.game.turn
    outcome = await h.slash(other, "done")
    assert outcome.public == []
    assert outcome.text_for(other.id) == (f"It is not your turn; it is {current.user.name}'s turn.")
    assert live.game.turn == turn
    carol = h.member("carol")  # in the channel, not at the table
    outcome = await h.slash(carol, "draw")
    assert outcome.public == []
    assert outcome.text_for(carol.id) == "You are not seated at this table."
    assert live.game.turn == turn


async def test_a_double_click_on_done_commits_the_turn_once(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    member = humans[seat_player.user_id]
    panel = live.panel_of(member)
    assert panel is not None
    rack_before = len(live.game.players[live.game.current].rack)
    seat = live.game.current
    outcome = await h.double_click(member, panel, "Done")
    # nothing was played, so Done draws: exactly one tile, one announcement
    assert len(live.game.players[seat].rack) == rack_before + 1
    drew = [m for m in outcome.public if m.text == f"{member.user.name} drew a tile."]
    assert len(drew) == 1
    second = outcome.others[0]
    assert second.response_type == 6 and not second.errors
    answers = [m for m in fake.ephemerals_to(member.id) if "turn is already over" in m.text]
    assert len(answers) == 1


async def test_dm_refused_shows_the_rack_with_a_button(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    fake.refuse_dm.add(bob.id)
    await live.start(alice, bob)
    (notice,) = [m for m in fake.channel_messages(h.channel_id) if "direct messages" in m.text]
    assert "Your rack" not in notice.text
    outcome = await h.click(bob, notice, "Show my rack")
    (rack,) = outcome.private
    assert rack.audience == ("ephemeral", bob.id)
    bob_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(bob.id))
    )
    assert bob_seat is not None
    expected = sorted(str(t) for t in live.game.players[bob_seat].rack)
    assert rack.text.startswith(f"Your rack ({len(expected)}): ")
    assert sorted(rack.text.split(": ", 1)[1].split(" New:")[0].split()) == expected
    assert [a.filename for a in rack.attachments] == ["rack.png"]
    assert not fake.dms_to(bob.id)


async def test_buttons_from_before_a_restart_still_work(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    (table,) = live.table_messages()
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    current = humans[seat_player.user_id]
    other = bob if current is alice else alice
    old_panel = live.panel_of(current)
    assert old_panel is not None
    turn = live.game.turn

    await live.restart()

    # a button on the public table message, pressed after the restart
    outcome = await h.click(other, table, "Status")
    assert f"turn {turn}" in outcome.text_for(other.id)
    # the current player's panel from before the restart still plays the turn
    outcome = await h.click(current, old_panel, "Draw")
    assert live.game.turn > turn
    # that panel is now stale (its turn is over): pressing it gets a clear answer, no change
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None and seat_player.user_id == str(other.id)
    now = live.game.turn
    outcome = await h.click(current, old_panel, "Done")
    assert outcome.text_for(current.id) == "That turn is already over; nothing was changed."
    assert live.game.turn == now
    # a component in a format this version does not know
    outcome = await h.press(current, table, "rummikub-v0:status", 2)
    assert outcome.text_for(current.id) == TEXT_STALE_BUTTON


async def test_a_rack_larger_than_25_tiles_pages_the_tile_select(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await h.slash(alice, "start", games=1)
    await h.click(bob, live.lobby(), "Join")
    await h.slash(alice, "manage settings", setting="rack_size", value="20")
    await h.click(alice, live.lobby(), "Deal")
    humans = {str(alice.id): alice, str(bob.id): bob}
    alice_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(alice.id))
    )
    assert alice_seat is not None
    while len(live.game.players[alice_seat].rack) <= 25:
        seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
        assert seat_player is not None
        await h.slash(humans[seat_player.user_id], "draw")
    if live.game.current != alice_seat:
        await h.slash(bob, "draw")
    outcome = await h.slash(alice, "rack")
    size = len(live.game.players[alice_seat].rack)
    assert outcome.text_for(alice.id).startswith(f"Your rack ({size})")
    panel = live.panel_of(alice)
    assert panel is not None and panel.row_count() <= 5
    pick_pages = [s for s in panel.selects() if s["custom_id"].split(":", 4)[4] == "pick"]
    assert [len(s["options"]) for s in pick_pages] == [25, size - 25]
    assert all(s["max_values"] == len(s["options"]) for s in pick_pages)
    late_tile = pick_pages[1]["options"][0]["value"]
    await h.choose(alice, panel, [late_tile], select_index=1)
    assert f"Selected: {late_tile}" in panel.text


async def test_an_admin_cancels_and_a_plain_member_cannot(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    dave = h.member("dave")
    moderator = h.member("mod", manage_channels=True)
    await live.start(alice, bob)
    outcome = await h.slash(dave, "manage cancel")
    assert outcome.text_for(dave.id) == "Only the host or a channel admin can do that."
    assert live.running
    outcome = await h.slash(bob, "manage cancel")  # seated, but not the host
    assert outcome.text_for(bob.id) == "Only the host or a channel admin can do that."
    outcome = await h.slash(moderator, "manage cancel")
    assert live.running  # it asks first
    (asked,) = outcome.private
    await h.click(moderator, asked, "Cancel the game")
    assert not live.running
    (table,) = live.table_messages()
    assert table.text == "The game was cancelled by mod."
    assert not table.buttons() and not table.attachments


async def test_leave_and_cancel_ask_first_on_discord_and_say_what_happened(
    live: Live, fake: FakeDiscord
) -> None:
    """Issue 21, defect 1, through the real discord.py client: the question is ephemeral,
    with a button that confirms and one that keeps playing; the slash command's confirm
    option is the typed answer; only the answer acts."""
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    carol = h.member("carol")  # watches the channel
    await live.start(alice, bob)
    outcome = await h.slash(alice, "manage cancel")
    (asked,) = outcome.private
    assert asked.audience == ("ephemeral", alice.id) and not outcome.public
    assert asked.text.startswith("Cancelling ends this game for everyone at the table")
    assert "type cancel yes, within 2m 00s" in asked.text
    assert [b["label"] for b in asked.buttons()] == ["Cancel the game", "Keep playing"]
    await h.click(alice, asked, "Keep playing")
    assert live.running
    assert "Nothing was changed; the game goes on." in [
        m.text for m in fake.visible_to(alice.id, set())
    ]

    outcome = await h.slash(bob, "leave")  # alice still plays: an AI takes bob's seat at once
    said = [m.text for m in outcome.public]
    assert "bob left; an AI (medium) plays their seat from now on." in said
    assert not any("lobby" in text for text in said)
    outcome = await h.slash(alice, "leave")  # the last person: asks
    (asked,) = outcome.private
    assert asked.text.startswith("You are the last person at this table, so leaving ends")
    assert live.running
    outcome = await h.slash(alice, "leave", confirm=True)  # the typed answer
    assert not live.running
    (table,) = live.table_messages()
    assert (
        table.text == "alice left, the last person at the table: the game is over, with no result."
    )
    seen = [m.text for m in fake.visible_to(carol.id, set())]
    assert not any("Cancelling ends" in text or "You are the last person" in text for text in seen)


async def test_autocomplete_offers_the_invokers_rack_and_the_tables_melds(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    alice_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(alice.id))
    )
    assert alice_seat is not None
    rack = {str(t) for t in live.game.players[alice_seat].rack}
    choices = await h.autocomplete(alice, "play", "tiles", tiles="")
    assert choices and {c["value"] for c in choices} <= rack
    assert {c["value"] for c in choices} == rack or len(choices) == 25
    melds = live.game.table
    choices = await h.autocomplete(alice, "play", "to", tiles="R5", to="")
    assert choices[0] == {"name": "new meld", "value": "new"}
    assert len(choices) == 1 + min(len(melds), 24)
