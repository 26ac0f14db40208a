// The board page: signs in (a signed link, or Telegram's initData), reads the board's state,
// sends actions as the chat's commands one after another, and follows the channel's changes
// on a Server-Sent Events stream that reconnects by itself (a bot restart included).
"use strict";

(function () {
  const Board = (window.Board = window.Board || {});
  const API = "/board/api";
  const TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js";
  const QUIET = 40000; // ms without a byte on the change stream before it is opened again
  let token = null;
  let storeKey = "rummikub-board";
  let catalog = { en: {} };
  let lang = "en";
  let received = 0; // when the state's seconds_left was measured
  let chain = Promise.resolve(); // actions run one after another, in the order made
  let reading = null;
  let readAgain = false;
  let acting = 0; // commands on their way: their answers bring the state
  let heard = -1; // the newest change counter the stream told of

  // ----- words ------------------------------------------------------------------------------

  Board.tr = function (key, values) {
    const table = catalog[lang] || catalog.en || {};
    let text = table[key] || (catalog.en || {})[key] || key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  };
  const tr = Board.tr;

  function setLanguage(code) {
    const short = String(code || "").slice(0, 2).toLowerCase();
    lang = catalog[short] ? short : "en";
    document.documentElement.lang = lang;
    document.title = tr("board_title");
    document.getElementById("new-meld").textContent = tr("board_new_meld");
    document.getElementById("new-meld").setAttribute("aria-label", tr("board_new_meld_hint"));
    document.getElementById("table-title").textContent = tr("board_table");
    document.getElementById("rack-title").textContent = tr("board_rack");
    document.getElementById("sort-label").textContent = tr("board_sort");
    for (const [id, word, full] of [
      ["sort-colour", "board_sort_colour", "button_sort_colour"],
      ["sort-number", "board_sort_number", "button_sort_number"],
    ]) {
      const button = document.getElementById(id);
      button.textContent = tr(word);
      button.setAttribute("aria-label", tr(full));
    }
    document.getElementById("help").textContent = tr("board_help");
    document.getElementById("seats").setAttribute("aria-label", tr("board_players"));
    document.getElementById("actions").setAttribute("aria-label", tr("board_actions"));
    document.querySelectorAll("#actions [data-key]").forEach((b) => {
      b.textContent = tr(b.dataset.key);
    });
  }

  Board.say = function (text, isError) {
    const note = document.getElementById("note");
    note.hidden = !text;
    note.textContent = text || "";
    note.classList.toggle("error", Boolean(isError));
  };

  function sayError(code) {
    Board.say(tr("board_error_" + code), true);
  }

  // ----- talking to the bot -----------------------------------------------------------------

  class Failure extends Error {
    constructor(code, status) {
      super(code);
      this.code = code;
      this.status = status;
    }
  }

  function keep(newToken) {
    if (!newToken) return;
    token = newToken;
    try {
      sessionStorage.setItem(storeKey, token);
    } catch (e) {
      /* private mode: the token lives in memory only */
    }
  }

  async function call(method, path, body) {
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(API + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch (e) {
      throw new Failure("offline", 0);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    if (!response.ok) throw new Failure((data && data.error) || "internal", response.status);
    keep(data && data.token);
    return data;
  }

  function loadScript(src) {
    return new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = resolve; // offline or blocked: the page says what is missing
      document.head.append(script);
    });
  }

  function telegramTheme(app) {
    const root = document.documentElement;
    root.dataset.theme = app.colorScheme === "dark" ? "dark" : "light";
    const params = app.themeParams || {};
    if (params.bg_color) root.style.setProperty("--bg", params.bg_color);
    if (params.text_color) root.style.setProperty("--text", params.text_color);
    if (params.hint_color) root.style.setProperty("--muted", params.hint_color);
    if (params.secondary_bg_color) root.style.setProperty("--tray", params.secondary_bg_color);
  }

  async function signIn() {
    const query = new URLSearchParams(location.search);
    const fragment = new URLSearchParams(location.hash.slice(1));
    const chat = query.get("tg");
    storeKey = "rummikub-board:" + (chat || "link");
    const linked = fragment.get("t");
    if (linked) {
      keep(linked);
      history.replaceState(null, "", location.pathname + location.search); // not in the bar
    } else {
      try {
        token = sessionStorage.getItem(storeKey);
      } catch (e) {
        token = null;
      }
    }
    if (!chat) {
      if (!token) throw new Failure("no_link", 401);
      return null;
    }
    await loadScript(TELEGRAM_JS);
    const app = window.Telegram && window.Telegram.WebApp;
    if (!app || !app.initData) {
      if (token) return null;
      throw new Failure("bad_init_data", 401);
    }
    app.ready();
    app.expand();
    telegramTheme(app);
    app.onEvent("themeChanged", () => telegramTheme(app));
    const user = app.initDataUnsafe && app.initDataUnsafe.user;
    if (user && user.language_code) setLanguage(user.language_code);
    if (!token) await call("POST", "/session", { init_data: app.initData, chat });
    return app;
  }

  // ----- the state --------------------------------------------------------------------------

  function render(state) {
    Board.state = state;
    received = Date.now();
    setLanguage(state.lang);
    document.getElementById("board").hidden = state.phase !== "playing";
    document.getElementById("actions").hidden = state.phase !== "playing" || state.seat === null;
    renderSeats(state);
    renderStatus();
    if (state.phase === "playing") {
      Board.drawTable(state, tr);
      Board.drawRack(state, tr);
      renderProblems(state);
      renderActions(state);
    }
    const last = document.getElementById("last");
    last.textContent = state.last ? tr("board_last", { text: state.last }) : "";
  }

  function renderSeats(state) {
    const list = document.getElementById("seats");
    list.replaceChildren(
      ...state.seats.map((seat) => {
        const item = document.createElement("li");
        item.className = (seat.current ? "current " : "") + (seat.you ? "you" : "");
        const notes = [];
        if (seat.you) notes.push(tr("board_you"));
        if (seat.ai && !seat.name.includes(tr("board_ai"))) notes.push(tr("board_ai"));
        if (state.phase === "playing" && !seat.melded) notes.push(tr("board_no_meld_yet"));
        const name = document.createElement("span");
        name.textContent = seat.name;
        item.append(name);
        if (state.phase === "playing") {
          const count = document.createElement("span");
          count.className = "count";
          count.textContent = String(seat.tiles);
          count.title = tr("board_tiles", { count: seat.tiles });
          count.setAttribute("aria-label", count.title);
          item.append(" ", count);
        }
        if (notes.length) {
          const extra = document.createElement("span");
          extra.className = "muted";
          extra.textContent = " " + notes.join(", ");
          item.append(extra);
        }
        return item;
      })
    );
  }

  function clock(seconds) {
    const s = Math.max(0, Math.round(seconds));
    if (s < 3600) return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    if (s < 86400) return Math.floor(s / 3600) + "h " + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + "m";
    return Math.floor(s / 86400) + "d " + Math.floor((s % 86400) / 3600) + "h";
  }

  function renderStatus() {
    const state = Board.state;
    const status = document.getElementById("status");
    if (!state) return;
    if (state.phase === "none") return (status.textContent = tr("board_no_game"));
    if (state.phase === "lobby") return (status.textContent = tr("board_lobby"));
    const parts = [tr("board_turn", { turn: state.turn })];
    const who = state.can_act ? tr("board_your_turn") : tr("board_to_play", { name: state.current });
    if (state.seconds_left !== null) {
      const left = state.seconds_left - (Date.now() - received) / 1000;
      parts.push(tr("board_time_left", { time: clock(left) }));
    }
    parts.push(tr("board_pool", { count: state.pool }));
    status.replaceChildren();
    const turn = document.createElement("span");
    turn.className = state.can_act ? "turn-you" : "";
    turn.textContent = who;
    status.append(turn, " · " + parts.join(" · "));
  }

  function renderProblems(state) {
    const list = document.getElementById("problems");
    const items = [];
    const reasons = new Set(state.melds.map((m) => m.reason).filter(Boolean));
    if (state.can_act && state.problems.length) {
      // a meld's own reason is shown on that meld; the list has what else stops Done
      for (const problem of state.problems.filter((p) => !reasons.has(p))) {
        const item = document.createElement("li");
        item.textContent = problem;
        items.push(item);
      }
    } else if (state.can_act) {
      const item = document.createElement("li");
      item.className = "ok";
      item.textContent = state.changed ? tr("board_legal") : tr("board_all_valid");
      items.push(item);
      if (!state.melded && !state.changed) {
        const opening = document.createElement("li");
        opening.className = "ok";
        opening.textContent = tr("board_opening", { threshold: state.threshold });
        items.push(opening);
      }
    } else if (state.seat !== null) {
      const item = document.createElement("li");
      item.className = "ok";
      item.textContent = tr("board_waiting", { name: state.current });
      items.push(item);
    } else {
      const item = document.createElement("li");
      item.className = "ok";
      item.textContent = tr("board_watching");
      items.push(item);
    }
    list.replaceChildren(...items);
  }

  function renderActions(state) {
    document.querySelectorAll("#actions button").forEach((button) => {
      const command = button.dataset.command;
      let enabled = state.can_act;
      if (command === "undo") enabled = enabled && state.can_undo;
      if (command === "reset") enabled = enabled && state.changed;
      button.disabled = !enabled;
    });
    document.getElementById("hint").hidden = !state.hints;
    document.getElementById("sort-colour").setAttribute("aria-pressed", String(state.sort_by === "color"));
    document.getElementById("sort-number").setAttribute("aria-pressed", String(state.sort_by === "number"));
    for (const id of ["sort-colour", "sort-number"]) {
      document.getElementById(id).disabled = state.seat === null;
    }
  }

  async function read() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        try {
          const data = await call("GET", "/state");
          render(data.state);
        } catch (failure) {
          if (failure.status === 401 || failure.status === 429) sayError(failure.code);
          if (failure.status === 401) throw failure;
        }
      } while (readAgain);
    })();
    try {
      await reading;
    } finally {
      reading = null;
    }
  }

  // ----- actions ------------------------------------------------------------------------------

  async function run(steps) {
    for (const step of steps) {
      if (step && step.note) {
        Board.say(tr(step.note));
        return;
      }
      const command = typeof step === "function" ? step(Board.state) : step;
      acting += 1;
      try {
        const data = await call("POST", "/command", { command });
        acting -= 1;
        render(data.state);
        if (heard > data.state.step) read(); // something else changed meanwhile
        Board.say(data.messages.join("\n"));
        if (data.messages.length) return; // refused (or a hint): the next step would not fit
      } catch (failure) {
        acting = Math.max(0, acting - 1);
        sayError(failure.code === "offline" ? "internal" : failure.code);
        return;
      }
    }
  }

  Board.perform = function (steps) {
    if (!steps || !steps.length) return chain;
    chain = chain.then(() => run(steps));
    return chain;
  };

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-command]");
    if (button && !button.disabled) Board.perform([button.dataset.command]);
  });

  // ----- the change stream ------------------------------------------------------------------

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  function setOnline(online) {
    document.body.classList.toggle("offline", !online);
    if (!online) Board.say(tr("board_offline"), true);
    else if (document.getElementById("note").textContent === tr("board_offline")) Board.say("");
  }

  async function follow() {
    let delay = 500;
    for (;;) {
      const stop = new AbortController();
      let timer = setTimeout(() => stop.abort(), QUIET);
      try {
        const response = await fetch(API + "/events", {
          headers: { Authorization: "Bearer " + token, Accept: "text/event-stream" },
          cache: "no-store",
          signal: stop.signal,
        });
        if (response.status === 401) {
          const data = await response.json().catch(() => ({}));
          sayError(data.error || "expired");
          return;
        }
        if (!response.ok || !response.body) throw new Error("no stream");
        setOnline(true);
        delay = 500;
        heard = -1; // a new process counts from its own start
        await read(); // whatever happened while away
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          clearTimeout(timer);
          timer = setTimeout(() => stop.abort(), QUIET);
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.split("\n").find((line) => line.startsWith("data:"));
            if (!data) {
              // a keep-alive: read again anyway, so a change made by another bot process on
              // the same database (which this stream does not hear of) shows within 15 s
              if (!acting) read();
              continue;
            }
            const step = Number(data.slice(5));
            heard = step;
            // the answer to an action under way brings the state; else read it if it moved
            if (!acting && (!Board.state || step !== Board.state.step)) read();
          }
        }
      } catch (e) {
        if (e && e.status === 401) return;
      } finally {
        clearTimeout(timer);
      }
      setOnline(false);
      await sleep(delay);
      delay = Math.min(delay * 2, 4000);
    }
  }

  // ----- start ------------------------------------------------------------------------------

  async function start() {
    try {
      const response = await fetch("/board/i18n.json", { cache: "no-cache" });
      catalog = await response.json();
    } catch (e) {
      catalog = { en: {} };
    }
    setLanguage(navigator.language);
    document.getElementById("status").textContent = tr("board_connecting");
    setInterval(renderStatus, 1000);
    try {
      const app = await signIn();
      try {
        await read();
      } catch (failure) {
        // a session kept from before (a reload) ran out: Telegram's sign-in makes a new one
        if (failure.status !== 401 || !app) throw failure;
        token = null;
        const chat = new URLSearchParams(location.search).get("tg");
        await call("POST", "/session", { init_data: app.initData, chat });
        await read();
      }
    } catch (failure) {
      sayError(failure.code || "internal");
      return;
    }
    follow();
  }

  start();
})();
