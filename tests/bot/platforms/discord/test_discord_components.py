"""The Discord adapter's buttons and selects: restart-proof custom ids that edit their message
in place, paged selects, duplicate values, Discord's 100-character id limit."""

from __future__ import annotations

import dataclasses

import pytest

from bot.api import Button, ChannelRef, PlayerRef, Reply, Select, SelectOption
from bot.commands import read_command
from bot.platforms.discord.client import RummikubBot
from bot.platforms.discord.components import build_view
from bot.platforms.discord.ids import decode_values, make_custom_id
from bot.platforms.discord.sender import TEXT_STALE_BUTTON
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord_api import DiscordHarness, FakeDiscord

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


async def test_buttons_work_after_a_restart_and_edit_their_message_in_place(
    fake: FakeDiscord,
) -> None:
    h = DiscordHarness(fake)
    alice, bob = h.member("alice"), h.member("bob")
    first = ScriptedService()
    await h.login(RummikubBot(first))
    await h.slash(alice, "start")
    lobby = fake.channel_messages(h.channel_id)[0]
    await h.close()

    second = ScriptedService()  # a new process: nothing in memory
    second.seats = list(first.seats)
    await h.login(RummikubBot(second))
    try:
        outcome = await h.click(bob, lobby, "Join")
        assert [c.text for c in second.calls] == ["join"]
        assert lobby in outcome.public
        assert lobby.text == "Lobby: alice, bob"
        assert len(fake.channel_messages(h.channel_id)) == 1
        # a component from some older message format gets a clear answer, not silence
        outcome = await h.press(bob, lobby, "legacy-join-button", 2)
        assert outcome.text_for(bob.id) == TEXT_STALE_BUTTON
    finally:
        await h.close()


async def test_a_rack_over_25_tiles_is_split_into_select_pages(
    fake: FakeDiscord,
) -> None:
    service = ScriptedService(rack_size=40)
    h = DiscordHarness(fake)
    await h.login(RummikubBot(service))
    alice = h.member("alice")
    try:
        outcome = await h.slash(alice, "hint")
        (panel,) = outcome.private
        selects = panel.selects()
        assert [len(s["options"]) for s in selects] == [25, 15, 1]
        assert panel.row_count() == 5
        values = [o["value"] for s in selects[:2] for o in s["options"]]
        assert len(values) == len(set(values)) == 40
        assert [b["label"] for b in panel.buttons()] == [
            "Place", "Auto", "Undo", "Reset", "Draw", "Done",
        ]  # fmt: skip
        # tiles 21-40 are second copies (K1#1 ...): pick two of them on the second page
        first, second = (o["value"] for o in selects[1]["options"][:2])
        outcome = await h.choose(alice, panel, [first, second], select_index=1)
        assert service.calls[-1].text == f"pick {first} {second}"
        assert outcome.private == [panel]  # updated in place, still private
        assert len(panel.versions) == 3  # placeholder, first panel, updated panel
        defaults = [o["value"] for o in panel.selects()[1]["options"] if o.get("default")]
        assert defaults == [first, second]
        # Discord then reports the whole selection; unticking one sends just that change,
        # because "pick" toggles
        await h.choose(alice, panel, [first], select_index=1)
        assert service.calls[-1].text == f"pick {second}"
        defaults = [o["value"] for o in panel.selects()[1]["options"] if o.get("default")]
        assert defaults == [first]
    finally:
        await h.close()


