"""Per-player language on Discord (issue 17): a member whose client is Polish
(``interaction.locale`` "pl") gets their rack (DM), panel, hints and private answers in Polish,
pictures included, while the channel's messages stay English; ``/rummikub manage language
scope:me`` overrides it for them alone and survives a restart; without ``scope`` the command
still sets the channel's language.

The real GameManager on a SQLite file behind the real discord.py client, against the fake
Discord API, as in test_discord_game.py.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.bot.platforms.discord.playing import Live, labels
from tests.fakes.discord_api import FakeDiscord, FakeMessage, Member

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def dm_rack(fake: FakeDiscord, member: Member) -> FakeMessage:
    """The member's rack DM (edited in place turn after turn)."""
    dms = [
        m
        for m in fake.visible_to(member.id, set())
        if m.audience == ("dm", member.id) and any(a.filename == "rack.png" for a in m.attachments)
    ]
    return max(dms, key=lambda m: m.id)


async def test_a_polish_client_reads_polish_privately_and_the_channel_stays_english(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, olek = h.member("alice"), h.member("olek", locale="pl")
    await live.start(alice, olek)
    assert live.manager is not None
    table = live.manager.tables[live.key]
    presenter = live.manager.presenter
    assert [s.name for s in table.seats][:2] == ["alice", "olek"]

    # Olek's rack by DM: the sentence and the picture in Polish; Alice's in English
    rack = dm_rack(fake, olek)
    assert rack.text == presenter.rack_line(live.game, 1, "color", lang="pl")
    (polish,) = await presenter.rack_images(live.game, 1, "color", lang="pl")
    (english,) = await presenter.rack_images(live.game, 1, "color", lang="en")
    (picture,) = rack.attachments
    assert picture.data == polish.png != english.png
    assert t("pl", "button_sort_colour") in labels(rack)
    assert dm_rack(fake, alice).text == presenter.rack_line(live.game, 0, "color", lang="en")
    # the channel's table and lobby stay English
    (board,) = live.table_messages()
    assert t("en", "button_my_rack") in labels(board)
    words = [m.text for m in fake.channel_messages(h.channel_id)]
    assert any(text.startswith("Game 1 of 1 is dealt.") for text in words), words

    # his private answers: the panel, a hint refused, an error
    while live.game.current != 1:
        await h.slash(alice, "draw")
    done = t("pl", "button_done")
    panels = [m for m in fake.visible_to(olek.id, set()) if done in labels(m)]
    assert panels  # sent to him when his turn began, with Polish buttons
    panel = max(panels, key=lambda m: m.id)
    assert panel.text == presenter.draft_text(live.game.draft(1), lang="pl")
    assert (await h.slash(olek, "hint")).text_for(olek.id) == t("pl", "hint_off")
    assert (await h.slash(alice, "status")).text_for(alice.id).startswith("Game 1/1")

    # scope:me overrides his client for him alone; the channel stays English
    said = (await h.slash(olek, "manage language", language="en", scope="me")).text_for(olek.id)
    assert said.startswith("Your language: English.")
    rack_now = (await h.slash(olek, "rack")).text_for(olek.id)
    assert rack_now == presenter.rack_line(live.game, 1, "color", lang="en")

    # a restart: the choice comes back from the database
    await live.restart()
    assert live.manager is not None
    rack_after = (await h.slash(olek, "rack")).text_for(olek.id)
    assert rack_after == live.manager.presenter.rack_line(live.game, 1, "color", lang="en")
    # without scope the command sets the channel's language, for everyone, as before
    outcome = await h.slash(alice, "manage language", language="pl")
    assert [m.text for m in outcome.public] == ["Język: polski."]
    # privately each keeps theirs: Alice her English client, Olek his choice; a German client,
    # a language we do not have, reads the channel's
    assert (await h.slash(alice, "status")).text_for(alice.id).startswith("Game 1/1")
    assert (await h.slash(olek, "status")).text_for(olek.id).startswith("Game 1/1")
    dieter = h.member("dieter", locale="de")
    assert (await h.slash(dieter, "status")).text_for(dieter.id).startswith("Gra 1/1")
