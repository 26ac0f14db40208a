"""The Discord adapter's transport rules, driven through real discord.py against the fake API.

The game service here is a small scripted one (a lobby, racks, a panel), so each test isolates
one adapter duty: routing, privacy, DM fallback, rate limits, restarts, big selects, deadlines.
The whole-game tests with the real GameManager are in test_discord_game.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import discord
import pytest
from discord import app_commands

from bot.api import Button, ChannelRef, Completions, Image, PlayerRef, Reply, Select, SelectOption
from bot.commands import Command
from bot.i18n import t
from bot.platforms.discord.client import RummikubBot, invite_url
from bot.platforms.discord.cog import SETTINGS
from bot.platforms.discord.components import build_view
from bot.platforms.discord.ids import decode_values, make_custom_id
from bot.platforms.discord.sender import TEXT_NO_POST, TEXT_STALE_BUTTON
from tests.bot.doubles import StandIn, as_text
from tests.fakes.discord import DiscordHarness, FakeDiscord

# aiohttp's own multipart reader (inside the fake server) trips this deprecation.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

FLAT_VERBS = (
    "start", "join", "leave", "addbot", "deal", "play", "move", "split", "swap", "arrange",
    "auto", "undo", "reset", "done", "draw", "hint", "rack", "table", "status", "score",
    "rematch", "rules", "help",
)  # fmt: skip
RECORD_VERBS = ("leaderboard", "history", "stats", "replay")  # under /rummikub records
PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 64


@dataclass(frozen=True)
class Call:
    player: PlayerRef
    channel: ChannelRef
    text: str
    admin: bool


class ScriptedService(StandIn):
    """A stand-in GameService: just enough behaviour to exercise the adapter's duties."""

    def __init__(self, rack_size: int = 14) -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.seats: list[PlayerRef] = []
        self.rack_size = rack_size
        self.picked: list[str] = []
        self.outbox = None

    def set_outbox(self, outbox, *, platform=None) -> None:  # type: ignore[no-untyped-def]
        self.outbox = outbox

    def rack_text(self, player: PlayerRef) -> str:
        return f"SECRET-RACK-OF-{player.display_name}"

    def rack_tiles(self) -> list[str]:
        colours = "KBOR"
        return [f"{colours[i % 4]}{i % 10 + 1}" for i in range(self.rack_size)]

    def lobby(self, channel: ChannelRef) -> Reply:
        names = ", ".join(p.display_name for p in self.seats)
        row = (
            Button("Join", "join", "primary"),
            Button("Leave", "leave"),
            Button("Add AI", "addbot"),
            Button("Deal", "deal", "success"),
        )
        return Reply(channel, f"Lobby: {names}", buttons=(row,), slot="lobby")

    def panel(self, channel: ChannelRef, player: PlayerRef, note: str) -> Reply:
        tiles = self.rack_tiles()
        codes = [t if t not in tiles[:i] else f"{t}#1" for i, t in enumerate(tiles)]
        options = tuple(
            SelectOption(t, c, c in self.picked) for t, c in zip(tiles, codes, strict=True)
        )
        return Reply(
            channel,
            f"Your draft. {note}",
            images=(Image("draft.png", PNG, "your draft"),),
            selects=(
                Select("pick", "Pick rack tiles", options, min_values=0, max_values=len(options)),
                Select("target", "Put them on", (SelectOption("new meld", "new"),)),
            ),
            buttons=(
                (
                    Button("Place", "place", "primary"),
                    Button("Auto", "auto"),
                    Button("Undo", "undo"),
                    Button("Reset", "reset"),
                ),
                (Button("Draw", "draw"), Button("Done", "done", "success")),
            ),
            private_to=player,
            slot="panel",
        )

    async def handle(  # type: ignore[override]  # scripted by the command's text
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        text = as_text(text)
        self.calls.append(Call(player, channel, text, admin))
        verb, _, rest = text.partition(" ")
        if verb == "start":
            self.seats = [player]
            return [self.lobby(channel)]
        if verb == "join":
            if player not in self.seats:
                self.seats.append(player)
            return [self.lobby(channel), Reply(channel, "You joined.", private_to=player)]
        if verb == "deal":
            racks = [
                Reply(channel, self.rack_text(p), private_to=p, slot="rack") for p in self.seats
            ]
            table = Reply(
                channel,
                f"Game on. It is {self.seats[0].display_name}'s turn, 60 s left.",
                images=(Image("table.png", PNG),),
                buttons=((Button("My turn panel", "panel", "primary"),),),
                mentions=(self.seats[0],),
                slot="table",
            )
            return [*racks, table]
        if verb == "rack":
            return [Reply(channel, self.rack_text(player), private_to=player, slot="rack")]
        if verb == "hint":  # here: opens the turn panel
            return [self.panel(channel, player, "Nothing placed yet.")]
        if verb == "pick":
            for code in rest.split():
                if code in self.picked:
                    self.picked.remove(code)
                else:
                    self.picked.append(code)
        if verb in ("pick", "place", "undo"):
            return [self.panel(channel, player, f"{verb}: {rest}".strip())]
        if verb == "cancel":
            if not admin and (not self.seats or player != self.seats[0]):
                return [
                    Reply(
                        channel, "Only the host or a channel admin can cancel.", private_to=player
                    )
                ]
            return [Reply(channel, "The game was cancelled.")]
        if text == "help slow":
            await asyncio.sleep(0.5)
            return [Reply(channel, "Slow answer.", private_to=player)]
        if text == "help long":
            return [Reply(channel, "\n".join(f"line {i:04d} " + "x" * 40 for i in range(120)))]
        return [Reply(channel, f"echo {text}", private_to=player)]

    async def completions(self, player: PlayerRef, channel: ChannelRef) -> Completions:
        return Completions(
            rack=("R5", "R6", "R7", "K9", "K9", "J"),
            melds=((1, "B1 B2 B3"), (2, "O7 K7 R7")),
        )


@pytest.fixture
async def service() -> ScriptedService:
    return ScriptedService()


@pytest.fixture
async def harness(fake: FakeDiscord, service: ScriptedService) -> AsyncIterator[DiscordHarness]:
    h = DiscordHarness(fake)
    await h.login(RummikubBot(service))
    try:
        yield h
    finally:
        await h.close()


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


async def test_outbox_ignores_other_platforms(
    harness: DiscordHarness, fake: FakeDiscord, service: ScriptedService
) -> None:
    assert service.outbox is not None
    await service.outbox(Reply(ChannelRef("telegram", "-100123"), "Telegram news"))
    assert not fake.requests_matching("POST", "/messages")


def test_duplicate_select_values_are_made_unique_and_read_back_plain() -> None:
    channel = ChannelRef("discord", "42")
    options = tuple(SelectOption("R5", "R5") for _ in range(3))
    view = build_view(Reply(channel, "x", selects=(Select("pick", "Pick", options, 0, 3),)))
    assert view is not None
    (select,) = view.children
    values = [o.value for o in select.item.options]  # type: ignore[attr-defined]
    assert values == ["R5", "R5~1", "R5~2"]
    assert decode_values(values) == ["R5", "R5", "R5"]


def test_the_settings_choices_are_settings_the_rules_know() -> None:
    from engine import Rules

    values = {
        "threshold": "25", "timer": "3600", "games": "2", "hints": "on", "edition": "xp",
        "timeout_penalty": "3", "rack_size": "14",
    }  # fmt: skip
    assert set(SETTINGS) == set(values)
    for name in SETTINGS:
        Rules().with_setting(name, values[name])


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


def test_invite_url_asks_for_the_bot_and_commands_scopes() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url
    assert "scope=bot+applications.commands" in url
    assert "permissions=" in url


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
