"""Where the Discord adapter's replies go, driven through real discord.py against the fake API
with a scripted service: ephemeral or public, racks by DM and the DM-refused fallback, rate
limits and missing permissions, the outbox, long text, the adapter's own sentences."""

from __future__ import annotations

import pytest

from bot.api import ChannelRef, PlayerRef, Reply
from bot.i18n import t
from bot.platforms.discord.client import RummikubBot
from bot.platforms.discord.sender import TEXT_NO_POST, TEXT_STALE_BUTTON
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord_api import DiscordHarness, FakeDiscord

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


async def test_private_reply_is_ephemeral_and_public_reply_goes_to_the_channel(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice = harness.member("alice")
    outcome = await harness.slash(alice, "start")
    (lobby,) = outcome.public
    assert lobby.text.startswith("Lobby: alice")
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Add AI", "Deal"]
    # the "thinking" placeholder is gone once the public answer is out
    assert not fake.ephemerals_to(alice.id)
    outcome = await harness.slash(alice, "status")
    (answer,) = outcome.private
    assert answer.audience == ("ephemeral", alice.id)
    assert answer.text == "echo status"
    assert not outcome.public
    assert outcome.interaction.errors == []


async def test_racks_go_by_dm_and_never_to_anyone_else(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    alice, bob, carol = harness.member("alice"), harness.member("bob"), harness.member("carol")
    await harness.slash(alice, "start")
    lobby = fake.channel_messages(harness.channel_id)[0]
    await harness.click(bob, lobby, "Join")
    outcome = await harness.click(alice, lobby, "Deal")
    assert "SECRET-RACK-OF-alice" in fake.dms_to(alice.id)[-1].text
    assert "SECRET-RACK-OF-bob" in fake.dms_to(bob.id)[-1].text
    table = next(m for m in outcome.public if m.attachments)
    assert f"<@{alice.id}>" in table.text
    assert table.allowed_mentions == {"parse": [], "users": [alice.id]}
    for viewer in (alice, bob, carol):
        seen = "\n".join(
            "\n".join(m.all_texts()) for m in fake.visible_to(viewer.id, {harness.channel_id})
        )
        for owner in (alice, bob):
            if owner is not viewer:
                assert f"SECRET-RACK-OF-{owner.user.name}" not in seen


async def test_dm_refused_falls_back_to_a_show_my_rack_button_and_says_so_once(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice, bob = harness.member("alice"), harness.member("bob")
    fake.refuse_dm.add(bob.id)
    await harness.slash(alice, "start")
    lobby = fake.channel_messages(harness.channel_id)[0]
    await harness.click(bob, lobby, "Join")
    outcome = await harness.click(alice, lobby, "Deal")
    notices = [m for m in outcome.public if "can't send you direct messages" in m.text]
    assert len(notices) == 1
    notice = notices[0]
    assert f"<@{bob.id}>" in notice.text
    assert "SECRET-RACK-OF-bob" not in notice.text
    assert fake.requests_matching("POST", "/messages")  # the DM was really tried
    # a second deal changes racks again: no second notice
    outcome = await harness.click(alice, lobby, "Deal")
    assert not [m for m in outcome.public if "direct messages" in m.text]
    # the fallback button shows bob his rack, privately
    outcome = await harness.click(bob, notice, "Show my rack")
    (private,) = outcome.private
    assert private.audience == ("ephemeral", bob.id)
    assert "SECRET-RACK-OF-bob" in private.text
    # and if it is his own command that changes the rack, he sees it at once
    outcome = await harness.slash(bob, "rack")
    assert "SECRET-RACK-OF-bob" in outcome.text_for(bob.id)


async def test_a_429_is_waited_out_and_the_message_still_arrives(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice = harness.member("alice")
    fake.rate_limit_next("POST", f"/channels/{harness.channel_id}/messages")
    outcome = await harness.slash(alice, "start")
    assert fake.sent_429 == 1
    assert [m.text for m in outcome.public] == ["Lobby: alice"]
    posts = fake.requests_matching("POST", f"/channels/{harness.channel_id}/messages")
    assert [r.status for r in posts] == [429, 200]


async def test_missing_channel_permission_is_explained_and_the_answer_still_shown(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice = harness.member("alice")
    fake.forbidden_channels.add(harness.channel_id)
    outcome = await harness.slash(alice, "start")
    assert outcome.text_for(alice.id) == TEXT_NO_POST
    shown = [m for m in outcome.public if m.text == "Lobby: alice"]
    assert len(shown) == 1 and shown[0].buttons()


async def test_outbox_replies_reach_channel_and_dm(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    alice = harness.member("alice")
    player = PlayerRef("discord", str(alice.id), "alice")
    channel = ChannelRef("discord", str(harness.channel_id))
    assert service.outbox is not None
    await service.outbox(Reply(channel, "The AI played B1 B2 B3.", slot="table"))
    await service.outbox(Reply(channel, "Your turn.", private_to=player))
    await harness.settle()
    assert [m.text for m in fake.channel_messages(harness.channel_id)] == [
        "The AI played B1 B2 B3."
    ]
    assert [m.text for m in fake.dms_to(alice.id)] == ["Your turn."]
    await service.outbox(Reply(channel, "The AI drew.", slot="table"))
    assert [m.text for m in fake.channel_messages(harness.channel_id)] == ["The AI drew."]


async def test_a_long_slot_message_stays_one_editable_message(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    channel = ChannelRef("discord", str(harness.channel_id))
    assert service.outbox is not None
    await service.outbox(Reply(channel, "meld " * 600, slot="table"))
    (message,) = fake.channel_messages(harness.channel_id)
    assert message.content == ""
    assert message.embeds[0]["description"] == "meld " * 600
    await service.outbox(Reply(channel, "short again", slot="table"))
    assert fake.channel_messages(harness.channel_id) == [message]
    assert message.content == "short again" and message.embeds == []


async def test_long_text_is_split_into_several_messages(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice = harness.member("alice")
    outcome = await harness.slash(alice, "help", topic="long")
    parts = outcome.public
    assert len(parts) == 4  # 120 lines of 51 characters: 39 lines fit in 2000
    assert all(len(m.content) <= 2000 for m in parts)
    joined = "".join(m.content for m in parts)
    assert joined.count("line ") == 120 and joined.startswith("line 0000")


async def test_outbox_ignores_other_platforms(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    assert service.outbox is not None
    await service.outbox(Reply(ChannelRef("telegram", "-100123"), "Telegram news"))
    assert not fake.requests_matching("POST", "/messages")


class PolishService(ScriptedService):
    """A service whose channels speak Polish (``GameManager.language`` does this for real)."""

    async def language(self, channel: ChannelRef) -> str:
        return "pl"


async def test_the_adapter_s_own_sentences_follow_the_channel_language(
    fake: FakeDiscord,
) -> None:
    h = DiscordHarness(fake)
    alice, bob = h.member("alice"), h.member("bob")
    fake.refuse_dm.add(bob.id)
    await h.login(RummikubBot(PolishService()))
    try:
        await h.slash(alice, "start")
        lobby = fake.channel_messages(h.channel_id)[0]
        await h.click(bob, lobby, "Join")
        outcome = await h.click(alice, lobby, "Deal")
        (notice,) = [m for m in outcome.public if "nie mogę wysyłać ci" in m.text]
        assert notice.text.startswith(f"<@{bob.id}>, nie mogę wysyłać ci prywatnych wiadomości")
        outcome = await h.click(bob, notice, "Pokaż mój stojak")
        assert "SECRET-RACK-OF-bob" in outcome.private[0].text
        outcome = await h.press(bob, lobby, "legacy-join-button", 2)
        assert outcome.text_for(bob.id) == t("pl", "stale_button") != TEXT_STALE_BUTTON
    finally:
        await h.close()
