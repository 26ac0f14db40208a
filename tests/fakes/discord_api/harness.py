"""The harness: a real discord.py bot (``commands.Bot``/``AutoShardedBot``) logged in against
the fake (``Route.BASE``), fed interactions as the gateway would
(``ConnectionState.parse_interaction_create``): slash commands with options, autocomplete,
button clicks and select choices; and what each one led to (``Outcome``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.discord_api.models import (
    FakeInteraction,
    FakeMessage,
    FakeUser,
    now_iso,
    snowflake,
)
from tests.fakes.discord_api.server import FakeDiscord


@dataclass
class Member:
    """A guild member as the interaction payload describes them."""

    user: FakeUser
    permissions: int
    locale: str = "en-US"  # the member's client language, sent with every interaction

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "roles": [],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(self.permissions),
        }


@dataclass
class Outcome:
    """What one injected interaction led to."""

    interaction: FakeInteraction
    touched: list[FakeMessage]
    others: list[FakeInteraction] = field(default_factory=list)

    @property
    def private(self) -> list[FakeMessage]:
        return [m for m in self.touched if m.audience[0] in ("ephemeral", "dm")]

    @property
    def public(self) -> list[FakeMessage]:
        return [m for m in self.touched if m.audience[0] == "channel"]

    def text_for(self, user_id: int) -> str:
        return "\n".join(
            m.text for m in self.touched if m.audience in (("ephemeral", user_id), ("dm", user_id))
        )

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.interaction.autocomplete_choices or []


class DiscordHarness:
    """Logs a real discord.py bot in against a ``FakeDiscord`` and feeds it interactions.

    Interactions enter exactly where the gateway would hand them over
    (``ConnectionState.parse_interaction_create``); everything after that - command routing,
    option conversion, autocomplete, DynamicItem dispatch, HTTP - is discord.py's own code.
    """

    #: VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS
    MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
    MANAGE_CHANNELS = 1 << 4

    _logged_in = 0  # bots logged in against a fake, across harnesses (Route.BASE is global)
    _real_base: str | None = None

    def __init__(
        self, fake: FakeDiscord, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> None:
        self.fake = fake
        self.guild_id = guild_id or snowflake()
        self.channel_id = channel_id or snowflake()
        self.bot: Any = None

    async def login(self, bot: Any) -> None:
        """Point discord.py at the fake and log ``bot`` in (runs its ``setup_hook``)."""
        import discord

        if DiscordHarness._logged_in == 0:
            DiscordHarness._real_base = discord.http.Route.BASE
        DiscordHarness._logged_in += 1
        discord.http.Route.BASE = self.fake.base_url
        self.bot = bot
        await bot.login("fake-token")

    async def close(self) -> None:
        """Shut the bot down like a process exit (the fake keeps its messages)."""
        import discord

        if self.bot is None:
            return
        await self.bot.close()
        self.bot = None
        DiscordHarness._logged_in -= 1
        if DiscordHarness._logged_in == 0 and DiscordHarness._real_base is not None:
            discord.http.Route.BASE = DiscordHarness._real_base

    def member(self, name: str, *, manage_channels: bool = False, locale: str = "en-US") -> Member:
        permissions = self.MEMBER_PERMISSIONS | (self.MANAGE_CHANNELS if manage_channels else 0)
        return Member(self.fake.add_user(name), permissions, locale)

    # payloads ---------------------------------------------------------------------------------

    def _base(
        self, kind: int, member: Member, fake_interaction: FakeInteraction, channel_id: int
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(fake_interaction.id),
            "application_id": str(self.fake.application_id),
            "type": kind,
            "token": fake_interaction.token,
            "version": 1,
            "locale": member.locale,
            "attachment_size_limit": self.fake.upload_limit,
            "entitlements": [],
            "app_permissions": str((1 << 53) - 1),
        }
        if channel_id in self.fake.dm_channels:
            payload["channel_id"] = str(channel_id)
            payload["channel"] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [member.user.payload()],
            }
            payload["user"] = member.user.payload()
            payload["context"] = 1
        else:
            with self.fake.lock:  # the guild has every channel a test talks in
                known = self.fake.guild_channels.setdefault(self.guild_id, [])
                if channel_id not in known:
                    known.append(channel_id)
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["channel_id"] = str(channel_id)
            payload["channel"] = {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(self.guild_id),
                "name": "rummikub",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
            }
            payload["member"] = member.payload()
            payload["context"] = 0
        return payload

    def _command_options(
        self, path: str, options: dict[str, Any], focused: str | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Build ``data`` for ``/rummikub <path>`` from the bot's own command tree."""
        from discord import AppCommandOptionType, app_commands

        words = path.split()
        root = self.bot.tree.get_command(words[0])
        if root is None:
            raise LookupError(f"no command /{words[0]}")
        node: Any = root
        chain: list[Any] = [root]
        for word in words[1:]:
            node = node.get_command(word)
            if node is None:
                raise LookupError(f"no command /{path}")
            chain.append(node)
        if not isinstance(node, app_commands.Command):
            raise LookupError(f"/{path} is a group, not a command")
        resolved: dict[str, Any] = {}
        leaf_options: list[dict[str, Any]] = []
        by_name = {p.display_name: p for p in node.parameters}
        for name, value in options.items():
            if name not in by_name:
                raise LookupError(f"/{path} has no option {name!r}; it has {sorted(by_name)}")
            parameter = by_name[name]
            option: dict[str, Any] = {"name": name, "type": parameter.type.value}
            if parameter.type is AppCommandOptionType.user:
                member = value
                option["value"] = str(member.id)
                resolved.setdefault("users", {})[str(member.id)] = member.user.payload()
                resolved.setdefault("members", {})[str(member.id)] = {
                    k: v for k, v in member.payload().items() if k != "user"
                }
            else:
                option["value"] = value
            if name == focused:
                option["focused"] = True
            leaf_options.append(option)
        inner: list[dict[str, Any]] = leaf_options
        for level in reversed(chain[1:]):
            kind = 1 if isinstance(level, app_commands.Command) else 2
            inner = [{"name": level.name, "type": kind, "options": inner}]
        data: dict[str, Any] = {
            "id": str(snowflake()),
            "name": root.name,
            "type": 1,
            "options": inner,
        }
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    # injection ----------------------------------------------------------------------------------

    async def _inject(
        self, payload: dict[str, Any], fake_interaction: FakeInteraction, *more: dict[str, Any]
    ) -> Outcome:
        """Hand the payload(s) to discord.py as the gateway would, all before any runs."""
        before_versions = {mid: len(m.versions) for mid, m in self.fake.messages.items()}
        baseline = asyncio.all_tasks()
        for one in (payload, *more):
            self.bot._connection.parse_interaction_create(one)
        await self.settle(baseline)
        with self.fake.lock:
            touched = [
                m
                for mid, m in self.fake.messages.items()
                if len(m.versions) > before_versions.get(mid, 0)
                or (m.deleted and mid in before_versions and not m.loading)
            ]
        return Outcome(fake_interaction, touched)

    async def settle(
        self,
        baseline: set[asyncio.Task[Any]] | None = None,
        quiet: float = 0.3,
        timeout: float = 20.0,
    ) -> None:
        """Wait until the bot has finished reacting.

        discord.py runs each interaction in a named task ("CommandTree-invoker",
        "discord-ui-...", "discord.py: on_..."): those are awaited to the end, however long
        the game service takes. Other new tasks (AI turns, turn timers) are awaited until they
        finish or until only sleepers are left: no task finished and the fake saw no request
        for ``quiet`` seconds.
        """
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        baseline = baseline or set()
        deadline = loop.time() + timeout
        last_count = len(self.fake.requests)
        idle_since = loop.time()
        while True:
            pending = [
                t for t in asyncio.all_tasks() if t is not me and t not in baseline and not t.done()
            ]
            if not pending:
                return
            handlers = [t for t in pending if t.get_name().startswith(("CommandTree", "discord"))]
            done, _ = await asyncio.wait(pending, timeout=0.02)
            count = len(self.fake.requests)
            now = loop.time()
            if done or count != last_count:
                idle_since = now
                last_count = count
            elif not handlers and now - idle_since > quiet:
                return
            if now > deadline:
                raise TimeoutError(f"the bot is still busy: {pending}")

    async def slash(
        self, member: Member, path: str, *, channel_id: int | None = None, **options: Any
    ) -> Outcome:
        """Run ``/rummikub <path>`` (``path`` like "play" or "manage kick") with options."""
        channel_id = channel_id or self.channel_id
        data, _ = self._command_options(f"rummikub {path}", options, None)
        interaction = self.fake.register_interaction(2, member.id, channel_id)
        payload = self._base(2, member, interaction, channel_id) | {"data": data}
        return await self._inject(payload, interaction)

    async def autocomplete(
        self, member: Member, path: str, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        data, _ = self._command_options(f"rummikub {path}", options, focused)
        interaction = self.fake.register_interaction(4, member.id, self.channel_id)
        payload = self._base(4, member, interaction, self.channel_id) | {"data": data}
        outcome = await self._inject(payload, interaction)
        return outcome.choices

    async def click(self, member: Member, message: FakeMessage, label: str) -> Outcome:
        """Press the button with this label on a message the fake holds."""
        button = message.button(label)
        return await self.press(member, message, button["custom_id"], 2)

    async def choose(
        self, member: Member, message: FakeMessage, values: list[str], select_index: int = 0
    ) -> Outcome:
        select = message.selects()[select_index]
        allowed = {o["value"] for o in select["options"]}
        missing = [v for v in values if v not in allowed]
        if missing:
            raise LookupError(f"values {missing} are not options of select {select_index}")
        return await self.press(member, message, select["custom_id"], 3, values)

    async def double_click(self, member: Member, message: FakeMessage, label: str) -> Outcome:
        """Two presses of one button that arrive together, like an impatient double click."""
        custom_id = message.button(label)["custom_id"]
        payloads = []
        interactions = []
        for _ in range(2):
            interaction = self.fake.register_interaction(
                3, member.id, message.channel_id, message_id=message.id
            )
            payload = self._base(3, member, interaction, message.channel_id)
            payload["data"] = {"custom_id": custom_id, "component_type": 2}
            payload["message"] = message.payload()
            payloads.append(payload)
            interactions.append(interaction)
        outcome = await self._inject(payloads[0], interactions[0], payloads[1])
        outcome.others = interactions[1:]
        return outcome

    async def press(
        self,
        member: Member,
        message: FakeMessage,
        custom_id: str,
        component_type: int,
        values: list[str] | None = None,
    ) -> Outcome:
        interaction = self.fake.register_interaction(
            3, member.id, message.channel_id, message_id=message.id
        )
        payload = self._base(3, member, interaction, message.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message.payload()
        return await self._inject(payload, interaction)
