// The board's tiles and melds, and how they are moved: dragging (mouse, touch, pen: pointer
// events) or picking up and putting down (a tap, a click or Enter), so every action works
// without dragging. A move becomes the chat's own commands; board.js sends them.
"use strict";

(function () {
  const Board = (window.Board = window.Board || {});
  const DRAG_START = 6; // pixels a pointer moves before a press becomes a drag
  let picked = null; // the tile picked up: {code, from, joker, number, color, face}
  let drag = null; // a press that may become a drag
  let suppressClick = false;

  // ----- drawing ----------------------------------------------------------------------------

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name === "class") node.className = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function jokerFace() {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const parts = [
      ["circle", { cx: 12, cy: 12, r: 10, fill: "none", stroke: "currentColor", "stroke-width": 2 }],
      ["circle", { cx: 8.5, cy: 9.5, r: 1.6, fill: "var(--joker-a)" }],
      ["circle", { cx: 15.5, cy: 9.5, r: 1.6, fill: "var(--joker-a)" }],
      ["path", { d: "M7 14.5c1.4 2.2 3 3.2 5 3.2s3.6-1 5-3.2", fill: "none",
                 stroke: "var(--joker-a)", "stroke-width": 2, "stroke-linecap": "round" }],
    ];
    for (const [tag, attrs] of parts) {
      const shape = document.createElementNS(ns, tag);
      for (const [name, value] of Object.entries(attrs)) shape.setAttribute(name, value);
      svg.append(shape);
    }
    return svg;
  }

  function label(tile, tr) {
    if (tile.number) return tile.face;
    return tile.joker_face ? tr("board_joker", { face: tile.joker_face }) : tr("board_joker_free");
  }

  function tileButton(tile, from, tr, options) {
    const classes = ["tile"];
    if (!tile.number) classes.push("joker");
    if (tile.marked) classes.push(options.markClass || "marked");
    const node = el("button", {
      type: "button",
      class: classes.join(" "),
      "data-code": tile.code,
      "data-from": from,
      "data-color": tile.color || "J",
      "data-number": tile.number,
      "data-face": tile.joker_face || tile.face,
      "data-joker": tile.number ? null : "1",
      "aria-label": label(tile, tr),
      "aria-pressed": "false",
      disabled: options.disabled,
    });
    if (tile.number) {
      node.append(el("span", { class: "face", text: String(tile.number) }));
      node.append(el("span", { class: "shape", "aria-hidden": "true" }));
    } else {
      node.append(jokerFace());
      if (tile.joker_face) node.append(el("span", { class: "stands", text: tile.joker_face }));
    }
    return node;
  }

  function meldBox(meld, state, tr) {
    const active = state.can_act;
    const names = meld.tiles.map((t) => label(t, tr)).join(" ");
    const box = el("div", {
      class: "meld" + (meld.valid ? "" : " invalid"),
      "data-drop": "meld",
      "data-number": meld.number,
      "data-kind": meld.kind,
      tabindex: active ? 0 : null,
      role: "group",
      "aria-label": tr("board_meld", { number: meld.number }) + ": " + names,
    });
    box.append(el("span", { class: "number", text: String(meld.number), "aria-hidden": "true" }));
    const splittable =
      active && meld.kind === "run" && (state.melded || meld.tiles.every((t) => t.marked));
    meld.tiles.forEach((tile, index) => {
      if (splittable && index > 0) {
        const at = tile.number ? tile.code : tile.joker_face || tile.code;
        box.append(
          el("button", {
            type: "button",
            class: "split drop",
            "data-drop": "split",
            "data-number": meld.number,
            "data-at": at,
            "data-index": index,
            "aria-label": tr("board_split", { number: meld.number, tile: label(tile, tr) }),
          })
        );
      }
      box.append(tileButton(tile, String(meld.number), tr, { disabled: !active }));
    });
    if (meld.reason) {
      box.append(el("span", { class: "break", "aria-hidden": "true" }));
      box.append(el("p", { class: "reason", text: meld.reason }));
    }
    return box;
  }

  Board.drawTable = function (state, tr) {
    const melds = document.getElementById("melds");
    melds.replaceChildren(
      ...state.melds.filter((m) => m.tiles.length).map((m) => meldBox(m, state, tr))
    );
    if (!state.melds.some((m) => m.tiles.length)) {
      melds.append(el("p", { class: "muted", text: tr("board_empty") }));
    }
  };

  Board.drawRack = function (state, tr) {
    const rack = document.getElementById("rack");
    const tiles = state.rack || [];
    const mine = state.can_act;
    rack.replaceChildren(
      ...tiles.map((tile) => {
        const held = mine && !tile.number && tile.marked;
        return tileButton(tile, "rack", tr, {
          disabled: !mine,
          markClass: mine ? (held ? "held" : "marked") : "new",
        });
      })
    );
    picked = null;
    document.body.classList.remove("picking");
  };

  // ----- what a move means, as the chat's commands --------------------------------------------

  function source(tile) {
    return {
      code: tile.dataset.code,
      from: tile.dataset.from,
      joker: tile.dataset.joker === "1",
      number: Number(tile.dataset.number),
      color: tile.dataset.color,
    };
  }

  function target(node) {
    if (!node) return null;
    const split = node.closest(".split");
    if (split) {
      return { kind: "split", number: split.dataset.number, at: split.dataset.at,
               index: Number(split.dataset.index) };
    }
    const tile = node.closest(".meld .tile");
    if (tile && tile.dataset.joker === "1") {
      return { kind: "joker", number: tile.dataset.from, code: tile.dataset.code };
    }
    const meld = node.closest(".meld");
    if (meld) return { kind: "meld", number: meld.dataset.number };
    if (node.closest("#new-meld")) return { kind: "new" };
    if (node.closest("#rack-area")) return { kind: "rack" };
    return null;
  }

  // After ``split N at X`` the tile dropped on the cut joins the half it continues: the left
  // one (meld N) or the right one (the new meld, the highest number).
  function halfFor(src, meld, index) {
    const faces = meld.tiles.map((t) => (t.number ? t.number : Number(t.joker_face.replace(/\D/g, ""))));
    const leftEnd = faces[index - 1];
    const rightStart = faces[index];
    if (src.number && leftEnd && src.number === leftEnd + 1) return "left";
    if (src.number && rightStart && src.number === rightStart - 1) return "right";
    return "left";
  }

  function put(src, where) {
    const to = where === "new" ? "" : " to " + where;
    if (src.from === "rack") return "play " + src.code + to;
    return "move " + src.code + " from " + src.from + " to " + (where === "new" ? "new" : where);
  }

  function newest(state) {
    return Math.max(...state.melds.map((m) => m.number));
  }

  // The steps a move means, in order: a command, a function of the state the previous step
  // left (a drop on a cut is a split, then the tile goes to the half it continues), or a note
  // to show instead.
  Board.commandsFor = function (src, dst, state) {
    if (!dst) return [];
    if (!src) return dst.kind === "split" ? ["split " + dst.number + " at " + dst.at] : [];
    if (dst.kind === "rack") return src.from === "rack" ? [] : [{ note: "board_put_back" }];
    if (dst.kind === "new") return [put(src, "new")];
    if (dst.kind === "joker" && !src.joker && dst.number !== src.from) {
      const from = src.from === "rack" ? "" : " from " + src.from;
      return ["swap J in " + dst.number + " with " + src.code + from];
    }
    if (dst.kind === "meld" || dst.kind === "joker") {
      return dst.number === src.from ? [] : [put(src, dst.number)];
    }
    if (dst.kind === "split") {
      const meld = state.melds.find((m) => String(m.number) === String(dst.number));
      const split = "split " + dst.number + " at " + dst.at;
      if (!meld || src.from === String(dst.number)) return [split];
      if (halfFor(src, meld, dst.index) === "left") return [split, put(src, dst.number)];
      return [split, (after) => put(src, String(newest(after)))];
    }
    return [];
  };

  // ----- picking up and putting down (tap, click, keyboard) -----------------------------------

  function unpick() {
    document.querySelectorAll(".tile.picked").forEach((t) => {
      t.classList.remove("picked");
      t.setAttribute("aria-pressed", "false");
    });
    picked = null;
    document.body.classList.remove("picking");
  }

  function pick(tile) {
    unpick();
    picked = source(tile);
    tile.classList.add("picked");
    tile.setAttribute("aria-pressed", "true");
    document.body.classList.add("picking");
    Board.say(Board.tr("board_selected", { tile: tile.getAttribute("aria-label") }));
  }

  function activate(node) {
    if (!Board.state || !Board.state.can_act) return;
    const tile = node.closest(".tile");
    const dst = target(node);
    if (picked) {
      const same = tile && tile.dataset.code === picked.code;
      if (same) return unpick();
      const onTileToTake = dst && (dst.kind === "joker" || dst.kind === "split");
      if (tile && tile.dataset.from === "rack" && !onTileToTake) return pick(tile);
      if (dst) {
        const src = picked;
        unpick();
        Board.perform(Board.commandsFor(src, dst, Board.state));
        return;
      }
    }
    if (tile && !tile.disabled) return pick(tile);
    if (dst && dst.kind === "split") Board.perform(Board.commandsFor(null, dst, Board.state));
  }

  document.addEventListener("click", (event) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const node = event.target.closest(".tile, .meld, .split, #new-meld");
    if (node) activate(event.target);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") return unpick();
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = document.activeElement;
    if (node && node.classList && node.classList.contains("meld")) {
      event.preventDefault();
      activate(node);
    }
  });

  // ----- dragging ----------------------------------------------------------------------------

  function under(x, y) {
    const node = document.elementFromPoint(x, y);
    return node ? node.closest(".split, .meld .tile, .meld, #new-meld, #rack-area") : null;
  }

  function mark(node) {
    document.querySelectorAll(".over").forEach((n) => n.classList.remove("over"));
    if (node) node.classList.add("over");
  }

  document.addEventListener("pointerdown", (event) => {
    const tile = event.target.closest(".tile");
    if (!tile || tile.disabled || event.button !== 0 || !Board.state || !Board.state.can_act) return;
    drag = { tile, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START) return;
      unpick();
      drag.ghost = drag.tile.cloneNode(true);
      drag.ghost.classList.add("ghost");
      document.getElementById("ghost-layer").append(drag.ghost);
      drag.tile.classList.add("dragging");
      document.body.classList.add("dragging");
    }
    drag.ghost.style.left = event.clientX + "px";
    drag.ghost.style.top = event.clientY + "px";
    const over = under(event.clientX, event.clientY);
    mark(over && over !== drag.tile ? over : null);
    event.preventDefault();
  });

  function endDrag(event, dropped) {
    if (!drag || event.pointerId !== drag.id) return;
    const current = drag;
    drag = null;
    if (!current.ghost) return; // a press without a move: the click picks it up
    current.ghost.remove();
    current.tile.classList.remove("dragging");
    document.body.classList.remove("dragging");
    mark(null);
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (!dropped) return;
    const over = under(event.clientX, event.clientY);
    if (!over || over === current.tile) return;
    Board.perform(Board.commandsFor(source(current.tile), target(over), Board.state));
  }

  document.addEventListener("pointerup", (event) => endDrag(event, true));
  document.addEventListener("pointercancel", (event) => endDrag(event, false));
})();
