"""The Discord adapter's buttons and selects: restart-proof custom ids that edit their message
in place, paged selects, duplicate values, Discord's 100-character id limit."""

from __future__ import annotations

import pytest

from bot.api import Button, ChannelRef, Reply, Select, SelectOption
from bot.platforms.discord.client import RummikubBot
from bot.platforms.discord.components import build_view
from bot.platforms.discord.ids import decode_values, make_custom_id
from bot.platforms.discord.sender import TEXT_STALE_BUTTON
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord import DiscordHarness, FakeDiscord

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
