// @ts-check
// Classic Cathedral: the walled 10x10 city and both trays of buildings.
// Pick a building, rotate it (R, the wheel or the button), and a ghost under the pointer says
// whether the placement is legal, which squares it would claim and which building it would
// capture: all read from the picture's move list, never worked out here.

import { h, s } from "../dom.js";

/** @typedef {import("../types.js").BoardHandlers} BoardHandlers */
/** @typedef {import("../types.js").ClassicMove} ClassicMove */
/** @typedef {import("../types.js").ClassicPicture} ClassicPicture */
/** @typedef {import("../types.js").ShowOptions} ShowOptions */
/** @typedef {import("../dom.js").Attrs} Attrs */
/** @typedef {[number, number]} Cell [file, rank] */

const CELL = 40;
const LEFT = 24;
const TOP = 8;
const SIZE = 10;
// by player: Light 0, Dark 1
const FILL = ["var(--light)", "var(--dark)"];
const EDGE = ["var(--light-edge)", "var(--dark-edge)"];
const TERRITORY = ["url(#territory-0)", "url(#territory-1)"];

/** @type {(file: number) => number} */
const x0 = (file) => LEFT + file * CELL;
/** @type {(rank: number) => number} */
const y0 = (rank) => TOP + (SIZE - 1 - rank) * CELL;
/** @type {(sq: number) => number} */
const fileOf = (sq) => sq % SIZE;
/** @type {(sq: number) => number} */
const rankOf = (sq) => Math.floor(sq / SIZE);
/** @type {(sq: number) => string} */
const squareName = (sq) => `${"abcdefghij"[fileOf(sq)]}${rankOf(sq) + 1}`;
/** @type {(building: string, squares: number[]) => string} a placement's key in the move list */
const keyOf = (building, squares) => `${building}|${[...squares].sort((a, b) => a - b).join(",")}`;

/**
 * Draws the outline of a set of squares: the edges that have no square of the set beyond.
 * @param {number[]} squares
 * @param {Attrs} attrs
 */
function outline(squares, attrs) {
  const set = new Set(squares);
  let d = "";
  for (const sq of squares) {
    const f = fileOf(sq);
    const r = rankOf(sq);
    const x = x0(f);
    const y = y0(r);
    if (!(r < SIZE - 1 && set.has(sq + SIZE))) d += `M${x} ${y}h${CELL}`;
    if (!(r > 0 && set.has(sq - SIZE))) d += `M${x} ${y + CELL}h${CELL}`;
    if (!(f > 0 && set.has(sq - 1))) d += `M${x} ${y}v${CELL}`;
    if (!(f < SIZE - 1 && set.has(sq + 1))) d += `M${x + CELL} ${y}v${CELL}`;
  }
  return s("path", { d, fill: "none", "stroke-linecap": "square", ...attrs });
}

/**
 * A building's shape, small, for its tray button.
 * @param {Cell[]} cells
 * @param {string} fill
 * @param {string} edge
 */
