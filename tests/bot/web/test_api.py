"""The board's HTTP API in front of a real manager (a real SQLite file): who may ask what, and
that bad requests change nothing. The browser tests drive the same API through the page."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.api import ChannelRef, PlayerRef
from bot.manager import describe
from bot.web import BoardConfig, BoardServer
from bot.web.auth import Signer
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness
from tests.bot.web.initdata import signed_init_data

SECRET = b"a-test-signing-secret-of-32-bytes!!"
BOT_TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"


@dataclass
class Served:
    h: Harness
    server: BoardServer
    http: aiohttp.ClientSession

    @property
    def api(self) -> str:
        return self.server.links.page + "/api"

    def token(self, player: PlayerRef) -> str:
        return self.server.signer.sign(player, CHANNEL)

    async def get(self, path: str, token: str | None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.get(self.api + path, headers=headers) as response:
            return response.status, await response.json()

    async def post(self, path: str, token: str | None, body: Any) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.post(self.api + path, headers=headers, json=body) as response:
            return response.status, await response.json()

    async def stored(self) -> tuple[int, list[str]]:
        table = self.h.manager.tables[CHANNEL.key]
        assert table.game_id is not None
        record = await self.h.manager.games.load(table.game_id)
        return record.version, list(record.draft or [])


@pytest.fixture
async def served(h: Harness) -> AsyncIterator[Served]:
    """Ann and Bob at a dealt table, Ann to move, and the board's server on a free port."""
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    if h.manager.tables[CHANNEL.key].seats[h.game.current].player != ANN:
        await h.say(BOB, "draw")
    config = BoardConfig(port=0, telegram_token=BOT_TOKEN)
    server = BoardServer(h.manager, config, SECRET)
    await server.start()
    async with aiohttp.ClientSession() as http:
        yield Served(h, server, http)
    await server.stop()


def rack_codes(h: Harness, player: PlayerRef) -> set[str]:
    return {t.code for t in h.game.players[h.seat(player)].rack}


def codes_in(value: Any) -> set[str]:
    """Every tile code anywhere in some answers (faces may repeat: codes name one tile)."""
    if isinstance(value, dict):
        found = {str(value["code"])} if "code" in value else set()
        return found.union(*(codes_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(codes_in(v) for v in value))
    return set()


def text_of(answer: Any) -> str:
    return json.dumps(answer)


async def test_an_action_runs_as_the_chat_command_and_its_chat_replies_are_sent(
    served: Served,
) -> None:
    rack = sorted(rack_codes(served.h, ANN))
    sent_before = len(served.h.sent)
    step = {"command": f"play {rack[0]}"}
    status, answer = await served.post("/command", served.token(ANN), step)
    assert status == 200 and answer["messages"] == []
    assert [t["code"] for t in answer["state"]["melds"][0]["tiles"]] == [rack[0]]
    assert (await served.stored())[1] == [f"play {rack[0]}"]  # stored like any draft step
    for _ in range(50):  # the chat's panel is sent in the background
        if len(served.h.sent) > sent_before:
            break
        await asyncio.sleep(0.02)
    panel = served.h.sent[-1]
    assert panel.slot == "panel" and ANN.same_person(panel.private_to)

    status, answer = await served.post("/command", served.token(ANN), {"command": "play Q5"})
    assert status == 200 and answer["messages"]  # refused with the chat's own sentence
    assert (await served.stored())[1] == [f"play {rack[0]}"]


async def test_requests_without_a_valid_link_are_refused_with_401_and_change_nothing(
    served: Served,
) -> None:
    before = await served.stored()
    good = served.token(ANN)
    body, mac = good.split(".")
    expired = Signer(SECRET, lifetime=60, clock=lambda: time.time() - 3600).sign(ANN, CHANNEL)
    other_secret = Signer(b"another-secret-nobody-knows-000000", lifetime=3600).sign(ANN, CHANNEL)
    bob_body = served.token(BOB).split(".")[0]
    cases = {
        None: "bad_token",
        "": "bad_token",
        f"{bob_body}.{mac}": "bad_token",  # Ann's signature on a link naming Bob
        f"{body}.{mac[:-2]}": "bad_token",
        expired: "expired",
        other_secret: "bad_token",
    }
    rack = sorted(rack_codes(served.h, ANN))
    for token, code in cases.items():
        for status, answer in (
            await served.get("/state", token),
            await served.post("/command", token, {"command": f"play {rack[0]}"}),
            await served.get("/events", token),
        ):
            assert (status, answer["error"]) == (401, code), (token, answer)
    assert await served.stored() == before


async def test_no_endpoint_gives_one_player_anything_of_another_players_rack(
    served: Served,
) -> None:
    h = served.h
    anns = rack_codes(h, ANN)
    await served.post("/command", served.token(ANN), {"command": f"play {sorted(anns)[0]}"})
    answers = [
        await served.get("/state", served.token(BOB)),
        await served.post("/command", served.token(BOB), {"command": "sort number"}),
        await served.post("/command", served.token(BOB), {"command": "hint"}),
        await served.post("/command", served.token(BOB), {"command": f"play {sorted(anns)[1]}"}),
        await served.get("/state", served.token(EVE)),
        await served.post("/command", served.token(EVE), {"command": "done"}),
    ]
    seen = codes_in(answers)
    assert seen and not seen & anns, sorted(seen & anns)  # Bob's own tiles, none of Ann's
    assert answers[0][1]["state"]["rack"] is not None  # Bob's own rack, sorted as he asked
    assert answers[4][1]["state"]["rack"] is None  # Eve is not seated: the public table only


async def test_oversized_malformed_and_non_board_requests_are_refused_and_change_nothing(
    served: Served,
) -> None:
    h = served.h
    token = served.token(ANN)
    rack = sorted(rack_codes(h, ANN))
    before = describe(h.manager.tables[CHANNEL.key]), await served.stored()
    url = served.api + "/command"
    auth = {"Authorization": f"Bearer {token}"}
    raw_cases = [
        (json.dumps({"command": "play " + " ".join(rack) * 400}), 413),  # over 8 KB
        ("play R5", 400),  # not JSON
        ('{"command": "play', 400),
        ("[1, 2]", 400),
        ('{"command": 5}', 400),
        ('{"command": ""}', 400),
        (json.dumps({"command": f"play {rack[0]}\ndone"}), 400),
        (json.dumps({"command": "play " + "R5 " * 150}), 400),  # over 300 characters
        (json.dumps({"command": "cancel"}), 400),  # a command, but not a board action
        (json.dumps({"command": "leave"}), 400),
        (json.dumps({"command": "arrange R1 R2 R3"}), 400),
        (json.dumps({"command": "frobnicate"}), 400),
    ]
    for raw, status in raw_cases:
        headers = {**auth, "Content-Type": "application/json"}
        async with served.http.post(url, data=raw.encode(), headers=headers) as response:
            answer = await response.json()
            assert response.status == status, (raw[:40], answer)
            assert answer["error"] and answer["message"]
    async with served.http.post(
        url, data=json.dumps({"command": "done"}), headers={**auth, "Content-Type": "text/plain"}
    ) as response:
        assert response.status == 400
    status, answer = await served.post("/session", None, {"init_data": 5, "chat": "-1"})
    assert status == 400
    assert (describe(h.manager.tables[CHANNEL.key]), await served.stored()) == before


async def test_a_caller_over_the_rate_gets_429_and_others_still_get_through(
    served: Served,
) -> None:
    token = served.token(BOB)
    statuses = [(await served.get("/state", token))[0] for _ in range(60)]
    assert statuses[:30] == [200] * 30 and 429 in statuses
    assert (await served.get("/state", served.token(ANN)))[0] == 200


async def test_the_change_stream_tells_a_waiting_board_of_a_typed_step_at_once(
    served: Served,
) -> None:
    h = served.h
    headers = {"Authorization": f"Bearer {served.token(BOB)}"}
    async with served.http.get(served.api + "/events", headers=headers) as stream:
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 2)
        rack = sorted(rack_codes(h, ANN))
        started = time.monotonic()
        await h.say(ANN, f"play {rack[0]} {rack[1]}")
        event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 2)
        assert time.monotonic() - started < 1.0
    assert first.startswith(b"event: change\ndata: ")
    assert int(event.split(b"data: ")[1]) > int(first.split(b"data: ")[1])


