"""Polish for the command menus the platforms show: Discord slash-command and option
descriptions, and Telegram's command list.

Keys are the English descriptions exactly as the adapters write them; command names and the
examples in them stay English, since they are what the player types.
"""

from __future__ import annotations

PL: dict[str, str] = {
    # --- Discord: /rummikub and its options ------------------------------------------------
    "Play Rummikub in this channel": "Graj w Rummikub na tym kanale",
    "Host or Manage Channels: settings, kick, cancel; languages": "Gospodarz lub Zarządzanie "
    "kanałami: ustawienia, usuwanie, anulowanie; języki",
    "Show or change this channel's game settings": "Pokaż lub zmień ustawienia gry na tym kanale",
    "which setting to change (leave empty to see them all)": "które ustawienie zmienić (puste: "
    "pokaż wszystkie)",
    "the new value: a number, on/off for hints, classic/xp for edition": "nowa wartość: liczba, "
    "on/off dla hints, classic/xp dla edition",
    "Remove a seat from the lobby": "Usuń miejsce z poczekalni",
    "the seat number or the player's name": "numer miejsca lub imię gracza",
    "The bot's language in this channel, or just for you": "Język bota na tym kanale albo "
    "tylko dla ciebie",
    "this channel (everyone), or just you: your rack, panel and private answers": "ten kanał "
    "(wszyscy) albo tylko ty: twój stojak, panel i prywatne odpowiedzi",
    "en for English, pl for Polish": "en to angielski, pl to polski",
    "Cancel this channel's game": "Anuluj grę na tym kanale",
    "True answers yes when this would end the game (the bot asks first)": "True odpowiada "
    "tak, gdy to zakończyłoby grę (bot najpierw pyta)",
    "Open a game lobby in this channel": "Otwórz poczekalnię gry na tym kanale",
    "points needed for the initial meld (official: 30)": "punkty potrzebne do pierwszego "
    "wyłożenia (oficjalnie: 30)",
    "seconds per turn (official: 60; hours for slow games, e.g. 3600)": "sekundy na ruch "
    "(oficjalnie: 60; w wolnych grach godziny, np. 3600)",
    "games in the match (default: as many as players)": "gry w meczu (domyślnie: tyle, ilu graczy)",
    "allow /rummikub hint in this game": "pozwól na /rummikub hint w tej grze",
    "classic (106 tiles, 2-4 players) or xp (160 tiles, up to 6)": "classic (106 kostek, 2-4 "
    "graczy) lub xp (160 kostek, do 6)",
    "Take a seat in this channel's lobby": "Zajmij miejsce w poczekalni tego kanału",
    "Leave the lobby (or give up your seat)": "Wyjdź z poczekalni (lub zwolnij miejsce)",
    "Seat an AI player in the lobby": "Posadź w poczekalni gracza AI",
    "how strong the AI plays": "jak mocno gra AI",
    "Deal the tiles and start playing": "Rozdaj kostki i zacznij grę",
    "Play rack tiles as a new meld or onto meld N": "Wyłóż kostki ze stojaka jako nowy układ "
    "lub do układu N",
    "tiles from your rack, for example R5 R6 R7 or J K9 O9": "kostki ze stojaka, na przykład "
    "R5 R6 R7 lub J K9 O9",
    "add them to this meld number instead of starting a new meld": "dołóż je do układu o tym "
    "numerze zamiast zaczynać nowy",
    "Move table tiles from one meld to another": "Przenieś kostki na stole z jednego układu do "
    "innego",
    "the table tiles to move, for example R7": "kostki ze stołu do przeniesienia, na przykład R7",
    "the meld number they are in now": "numer układu, w którym teraz są",
    "the meld number to move them to, or new": "numer układu docelowego albo new",
    "Split a run before the given tile": "Podziel szereg przed podaną kostką",
    "meld number on the table (see /rummikub table)": "numer układu na stole (zobacz "
    "/rummikub table)",
    "the tile that starts the second part": "kostka, od której zaczyna się druga część",
    "Take a joker by putting the tile it stands for in its place": "Weź dżokera, kładąc na jego "
    "miejsce kostkę, którą zastępuje",
    "the meld number holding the joker": "numer układu z dżokerem",
    "the tile the joker stands for (from your rack unless you give from)": "kostka, którą "
    "zastępuje dżoker (ze stojaka, chyba że podasz from)",
    "take that tile from this meld number instead of your rack": "weź tę kostkę z układu o tym "
    "numerze zamiast ze stojaka",
    "State the whole new table at once": "Podaj od razu cały nowy stół",
    "every meld, separated by /, for example R4 R5 R6 / K9 B9 O9": "wszystkie układy "
    "rozdzielone /, na przykład R4 R5 R6 / K9 B9 O9",
    "Let the bot find a legal table using these tiles": "Niech bot znajdzie poprawny stół z "
    "tymi kostkami",
    "rack tiles to include (leave empty to use as many as possible)": "kostki ze stojaka do "
    "użycia (puste: jak najwięcej)",
    "Take back the last step of your turn": "Cofnij ostatni krok ruchu",
    "Discard your whole draft for this turn": "Odrzuć cały szkic tego ruchu",
    "End your turn (with nothing played, you draw)": "Zakończ ruch (jeśli nic nie wyłożysz, "
    "dobierasz)",
    "Draw one tile and end your turn": "Dobierz jedną kostkę i zakończ ruch",
    "Show the best play for your rack (if allowed)": "Pokaż najlepszy ruch dla twojego stojaka "
    "(jeśli wolno)",
    "Show your rack privately": "Pokaż tylko tobie twój stojak",
    "sort your rack by colour or by number": "sortuj stojak według koloru lub numeru",
    "Show the table with numbered melds": "Pokaż stół z ponumerowanymi układami",
    "Whose turn, time left, pool and tile counts": "Czyja kolej, pozostały czas, bank i liczba "
    "kostek",
    "This game's result and the match standings": "Wynik tej gry i tabela meczu",
    "This channel's best players": "Najlepsi gracze tego kanału",
    "This channel's finished games": "Zakończone gry na tym kanale",
    "The official rules, briefly": "Oficjalne zasady w skrócie",
    "How to play with this bot": "Jak grać z tym botem",
    "a verb or subject, for example play or jokers": "polecenie lub temat, na przykład play "
    "albo jokers",
    # --- Discord: the names of the choices in option menus (the values stay English) -------
    "by colour": "według koloru",
    "by number": "według numeru",
    "English": "angielski (English)",
    "Polski": "polski",
    "auto (my Discord language; just me)": "auto (język mojego Discorda; tylko ja)",
    "this channel": "ten kanał",
    "just me": "tylko ja",
    "classic": "klasyczna (classic)",
    "xp": "XP (xp)",
    "easy": "łatwy (easy)",
    "medium": "średni (medium)",
    "hard": "trudny (hard)",
    "threshold": "próg pierwszego wyłożenia (threshold)",
    "timer": "czas na ruch (timer)",
    "games": "gry w meczu (games)",
    "hints": "podpowiedzi (hints)",
    "edition": "wersja gry (edition)",
    "timeout_penalty": "kara za czas (timeout_penalty)",
    "rack_size": "kostki na start (rack_size)",
    # --- Telegram: the command menu --------------------------------------------------------
    "open a game lobby here: /new timer=86400 for a day per turn": "otwórz tu poczekalnię gry: "
    "/new timer=86400 to doba na ruch",
    "take a seat in the lobby": "zajmij miejsce w poczekalni",
    "give up your seat (an AI finishes for you)": "zwolnij miejsce (AI dokończy za ciebie)",
    "add an AI seat: /addbot, /addbot easy, /addbot hard": "dodaj gracza AI: /addbot, /addbot "
    "easy, /addbot hard",
    "host: deal the tiles and start": "gospodarz: rozdaj kostki i zacznij",
    "your turn panel: draft, tile buttons, Place, Done": "twój panel ruchu: szkic, przyciski "
    "kostek, Połóż, Gotowe",
    "show or change: /settings timer 3600, /settings threshold 25": "pokaż lub zmień: "
    "/settings timer 3600, /settings threshold 25",
    "host or admin: remove a seat: /kick 2": "gospodarz lub admin: usuń miejsce: /kick 2",
    "host or admin: end the game here": "gospodarz lub admin: zakończ tu grę",
    "confirm what the bot just asked you (leaving as the last person, cancel)": "potwierdź, o "
    "co bot właśnie zapytał (odejście ostatniej osoby, anulowanie)",
    "keep playing: drop the question the bot just asked you": "graj dalej: porzuć pytanie, "
    "które bot właśnie zadał",
    "new meld or extend one: /play R5 R6 R7, /play R8 to 3": "nowy układ lub dołożenie: "
    "/play R5 R6 R7, /play R8 to 3",
    "move table tiles: /move R7 from 2 to 5": "przenieś kostki na stole: /move R7 from 2 to 5",
    "split a run: /split 2 at R6": "podziel szereg: /split 2 at R6",
    "take a joker back: /swap J in 4 with O9": "weź dżokera: /swap J in 4 with O9",
    "state the whole new table: /arrange R4 R5 R6 / K9 B9 O9": "podaj cały nowy stół: "
    "/arrange R4 R5 R6 / K9 B9 O9",
    "let the bot place these tiles: /auto R6 K9": "niech bot wyłoży te kostki: /auto R6 K9",
    "take back the last step of your turn": "cofnij ostatni krok ruchu",
    "start your turn over": "zacznij ruch od nowa",
    "end your turn (you draw if you played nothing)": "zakończ ruch (dobierasz, jeśli nic nie "
    "wyłożysz)",
    "draw a tile and end your turn": "dobierz kostkę i zakończ ruch",
    "best play for your rack, where hints are allowed": "najlepszy ruch dla twojego stojaka, "
    "gdzie wolno podpowiadać",
    "select rack tiles for Place: /pick R5 R6 (again to unselect)": "wybierz kostki dla Połóż: "
    "/pick R5 R6 (ponownie, aby odznaczyć)",
    "where Place puts them: /target 3, /target new": "dokąd Połóż je kładzie: /target 3, "
    "/target new",
    "play the selected tiles to the target": "wyłóż wybrane kostki do celu",
    "send me my rack privately": "wyślij mi prywatnie mój stojak",
    "show the table": "pokaż stół",
    "whose turn, time left, tiles left": "czyja kolej, pozostały czas, pozostałe kostki",
    "match standings": "tabela meczu",
    "this group's best players": "najlepsi gracze tej grupy",
    "this group's recent games": "ostatnie gry tej grupy",
    "the rules and this group's settings": "zasady i ustawienia tej grupy",
    "commands, or /help play": "polecenia albo /help play",
    "order your rack: /sort number, /sort colour": "ułóż stojak: /sort number, /sort colour",
    "the bot's language here: /language en, /language pl": "język bota tutaj: /language en, "
    "/language pl",
    "your own language: /language pl, /language auto (your app's)": "twój własny język: "
    "/language pl, /language auto (język aplikacji)",
    "any command: /rummikub play R5 R6 R7": "dowolne polecenie: /rummikub play R5 R6 R7",
    "connect this chat to your game": "połącz ten czat ze swoją grą",
    "after a match: the same seats and settings again": "po meczu: te same miejsca i "
    "ustawienia jeszcze raz",
    "a player's record in this group: /stats, /stats Bob": "wyniki gracza w tej grupie: "
    "/stats, /stats Bob",
    "the last game as an animation and its record: /replay, /replay 2": "ostatnia gra jako "
    "animacja i jej zapis: /replay, /replay 2",
    # --- Discord: after a match ------------------------------------------------------------
    "Play again: the same seats and settings": "Zagraj jeszcze raz: te same miejsca i ustawienia",
    "Records of this server: leaderboard, history, stats, replay": "Wyniki tego serwera: "
    "ranking, historia, statystyki, powtórka",
    "A player's record across this server's channels": "Wyniki gracza na kanałach tego serwera",
    "a player's name or mention (leave empty for yourself)": "imię lub wzmianka gracza (puste: ty)",
    "A finished game as an animation, with its record": "Zakończona gra jako animacja, z jej "
    "zapisem",
    "which game of history (1 = the last)": "która gra z historii (1 = ostatnia)",
}
