"""Every sentence the bot says, in English and Polish: the one message catalog.

The bot's own sentences are keyed by name (``MESSAGES``). The engine's rule errors and the
renderers' labels are :class:`engine.messages.Msg` templates keyed by their English text; their
Polish lives in ``bot/i18n/pl_engine.py`` and ``bot/i18n/pl_pictures.py`` and is reached through
:func:`translator`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from bot.i18n import board as i18n_board
from bot.i18n import pl_engine, pl_pictures, ratings
from engine.messages import Renderable, Translate, english
from renderers.words import FORMS, PLURAL_RULES

log = logging.getLogger(__name__)

LANGUAGES = ("en", "pl")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "lobby_open": "🀄 {host} opened a Rummikub table. Seats: {seats}. Join, add AI seats, "
        "then the host deals.",
        "lobby_state": "Lobby — seats: {seats}. Settings: {settings}.",
        "already_running": "There is already a game in this channel; type status to see it.",
        "no_game": "There is no game in this channel; type start to open one.",
        "joined": "{name} joined ({count} seated).",
        "already_seated": "You are already seated.",
        "table_full": "The table is full ({max} seat).|The table is full ({max} seats).",
        "left": "{name} left the lobby.",
        "left_game": "{name} left; an AI ({level}) plays their seat from now on.",
        "kicked_game": "{name} was removed from the table; an AI ({level}) plays their seat "
        "from now on.",
        "ended_left": "{name} left, the last person at the table: the game is over, with no "
        "result.",
        "ended_kicked": "{name}, the last person at the table, was removed: the game is over, "
        "with no result.",
        "ask_cancel": "Cancelling ends this game for everyone at the table, with no result and "
        "no scores: press Cancel the game, or type {command}, within {time}.",
        "ask_leave": "You are the last person at this table, so leaving ends the game for "
        "everyone, with no result: press Leave and end the game, or type {command}, within "
        "{time}.",
        "ask_kick": "{name} is the last person at this table, so removing them ends the game "
        "for everyone, with no result: press Remove and end the game, or type {command}, "
        "within {time}.",
        "ask_stale": "There is no open question to confirm (a question lasts {time}, within "
        "one turn, and a restart forgets it), so nothing was changed; type {command} to be "
        "asked again.",
        "ask_kept": "Nothing was changed; the game goes on.",
        "ask_none": "There is nothing to confirm: you have not been asked anything here (a "
        "question lasts two minutes, within one turn), so nothing was changed.",
        "button_cancel_yes": "Cancel the game",
        "button_leave_yes": "Leave and end the game",
        "button_kick_yes": "Remove and end the game",
        "button_keep_playing": "Keep playing",
        "not_seated": "You are not seated at this table.",
        "ai_added": "Added an AI seat ({level}) as seat {number}.",
        "host_only": "Only the host or a channel admin can do that.",
        "kicked": "{name} was removed from the table.",
        "bad_seat": "There is no seat {what}; seats are numbered 1 to {count}.",
        "cancelled": "The game was cancelled by {name}.",
        "need_players": "A game needs at least 2 seats; join or add an AI seat first.",
        "lobby_only": "That works only in the lobby, before the deal.",
        "playing_only": "That works only while a game is running.",
        "dealt": "Game {number} of {games} is dealt. {starter} starts (highest tile in the draw).",
        "not_your_turn": "It is not your turn; it is {name}'s turn.",
        "your_turn": "{mention}, it's your turn ({time} to play).",
        "played": "{name} played {tiles}.",
        "drew": "{name} drew a tile.",
        "passed": "{name} could not draw (the pool is empty) and passed.",
        "timeout_play": "Time ran out for {name}; the finished play stands: {tiles}.",
        "timeout_draw": "Time ran out for {name}, who draws a tile.",
        "timeout_penalty": "Time ran out for {name} in the middle of a change: the table goes "
        "back and {name} draws {count} tile.|Time ran out for {name} in the middle of a change: "
        "the table goes back and {name} draws {count} tiles.",
        "warning": "{mention}, {time} left in your turn.",
        "game_over_out": "Rummikub! {name} went out.",
        "game_over_blocked": "The pool is empty and nobody could play: {name} has the lowest rack.",
        "scores": "Scores: {scores}.",
        "match_next": "Next: game {number} of {games}.",
        "match_over": "The match is over. Winner: {names}.",
        "standings": "Standings after {played} of {games} game: {rows}.|Standings after "
        "{played} of {games} games: {rows}.",
        "rack": "Your rack ({count}): {tiles}",
        "rack_new": "New: {tile}.",
        "rack_draft": "Your rack ({count}; {placed} more is in your draft on the table): "
        "{tiles}|Your rack ({count}; {placed} more are in your draft on the table): {tiles}",
        "rack_held": "Taken from the table, to play this turn: {tiles}.",
        "hint_off": "Hints are off in this game. They are chosen before the deal: in the lobby "
        "the host types settings hints on.",
        "hint_none": "No play found for your rack; draw.",
        "hint": "Hint: {text}",
        "settings": "Settings: {settings}.",
        "setting_changed": "{name} changed {key} to {value}.",
        "leaderboard_empty": "No finished games in this channel yet.",
        "leaderboard": "Leaderboard: {rows}",
        "history_empty": "No finished games in this channel yet.",
        "history": "Recent games (replay N shows game N): {rows}",
        "history_none_finished": "Recent games (none played to its end, so none to replay): {rows}",
        "status": "Game {number}/{games}, turn {turn}: {name} to play, {time} left. Pool: {pool}. "
        "Racks: {counts}.",
        "selected": "Selected: {tiles}; target: {target}.",
        "selected_none": "Nothing is selected (pick R5 R6 selects tiles); target: {target}.",
        "nothing_selected": "Pick tiles first (pick R5 R6), then place.",
        "language_set": "Language: English.",
        "help": "Commands: {verbs}. Type help <command> for how to use one.",
        "help_verb": "Usage: {usage}",
        "rules": "Official Rummikub: groups of 3-4 same number in different colours, runs of 3+ "
        "in one colour (1 low, no 13-1). Initial meld {threshold}+ from your rack. Play a tile "
        "or draw; {seconds}s per turn (timeout: a legal play stands, else draw 1, an unfinished "
        "change rolls back and draws {penalty}). Settings: {settings}.",
        "languages": "Languages: {codes}. language en or pl sets this channel's; language me "
        "en, pl or auto sets yours (for what the bot sends you privately).",
        "my_languages": "Write language me followed by one of {codes}, or language me auto to "
        "follow your app's language.",
        "my_language_set": "Your language: {name}. Your rack, panel, hints and private answers "
        "come in {name}; the channel stays in {channel}. Write language me auto to follow your "
        "app's language again.",
        "my_language_auto": "You follow your app's language again (else the channel's): "
        "{name} for now. Public messages stay in {channel}.",
        "my_language_chosen": "Your language: {name}, as you chose (language me auto follows "
        "your app's language).",
        "my_language_follows": "Your language: {name}, from your app or the channel (language "
        "me en or language me pl chooses one).",
        "button_join": "Join",
        "button_leave": "Leave",
        "button_add_ai": "Add AI",
        "button_deal": "Deal",
        "games_players": "one per player",
        "settings_line": "edition {edition}, threshold {threshold}, timer {timer}, games {games}, "
        "hints {hints}, away_after {away}",
        "setting_on": "on",
        "setting_off": "off",
        "button_sort_colour": "Sort by colour",
        "button_sort_number": "Sort by number",
        "button_my_turn": "My turn",
        "button_my_rack": "My rack",
        "button_status": "Status",
        "button_place": "Place",
        "button_auto": "Auto",
        "button_undo": "Undo",
        "button_reset": "Reset",
        "button_draw": "Draw",
        "button_done": "Done",
        "button_show_rack": "Show my rack",
        "button_open_private": "Open my private chat",
        "option_new_meld": "New meld",
        "autocomplete_new_meld": "new meld",
        "option_meld": "Meld {number}",
        "select_tiles": "Tiles to place",
        "select_target": "Where to",
        "standings_row": "{rank}. {name}: {won} won, {total}",
        "leaderboard_row": "{rank}. {name}: {won}/{played} won, {total}",
        "history_won": "{number}. {when} {name} won ({score})",
        "history_cancelled": "{when} cancelled (no replay)",
        "history_ended": "{number}. {when} ended",
        "internal_error": "Sorry, that failed on my side; the game is saved, please try again.",
        "stale_button": "This button belongs to an older version of the bot and no longer works; "
        "use /rummikub status to see the game.",
        "stale_command": "That command is from an older version of the bot; an update is in "
        "progress. Please try again in a minute (Discord may need a restart to show the new "
        "commands).",
        "guild_only": "Rummikub is played in a server channel: use /rummikub there.",
        "no_post": "I can't post in this channel: give me the View Channel, Send Messages, Attach "
        "Files and Embed Links permissions here.",
        "dm_closed": "{mention}, I can't send you direct messages (your privacy settings block "
        "them), so your rack will not arrive by DM: press Show my rack or use /rummikub rack to "
        "see it privately.",
        "bad_option": "I could not read {value}: {reason}",
        "done_ack": "Done.",
        "tg_failure": "Something went wrong on my side while running that command; please try "
        "again.",
        "tg_expired": "This button has expired; send /rack for a fresh panel.",
        "tg_open_private": "{name}, I can't send you private messages yet. Tap the button below "
        "and press Start: your rack and turn panel will be waiting there.",
        "terminal_continue": "Continuing your unfinished game.",
        "terminal_bye": "Bye - your game is saved and its turn clock is stopped; run the same "
        "command to continue.",
        "terminal_bye_new": "Bye - your game is saved and its turn clock is stopped; to continue "
        "it, run the same command without --new.",
        "terminal_over": "Thanks for playing!",
        "terminal_settings": "Turn timer: {time}; hints: {hints}. To change them, start again "
        "with e.g. --timer 300 --hints (add --new to leave this match). Type help for the "
        "commands, quit to leave.",
        "terminal_help": "In the terminal also: quit (or exit, or Ctrl-D) leaves; the game is "
        "saved, its turn clock stops, and the same command continues it.",
        "terminal_help_new": "In the terminal also: quit (or exit, or Ctrl-D) leaves; the game "
        "is saved, its turn clock stops, and the same command without --new continues it.",
        "terminal_hint_off": "Hints are off in this match. In the terminal they are chosen when "
        "a match starts: quit, then start again with --new --hints.",
        "terminal_restart_tip": "In the terminal the settings are chosen when a match starts: "
        "quit, then start again with --new and e.g. --timer 300 --hints.",
        "error": "Something went wrong on our side; nothing was changed. Please try again.",
        "busy": "Another move on this table was saved at the same moment; nothing was changed. "
        "Please try again.",
        "turn_over": "That turn is already over; nothing was changed.",
        "step_over": "That button was for an earlier step of your turn; nothing was changed.",
        "kick_ai": "{name} is an AI seat; it plays on until the game ends.",
        "away": "{name} let {count} turn run out: an AI plays their seat until they send any "
        "command (scores stay theirs).|{name} let {count} turns in a row run out: an AI plays "
        "their seat until they send any command (scores stay theirs).",
        "back": "{name} is back and plays their own seat again.",
        "bad_away": "away_after is auto, off, or a number of turns from 1 to {most}.",
        "button_rematch": "Rematch",
        "replay": "Replay of the game of {when} ({names}); its record is attached as game.rkr.",
        "replay_none": "This channel has no finished game to replay yet.",
        "replay_nth": "Finished games in this channel's history: {count}; replay 1 is the newest.",
        "replay_usage": "Write replay, or replay N for the Nth newest game of the history.",
        "stats": "{name} — channels: {channels}; games won: {won} of {played}; average score: "
        "{average}; best game: {best}; matches won: {matches_won} of {matches}.",
        "stats_none": "{name} has no finished game in this channel yet.",
        "stats_none_server": "{name} has no finished game in any channel of this server yet.",
        "stats_unknown": "Nobody called {name!r} has played here; write a name as the "
        "leaderboard shows it.",
        "rematch_open": "{name} asks for a rematch with the same settings. Seats: {seats}.",
        "rematch_yes": "{name} is in for the rematch.",
        "rematch_waiting": "Waiting for: {names} (Rematch or Join; Leave to sit out; the host "
        "can deal now).",
        "seat_waiting": "(not confirmed)",
        "no_rematch": "There is no finished match here to play again; type start to open a table.",
        "rematch_players_only": "Only the players of the last match can ask for a rematch; type "
        "start to open a new table.",
        "too_long": "That command is too long (at most {most} character); nothing was "
        "changed.|That command is too long (at most {most} characters); nothing was changed.",
        "bad_number": "Write numbers with the digits 0-9, at most 4 of them (not {number!r}).",
        "replay_range": "replay N takes a number from 1 (the newest finished game) to the "
        "number of finished games in this channel's history, not {number!r}.",
    },
    "pl": {
        "lobby_open": "🀄 {host} otworzył stół Rummikub. Miejsca: {seats}. Dołączcie, dodajcie "
        "graczy AI, a gospodarz rozda kostki.",
        "lobby_state": "Poczekalnia — miejsca: {seats}. Ustawienia: {settings}.",
        "already_running": "Na tym kanale trwa już gra; wpisz status, aby ją zobaczyć.",
        "no_game": "Na tym kanale nie ma gry; wpisz start, aby ją otworzyć.",
        "joined": "{name} dołącza ({count} przy stole).",
        "already_seated": "Już siedzisz przy stole.",
        "table_full": "Stół jest pełny ({max} miejsce).|Stół jest pełny ({max} miejsca).|"
        "Stół jest pełny ({max} miejsc).",
        "left": "{name} opuszcza poczekalnię.",
        "left_game": "{name} wychodzi; od teraz za niego gra AI ({level}).",
        "kicked_game": "{name} został(a) usunięty(a) ze stołu; od teraz za to miejsce gra AI "
        "({level}).",
        "ended_left": "{name} wychodzi jako ostatnia osoba przy stole: gra się kończy, bez wyniku.",
        "ended_kicked": "{name}, ostatnia osoba przy stole, został(a) usunięty(a): gra się "
        "kończy, bez wyniku.",
        "ask_cancel": "Anulowanie kończy tę grę dla wszystkich przy stole, bez wyniku i bez "
        "punktów: naciśnij Anuluj grę albo wpisz {command} w ciągu {time}.",
        "ask_leave": "Jesteś ostatnią osobą przy tym stole, więc twoje wyjście kończy grę dla "
        "wszystkich, bez wyniku: naciśnij Wyjdź i zakończ grę albo wpisz {command} w ciągu "
        "{time}.",
        "ask_kick": "{name} to ostatnia osoba przy tym stole, więc usunięcie jej kończy grę dla "
        "wszystkich, bez wyniku: naciśnij Usuń i zakończ grę albo wpisz {command} w ciągu "
        "{time}.",
        "ask_stale": "Nie ma otwartego pytania do potwierdzenia (pytanie czeka {time}, tylko w "
        "tej samej turze, a restart bota je kasuje), więc nic nie zmieniono; wpisz {command}, "
        "aby zapytać ponownie.",
        "ask_kept": "Nic nie zmieniono; gra toczy się dalej.",
        "ask_none": "Nie ma czego potwierdzać: nie zadano ci tu żadnego pytania (pytanie czeka "
        "dwie minuty, tylko w tej samej turze), więc nic nie zmieniono.",
        "button_cancel_yes": "Anuluj grę",
        "button_leave_yes": "Wyjdź i zakończ grę",
        "button_kick_yes": "Usuń i zakończ grę",
        "button_keep_playing": "Gram dalej",
        "not_seated": "Nie siedzisz przy tym stole.",
        "ai_added": "Dodano gracza AI ({level}) na miejscu {number}.",
        "host_only": "Tylko gospodarz lub administrator kanału może to zrobić.",
        "kicked": "{name} został usunięty ze stołu.",
        "bad_seat": "Nie ma miejsca {what}; miejsca mają numery od 1 do {count}.",
        "cancelled": "Grę anulował(a) {name}.",
        "need_players": "Gra wymaga co najmniej 2 miejsc; dołącz lub dodaj gracza AI.",
        "lobby_only": "To działa tylko w poczekalni, przed rozdaniem.",
        "playing_only": "To działa tylko w trakcie gry.",
        "dealt": "Rozdano grę {number} z {games}. {starter} wylosował(a) najwyższą kostkę i "
        "zaczyna.",
        "not_your_turn": "To nie twoja kolej; teraz gra {name}.",
        "your_turn": "{mention}, twoja kolej ({time} na ruch).",
        "played": "{name} wykłada {tiles}.",
        "drew": "{name} dobiera kostkę.",
        "passed": "{name} nie może dobrać (bank jest pusty) i pasuje.",
        "timeout_play": "Czas {name} minął; gotowy ruch zostaje: {tiles}.",
        "timeout_draw": "Czas {name} minął; dobiera kostkę.",
        "timeout_penalty": "Czas {name} minął w trakcie zmian: stół wraca do poprzedniego stanu, "
        "a {name} dobiera {count} kostkę.|Czas {name} minął w trakcie zmian: stół wraca do "
        "poprzedniego stanu, a {name} dobiera {count} kostki.|Czas {name} minął w trakcie zmian: "
        "stół wraca do poprzedniego stanu, a {name} dobiera {count} kostek.",
        "warning": "{mention}, zostało {time} na twój ruch.",
        "game_over_out": "Rummikub! {name} wykłada ostatnią kostkę.",
        "game_over_blocked": "Bank jest pusty i nikt nie może grać: {name} ma najmniej punktów.",
        "scores": "Wyniki: {scores}.",
        "match_next": "Dalej: gra {number} z {games}.",
        "match_over": "Mecz zakończony. Zwycięzca: {names}.",
        "standings": "Tabela (rozegrane gry: {played} z {games}): {rows}.",
        "rack": "Twój stojak ({count}): {tiles}",
        "rack_new": "Nowe: {tile}.",
        "rack_draft": "Twój stojak ({count}; jeszcze {placed} leży na stole w twoim szkicu): "
        "{tiles}|Twój stojak ({count}; kolejne {placed} leżą na stole w twoim szkicu): {tiles}|"
        "Twój stojak ({count}; kolejnych {placed} leży na stole w twoim szkicu): {tiles}",
        "rack_held": "Wzięte ze stołu, do zagrania w tej turze: {tiles}.",
        "hint_off": "Podpowiedzi są w tej grze wyłączone. Wybiera się je przed rozdaniem: w "
        "poczekalni gospodarz wpisuje settings hints on.",
        "hint_none": "Brak ruchu dla twojego stojaka; dobierz.",
        "hint": "Podpowiedź: {text}",
        "settings": "Ustawienia: {settings}.",
        "setting_changed": "{name} zmienia {key} na {value}.",
        "leaderboard_empty": "Na tym kanale nie ma jeszcze zakończonych gier.",
        "leaderboard": "Ranking: {rows}",
        "history_empty": "Na tym kanale nie ma jeszcze zakończonych gier.",
        "history": "Ostatnie gry (replay N pokazuje grę N): {rows}",
        "history_none_finished": "Ostatnie gry (żadna nie dobiegła końca, więc nie ma "
        "powtórek): {rows}",
        "status": "Gra {number}/{games}, tura {turn}: gra {name}, zostało {time}. Bank: {pool}. "
        "Kostki: {counts}.",
        "selected": "Wybrane: {tiles}; cel: {target}.",
        "selected_none": "Nic nie wybrano (pick R5 R6 wybiera kostki); cel: {target}.",
        "nothing_selected": "Najpierw wybierz kostki (pick R5 R6), potem place.",
        "language_set": "Język: polski.",
        "help": "Polecenia: {verbs}. Wpisz help <polecenie>, aby zobaczyć użycie.",
        "help_verb": "Użycie: {usage}",
        "rules": "Oficjalne zasady: grupy 3-4 kostek o tym samym numerze w różnych kolorach, "
        "szeregi 3+ kolejnych numerów w jednym kolorze (1 najniższa, bez 13-1). Pierwsze wyłożenie "
        "{threshold}+ z własnego stojaka. Wyłóż kostkę lub dobierz; {seconds}s na ruch "
        "(po czasie: poprawny ruch zostaje, bez zmian dobierasz 1, niedokończona zmiana "
        "jest cofana i dobierasz {penalty}). Ustawienia: {settings}.",
        "languages": "Języki: {codes}. language en lub pl ustawia język kanału; language me "
        "en, pl lub auto ustawia twój (dla tego, co bot wysyła ci prywatnie).",
        "my_languages": "Wpisz language me i jeden z kodów {codes} albo language me auto, aby "
        "bot mówił językiem twojej aplikacji.",
        "my_language_set": "Twój język: {name}. Stojak, panel, podpowiedzi i prywatne odpowiedzi "
        "przychodzą po polsku; kanał zostaje przy języku: {channel}. Wpisz language me auto, "
        "aby znów używać języka aplikacji.",
        "my_language_auto": "Znów używasz języka swojej aplikacji (a gdy go nie znamy, języka "
        "kanału): na razie {name}. Wiadomości publiczne zostają w języku: {channel}.",
        "my_language_chosen": "Twój język: {name}, tak jak wybrano (language me auto wraca do "
        "języka aplikacji).",
        "my_language_follows": "Twój język: {name}, z aplikacji lub kanału (language me en "
        "lub language me pl wybiera jeden).",
        "button_join": "Dołącz",
        "button_leave": "Wyjdź",
        "button_add_ai": "Dodaj AI",
        "button_deal": "Rozdaj",
        "games_players": "po jednej na gracza",
        "settings_line": "edycja (edition) {edition}, próg (threshold) {threshold}, czas na ruch "
        "(timer) {timer}, gry (games): {games}, podpowiedzi (hints): {hints}, "
        "nieobecny po (away_after): {away}",
        "setting_on": "włączone",
        "setting_off": "wyłączone",
        "button_sort_colour": "Sortuj wg koloru",
        "button_sort_number": "Sortuj wg numeru",
        "button_my_turn": "Mój ruch",
        "button_my_rack": "Mój stojak",
        "button_status": "Stan gry",
        "button_place": "Połóż",
        "button_auto": "Auto",
        "button_undo": "Cofnij",
        "button_reset": "Od nowa",
        "button_draw": "Dobierz",
        "button_done": "Gotowe",
        "button_show_rack": "Pokaż mój stojak",
        "button_open_private": "Otwórz mój czat prywatny",
        "option_new_meld": "Nowy układ",
        "autocomplete_new_meld": "nowy układ",
        "option_meld": "Układ {number}",
        "select_tiles": "Kostki do wyłożenia",
        "select_target": "Gdzie",
        "standings_row": "{rank}. {name}: wygrane {won}, {total}",
        "leaderboard_row": "{rank}. {name}: wygrane {won}/{played}, {total}",
        "history_won": "{number}. {when} wygrywa {name} ({score})",
        "history_cancelled": "{when} anulowana (bez powtórki)",
        "history_ended": "{number}. {when} zakończona",
        "internal_error": "Przepraszam, coś zawiodło po mojej stronie; gra jest zapisana, "
        "spróbuj ponownie.",
        "stale_button": "Ten przycisk pochodzi ze starszej wersji bota i już nie działa; "
        "wpisz /rummikub status, aby zobaczyć grę.",
        "stale_command": "To polecenie pochodzi ze starszej wersji bota; trwa aktualizacja. "
        "Spróbuj ponownie za minutę (Discord może potrzebować ponownego uruchomienia, aby "
        "pokazać nowe polecenia).",
        "guild_only": "W Rummikub gra się na kanale serwera: użyj tam /rummikub.",
        "no_post": "Nie mogę pisać na tym kanale: nadaj mi tutaj uprawnienia Wyświetlanie "
        "kanału, Wysyłanie wiadomości, Załączanie plików i Osadzanie linków.",
        "dm_closed": "{mention}, nie mogę wysyłać ci prywatnych wiadomości (blokują je twoje "
        "ustawienia prywatności), więc stojak nie przyjdzie w wiadomości prywatnej: naciśnij "
        "Pokaż mój stojak albo użyj /rummikub rack, aby zobaczyć go tylko dla siebie.",
        "bad_option": "Nie rozumiem {value}: {reason}",
        "done_ack": "Gotowe.",
        "tg_failure": "Coś poszło nie tak po mojej stronie przy tym poleceniu; spróbuj ponownie.",
        "tg_expired": "Ten przycisk wygasł; wyślij /rack, aby dostać nowy panel.",
        "tg_open_private": "{name}, nie mogę jeszcze pisać do ciebie prywatnie. Dotknij "
        "przycisku poniżej i naciśnij Start: czekają tam twój stojak i panel ruchu.",
        "terminal_continue": "Wznawiam twoją niedokończoną grę.",
        "terminal_bye": "Do zobaczenia - gra jest zapisana, a jej zegar zatrzymany; uruchom "
        "to samo polecenie, aby grać dalej.",
        "terminal_bye_new": "Do zobaczenia - gra jest zapisana, a jej zegar zatrzymany; aby grać "
        "dalej, uruchom to samo polecenie bez --new.",
        "terminal_over": "Dzięki za grę!",
        "terminal_settings": "Czas na ruch: {time}; podpowiedzi: {hints}. Aby to zmienić, "
        "uruchom ponownie np. z --timer 300 --hints (dodaj --new, aby porzucić ten mecz). "
        "Wpisz help, aby zobaczyć polecenia, quit, aby wyjść.",
        "terminal_help": "W terminalu także: quit (albo exit, albo Ctrl-D) kończy; gra jest "
        "zapisana, jej zegar staje, a to samo polecenie ją wznawia.",
        "terminal_help_new": "W terminalu także: quit (albo exit, albo Ctrl-D) kończy; gra jest "
        "zapisana, jej zegar staje, a to samo polecenie bez --new ją wznawia.",
        "terminal_hint_off": "Podpowiedzi są w tym meczu wyłączone. W terminalu wybiera się je "
        "na początku meczu: wyjdź (quit) i uruchom ponownie z --new --hints.",
        "terminal_restart_tip": "W terminalu ustawienia wybiera się na początku meczu: wyjdź "
        "(quit) i uruchom ponownie z --new i np. --timer 300 --hints.",
        "error": "Coś poszło nie tak po naszej stronie; nic nie zmieniono. Spróbuj ponownie.",
        "busy": "W tej samej chwili zapisano inny ruch przy tym stole; nic nie zmieniono. "
        "Spróbuj ponownie.",
        "turn_over": "Ta tura już się skończyła; nic nie zmieniono.",
        "step_over": "Ten przycisk dotyczył wcześniejszego kroku twojej tury; nic nie zmieniono.",
        "kick_ai": "{name} to miejsce AI; gra dalej do końca partii.",
        "away": "{name} nie ruszył się w kolejnych turach (ile: {count}): za to miejsce gra AI, "
        "dopóki nie wyśle jakiejkolwiek komendy (wyniki zostają jego).",
        "back": "{name} wraca i znów gra na swoim miejscu.",
        "bad_away": "away_after to auto, off albo liczba tur od 1 do {most}.",
        "button_rematch": "Rewanż",
        "replay": "Powtórka gry z {when} ({names}); jej zapis jest w załączonym pliku game.rkr.",
        "replay_none": "Na tym kanale nie ma jeszcze zakończonej gry do odtworzenia.",
        "replay_nth": "Historia tego kanału ma zakończonych gier: {count}; replay 1 to najnowsza.",
        "replay_usage": "Wpisz replay albo replay N dla N-tej najnowszej gry z historii.",
        "stats": "{name} — kanały: {channels}; wygrane gry: {won} z {played}; średni wynik: "
        "{average}; najlepsza gra: {best}; wygrane mecze: {matches_won} z {matches}.",
        "stats_none": "{name}: brak zakończonych gier na tym kanale.",
        "stats_none_server": "{name}: brak zakończonych gier na którymkolwiek kanale tego serwera.",
        "stats_unknown": "Nikt o imieniu {name!r} tu nie grał; wpisz imię tak, jak pokazuje je "
        "ranking.",
        "rematch_open": "{name} proponuje rewanż z tymi samymi ustawieniami. Miejsca: {seats}.",
        "rematch_yes": "{name} chce zagrać rewanż.",
        "rematch_waiting": "Czekamy na: {names} (Rewanż lub Dołącz; Wyjdź, aby nie grać; "
        "gospodarz może rozdać od razu).",
        "seat_waiting": "(niepotwierdzone)",
        "no_rematch": "Nie ma tu zakończonego meczu do powtórzenia; wpisz start, aby otworzyć "
        "stół.",
        "rematch_players_only": "O rewanż mogą poprosić tylko gracze ostatniego meczu; wpisz "
        "start, aby otworzyć nowy stół.",
        "too_long": "To polecenie jest za długie (najwyżej {most} znak); nic nie zmieniono.|"
        "To polecenie jest za długie (najwyżej {most} znaki); nic nie zmieniono.|To polecenie "
        "jest za długie (najwyżej {most} znaków); nic nie zmieniono.",
        "bad_number": "Liczby pisz cyframi 0-9, najwyżej czterema (nie {number!r}).",
        "replay_range": "replay N przyjmuje liczbę od 1 (najnowsza zakończona gra) do liczby "
        "zakończonych gier w historii tego kanału, nie {number!r}.",
    },
}


for _lang, _sentences in ratings.MESSAGES.items():  # ratings and notify: their own module
    MESSAGES[_lang].update(_sentences)
for _lang, _board in i18n_board.MESSAGES.items():  # the web board's page and button
    MESSAGES[_lang].update(_board)


PLURAL_BY: dict[str, str] = {
    "table_full": "max",
    "standings": "games",
    "rack_draft": "placed",
    "too_long": "most",
    **ratings.PLURAL_BY,
}
"""The value whose number picks the form of a plural message (``count`` when not listed)."""


def plural(count: int, forms: str) -> str:
    """The form of ``forms`` that goes with ``count``: the one plural-aware choice.

    ``forms`` are joined by ``|``: two in English (one, other), three in Polish (one: 1; few:
    2-4, 22-24, ... but not 12-14; many: 0, 5-21, 25, ...). The same rule picks the forms of
    the renderers' :class:`renderers.words.Plural` phrases, so a sentence and an image agree.
    """
    choices = forms.split(FORMS)
    rule = PLURAL_RULES.get(len(choices))
    if rule is None:
        return choices[-1]
    return choices[rule(abs(count))]


def t(lang: str, message: str, /, **values: Any) -> str:
    """The sentence ``message`` in ``lang`` (English when missing), filled with ``values``.

    A message with forms (``one|other``) takes the form that goes with its counted value.
    """
    table = MESSAGES.get(lang, MESSAGES["en"])
    template = table.get(message) or MESSAGES["en"][message]
    if FORMS in template:
        template = plural(_counted(message, values), template)
    return template.format(**values)


def _counted(message: str, values: dict[str, Any]) -> int:
    """The number a plural message agrees with (its ``PLURAL_BY`` value, else ``count``)."""
    for name in (PLURAL_BY.get(message), "count"):
        value = values.get(name) if name else None
        if isinstance(value, int):
            return value
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,9}", value.strip()):
            return int(value)
    return 2  # no number given: the general plural form


TEMPLATES: dict[str, dict[str, str]] = {
    "en": {},
    "pl": {**pl_engine.PL, **pl_pictures.PL},
}
"""English template -> template in the language, for engine and renderer messages."""


def translator(lang: str) -> Translate:
    """The function that maps an English template to ``lang`` (itself when not translated)."""
    table = TEMPLATES.get(lang)
    if not table:
        return english
    return lambda template: table.get(template, template)


def say(lang: str, message: Renderable) -> str:
    """A rules error or an engine/renderer message, in ``lang``."""
    return message.render(translator(lang))


def known_language(locale: object) -> str | None:
    """A platform's user locale (``pl``, ``pl-PL``, ``en-US``, ``Locale.polish``) as one of
    LANGUAGES, or None for one we do not speak (the caller falls back to the channel's)."""
    code = str(getattr(locale, "value", locale) or "").lower()
    return next((lang for lang in LANGUAGES if code.startswith(lang)), None)


LANGUAGE_NAMES = {
    "en": {"en": "English", "pl": "Polish"},
    "pl": {"en": "angielski", "pl": "polski"},
}


def language_name(lang: str, code: str) -> str:
    """The name of the language ``code``, written in ``lang``."""
    return LANGUAGE_NAMES.get(lang, LANGUAGE_NAMES["en"]).get(code, code)


def locale_language(locale: object) -> str:
    """A platform's user locale (``pl``, ``pl-PL``, ``Locale.polish``) as one of LANGUAGES."""
    code = str(getattr(locale, "value", locale) or "").lower()
    return next((lang for lang in LANGUAGES if code.startswith(lang)), "en")


def duration(seconds: float) -> str:
    """``45s``, ``3m 20s``, ``5h 02m``, ``2d 3h``: short and language-neutral."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600}h"
