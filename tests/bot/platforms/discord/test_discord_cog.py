"""The Discord adapter's slash commands: the synced command tree, options read into command
text, acknowledging within the deadline and only once, autocomplete, shards, the invite."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest
from discord import app_commands

from bot.api import ChannelRef
from bot.platforms.discord.client import RummikubBot, invite_url
from bot.platforms.discord.cog import SETTINGS
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord_api import DiscordHarness, FakeDiscord

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


FLAT_VERBS = (
    "start", "join", "leave", "addbot", "deal", "play", "move", "split", "swap", "arrange",
    "auto", "undo", "reset", "done", "draw", "hint", "rack", "table", "status", "score",
    "rematch", "rules", "help",
)  # fmt: skip


RECORD_VERBS = ("leaderboard", "history", "stats", "replay")  # under /rummikub records


async def test_command_tree_syncs_and_every_option_is_described(fake: FakeDiscord) -> None:
    h = DiscordHarness(fake)
    await h.login(RummikubBot(ScriptedService(), sync_commands=True))
    try:
        (command,) = fake.synced_commands  # the fake rejects what Discord would reject
        assert command["name"] == "rummikub"
        assert command.get("contexts") == [0]  # guilds only
        names = {o["name"] for o in command["options"]}
        assert names >= set(FLAT_VERBS)
        manage = next(o for o in command["options"] if o["name"] == "manage")
        assert {o["name"] for o in manage["options"]} >= {"settings", "kick", "cancel"}
        records = next(o for o in command["options"] if o["name"] == "records")
        assert {o["name"] for o in records["options"]} == set(RECORD_VERBS)
        assert len(command["options"]) <= 25  # Discord's limit per command

        def walk(options: list[dict]) -> Iterator[dict]:
            for option in options:
                yield option
                yield from walk(option.get("options", []))

        for option in walk(command["options"]):
            assert option["description"] not in ("", "…"), option["name"]
            # a Polish client sees Polish descriptions (the names stay the command language)
            assert option["description_localizations"]["pl"] != option["description"]
            assert "name_localizations" not in option or not option["name_localizations"]
        assert command["description_localizations"] == {"pl": "Graj w Rummikub na tym kanale"}
        play = next(o for o in command["options"] if o["name"] == "play")
        assert all(o.get("autocomplete") for o in play["options"])
    finally:
        await h.close()


async def test_slash_options_become_command_text_and_admin_comes_from_manage_channels(
    harness: DiscordHarness, service: ScriptedService
) -> None:
    alice = harness.member("alice")
    mod = harness.member("mod", manage_channels=True)
    await harness.slash(alice, "play", tiles="R5 R6 R7", to="3")
    await harness.slash(alice, "move", tiles="R7", **{"from": "2"}, to="new")
    await harness.slash(alice, "swap", meld="4", tile="O9")
    await harness.slash(alice, "start", threshold=25, hints=True)
    await harness.slash(mod, "manage cancel")
    await harness.slash(alice, "manage settings", setting="timer", value="3600")
    texts = [(c.text, c.admin) for c in service.calls]
    assert texts == [
        ("play R5 R6 R7 to 3", False),
        ("move R7 from 2 to new", False),
        ("swap J in 4 with O9", False),
        ("start threshold=25 hints=on", False),
        ("cancel", True),
        ("settings timer 3600", False),
    ]
    assert service.calls[0].channel == ChannelRef("discord", str(harness.channel_id))
    assert service.calls[0].player.user_id == str(alice.id)


async def test_slow_service_is_acknowledged_within_the_deadline(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    fake.ack_deadline = 0.2  # stand-in for Discord's 3 s, so the test stays fast
    alice = harness.member("alice")
    outcome = await harness.slash(alice, "help", topic="slow")
    assert outcome.interaction.errors == []
    assert outcome.interaction.response_type == 5
    assert outcome.text_for(alice.id) == "Slow answer."


async def test_an_interaction_that_expired_before_it_arrived_is_not_run(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    fake.ack_deadline = 0.0  # Discord says "Unknown interaction" (10062): the user saw a failure
    alice = harness.member("alice")
    outcome = await harness.slash(alice, "done")
    assert outcome.interaction.errors == [10062]
    assert service.calls == []
    assert outcome.touched == []


async def test_autocomplete_offers_rack_tiles_and_meld_numbers(harness: DiscordHarness) -> None:
    alice = harness.member("alice")
    choices = await harness.autocomplete(alice, "play", "tiles", tiles="R5 ")
    assert [c["value"] for c in choices] == ["R5 R6", "R5 R7", "R5 K9", "R5 J"]
    choices = await harness.autocomplete(alice, "play", "tiles", tiles="k")
    assert [c["value"] for c in choices] == ["K9"]
    choices = await harness.autocomplete(alice, "play", "to", tiles="R8", to="")
    assert [(c["name"], c["value"]) for c in choices] == [
        ("new meld", "new"),
        ("1: B1 B2 B3", "1"),
        ("2: O7 K7 R7", "2"),
    ]
    choices = await harness.autocomplete(alice, "split", "meld", meld="2")
    assert [c["value"] for c in choices] == ["2"]


async def test_the_fake_catches_the_ephemeral_defer_privacy_trap(fake: FakeDiscord) -> None:
    """A followup marked ephemeral after a public "thinking" defer is posted publicly: the fake
    models that, so our adapter's tests would catch a leak of this kind."""

    class Leaky(discord.Client):
        def __init__(self) -> None:
            super().__init__(intents=discord.Intents.none())
            self.tree = app_commands.CommandTree(self)

    client = Leaky()

    @client.tree.command(name="rummikub", description="leaky")
    async def leaky(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("SECRET", ephemeral=True)

    h = DiscordHarness(fake)
    await h.login(client)
    alice = h.member("alice")
    try:
        interaction = fake.register_interaction(2, alice.id, h.channel_id)
        payload = h._base(2, alice, interaction, h.channel_id) | {
            "data": {"id": "1", "name": "rummikub", "type": 1, "options": []}
        }
        outcome = await h._inject(payload, interaction)
        (message,) = [m for m in outcome.touched if m.text == "SECRET"]
        assert message.audience == ("channel", h.channel_id)
    finally:
        await h.close()


async def test_a_second_acknowledgement_is_refused_like_discord_does(
    harness: DiscordHarness, fake: FakeDiscord
) -> None:
    alice = harness.member("alice")
    outcome = await harness.slash(alice, "status")
    token = outcome.interaction.token
    http = harness.bot.http
    with pytest.raises(discord.HTTPException) as caught:
        await discord.webhook.async_.async_context.get().create_interaction_response(
            outcome.interaction.id,
            token,
            session=http._HTTPClient__session,
            params=discord.webhook.async_.interaction_response_params(type=6),
        )
    assert caught.value.code == 40060


async def test_a_sharded_process_handles_its_interactions(fake: FakeDiscord) -> None:
    """One process of a two-process deployment (shard 1 of 2) runs commands and buttons."""
    service = ScriptedService()
    h = DiscordHarness(fake)
    await h.login(RummikubBot(service, shard_count=2, shard_ids=[1]))
    try:
        assert h.bot.shard_count == 2 and h.bot.shard_ids == [1]
        alice, bob = h.member("alice"), h.member("bob")
        await h.slash(alice, "start")
        outcome = await h.click(bob, fake.channel_messages(h.channel_id)[0], "Join")
        assert outcome.public[0].text == "Lobby: alice, bob"
    finally:
        await h.close()


def test_the_settings_choices_are_settings_the_rules_know() -> None:
    from engine import Rules

    values = {
        "threshold": "25", "timer": "3600", "games": "2", "hints": "on", "edition": "xp",
        "timeout_penalty": "3", "rack_size": "14",
    }  # fmt: skip
    assert set(SETTINGS) == set(values)
    for name in SETTINGS:
        Rules().with_setting(name, values[name])


def test_invite_url_asks_for_the_bot_and_commands_scopes() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url
    assert "scope=bot+applications.commands" in url
    assert "permissions=" in url
