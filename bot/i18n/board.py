"""The web board's own sentences (its page and the "Open board" button), in English and
Polish; merged into the bot's catalog, so ``t(lang, "board_open")`` works like any other."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "board_open": "Open board",
        "board_terminal": "Your board: {url} (open it in a browser on this computer; typing "
        "board prints a fresh link).",
        "board_title": "Rummikub board",
        "board_table": "Table",
        "board_players": "Players",
        "board_actions": "Turn actions",
        "board_rack": "Your rack",
        "board_meld": "Meld {number}",
        "board_empty": "(empty)",
        "board_new_meld": "New meld",
        "board_new_meld_hint": "Drop a tile here to start a new meld",
        "board_turn": "Turn {turn}",
        "board_your_turn": "Your turn",
        "board_to_play": "{name} to play",
        "board_time_left": "{time} left",
        "board_pool": "Pool: {count}",
        "board_tiles": "tiles: {count}",
        "board_you": "you",
        "board_ai": "AI",
        "board_no_meld_yet": "no meld yet",
        "board_hint": "Hint",
        "board_sort": "Sort:",
        "board_sort_colour": "Colour",
        "board_sort_number": "Number",
        "board_legal": "Legal: Done commits it.",
        "board_all_valid": "All melds are valid.",
        "board_opening": "Initial meld: new sets from your rack worth {threshold} or more.",
        "board_selected": "Picked up {tile}: choose a meld, New meld, or a joker it stands for.",
        "board_put_back": "Tiles on the table stay on the table; Undo takes a step back.",
        "board_split": "Split meld {number} before {tile}",
        "board_joker": "Joker standing for {face}",
        "board_joker_free": "Joker",
        "board_marked": "placed or moved this turn",
        "board_drawn": "just drawn",
        "board_held": "taken from the table: play it in a new set this turn",
        "board_waiting": "Waiting for {name}. Your rack is below; the table is as committed.",
        "board_watching": "You are watching: only the players see their racks.",
        "board_no_game": "No game is running in this channel now.",
        "board_lobby": "The game has not been dealt yet.",
        "board_last": "Last move: {text}",
        "board_connecting": "Connecting…",
        "board_offline": "Connection lost; reconnecting…",
        "board_help": "Drag a tile to a meld or to New meld; drop a tile on the joker it stands "
        "for to take the joker; the scissors split a run. Without dragging: Enter or a tap "
        "picks a tile up, Enter or a tap on a meld puts it there; Escape drops it.",
        "board_error_bad_token": "This board link is not valid for you; open the board from "
        "your own turn panel.",
        "board_error_expired": "This board link has expired; open the board again from your "
        "turn panel.",
        "board_error_bad_init_data": "Telegram did not sign this sign-in; open the board from "
        "the chat.",
        "board_error_stale_init_data": "This sign-in is too old; open the board from the chat "
        "again.",
        "board_error_no_telegram": "This bot has no Telegram side to sign in with.",
        "board_error_no_link": "Open the board from your turn panel: this address has no "
        "sign-in in it.",
        "board_error_bad_request": "That request was not understood; nothing was changed.",
        "board_error_not_board_action": "The board takes turn actions only; nothing was changed.",
        "board_error_too_large": "That request is too large; nothing was changed.",
        "board_error_too_many": "Too many requests at once; wait a moment and try again.",
        "board_error_internal": "Something went wrong on our side; nothing was changed. "
        "Please try again.",
    },
    "pl": {
        "board_open": "Otwórz planszę",
        "board_terminal": "Twoja plansza: {url} (otwórz ją w przeglądarce na tym komputerze; "
        "polecenie board wypisuje nowy link).",
        "board_title": "Plansza Rummikub",
        "board_table": "Stół",
        "board_players": "Gracze",
        "board_actions": "Ruchy w turze",
        "board_rack": "Twój stojak",
        "board_meld": "Układ {number}",
        "board_empty": "(pusty)",
        "board_new_meld": "Nowy układ",
        "board_new_meld_hint": "Upuść tu kostkę, aby zacząć nowy układ",
        "board_turn": "Tura {turn}",
        "board_your_turn": "Twoja kolej",
        "board_to_play": "Teraz gra {name}",
        "board_time_left": "zostało {time}",
        "board_pool": "Bank: {count}",
        "board_tiles": "kostki: {count}",
        "board_you": "ty",
        "board_ai": "AI",
        "board_no_meld_yet": "bez wyłożenia",
        "board_hint": "Podpowiedź",
        "board_sort": "Sortuj:",
        "board_sort_colour": "Kolor",
        "board_sort_number": "Numer",
        "board_legal": "Poprawnie: Gotowe zatwierdza ruch.",
        "board_all_valid": "Wszystkie układy są poprawne.",
        "board_opening": "Pierwsze wyłożenie: nowe układy z twojego stojaka warte co najmniej "
        "{threshold}.",
        "board_selected": "Podniesiono {tile}: wybierz układ, Nowy układ albo jokera, którego "
        "zastępuje.",
        "board_put_back": "Kostki ze stołu zostają na stole; Cofnij wycofuje krok.",
        "board_split": "Podziel układ {number} przed {tile}",
        "board_joker": "Joker jako {face}",
        "board_joker_free": "Joker",
        "board_marked": "położone lub przesunięte w tej turze",
        "board_drawn": "właśnie dobrane",
        "board_held": "wzięty ze stołu: zagraj go w nowym układzie w tej turze",
        "board_waiting": "Czekamy na: {name}. Poniżej twój stojak; stół jest taki, jak go "
        "zatwierdzono.",
        "board_watching": "Oglądasz grę: stojaki widzą tylko gracze.",
        "board_no_game": "Na tym kanale nie trwa teraz żadna gra.",
        "board_lobby": "Kostki nie zostały jeszcze rozdane.",
        "board_last": "Ostatni ruch: {text}",
        "board_connecting": "Łączenie…",
        "board_offline": "Utracono połączenie; łączę ponownie…",
        "board_help": "Przeciągnij kostkę na układ albo na Nowy układ; upuść kostkę na jokera, "
        "którego zastępuje, aby go wziąć; nożyczki dzielą szereg. Bez przeciągania: Enter lub "
        "dotknięcie podnosi kostkę, Enter lub dotknięcie układu kładzie ją tam; Escape ją "
        "odkłada.",
        "board_error_bad_token": "Ten link do planszy nie jest dla ciebie; otwórz planszę ze "
        "swojego panelu ruchu.",
        "board_error_expired": "Ten link do planszy wygasł; otwórz planszę ponownie z panelu "
        "ruchu.",
        "board_error_bad_init_data": "Telegram nie podpisał tego logowania; otwórz planszę z "
        "czatu.",
        "board_error_stale_init_data": "To logowanie jest zbyt stare; otwórz planszę z czatu "
        "ponownie.",
        "board_error_no_telegram": "Ten bot nie działa w Telegramie, więc nie można się tak "
        "zalogować.",
        "board_error_no_link": "Otwórz planszę ze swojego panelu ruchu: ten adres nie zawiera "
        "logowania.",
        "board_error_bad_request": "Nie zrozumiano tego żądania; nic nie zmieniono.",
        "board_error_not_board_action": "Plansza przyjmuje tylko ruchy w turze; nic nie zmieniono.",
        "board_error_too_large": "To żądanie jest za duże; nic nie zmieniono.",
        "board_error_too_many": "Za dużo żądań naraz; odczekaj chwilę i spróbuj ponownie.",
        "board_error_internal": "Coś poszło nie tak po naszej stronie; nic nie zmieniono. "
        "Spróbuj ponownie.",
    },
}
