"""Issue 26, defect 4 (adapter side): what Telegram said to each paced send is reported for the
outbox entries it carried: accepted -> DELIVERED (a merged news message for every line in it),
refused for good (blocked, chat not found, bot kicked) -> REFUSED, failed for now (5xx, a
dropped connection, 429 beyond the pacing's patience) -> FAILED. Through the fake Bot API,
which answers as the Bot API does."""

from __future__ import annotations

import pytest

from bot.api import ChannelRef, PlayerRef, Reply, Sent
from bot.platforms.telegram.pacing import Limits
from tests.bot.doubles import StandIn
from tests.bot.platforms.telegram.conftest import StartAdapter
from tests.bot.platforms.telegram.support import ANN, GROUP
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

CHANNEL = ChannelRef("telegram", str(GROUP))
IMPATIENT = Limits(retries=1, backoff=0.02, max_backoff=0.05, retry_after_retries=1)


async def started(start_adapter: StartAdapter) -> StandIn:
    service = StandIn()
    await start_adapter(service, limits=IMPATIENT)
    assert service.outbox is not None
    return service


async def test_an_accepted_send_is_reported_delivered_for_every_line_merged_into_it(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    lines = [Reply(CHANNEL, f"Line {i}.", delivers=(f"k{i}",)) for i in range(3)]
    await service.outbox.many(lines)  # type: ignore[attr-defined]
    (message,) = fake.chat_messages(GROUP)
    assert message.text == "Line 0.\nLine 1.\nLine 2."
    assert service.reported == [(f"k{i}", Sent.DELIVERED) for i in range(3)]


async def test_a_group_that_removed_the_bot_refuses_for_good(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    fake.kick_bot(GROUP)
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("kicked",)))
    (call,) = [c for c in fake.calls if c.method == "sendMessage"]
    assert (call.status, call.error) == (403, "Forbidden: bot was kicked from the supergroup chat")
    assert service.reported == [("kicked", Sent.REFUSED)]


async def test_a_chat_that_is_gone_refuses_for_good(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    fake.forget_chat(GROUP)
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("gone",)))
    assert service.reported == [("gone", Sent.REFUSED)]


async def test_a_player_who_blocked_the_bot_refuses_their_private_reply_for_good(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    ann = PlayerRef("telegram", str(ANN), "Ann")
    fake.block(ANN)
    await service.outbox(Reply(CHANNEL, "Your rack: R5", private_to=ann, delivers=("rack",)))
    assert service.reported == [("rack", Sent.REFUSED)]
    # Sent again, it is not tried: Telegram already said no (the group got a link instead).
    await service.outbox(Reply(CHANNEL, "Your rack: R6", private_to=ann, delivers=("again",)))
    assert service.reported[-1] == ("again", Sent.REFUSED)
    assert [c.chat_id for c in fake.calls if c.method == "sendMessage"].count(ANN) == 1
    await fake.wait_message(GROUP, lambda m: "Ann, I can't send you" in (m.text or ""))


async def test_server_errors_beyond_the_retries_fail_for_now(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    fake.fail_next("sendMessage", 502, 503)  # one try and one retry, both refused
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("5xx",)))
    assert service.reported == [("5xx", Sent.FAILED)]
    assert fake.chat_messages(GROUP) == []
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("later",)))
    assert service.reported[-1] == ("later", Sent.DELIVERED)  # the chat itself is fine


async def test_a_dropped_connection_fails_for_now(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    fake.drop_next("sendMessage", times=2)
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("net",)))
    assert service.reported == [("net", Sent.FAILED)]
    assert fake.chat_messages(GROUP) == []


async def test_a_429_beyond_the_pacing_s_patience_fails_for_now(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    service = await started(start_adapter)
    assert service.outbox is not None
    fake.retry_after_once("sendMessage", 1, times=2)  # the pacing waits out one only
    await service.outbox(Reply(CHANNEL, "Your turn.", delivers=("429",)))
    assert [c.status for c in fake.calls if c.method == "sendMessage"] == [429, 429]
    assert service.reported == [("429", Sent.FAILED)]
