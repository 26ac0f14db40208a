"""The bot's sentences about ratings (the ladder, ``stats``) and ``notify``, in English and
Polish; ``bot.i18n`` adds them to its one catalog (``MESSAGES``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "ladder_empty": "No rated games in this server or group yet; every finished game counts.",
        "ladder": "Rating ladder: {rows}",
        "ladder_row": "{rank}. {name}: {rating}{mark}, {games} game, {trend}|{rank}. {name}: "
        "{rating}{mark}, {games} games, {trend}",
        "ladder_ai_row": "AI {name}: {rating}, {games} game|AI {name}: {rating}, {games} games",
        "ladder_provisional": "? provisional: fewer than {count} game.|? provisional: fewer "
        "than {count} games.",
        "ladder_more": "Win counts of this channel: leaderboard wins.",
        "ladder_people": "{count} player rated, by the conservative rating|{count} players "
        "rated, by the conservative rating",
        "button_win_counts": "Win counts",
        "button_ladder": "Rating ladder",
        "stats_rating": "Rating: {rating}{mark} (#{rank} of {people} in this server or group; "
        "{games} rated game; last games {trend}).|Rating: {rating}{mark} (#{rank} of {people} "
        "in this server or group; {games} rated games; last games {trend}).",
        "stats_provisional": "? provisional until {count} game.|? provisional until {count} games.",
        "stats_ai": "Against the AI: {rows}.",
        "stats_ai_row": "{level}: {games} game, ahead of it in {ahead}, best place {place} of "
        "{seats}|{level}: {games} games, ahead of it in {ahead}, best place {place} of {seats}",
        "notify_on_mention": "Notices on: when a game opens in this channel, its lobby message "
        "mentions you. notify off stops them.",
        "notify_on_private": "Notices on: when a game opens in this group, I write to you "
        "privately with a link to join. notify off (or the button on the notice) stops them.",
        "notify_already_on": "Your notices for this channel were already on; notify off stops "
        "them.",
        "notify_off": "Notices off: you will not be told when a game opens here.",
        "notify_already_off": "You had no notices for this channel; notify on turns them on.",
        "notify_state_on": "Your notices for this channel are on; notify off stops them.",
        "notify_state_off": "Your notices for this channel are off; notify on turns them on.",
        "notify_line": "🔔 A game is opening here: join below. (Stop these mentions: the Stop "
        "notices button, or notify off.)",
        "notify_private": "🔔 {host} opened a Rummikub table where you asked to be told. Seats: "
        "{seats}. Join it, or stop these notices.",
        "notify_joined": "You have a seat at the group's table; the host deals when everyone "
        "is in.",
        "button_notify_off": "Stop notices",
    },
    "pl": {
        "ladder_empty": "Na tym serwerze lub w tej grupie nie ma jeszcze gier w rankingu; liczy "
        "się każda zakończona gra.",
        "ladder": "Ranking ocen: {rows}",
        "ladder_row": "{rank}. {name}: {rating}{mark}, {games} gra, {trend}|{rank}. {name}: "
        "{rating}{mark}, {games} gry, {trend}|{rank}. {name}: {rating}{mark}, {games} gier, "
        "{trend}",
        "ladder_ai_row": "AI {name}: {rating}, {games} gra|AI {name}: {rating}, {games} gry|AI "
        "{name}: {rating}, {games} gier",
        "ladder_provisional": "? tymczasowy: mniej niż {count} gra.|? tymczasowy: mniej niż "
        "{count} gry.|? tymczasowy: mniej niż {count} gier.",
        "ladder_more": "Liczba wygranych na tym kanale: leaderboard wins.",
        "ladder_people": "{count} gracz w rankingu, według ostrożnej oceny|{count} graczy w "
        "rankingu, według ostrożnej oceny|{count} graczy w rankingu, według ostrożnej oceny",
        "button_win_counts": "Liczba wygranych",
        "button_ladder": "Ranking",
        "stats_rating": "Ocena: {rating}{mark} (miejsce {rank} z {people} na tym serwerze lub "
        "w tej grupie; {games} gra w rankingu; ostatnie gry {trend}).|Ocena: {rating}{mark} "
        "(miejsce {rank} z {people} na tym serwerze lub w tej grupie; {games} gry w rankingu; "
        "ostatnie gry {trend}).|Ocena: {rating}{mark} (miejsce {rank} z {people} na tym "
        "serwerze lub w tej grupie; {games} gier w rankingu; ostatnie gry {trend}).",
        "stats_provisional": "? tymczasowy do {count} gry.|? tymczasowy do {count} gier.|? "
        "tymczasowy do {count} gier.",
        "stats_ai": "Przeciw AI: {rows}.",
        "stats_ai_row": "{level}: {games} gra, wyżej niż AI w {ahead}, najlepsze miejsce "
        "{place} na {seats}|{level}: {games} gry, wyżej niż AI w {ahead}, najlepsze miejsce "
        "{place} na {seats}|{level}: {games} gier, wyżej niż AI w {ahead}, najlepsze miejsce "
        "{place} na {seats}",
        "notify_on_mention": "Powiadomienia włączone: gdy na tym kanale otworzy się gra, "
        "wiadomość lobby wspomni o tobie. notify off je wyłącza.",
        "notify_on_private": "Powiadomienia włączone: gdy w tej grupie otworzy się gra, napiszę "
        "do ciebie prywatnie z linkiem do dołączenia. notify off (albo przycisk pod "
        "powiadomieniem) je wyłącza.",
        "notify_already_on": "Powiadomienia dla tego kanału były już włączone; notify off je "
        "wyłącza.",
        "notify_off": "Powiadomienia wyłączone: nie dam znać, gdy otworzy się tu gra.",
        "notify_already_off": "Powiadomienia dla tego kanału nie były włączone; notify on je "
        "włącza.",
        "notify_state_on": "Powiadomienia dla tego kanału są włączone; notify off je wyłącza.",
        "notify_state_off": "Powiadomienia dla tego kanału są wyłączone; notify on je włącza.",
        "notify_line": "🔔 Otwiera się tu gra: dołącz poniżej. (Wyłączenie tych wzmianek: "
        "przycisk Wyłącz powiadomienia albo notify off.)",
        "notify_private": "🔔 {host} otwiera stół Rummikub tam, skąd chcesz powiadomienia. "
        "Miejsca: {seats}. Dołącz albo wyłącz te powiadomienia.",
        "notify_joined": "Masz miejsce przy stole grupy; gospodarz rozda, gdy wszyscy będą gotowi.",
        "button_notify_off": "Wyłącz powiadomienia",
    },
}

PLURAL_BY: dict[str, str] = {
    "ladder_row": "games",
    "ladder_ai_row": "games",
    "stats_rating": "games",
    "stats_ai_row": "games",
}
"""The value whose number picks the form of these plural messages."""
