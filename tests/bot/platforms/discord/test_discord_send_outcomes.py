"""What the Discord adapter tells the service about each send that carried outbox entries
(issue 26, defect 4): delivered when Discord accepted it, refused for good (the outbox gives
up at once), failed for now (the outbox sends it again later). The fake answers as Discord
does: 403 50007 to a DM the user refuses, 403 50001 once the bot was removed, 404 10003 for a
channel that is gone, 404 10008 for a message that is gone, 503, 429 after every retry, a
dropped connection."""

from __future__ import annotations

import dataclasses

import pytest

from bot.api import ChannelRef, PlayerRef, Reply, Sent
from bot.commands import Command
from bot.platforms.discord.sender import outcome_of
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord_api import DiscordHarness, FakeDiscord

# aiohttp's own multipart reader (inside the fake server) trips this deprecation.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


class Announcing(ScriptedService):
    """Every reply carries an outbox entry, as a stored turn's replies do (this module's
    ``service``: the harness runs the bot over it)."""

    async def handle(  # type: ignore[override]
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        replies = await super().handle(player, channel, text, admin=admin)
        return [dataclasses.replace(r, delivers=(f"entry-{i}",)) for i, r in enumerate(replies)]


@pytest.fixture
async def service() -> ScriptedService:
    return Announcing()


def news(harness: DiscordHarness, key: str = "turn-1", **fields: object) -> Reply:
    """A stored turn's announcement, as the outbox hands it to the adapter."""
    channel = ChannelRef("discord", str(harness.channel_id))
    return dataclasses.replace(Reply(channel, "Alice played R5 R6 R7."), delivers=(key,), **fields)


async def announce(service: ScriptedService, reply: Reply) -> None:
    assert service.outbox is not None
    await service.outbox(reply)


async def test_a_send_discord_accepted_is_reported_delivered(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    await announce(service, news(harness))
    assert [m.text for m in fake.channel_messages(harness.channel_id)] == ["Alice played R5 R6 R7."]
    assert service.reported == [("turn-1", Sent.DELIVERED)]


async def test_a_dm_the_user_refuses_is_reported_refused(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    bob = harness.member("bob")
    fake.refuse_dm.add(bob.id)
    to_bob = PlayerRef("discord", str(bob.id), "bob")
    await announce(service, news(harness, private_to=to_bob, slot="rack"))
    assert [r.status for r in fake.requests_matching("POST", "/messages")][:1] == [403]
    assert not fake.dms_to(bob.id)
    assert service.reported == [("turn-1", Sent.REFUSED)]
    # the DM is not tried again for a while: still refused, and said so at once
    await announce(service, news(harness, "turn-2", private_to=to_bob, slot="rack"))
    assert service.reported[-1] == ("turn-2", Sent.REFUSED)


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        (404, 10003, "Unknown Channel"),
        (403, 50001, "Missing Access"),
        (403, 50013, "Missing Permissions"),
    ],
)
async def test_a_channel_the_bot_lost_is_reported_refused(
    harness: DiscordHarness,
    fake: FakeDiscord,
    service: ScriptedService,
    status: int,
    code: int,
    message: str,
) -> None:
    fake.fail_next("POST", f"/channels/{harness.channel_id}/messages", status, code, message)
    await announce(service, news(harness))
    assert not fake.channel_messages(harness.channel_id)
    assert service.reported == [("turn-1", Sent.REFUSED)]


async def test_a_server_error_is_reported_failed(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    fake.fail_next("POST", f"/channels/{harness.channel_id}/messages", 503)
    await announce(service, news(harness))
    assert service.reported == [("turn-1", Sent.FAILED)]
    await announce(service, news(harness))  # sent again later: it arrives
    assert service.reported[-1] == ("turn-1", Sent.DELIVERED)
    assert len(fake.channel_messages(harness.channel_id)) == 1


async def test_a_429_left_after_discord_py_s_retries_is_reported_failed(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    fake.rate_limit_next("POST", f"/channels/{harness.channel_id}/messages", times=5)
    await announce(service, news(harness))
    assert fake.sent_429 == 5
    assert not fake.channel_messages(harness.channel_id)
    assert service.reported == [("turn-1", Sent.FAILED)]


async def test_a_dropped_connection_is_reported_failed(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    fake.drop_next("POST", f"/channels/{harness.channel_id}/messages")
    await announce(service, news(harness))
    assert not fake.channel_messages(harness.channel_id)
    assert service.reported == [("turn-1", Sent.FAILED)]


def test_a_timeout_counts_as_failed_for_now() -> None:
    assert outcome_of(TimeoutError()) is Sent.FAILED


async def test_a_clicked_message_gone_before_its_edit_is_reported_refused(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    alice, bob = harness.member("alice"), harness.member("bob")
    await harness.slash(alice, "start")
    (lobby,) = fake.channel_messages(harness.channel_id)
    service.reported.clear()
    # the lobby is deleted while bob's click is on its way: nothing is left to edit
    fake.fail_next("PATCH", "/webhooks/", 404, 10008, "Unknown Message")
    await harness.click(bob, lobby, "Join")
    assert service.reported == [("entry-0", Sent.REFUSED), ("entry-1", Sent.DELIVERED)]