function shapeIcon(cells, fill, edge) {
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const hgt = Math.max(...cells.map((c) => c[1])) + 1;
  const unit = 40 / Math.max(w, hgt, 3);
  const ox = (42 - w * unit) / 2;
  const oy = (42 - hgt * unit) / 2;
  return s(
    "svg",
    { viewBox: "0 0 42 42", "aria-hidden": "true" },
    cells.map(([x, y]) =>
      s("rect", {
        x: ox + x * unit,
        y: oy + (hgt - 1 - y) * unit,
        width: unit - 1,
        height: unit - 1,
        rx: 2,
        fill,
        stroke: edge,
        "stroke-width": 1,
      }),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {BoardHandlers} handlers
 * @returns {import("../types.js").Board<ClassicPicture>}
 */
export function createBoard(root, { onMove }) {
  /** @type {ClassicPicture | null} */
  let picture = null;
  /** @type {ShowOptions} */
  let options = {};
  /** @type {string | null} the building picked from the tray */
  let selected = null;
  let rotation = 0;
  /** @type {Cell | null} the square under the pointer (or the keys' cursor) */
  let anchor = null;
  /** @type {Cell | null} a touch's square, waiting for a second tap (or Place here) */
  let pendingTouch = null;
  /** @type {Map<string, ClassicMove>} */
  let movesByKey = new Map();

  const svg = s("svg", {
    viewBox: `0 0 ${LEFT + SIZE * CELL + 8} ${TOP + SIZE * CELL + 24}`,
    role: "application",
    tabindex: "0",
    "aria-label": "The city: pick a building from your tray, then click a square to place it",
  });
  const defs = s(
    "defs",
    {},
    s(
      "pattern",
      { id: "claim-0", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "rgba(236,213,146,0.55)" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#b08d4f", "stroke-width": 4 }),
    ),
    s(
      "pattern",
      { id: "claim-1", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "rgba(169,130,95,0.55)" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#5a3420", "stroke-width": 4 }),
    ),
    s(
      "pattern",
      { id: "capture", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M0 0L10 10M10 0L0 10", stroke: "#b3261e", "stroke-width": 2.2 }),
    ),
    s(
      "pattern",
      { id: "territory-0", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 10, height: 10, fill: "#f0cf6b" }),
      s("circle", { cx: 5, cy: 5, r: 1.3, fill: "#b08d4f" }),
    ),
    s(
      "pattern",
      { id: "territory-1", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 10, height: 10, fill: "#9c6b4a" }),
      s("circle", { cx: 5, cy: 5, r: 1.3, fill: "#5a3420" }),
    ),
    s(
      "linearGradient",
      { id: "pave", x1: 0, y1: 0, x2: 1, y2: 1 },
      s("stop", { offset: "0", "stop-color": "#ccb98d" }),
      s("stop", { offset: "1", "stop-color": "#bfa97b" }),
    ),
  );
  const layers = {
    base: s("g"),
    territory: s("g"),
    buildings: s("g"),
    marks: s("g"),
    ghost: s("g", { "pointer-events": "none" }),
    hint: s("g", { "pointer-events": "none" }),
    labels: s("g", { "font-size": 11, fill: "#e8d4a8", "text-anchor": "middle" }),
  };
  svg.append(defs, ...Object.values(layers));

  // the pavement and the coordinates never change
  for (let sq = 0; sq < SIZE * SIZE; sq++) {
    const tone = (fileOf(sq) + rankOf(sq)) % 2 ? "url(#pave)" : "#c8b384";
    layers.base.append(
      s("rect", { x: x0(fileOf(sq)), y: y0(rankOf(sq)), width: CELL, height: CELL, fill: tone }),
    );
  }
  layers.base.append(
    s("rect", {
      x: LEFT,
      y: TOP,
      width: SIZE * CELL,
      height: SIZE * CELL,
      fill: "none",
      stroke: "#7c5a35",
      "stroke-width": 0.6,
    }),
  );
  for (let i = 0; i < SIZE; i++) {
    layers.labels.append(
      s("text", { x: x0(i) + CELL / 2, y: TOP + SIZE * CELL + 16 }, "abcdefghij"[i]),
      s("text", { x: LEFT / 2, y: y0(i) + CELL / 2 + 4 }, String(i + 1)),
    );
  }
  for (let i = 1; i < SIZE; i++) {
    layers.base.append(
      s("path", {
        d: `M${LEFT + i * CELL} ${TOP}v${SIZE * CELL}M${LEFT} ${TOP + i * CELL}h${SIZE * CELL}`,
        stroke: "rgba(110,80,45,0.25)",
        "stroke-width": 1,
      }),
    );
  }

  const frame = h("div", { class: "board-frame" }, svg);
  const status = h("span", { class: "feedback", "aria-live": "polite" });
  const rotateButton = h(
    "button",
    { class: "btn small", type: "button", title: "Rotate (R or the mouse wheel)", onclick: () => rotate(1) },
    "⟳ Rotate",
  );
  const placeButton = h(
    "button",
    { class: "btn small primary hidden", type: "button", onclick: () => confirmPlacement() },
    "Place here",
  );
  const tools = h(
    "div",
    { class: "tools" },
    rotateButton,
    placeButton,
    h("span", { class: "muted keys" }, h("span", { class: "kbd" }, "R"), " rotate · arrows move · ", h("span", { class: "kbd" }, "Enter"), " place"),
    status,
  );
  const trays = h("div", { class: "trays" });
  root.append(h("div", { class: "classic-layout" }, h("div", { class: "city" }, frame, tools), trays));

  /** @param {number} player */
  function trayOf(player) {
    return picture ? picture.trays[player] : [];
  }

  function selectedShape() {
    if (!picture || !selected || picture.to_move < 0) return null;
    const item = trayOf(picture.to_move).find((t) => t.building === selected);
    if (!item) return null;
    return item.shapes[rotation % item.shapes.length];
  }

  function ghostSquares() {
    const shape = selectedShape();
    if (!shape || !anchor) return null;
    const w = Math.max(...shape.map((c) => c[0]));
    const hgt = Math.max(...shape.map((c) => c[1]));
    const cx = Math.floor(w / 2);
    const cy = Math.floor(hgt / 2);
    const cells = shape.map(([x, y]) => [anchor[0] + x - cx, anchor[1] + y - cy]);
    const inside = cells.every(([f, r]) => f >= 0 && f < SIZE && r >= 0 && r < SIZE);
    return { cells, inside, squares: inside ? cells.map(([f, r]) => r * SIZE + f) : null };
  }

  function currentMove() {
    const ghost = ghostSquares();
    if (!ghost || !ghost.squares) return null;
    return movesByKey.get(keyOf(selected, ghost.squares)) || null;
  }

  function drawGhost() {
    layers.ghost.replaceChildren();
    placeButton.classList.add("hidden");
    const ghost = ghostSquares();
    if (!ghost || !options.interactive) {
      status.textContent = selected && options.interactive ? `${selected}: point at the city` : "";
      return;
    }
    const move = currentMove();
    const mover = picture.to_move;
    if (move) {
      for (const sq of move.claims || []) {
        layers.ghost.append(
          s("rect", { x: x0(fileOf(sq)), y: y0(rankOf(sq)), width: CELL, height: CELL, fill: `url(#claim-${mover})` }),
        );
      }
      for (const sq of move.captures || []) {
        layers.ghost.append(
          s("rect", { x: x0(fileOf(sq)), y: y0(rankOf(sq)), width: CELL, height: CELL, fill: "url(#capture)", class: "capture" }),
        );
      }
    }
    const fill = selected === "Cathedral" ? "var(--cathedral)" : FILL[mover];
    for (const [f, r] of ghost.cells) {
      if (f < 0 || f >= SIZE || r < 0 || r >= SIZE) continue;
      layers.ghost.append(
        s("rect", { x: x0(f) + 2, y: y0(r) + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill, opacity: move ? 0.8 : 0.45 }),
      );
    }
    const inside = ghost.cells.filter(([f, r]) => f >= 0 && f < SIZE && r >= 0 && r < SIZE).map(([f, r]) => r * SIZE + f);
    layers.ghost.append(
      outline(inside, {
        stroke: move ? "#2f7d32" : "#b3261e",
        "stroke-width": 3.5,
        "stroke-dasharray": move ? null : "6 4",
        class: move ? "ghost legal" : "ghost illegal",
      }),
    );
    if (move) {
      const parts = [move.notation];
      if (move.claims) parts.push(`claims ${move.claims.length}`);
      if (move.captures) parts.push(`captures ${move.captures.map(squareName).join(" ")}`);
      status.textContent = parts.join(" · ");
      if (pendingTouch) placeButton.classList.remove("hidden");
    } else {
      status.textContent = `${selected}: not legal there`;
    }
  }

  /** @param {number} step */
  function rotate(step) {
    if (!selected) return;
    const item = trayOf(picture.to_move).find((t) => t.building === selected);
    if (!item) return;
    rotation = (rotation + step + item.shapes.length) % item.shapes.length;
    drawGhost();
  }

  /** @param {string | null} building */
  function select(building) {
    selected = selected === building ? null : building;
    rotation = 0;
    if (selected && !anchor) anchor = [4, 4];
    drawTrays();
    drawGhost();
  }

  function confirmPlacement() {
    const move = currentMove();
    if (!move || !options.interactive) return false;
    pendingTouch = null;
    onMove({ action: move.action, notation: move.notation });
    return true;
  }

  /**
   * The square under a pointer, or null off the city.
   * @param {PointerEvent} event
   * @returns {Cell | null}
   */
  function squareAt(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(svg.getScreenCTM().inverse());
    const f = Math.floor((p.x - LEFT) / CELL);
    const r = SIZE - 1 - Math.floor((p.y - TOP) / CELL);
    if (f < 0 || f >= SIZE || r < 0 || r >= SIZE) return null;
    return [f, r];
  }

  svg.addEventListener("pointermove", (event) => {
    if (event.pointerType === "touch" || !selected) return;
    const at = squareAt(event);
    if (!at) return;
    if (!anchor || at[0] !== anchor[0] || at[1] !== anchor[1]) {
      anchor = at;
      drawGhost();
    }
  });
  svg.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "touch" && !pendingTouch) {
      layers.ghost.replaceChildren();
    }
  });
  svg.addEventListener("pointerup", (event) => {
    if (!options.interactive || !selected) return;
    const at = squareAt(event);
    if (!at) return;
    if (event.pointerType === "touch") {
      const same = pendingTouch && pendingTouch[0] === at[0] && pendingTouch[1] === at[1];
      anchor = at;
      if (same && confirmPlacement()) return;
      pendingTouch = at;
      drawGhost();
      return;
    }
    anchor = at;
    drawGhost();
    confirmPlacement();
  });
  svg.addEventListener(
    "wheel",
    (event) => {
      if (!selected) return;
      event.preventDefault();
      rotate(event.deltaY > 0 ? 1 : -1);
    },
    { passive: false },
  );
  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (!picture || !options.interactive) return;
    const key = event.key;
    if (key === "r" || key === "R") {
      rotate(event.shiftKey ? -1 : 1);
      event.preventDefault();
      return;
    }
    if (document.activeElement !== svg) return; // arrows and Enter steer the ghost only there
    /** @type {Record<string, Cell>} */
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[key] && selected) {
      anchor = anchor || [4, 4];
      anchor = [
        Math.min(SIZE - 1, Math.max(0, anchor[0] + moves[key][0])),
        Math.min(SIZE - 1, Math.max(0, anchor[1] + moves[key][1])),
      ];
      drawGhost();
      event.preventDefault();
    } else if (key === "Enter" || key === " ") {
      confirmPlacement();
      event.preventDefault();
    } else if (key === "Escape") {
      select(null);
    }
  }
  document.addEventListener("keydown", onKey);

  function drawCity() {
    layers.territory.replaceChildren();
    layers.buildings.replaceChildren();
    layers.marks.replaceChildren();
    picture.territory.forEach((squares, player) => {
      for (const sq of squares) {
        layers.territory.append(
          s("rect", {
            x: x0(fileOf(sq)) + 1,
            y: y0(rankOf(sq)) + 1,
            width: CELL - 2,
            height: CELL - 2,
            rx: 3,
            fill: TERRITORY[player],
            opacity: 0.7,
            class: `territory-${player}`,
          }),
        );
      }
    });
    /** @type {(squares: number[], fill: string, edge: string, letter: string, cls: string) => void} */
    const drawBuilding = (squares, fill, edge, letter, cls) => {
      const g = s("g", { class: cls });
      for (const sq of squares) {
        // a shadow to the lower right makes the building stand on the city
        g.append(s("rect", { x: x0(fileOf(sq)) + 3, y: y0(rankOf(sq)) + 4, width: CELL, height: CELL, fill: "rgba(0,0,0,0.28)" }));
      }
      for (const sq of squares) {
        g.append(s("rect", { x: x0(fileOf(sq)), y: y0(rankOf(sq)), width: CELL, height: CELL, fill }));
      }
      g.append(outline(squares, { stroke: edge, "stroke-width": 2.5 }));
      g.append(outline(squares, { stroke: "rgba(255,255,255,0.35)", "stroke-width": 1, transform: "translate(2 2) scale(0.99)" }));
      const centre = [...squares].sort(
        (a, b) =>
          squares.reduce((t, q) => t + Math.abs(fileOf(q) - fileOf(a)) + Math.abs(rankOf(q) - rankOf(a)), 0) -
          squares.reduce((t, q) => t + Math.abs(fileOf(q) - fileOf(b)) + Math.abs(rankOf(q) - rankOf(b)), 0),
      )[0];
      g.append(
        s(
          "text",
          {
            x: x0(fileOf(centre)) + CELL / 2,
            y: y0(rankOf(centre)) + CELL / 2 + 5,
            "text-anchor": "middle",
            "font-size": 14,
            "font-family": "Georgia, serif",
            fill: edge,
            opacity: 0.75,
          },
          letter,
        ),
      );
      layers.buildings.append(g);
    };
    if (picture.cathedral.squares.length) {
      drawBuilding(picture.cathedral.squares, "var(--cathedral)", "#4d4842", "✝", "cathedral");
    }
    for (const b of picture.buildings) {
      drawBuilding(b.squares, FILL[b.player], EDGE[b.player], b.letter, `building player-${b.player}`);
    }
    if (picture.last_move && !options.hideLast) {
      layers.marks.append(
        outline(picture.last_move.squares, {
          stroke: "#f2b01e",
          "stroke-width": 4,
          "stroke-dasharray": "8 5",
          class: "last-move",
        }),
      );
    }
  }

  function drawTrays() {
    trays.replaceChildren();
    picture.trays.forEach((tray, player) => {
      const name = picture.players[player];
      const mine = options.interactive && picture.to_move === player;
      const items = tray.map((item) => {
        const playable = mine && item.in_hand > 0 && movesByKey.size > 0 &&
          [...movesByKey.keys()].some((k) => k.startsWith(`${item.building}|`));
        const fill = item.building === "Cathedral" ? "var(--cathedral)" : FILL[player];
        const edge = item.building === "Cathedral" ? "#4d4842" : EDGE[player];
        return h(
          playable ? "button" : "div",
          {
            class: `tray-item${playable ? " playable" : ""}${item.in_hand ? "" : " empty"}`,
            type: playable ? "button" : null,
            "aria-pressed": playable ? String(selected === item.building) : null,
            "data-building": item.building,
            title: `${item.building} (${item.size} square${item.size > 1 ? "s" : ""})${item.in_hand ? `, ${item.in_hand} in hand` : ", none left"}`,
            // from the keyboard (a click without a pointer), the city takes the keys next
            onclick: playable
              ? (event) => {
                  select(item.building);
                  if (event.detail === 0 && selected) svg.focus();
                }
              : null,
          },
          shapeIcon(item.shapes[selected === item.building && mine ? rotation % item.shapes.length : 0], fill, edge),
          item.building,
          item.in_hand > 1 ? h("span", { class: "count" }, item.in_hand) : null,
        );
      });
      trays.append(
        h(
          "section",
          { class: "panel tray", "aria-label": `${name}'s tray` },
          h(
            "h3",
            {},
            h("span", { class: "swatch", style: { background: FILL[player] } }),
            `${name} · ${picture.unplaced[player]} unplaced`,
          ),
          h("div", { class: "tray-items" }, items),
        ),
      );
    });
  }

  return {
    /**
     * @param {ClassicPicture} next
     * @param {ShowOptions} [opts]
     */
    show(next, opts = {}) {
      picture = next;
      options = opts;
      movesByKey = new Map();
      for (const m of picture.moves) movesByKey.set(keyOf(m.notation.split(" ")[0], m.squares), m);
      const tray = picture.to_move >= 0 ? trayOf(picture.to_move) : [];
      if (!tray.some((t) => t.building === selected && t.in_hand > 0)) {
        selected = null;
        pendingTouch = null;
      }
      if (opts.interactive && tray[0] && tray[0].building === "Cathedral") selected = "Cathedral";
      rotateButton.disabled = !opts.interactive;
      tools.classList.toggle("hidden", !opts.interactive);
      drawCity();
      drawTrays();
      drawGhost();
      layers.hint.replaceChildren();
    },
    /**
     * Draws a hint's placement on the city, outlined (null: none).
     * @param {number | null} action
     */
    showHint(action) {
      layers.hint.replaceChildren();
      const move = action === null ? null : picture.moves.find((m) => m.action === action);
      if (!move) return;
      for (const sq of move.squares) {
        layers.hint.append(s("rect", { x: x0(fileOf(sq)) + 3, y: y0(rankOf(sq)) + 3, width: CELL - 6, height: CELL - 6, rx: 4, fill: "rgba(47,100,179,0.25)" }));
      }
      layers.hint.append(outline(move.squares, { stroke: "#2f64b3", "stroke-width": 4, "stroke-dasharray": "7 4", class: "hint-shape" }));
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      root.replaceChildren();
    },
  };
}
