"""Where Discord messages go (issue 15): new lobbies at the bottom, the table and DMs found by
their stored ids (never by reading the channel's history), stale subcommands answered.

The real GameManager on a SQLite file behind the real discord.py client, against the fake
Discord API, as in test_discord_game.py.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.bot.platforms.discord.playing import Live, labels, play_turn
from tests.fakes.discord_api import FakeDiscord, FakeMessage, snowflake

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def newest(fake: FakeDiscord, channel_id: int) -> FakeMessage:
    return max(fake.channel_messages(channel_id), key=lambda m: m.id)


def history_reads(fake: FakeDiscord, channel_id: int) -> list[object]:
    return [
        r
        for r in fake.requests_matching("GET", f"/channels/{channel_id}/messages")
        if r.path.rstrip("/").endswith("/messages")
    ]


# --- defect 6: a new lobby is a new message at the bottom ---------------------------------------


async def test_a_new_lobby_after_a_cancel_is_a_new_message_and_deals_a_new_table(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    moderator = h.member("mod", manage_channels=True)
    await h.slash(alice, "start", games=1)
    old_lobby = live.lobby()
    await h.click(bob, old_lobby, "Join")
    await h.click(alice, old_lobby, "Deal")
    (old_table,) = live.table_messages()
    for i in range(8):  # the channel talks on
        fake.post_as(bob.user, h.channel_id, f"chatter {i}")
    await h.slash(moderator, "manage cancel")  # asks first (issue 21): the typed answer
    await h.slash(moderator, "manage cancel", confirm=True)
    assert old_table.text == "The game was cancelled by mod."

    await h.slash(alice, "start", games=1)
    lobby = newest(fake, h.channel_id)
    assert lobby.id != old_lobby.id and "Join" in labels(lobby)
    assert old_lobby.text.startswith("Lobby") and "Join" not in labels(old_lobby)
    await h.click(bob, lobby, "Join")
    assert "bob" in lobby.text
    await h.click(alice, lobby, "Deal")
    tables = live.table_messages()
    assert len(tables) == 2 and tables[0].id == old_table.id
    assert old_table.text == "The game was cancelled by mod."  # left as it was
    assert tables[1].id > lobby.id  # the new table is below the new lobby


# --- defect 7: the table and DMs found by stored id after a restart -----------------------------


async def test_a_restart_late_in_a_game_edits_the_table_and_dms_by_their_stored_ids(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    (table,) = live.table_messages()
    humans = {str(alice.id): alice, str(bob.id): bob}

    async def play(turns: int) -> None:
        for _ in range(turns):
            seat = live.manager.tables[live.key].seats[live.game.current]  # type: ignore[union-attr]
            assert seat.player is not None
            await play_turn(live, humans[seat.player.user_id], use_panel=False)

    await play(3)  # by now each player has had a rack and a panel by DM
    for i in range(60):  # the table is now more than 50 messages up the channel
        fake.post_as(bob.user, h.channel_id, f"chatter {i}")
    dms_before = {m.id for m in fake.dms_to(alice.id)} | {m.id for m in fake.dms_to(bob.id)}
    versions = len(table.versions)
    reads = len(history_reads(fake, h.channel_id))

    await live.restart()
    await play(3)

    assert live.table_messages() == [table]  # no second table
    assert len(table.versions) > versions  # the stored one was edited
    assert len(history_reads(fake, h.channel_id)) == reads  # and never searched for
    dms_after = {m.id for m in fake.dms_to(alice.id)} | {m.id for m in fake.dms_to(bob.id)}
    assert dms_after == dms_before, "racks are edited in place, not sent again"


# --- defect 8: stale subcommands and the lobby's seat list -------------------------------------


async def test_a_subcommand_from_an_older_registration_gets_a_private_answer(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice = h.member("alice")
    interaction = fake.register_interaction(2, alice.id, h.channel_id)
    payload = h._base(2, alice, interaction, h.channel_id) | {
        "data": {
            "id": str(snowflake()),
            "name": "rummikub",
            "type": 1,
            "options": [{"name": "shuffle", "type": 1, "options": []}],
        }
    }
    outcome = await h._inject(payload, interaction)
    assert outcome.text_for(alice.id) == t("en", "stale_command")
    assert all(m.audience == ("ephemeral", alice.id) for m in outcome.private)
    assert not outcome.public


async def test_the_lobby_keeps_its_seat_list_after_join_and_add_ai(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await h.slash(alice, "start", games=1)
    lobby = live.lobby()
    await h.click(bob, lobby, "Join")
    assert "1. alice" in lobby.text and "2. bob" in lobby.text, lobby.text
    await h.click(alice, lobby, "Add AI")
    assert "2. bob" in lobby.text and "3. AI 1" in lobby.text, lobby.text