async def test_the_turn_panel_updates_in_place_after_each_button(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    alice = harness.member("alice")
    (panel,) = (await harness.slash(alice, "hint")).private
    for label in ("Place", "Undo"):
        outcome = await harness.click(alice, panel, label)
        assert outcome.touched == [panel]
        assert panel.audience == ("ephemeral", alice.id)
        assert panel.text.startswith(f"Your draft. {label.lower()}")
        assert [a.filename for a in panel.attachments] == ["draft.png"]
    assert [c.text for c in service.calls] == ["hint", "place", "undo"]


def test_duplicate_select_values_are_made_unique_and_read_back_plain() -> None:
    channel = ChannelRef("discord", "42")
    options = tuple(SelectOption("R5", "R5") for _ in range(3))
    view = build_view(Reply(channel, "x", selects=(Select("pick", "Pick", options, 0, 3),)))
    assert view is not None
    (select,) = view.children
    values = [o.value for o in select.item.options]  # type: ignore[attr-defined]
    assert values == ["R5", "R5~1", "R5~2"]
    assert decode_values(values) == ["R5", "R5", "R5"]


def test_custom_ids_leave_room_for_commands_and_a_too_long_one_drops_only_its_button() -> None:
    channel = ChannelRef("discord", str(2**63 - 1))  # the largest snowflake
    assert len(make_custom_id("rk", "panel", channel.chat_id, 24, "")) <= 28
    long_command = "auto " + " ".join(["R10#1"] * 20)
    reply = Reply(
        channel,
        "panel",
        buttons=((Button("Auto", long_command), Button("Done", "done")),),
        slot="panel",
    )
    view = build_view(reply)
    assert view is not None
    assert [item.item.label for item in view.children] == ["Done"]  # type: ignore[attr-defined]


# --- the turn a button was made for (issue 26, defect 6) ---------------------------------------


class TurnPanel(ScriptedService):
    """``panel`` answers with a turn panel whose buttons were made for turn 7."""

    def panel(self, channel: ChannelRef, player: PlayerRef, note: str) -> Reply:
        made = super().panel(channel, player, note)
        rows = tuple(tuple(dataclasses.replace(b, turn=7) for b in row) for row in made.buttons)
        return dataclasses.replace(made, buttons=rows)


async def test_a_button_made_for_turn_7_hands_the_service_command_turn_7(
    fake: FakeDiscord,
) -> None:
    service = TurnPanel()
    h = DiscordHarness(fake)
    alice = h.member("alice")
    await h.login(RummikubBot(service))
    try:
        outcome = await h.slash(alice, "hint")  # the scripted service's panel
        (panel,) = [m for m in outcome.private if m.buttons()]
        assert ":7t7:done" in panel.button("Done")["custom_id"]
        await h.click(alice, panel, "Done")
        await h.choose(alice, panel, ["K1"])  # selects carry no turn
        typed, clicked, chosen = service.commands
        assert (typed.verb, typed.turn) == ("hint", None)
        assert (clicked.verb, clicked.turn) == ("done", 7)
        assert clicked == dataclasses.replace(read_command("done"), turn=7)  # read once
        assert (chosen.text, chosen.turn) == ("pick K1", None)
    finally:
        await h.close()


async def test_a_button_id_from_before_turns_still_decodes(fake: FakeDiscord) -> None:
    """A panel posted by an older version, still in a channel after an upgrade."""
    service = ScriptedService()
    h = DiscordHarness(fake)
    alice = h.member("alice")
    await h.login(RummikubBot(service))
    try:
        outcome = await h.slash(alice, "hint")
        (panel,) = [m for m in outcome.private if m.buttons()]
        old_id = make_custom_id("rk", "panel", str(h.channel_id), 7, "done")
        assert old_id == panel.button("Done")["custom_id"]  # today's ids without a turn
        assert old_id.endswith(":7:done")
        await h.press(alice, panel, old_id, 2)
        assert (service.commands[-1].verb, service.commands[-1].turn) == ("done", None)
    finally:
        await h.close()


def test_a_custom_id_with_its_turn_fits_discord_s_100_characters() -> None:
    chan = str(2**63 - 1)  # the largest snowflake
    longest = [
        "leaderboard wins",
        "notify off",
        "sort colour",
        "kick 6 yes",
        "cancel yes",
        "auto " + " ".join(f"R{n}" for n in range(1, 14)),  # a whole run selected
    ]
    for command in longest:
        custom_id = make_custom_id("rk", "panel", chan, 24, command, turn=99_999)
        assert len(custom_id) <= 100, custom_id
    # the room left for a command with a five-digit turn in the widest position
    assert len(make_custom_id("rk", "panel", chan, 24, "", turn=99_999)) <= 28


def test_a_command_too_long_with_its_turn_keeps_its_button_without_the_turn() -> None:
    channel = ChannelRef("discord", str(2**63 - 1))
    command = "auto " + " ".join(["R10#1"] * 12)  # fits alone, not with the turn
    assert len(make_custom_id("rk", "panel", channel.chat_id, 1, command)) <= 100
    reply = Reply(
        channel,
        "panel",
        buttons=((Button("Done", "done", turn=12345), Button("Auto", command, turn=12345)),),
        slot="panel",
    )
    view = build_view(reply)
    assert view is not None
    ids = [item.item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids[0].endswith(":0t12345:done")
    assert ids[1].endswith(f":1:{command}")
