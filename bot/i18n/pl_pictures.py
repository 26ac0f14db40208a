"""Polish for the labels and sentences drawn in images and text renderings (renderers/).

Keys are the English templates exactly as the code writes them (the message id); values are the
same sentence in Polish with the same {placeholders}. bot.i18n.translator reads this table.
A count-dependent phrase (``renderers.words.Plural``) is keyed by its English forms joined by
``|`` and answered with the three Polish forms: 1 kostka | 2-4 kostki | 5 kostek.

Words: kostka (tile), układ (meld), stół (table), stojak (rack), bank (pool), tura (turn),
gra (game), mecz (match), wyłożenie (initial meld).
"""

from __future__ import annotations

PL: dict[str, str] = {
    # Counts
    "{count} tile|{count} tiles": "{count} kostka|{count} kostki|{count} kostek",
    "{count} point|{count} points": "{count} punkt|{count} punkty|{count} punktów",
    "{count} invalid meld|{count} invalid melds": (
        "{count} niepoprawny układ|{count} niepoprawne układy|{count} niepoprawnych układów"
    ),
    "{names} and {last}": "{names} i {last}",
    # Table
    "Rummikub · turn {turn}": "Rummikub · tura {turn}",
    "Rummikub · game over: {name} wins": "Rummikub · koniec gry: wygrywa {name}",
    "Rummikub · game over: {name} wins with the lowest rack": (
        "Rummikub · koniec gry: wygrywa {name} (najmniej punktów na stojaku)"
    ),
    "Every tile on the table ({count})": "Wszystkie kostki na stole ({count})",
    "Player {number}": "Gracz {number}",
    "{count} in pool": "{count} w banku",
    "AI": "AI",
    "no meld": "bez wyłożenia",
    "empty": "pusty",
    "No melds on the table yet": "Na stole nie ma jeszcze układów",
    "Players: {players}": "Gracze: {players}",
    "to play": "gra teraz",
    "no meld yet": "jeszcze bez wyłożenia",
    "{name} to play": "gra {name}",
    "{time} left": "zostało {time}",
    "No melds on the table yet.": "Na stole nie ma jeszcze układów.",
    "(empty)": "(pusty)",
    "<- not valid: {reason}": "<- niepoprawny: {reason}",
    "marked": "zaznaczone",
    "{mark} = last move: {caption}": "{mark} = ostatni ruch: {caption}",
    "{mark} = last move": "{mark} = ostatni ruch",
    # The last move
    "{name} played {tiles}": "{name} wykłada {tiles}",
    "{name} played {tiles} when time ran out": "{name} wykłada {tiles} (czas minął)",
    "{name} drew a tile": "{name} dobiera kostkę",
    "{name} drew a tile when time ran out": "{name} dobiera kostkę (czas minął)",
    "{name} ran out of time mid-move and drew {count} tile|"
    "{name} ran out of time mid-move and drew {count} tiles": (
        "{name} nie kończy ruchu w czasie i dobiera {count} kostkę|"
        "{name} nie kończy ruchu w czasie i dobiera {count} kostki|"
        "{name} nie kończy ruchu w czasie i dobiera {count} kostek"
    ),
    "{name} passed (the pool is empty)": "{name} pasuje (bank jest pusty)",
    # Rack
    "Your rack": "Twój stojak",
    "{name}'s rack": "Stojak: {name}",
    "NEW": "NOWA",
    "TAKEN": "WZIĘTY",
    "{owner} ({tiles}, {points}):": "{owner} ({tiles}, {points}):",
    "{mark} = just drawn: {tiles}": "{mark} = właśnie dobrane: {tiles}",
    "{mark} = taken from the table, to play this turn: {tiles}": "{mark} = wzięte ze stołu, do "
    "zagrania w tej turze: {tiles}",
    # Draft
    "Your turn": "Twoja kolej",
    "Table and rack": "Stół i stojak",
    "placed or moved this turn": "wyłożone lub przesunięte w tej turze",
    "{mark} = placed or moved this turn": "{mark} = wyłożone lub przesunięte w tej turze",
    "Legal: done will commit it": "Poprawnie: done zatwierdzi ruch",
    "Legal: done will commit it.": "Poprawnie: done zatwierdzi ruch.",
    "All melds are valid": "Wszystkie układy są poprawne",
    "All melds are valid.": "Wszystkie układy są poprawne.",
    "Not legal yet: {reason}": "Jeszcze nie można zatwierdzić: {reason}",
    "Not legal yet.": "Jeszcze nie można zatwierdzić.",
    "not ready": "są przeszkody",
    "see below": "szczegóły niżej",
    "The table is empty": "Stół jest pusty",
    "The table is empty.": "Stół jest pusty.",
    "Rack left: {tiles}, {points}": "Na stojaku: {tiles}, {points}",
    "Meld {number} ({tiles}) is not valid: {reason}.": (
        "Układ {number} ({tiles}) jest niepoprawny: {reason}."
    ),
    # Results and standings
    "Standings": "Tabela",
    "Match standings": "Tabela meczu",
    "Game {number} of {games}": "Gra {number} z {games}",
    "After game {number} of {games}": "Po grze {number} z {games}",
    "Rummikub! {name} wins": "Rummikub! {name} wygrywa",
    "Rummikub! {name} wins game {number}": "Rummikub! {name} wygrywa grę {number}",
    "{name} wins with the lowest rack": "{name} wygrywa (najmniej punktów na stojaku)",
    "{name} wins game {number} with the lowest rack": (
        "{name} wygrywa grę {number} (najmniej punktów)"
    ),
    "{names} wins the match|{names} win the match": (
        "{names} wygrywa mecz|{names} wygrywają mecz|{names} wygrywają mecz"
    ),
    "The pool ran out and nobody could play.": "Bank się skończył i nikt nie mógł zagrać.",
    "Most games won wins the match; total score breaks ties.": (
        "Mecz wygrywa ten, kto wygra najwięcej gier; przy remisie decyduje suma punktów."
    ),
    "Player": "Gracz",
    "Left on rack": "Na stojaku",
    "This game": "Ta gra",
    "Total": "Razem",
    "Games won": "Wygrane gry",
    "Score": "Wynik",
    "out!": "wszystko wyłożone!",
    "none": "brak",
    "{points} this game": "{points} w tej grze",
    "left: {tiles}": "zostało: {tiles}",
    "out": "wszystko wyłożone",
    "{count} won": "wygrane: {count}",
    "total {points}": "razem {points}",
    "winner": "zwycięzca",
    # A player's last match (renderers/scoreline.py)
    "Last match": "Ostatni mecz",
    "Last match of {name}": "Ostatni mecz: {name}",
    "{date} · games played: {played} of {games}": "{date} · rozegrane gry: {played} z {games}",
    "Game {number}": "Gra {number}",
    "Score after each game": "Wynik po każdej grze",
}