async def test_a_telegram_mini_app_signs_in_with_init_data_and_only_as_itself(
    served: Served,
) -> None:
    good = signed_init_data(BOT_TOKEN, 4242, first_name="Tg")
    status, answer = await served.post("/session", None, {"init_data": good, "chat": "-100777"})
    assert status == 200
    viewer = served.server.signer.check(answer["token"])
    assert viewer.player == PlayerRef("telegram", "4242", "Tg")
    assert viewer.channel == ChannelRef("telegram", "-100777")

    tampered = good.replace("4242", "4343")
    stale = signed_init_data(BOT_TOKEN, 4242, auth_date=int(time.time()) - 7200)
    other_bot = signed_init_data("7099999999:AAH-another-bot-token-000000000000", 4242)
    for bad, code in ((tampered, "bad_init_data"), (stale, "stale_init_data")):
        status, answer = await served.post("/session", None, {"init_data": bad, "chat": "-1"})
        assert (status, answer["error"]) == (401, code)
    status, answer = await served.post("/session", None, {"init_data": other_bot, "chat": "-1"})
    assert status == 401


async def test_the_page_and_every_answer_hold_no_secret(served: Served) -> None:
    token = served.token(ANN)
    bodies = []
    for path in ("", "/static/board.js", "/static/tiles.js", "/theme.css", "/i18n.json"):
        async with served.http.get(served.server.links.page + path) as response:
            assert response.status == 200
            bodies.append(await response.text())
    async with served.http.get(served.server.links.page) as response:
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self' https://telegram.org" in policy
    bodies.append(text_of(await served.get("/state", token)))
    bodies.append(text_of(await served.post("/command", token, {"command": "hint"})))
    everything = "\n".join(bodies)
    for secret in (SECRET.decode(), BOT_TOKEN, BOT_TOKEN.split(":")[1]):
        assert secret not in everything


async def test_a_page_that_goes_away_closes_its_stream_quietly(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    headers = {"Authorization": f"Bearer {served.token(BOB)}"}
    for _ in range(3):  # reloads: each stream is let go when the page goes
        async with served.http.get(served.api + "/events", headers=headers) as stream:
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 2)
    assert served.server.board.streams.total >= 0
    rack = sorted(rack_codes(served.h, ANN))
    for _ in range(50):
        await served.h.say(ANN, f"play {rack[0]}")  # changes to write into the closed streams
        await served.h.say(ANN, "undo")
        if served.server.board.streams.total == 0:
            break
        await asyncio.sleep(0.05)
    assert served.server.board.streams.total == 0
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
