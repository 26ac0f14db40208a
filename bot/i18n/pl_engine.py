"""Polish for the rules errors and engine sentences (engine/) and the bot's own input errors.

Keys are the English templates exactly as the code writes them (the message id); values are the
same sentence in Polish with the same {placeholders}. bot.i18n.translator reads this table;
tests/bot/i18n/test_i18n_rules.py checks that every template in the code is here with its blanks.
Command words (play, move, done...) stay English: they are what the player types.
"""

from __future__ import annotations

PL: dict[str, str] = {
    # --- lists (engine/messages.py) --------------------------------------------------------
    "{choices} or {last}": "{choices} lub {last}",
    "{items} and {last}": "{items} i {last}",
    # --- sets (engine/melds.py) ------------------------------------------------------------
    "{tiles} is not a valid set: {reason}.": "{tiles} to nie jest poprawny układ: {reason}.",
    "{number} is missing": "brakuje {number}",
    "{numbers} are missing": "brakuje {numbers}",
    "the same physical tile appears twice": "ta sama fizyczna kostka występuje dwa razy",
    "a set needs at least 3 tiles, this has {count}": "układ wymaga co najmniej 3 kostek, "
    "a ten ma {count}",
    "a set needs at least one real tile besides jokers": "układ wymaga oprócz dżokerów co "
    "najmniej jednej prawdziwej kostki",
    "Only a joker can be pinned (J=R4), not {tile}.": "Wskazać, co zastępuje (J=R4), można "
    "tylko dżokerowi, nie {tile}.",
    "a group needs one number in different colours and a run one colour in a row; "
    "this mixes numbers and colours": "grupa to jeden numer w różnych kolorach, a szereg to "
    "kolejne numery w jednym kolorze; tu są pomieszane numery i kolory",
    "a run must be all one colour": "szereg musi być w jednym kolorze",
    "a group must be one number": "grupa musi mieć jeden numer",
    "a group has at most 4 tiles (one per colour), this has {count}": "grupa ma najwyżej "
    "4 kostki (po jednej w każdym kolorze), a ta ma {count}",
    "a group needs different colours, and {tile} appears twice": "grupa wymaga różnych "
    "kolorów, a {tile} występuje dwa razy",
    "the joker is pinned to {pin} but this is a group of {number}s": "dżoker ma zastępować "
    "{pin}, ale to jest grupa kostek {number}",
    "the joker cannot be {pin}: that colour is already there": "dżoker nie może być {pin}: "
    "ten kolor już tu jest",
    "a group has at most 4 tiles": "grupa ma najwyżej 4 kostki",
    "a run cannot hold two {number}s": "szereg nie może mieć dwóch kostek {number}",
    "a run has at most 13 tiles (1 to 13)": "szereg ma najwyżej 13 kostek (od 1 do 13)",
    "the joker is pinned to {pin} but this run is {color}": "dżoker ma zastępować {pin}, ale "
    "ten szereg jest w kolorze {color}",
    "the joker is pinned to {pin} but {pin} is already there": "dżoker ma zastępować {pin}, "
    "ale {pin} już tu jest",
    "1 is always the lowest tile, so a run cannot go from 13 back to 1": "1 jest zawsze "
    "najniższą kostką, więc szereg nie może przejść z 13 z powrotem do 1",
    "a run cannot go past 13 or below 1 (no 13-1 wrap)": "szereg nie może wyjść ponad 13 ani "
    "poniżej 1 (nie ma przejścia 13-1)",
    # --- whole-turn checks (engine/rules.py) -----------------------------------------------
    "A joker on the table must stay on the table.": "Dżoker leżący na stole musi na nim zostać.",
    "You can take a joker from the table only after your initial meld.": "Dżokera ze stołu "
    "możesz wziąć dopiero po pierwszym wyłożeniu.",
    "To take the joker from meld {number}, put {wanted} in its place in that set.": "Aby "
    "wziąć dżokera z układu {number}, połóż w tym układzie na jego miejsce {wanted}.",
    "A joker taken from the table must go into a new set, not onto a set that was already "
    "there.": "Dżoker wzięty ze stołu musi trafić do nowego układu, a nie do układu, który już "
    "leżał na stole.",
    "Before your initial meld you can't change the sets on the table; play new sets from your "
    "rack only.": "Przed pierwszym wyłożeniem nie możesz zmieniać układów na stole; wykładaj "
    "tylko nowe układy ze swojego stojaka.",
    "Your initial meld must use only tiles from your own rack.": "Pierwsze wyłożenie może "
    "zawierać tylko kostki z twojego stojaka.",
    "Your initial meld is worth {total}; it must total at least {threshold} (a joker counts "
    "as the tile it stands for).": "Twoje pierwsze wyłożenie jest warte {total}; musi dać "
    "razem co najmniej {threshold} (dżoker liczy się jak kostka, którą zastępuje).",
    # --- the turn draft (engine/draft.py) --------------------------------------------------
    "on your rack": "na twoim stojaku",
    "in meld {number}": "w układzie {number}",
    "Meld {number}: {reason}": "Układ {number}: {reason}",
    "The joker you took must be played this turn in a new set (for example: play J "
    "{example}).": "Wzięty dżoker musi w tym ruchu trafić do nowego układu (na przykład: "
    "play J {example}).",
    "You must play at least one tile from your rack (or draw to end your turn).": "Musisz "
    "wyłożyć co najmniej jedną kostkę ze stojaka (albo dobrać, aby zakończyć ruch).",
    "{action} is not a draft step.": "{action} to nie jest krok ruchu.",
    "There is nothing to undo.": "Nie ma czego cofnąć.",
    "Your draft is already the table as it was.": "Twój szkic już wygląda tak jak stół na "
    "początku ruchu.",
    "There is no meld {number}; the table is empty.": "Nie ma układu {number}; stół jest pusty.",
    "There is no meld {number}; the melds are numbered {first} to {last}.": "Nie ma układu "
    "{number}; układy mają numery od {first} do {last}.",
    "That table has no place for meld {number}; keep every meld number (write - for a meld "
    "that is used up).": "Ten stół nie ma miejsca na układ {number}; zachowaj numer każdego "
    "układu (wpisz - w miejsce układu, który zniknął).",
    "You can't {what} before your initial meld: first play new sets worth {threshold} or more "
    "from your rack.": "Nie możesz {what} przed pierwszym wyłożeniem: najpierw wyłóż ze stojaka "
    "nowe układy warte co najmniej {threshold}.",
    "add to a meld on the table": "dokładać do układu na stole",
    "move tiles on the table": "przesuwać kostek na stole",
    "split a meld on the table": "dzielić układu na stole",
    "take a joker": "brać dżokera",
    "There is no {tile} {where}.": "Nie ma {tile} {where}.",
    "The tiles are already in that meld.": "Te kostki już są w tym układzie.",
    "{tile} is the first tile of meld {number}; split before a later tile.": "{tile} to "
    "pierwsza kostka układu {number}; dziel przed dalszą kostką.",
    "Meld {number} has no joker.": "Układ {number} nie ma dżokera.",
    "Meld {number} is not a valid set right now, so its joker stands for nothing; fix it "
    "first.": "Układ {number} nie jest teraz poprawny, więc jego dżoker niczego nie zastępuje; "
    "najpierw go popraw.",
    "Take the replacement tile from another meld or your rack.": "Weź kostkę na wymianę "
    "z innego układu albo ze stojaka.",
    "Swap a joker for the real tile it stands for, not a joker.": "Dżokera wymienia się na "
    "prawdziwą kostkę, którą zastępuje, a nie na dżokera.",
    "The joker in meld {number} stands for {faces}, not {tile}.": "Dżoker w układzie "
    "{number} zastępuje {faces}, a nie {tile}.",
    "Meld {number}: there is no {tile} on the table or your rack left to use.": "Układ "
    "{number}: nie ma już wolnej kostki {tile} ani na stole, ani na twoim stojaku.",
    "Every tile on the table must stay on the table; your arrangement leaves out {tiles}.": (
        "Każda kostka ze stołu musi na nim zostać; w twoim nowym stole brakuje {tiles}."
    ),
    "No tile from your rack can be placed; draw instead.": "Żadnej kostki ze stojaka nie da "
    "się wyłożyć; dobierz.",
    # --- auto (engine/solver.py) -----------------------------------------------------------
    "{tile} is not on your rack.": "Na twoim stojaku nie ma {tile}.",
    "Name the rack tiles to place, like: auto R6 K9.": "Podaj kostki ze stojaka do "
    "wyłożenia, np.: auto R6 K9.",
    "{tiles} cannot make an initial meld worth {threshold} from your rack alone.": "Z samych "
    "kostek {tiles} ze stojaka nie ułożysz pierwszego wyłożenia wartego {threshold}.",
    "{tiles} cannot all go into your initial meld; {can} can (auto {can}).": "Nie wszystkie "
    "kostki {tiles} zmieszczą się w pierwszym wyłożeniu; zmieszczą się {can} (auto {can}).",
    "None of {tiles} can be placed on this table.": "Żadnej z kostek {tiles} nie da się "
    "wyłożyć na ten stół.",
    "{tiles} cannot all be placed; {can} can (auto {can}).": "Nie da się wyłożyć naraz "
    "wszystkich kostek {tiles}; da się {can} (auto {can}).",
    "{tiles} cannot be placed together with the tiles you already played; auto alone finds "
    "the best play, taking back {back}.": "Kostek {tiles} nie da się wyłożyć razem z kostkami "
    "już wyłożonymi w tym ruchu; samo auto znajdzie najlepszy ruch i zabierze z powrotem {back}.",
    # --- tile notation (engine/notation.py) ------------------------------------------------
    "{token!r} (tile {index}) has number {number}; tiles run from 1 to 13.": "{token!r} "
    "(kostka {index}) ma numer {number}; kostki mają numery od 1 do 13.",
    "{text!r} (tile {index}, character {position}) is not a tile; write a colour letter K, B, "
    "O or R and a number, like R7, or J for a joker.": "{text!r} (kostka {index}, znak "
    "{position}) to nie jest kostka; napisz literę koloru K, B, O lub R i numer, np. R7, albo "
    "J dla dżokera.",
    "Put a space between tiles near character {position} of {text!r}.": "Oddziel kostki "
    "spacją w pobliżu znaku {position} w {text!r}.",
    "Expected one tile, got {count} in {text!r}.": "Oczekiwano jednej kostki, a w {text!r} "
    "jest ich {count}.",
    # --- draft steps (engine/actions.py) ---------------------------------------------------
    "play R5 R6 R7 (a new meld) or play R8 to 3 (add to meld 3)": "play R5 R6 R7 (nowy "
    "układ) lub play R8 to 3 (dołóż do układu 3)",
    "move R7 from 2 to 5, or move R7 from 2 to new": "move R7 from 2 to 5 albo move R7 from 2 "
    "to new",
    "split 2 at R6 (meld 2 splits before R6)": "split 2 at R6 (układ 2 dzieli się przed R6)",
    "swap J in 4 with O9 (add 'from 2' to take O9 from meld 2)": "swap J in 4 with O9 "
    "(dopisz 'from 2', aby wziąć O9 z układu 2)",
    "arrange R4 R5 R6 / K9 B9 O9 (the whole new table)": "arrange R4 R5 R6 / K9 B9 O9 (cały "
    "nowy stół)",
    "auto R6 K9 (the bot places these rack tiles for you)": "auto R6 K9 (bot sam wyłoży te "
    "kostki ze stojaka)",
    "undo (one step back)": "undo (jeden krok wstecz)",
    "reset (put everything back as it was at the start of your turn)": "reset (wszystko wraca "
    "do stanu z początku twojego ruchu)",
    "{detail} Write it like: {usage}.": "{detail} Napisz tak: {usage}.",
    "Name the tiles.": "Podaj kostki.",
    "Say which tiles to play.": "Podaj, które kostki wyłożyć.",
    "Say which tiles, from which meld and to where.": "Podaj, które kostki, z którego układu "
    "i dokąd.",
    "Say which meld and before which tile.": "Podaj, który układ i przed którą kostką.",
    "Say which meld, by its number.": "Podaj numer układu.",
    "{text!r} is not a meld number (melds are numbered from 1).": "{text!r} to nie jest numer "
    "układu (układy mają numery od 1).",
    "Split before exactly one tile.": "Dziel przed dokładnie jedną kostką.",
    "Say which meld's joker and the tile to put in its place.": "Podaj, z którego układu "
    "wziąć dżokera i jaką kostkę położyć na jego miejsce.",
    "Swap the joker for exactly one tile.": "Wymień dżokera na dokładnie jedną kostkę.",
    "State the whole table.": "Podaj cały stół.",
    "{verb!r} is not a move; use one of: {verbs}.": "{verb!r} to nie jest ruch; użyj "
    "jednego z: {verbs}.",
    # --- settings (engine/settings.py) -----------------------------------------------------
    "There is no setting {key!r}; the settings are {known}.": "Nie ma ustawienia {key!r}; "
    "ustawienia to: {known}.",
    "edition is classic or xp.": "edition to classic albo xp.",
    "hints is on or off.": "hints to on albo off.",
    "{key} needs a whole number, not {value!r}.": "{key} wymaga liczby całkowitej, a nie "
    "{value!r}.",
    "{key} must be between {lo} and {hi}.": "{key} musi mieć wartość od {lo} do {hi}.",
    # --- the game (engine/game.py) ---------------------------------------------------------
    "The {edition} edition is for 2 to {most} players, not {players}.": "W wersję {edition} "
    "gra od 2 do {most} graczy, nie {players}.",
    "The game is over.": "Gra się zakończyła.",
    "It is not your turn.": "To nie twoja kolej.",
    "That draft belongs to an earlier turn.": "Ten szkic należy do wcześniejszego ruchu.",
    "Unknown log entry {entry!r}.": "Nieznany wpis w dzienniku gry: {entry!r}.",
    "This is not a Rummikub snapshot (bad first line).": "To nie jest zapis stanu gry "
    "Rummikub (zły pierwszy wiersz).",
    # --- the bot's command language (bot/commands.py, bot/manager/) ----------------------
    "I don't know the command {word!r}. {hint}": "Nie znam polecenia {word!r}. {hint}",
    "Did you mean {verb!r}?": "Czy chodziło o {verb!r}?",
    "Type help to see the commands.": "Wpisz help, aby zobaczyć polecenia.",
    "Write it like: {usage}.": "Napisz tak: {usage}.",
    "{verb!r} does not take {extra!r}; nothing was changed. Write it like: {usage}.": (
        "Polecenie {verb!r} nie przyjmuje {extra!r}; nic nie zmieniono. Napisz tak: {usage}."
    ),
    "start (opens a game in this channel; add settings like threshold=25 timer=3600)": "start "
    "(otwiera grę na tym kanale; możesz dodać ustawienia, np. threshold=25 timer=3600)",
    "join (take a seat in the lobby)": "join (zajmij miejsce w poczekalni)",
    "leave (give up your seat; in a running game an AI takes it over, and if you are the last "
    "person there it asks first, since that ends the game: leave yes confirms)": "leave "
    "(zwolnij miejsce; w trwającej grze przejmuje je AI, a jeśli jesteś tam ostatnią osobą, "
    "bot najpierw pyta, bo to kończy grę: leave yes potwierdza)",
    "addbot [easy|medium|hard] (add an AI seat)": "addbot [easy|medium|hard] (dodaj gracza AI)",
    "kick <seat number or name> (host or admin: remove a seat; in a game an AI plays it; "
    "removing the last person asks first: kick 2 yes confirms)": (
        "kick <numer miejsca lub imię> (gospodarz lub administrator: usuń miejsce; w grze "
        "przejmuje je AI; usunięcie ostatniej osoby bot najpierw potwierdza: kick 2 yes)"
    ),
    "settings [name value] (show or change: threshold, timer, games, hints, edition, away_after)": (
        "settings [nazwa wartość] (pokaż lub zmień: threshold, timer, games, hints, edition, "
        "away_after)"
    ),
    "cancel (host or admin: end the game in this channel; a game under way asks first: "
    "cancel yes confirms)": "cancel (gospodarz lub administrator: zakończ grę na tym kanale; "
    "przy trwającej grze bot najpierw pyta: cancel yes potwierdza)",
    "deal (host: start the match with the seats in the lobby)": "deal (gospodarz: rozpocznij "
    "mecz z graczami z poczekalni)",
    "yes (confirm what you were just asked, e.g. leaving as the last person)": "yes "
    "(potwierdź to, o co bot właśnie zapytał, np. odejście ostatniej osoby przy stole)",
    "no (keep playing: the question you were just asked is dropped)": "no (graj dalej: "
    "pytanie, które bot właśnie zadał, przepada)",
    "done (end your turn; with nothing played you draw a tile)": "done (zakończ ruch; jeśli "
    "nic nie wyłożysz, dobierasz kostkę)",
    "draw (take one tile and end your turn)": "draw (dobierz jedną kostkę i zakończ ruch)",
    "hint (the best play for your rack, where the channel allows hints)": "hint (najlepszy "
    "ruch dla twojego stojaka, jeśli kanał pozwala na podpowiedzi)",
    "pick R5 R6 (select rack tiles for the panel's Place button; again to unselect)": "pick "
    "R5 R6 (wybierz kostki ze stojaka dla przycisku Połóż w panelu; ponownie, aby odznaczyć)",
    "target 3 | target new (where Place puts the selected tiles)": "target 3 | target new "
    "(dokąd Połóż kładzie wybrane kostki)",
    "place (play the selected tiles to the target)": "place (wyłóż wybrane kostki do celu)",
    "panel (show your turn panel: your draft, tile picker and buttons)": "panel (pokaż panel "
    "ruchu: szkic, wybór kostek i przyciski)",
    "rack [colour|number] (show your rack privately)": "rack [colour|number] (pokaż tylko "
    "tobie twój stojak)",
    "table (show the table)": "table (pokaż stół)",
    "status (whose turn, time left, pool, tile counts)": "status (czyja kolej, pozostały czas, "
    "bank, liczba kostek)",
    "score (this match's standings)": "score (tabela tego meczu)",
    "leaderboard (this channel's best players)": "leaderboard (najlepsi gracze tego kanału)",
    "history (this channel's recent games)": "history (ostatnie gry na tym kanale)",
    "rules (the rules and this channel's settings)": "rules (zasady i ustawienia tego kanału)",
    "help [verb] (commands, or how to use one)": "help [polecenie] (lista poleceń albo jak "
    "użyć jednego z nich)",
    "sort colour|number (how your rack is ordered)": "sort colour|number (jak ułożyć kostki "
    "na stojaku)",
    "language en|pl (the bot's language in this channel), or language me en|pl|auto (yours, "
    "for what you get privately)": "language en|pl (język bota na tym kanale) albo language me "
    "en|pl|auto (twój, dla tego, co dostajesz prywatnie)",
    "rematch (after a match: the same seats and settings again; deals once every player "
    "confirms)": "rematch (po meczu: te same miejsca i ustawienia jeszcze raz; rozdanie, gdy "
    "każdy gracz potwierdzi)",
    "stats [player] (a player's record in this channel, or in every channel of its server "
    "where the bot can list them)": "stats [gracz] (wyniki gracza na tym kanale albo na "
    "wszystkich kanałach jego serwera, jeśli bot może je wymienić)",
    "replay [game number from history] (an animation and the record of a game)": "replay "
    "[numer gry z historii] (animacja i zapis gry)",
    # engine/solver.py: what a hint or auto does to the table
    "new set {tiles}": "nowy układ {tiles}",
    "split meld {number} at {tile}": "podzielono układ {number} przed {tile}",
    "split meld {number} at {tile} and added {tiles}": "podzielono układ {number} przed {tile} "
    "i dołożono {tiles}",
    "moved {tiles} from meld {sources} to meld {number}": "przeniesiono {tiles} z układu "
    "{sources} do układu {number}",
    "added {tiles} to meld {number}": "dołożono {tiles} do układu {number}",
    "new set {tiles} with {borrowed} from meld {sources}": "nowy układ {tiles} z {borrowed} z "
    "układu {sources}",
    "joined melds {numbers}": "połączono układy {numbers}",
    "joined melds {numbers} with {tiles}": "połączono układy {numbers}, dokładając {tiles}",
    "No change.": "Bez zmian.",
    "took {tiles} back to your rack": "{tiles} wracają na twój stojak",
    # bot/manager/: a hint
    # --- one rule for a turn, hints from the draft (engine/rules.py, draft.py, hints.py) ----
    "The same physical tile appears twice on the table.": "Ta sama fizyczna kostka leży na "
    "stole dwa razy.",
    "{tiles} is neither on the table nor on your rack.": "{tiles} nie ma ani na stole, ani na "
    "twoim stojaku.",
    "The joker in meld {number} would stand for {face} instead of {wanted}; to take it, write: "
    "swap J in {number} with {wanted}, then play it in a new set.": "Dżoker w układzie "
    "{number} zastępowałby {face} zamiast {wanted}; aby go wziąć, napisz: swap J in {number} "
    "with {wanted}, a potem zagraj go w nowym układzie.",
    "Your draft is already the best play found; finish with done.": "Twój szkic to już "
    "najlepszy znaleziony ruch; zakończ poleceniem done.",
    "{explanation} (type: {commands})": "{explanation} (wpisz: {commands})",
    "meld {number} becomes {tiles}": "układ {number} to teraz {tiles}",
    "put {tile} in place of the joker in meld {number}": "połóż {tile} w miejsce dżokera w "
    "układzie {number}",
    "{count} more changes": "jeszcze {count} zmian(y)",
    "Each joker you take from meld {number} needs a tile of its own in its place.": "Każdy "
    "dżoker wzięty z układu {number} wymaga osobnej kostki na swoim miejscu.",
    # --- game records (engine/record.py) -----------------------------------------------------
    "{name}, seat {seat}": "{name}, miejsce {seat}",
    "seat {seat}": "miejsce {seat}",
    "This is not a Rummikub record: the first line must be {tag}.": "To nie jest zapis partii "
    "Rummikub: pierwszy wiersz musi brzmieć {tag}.",
    "Line {line}: tags go before the first turn.": "Wiersz {line}: znaczniki muszą stać przed "
    "pierwszym ruchem.",
    'Line {line}: a tag looks like [Seed "12345"], not {text!r}.': "Wiersz {line}: znacznik "
    'wygląda tak: [Seed "12345"], a nie {text!r}.',
    "Line {line}: the tag {key} appears twice.": "Wiersz {line}: znacznik {key} występuje dwa "
    "razy.",
    "Line {line}: a turn looks like '12. 0 draw', not {text!r}.": "Wiersz {line}: ruch "
    "wygląda tak: '12. 0 draw', a nie {text!r}.",
    "Line {line}: expected turn {expected}, found turn {found}.": "Wiersz {line}: oczekiwano "
    "ruchu {expected}, a jest ruch {found}.",
    "Turn {number}: the turn says nothing.": "Ruch {number}: ruch jest pusty.",
    "The turn says nothing.": "Ruch jest pusty.",
    "The record must name its seats Seat0, Seat1, ... (at least two).": "Zapis musi nazwać "
    "miejsca Seat0, Seat1, ... (co najmniej dwa).",
    "The {edition} edition is for 2 to {most} players; the record's seat count is {count}.": (
        "Wersja {edition} jest dla 2 do {most} graczy; liczba miejsc w zapisie: {count}."
    ),
    "Seat{index}AI names a seat the record does not have.": "Seat{index}AI wskazuje miejsce, "
    "którego nie ma w zapisie.",
    "Turn {number}: there is no seat {seat}; the seats are 0 to {last}.": "Ruch {number}: nie "
    "ma miejsca {seat}; miejsca mają numery od 0 do {last}.",
    "The Result tag {result!r} is not a game result.": "Znacznik Result {result!r} nie jest "
    "wynikiem partii.",
    "The Edition tag says {edition} but the Rules tag says {rules}.": "Znacznik Edition mówi "
    "{edition}, a znacznik Rules {rules}.",
    "The record's rules are not valid: {reason}": "Zasady w zapisie są błędne: {reason}",
    'The record has no [Seed "..."] tag; the seed fixes the deal.': "Zapis nie ma znacznika "
    '[Seed "..."]; to ziarno ustala rozdanie.',
    "The Seed tag must be a whole number, not {text!r}.": "Znacznik Seed musi być liczbą "
    "całkowitą, a nie {text!r}.",
    "The record's setup is not a game: {reason}": "Z ustawień zapisu nie powstaje partia: {reason}",
    "Turn {number} ({seat}): {reason}": "Ruch {number} ({seat}): {reason}",
    "the game was already over after turn {number}.": "partia skończyła się już po ruchu {number}.",
    "it was the turn of {name}.": "ruch należał do: {name}.",
    "After turn {number} the replayed game is not over, but the record's Result is {said}.": (
        "Po ruchu {number} odtworzona partia trwa dalej, a Result w zapisie to {said}."
    ),
    "After turn {number} the replayed game ends with {got}, but the record's Result is "
    "{said}.": "Po ruchu {number} odtworzona partia kończy się wynikiem {got}, a Result w "
    "zapisie to {said}.",
    "Turn {number} of the game log is refused: {reason}": "Ruch {number} z dziennika partii "
    "jest niedozwolony: {reason}",
    "The game log has an entry this format does not know: {entry!r}.": "Dziennik partii ma "
    "wpis, którego ten format nie zna: {entry!r}.",
}
