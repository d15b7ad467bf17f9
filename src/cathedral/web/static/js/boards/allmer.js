// @ts-check
// Allmer's Cathedral: the cross of five fields with its lines, strong points and passages.
// Click one of your stones to see its landings; point at a landing to see the stones it would
// convert; click it to step. A chain goes on from the same stone until you press Stop. A tap
// or click near a stone or landing counts as on it; on a phone the board zooms in on a
// picked stone and its landings, so that each is a finger's width apart. The keyboard walks
// them with Tab (or the arrows), Enter picks.

import { h, s } from "../dom.js";

/** @typedef {import("../types.js").AllmerPicture} AllmerPicture */
/** @typedef {import("../types.js").AllmerStep} AllmerStep */
/** @typedef {import("../types.js").BoardHandlers} BoardHandlers */
/** @typedef {import("../types.js").ShowOptions} ShowOptions */

const GAP = 30;
const PAD = 34;
// stones are coloured by their seat's name (board colour c is the stones of player c - 1)
/** @type {Record<string, string>} */
const STONE = { White: "#f7f3ea", Black: "#2a2623", Blue: "#2f64b3", Red: "#c0392b" };
/** @type {Record<string, string>} */
const STONE_EDGE = { White: "#8c826f", Black: "#000", Blue: "#173a6e", Red: "#6e1a12" };

/** @type {(x: number) => number} */
const px = (x) => PAD + x * GAP;
/** @type {(y: number) => number} */
const py = (y) => PAD + y * GAP;


/**
 * @param {HTMLElement} root
 * @param {BoardHandlers} handlers
 * @returns {import("../types.js").Board<AllmerPicture>}
 */
export function createBoard(root, { onMove }) {
  /** @type {AllmerPicture | null} */
  let picture = null;
  /** @type {ShowOptions} */
  let options = {};
  /** @type {number | null} the point of the stone picked */
  let selected = null;
  /** @type {AllmerStep | null} the landing under the pointer or the focus */
  let hovered = null;
  /** @type {Map<number, AllmerStep[]>} a stone's point -> its landings */
  let byStone = new Map();

  const size = PAD * 2 + GAP * 14;
  const svg = s("svg", {
    viewBox: `0 0 ${size} ${size}`,
    role: "application",
    "aria-label": "The cross: click one of your stones, then one of its landings",
  });
  const layers = {
    fields: s("g"),
    lines: s("g", { stroke: "#6d5434", "stroke-width": 1.6, "stroke-linecap": "round" }),
    passages: s("g", { fill: "none", stroke: "#8b2c1c", "stroke-width": 2.2, "stroke-dasharray": "5 5" }),
    points: s("g"),
    last: s("g", { "pointer-events": "none" }),
    stones: s("g"),
    hover: s("g", { "pointer-events": "none" }),
    hint: s("g", { "pointer-events": "none" }),
    overlay: s("g"),
    labels: s("g", { "font-size": 10, fill: "#e8d4a8", "text-anchor": "middle" }),
  };
  svg.append(
    s(
      "defs",
      {},
      ...Object.keys(STONE).map((c) =>
        s(
          "radialGradient",
          { id: `stone-${c}`, cx: "35%", cy: "30%", r: "75%" },
          s("stop", { offset: "0", "stop-color": "#fff", "stop-opacity": c === "White" ? 1 : 0.55 }),
          s("stop", { offset: "0.35", "stop-color": STONE[c] }),
          s("stop", { offset: "1", "stop-color": STONE_EDGE[c] }),
        ),
      ),
    ),
    ...Object.values(layers),
  );
  const frame = h("div", { class: "board-frame" }, svg);
  const stopButton = h(
    "button",
    { class: "btn primary hidden", type: "button", onclick: () => stop() },
    "■ Stop the chain",
  );
  const status = h("span", { class: "feedback", "aria-live": "polite" });
  const tools = h("div", { class: "tools" }, stopButton, status);
  root.append(frame, tools);
  /** @type {number | null} a hint's step, drawn as an arrow */
  let hintAction = null;

  /** @type {string | null} the field whose lines are drawn (they change with it alone) */
  let drawnField = null;
  function drawField() {
    if (drawnField === picture.field) return;
    drawnField = picture.field;
    for (const layer of /** @type {const} */ (["fields", "lines", "passages", "points", "labels"])) layers[layer].replaceChildren();
    const fields = [
      [5, 0],
      [0, 5],
      [5, 5],
      [10, 5],
      [5, 10],
    ];
    fields.forEach(([fx, fy], i) => {
      layers.fields.append(
        s("rect", {
          x: px(fx) - GAP / 2,
          y: py(fy) - GAP / 2,
          width: GAP * 5,
          height: GAP * 5,
          rx: 6,
          fill: i === 2 ? "#c9a978" : "#e2cda1",
          stroke: "#7c5a35",
          "stroke-width": 1.2,
        }),
      );
    });
    for (const [p, q] of picture.segments) {
      const a = picture.points[p];
      const b = picture.points[q];
      layers.lines.append(s("line", { x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y) }));
    }
    for (const [p, q] of picture.passages) {
      const a = picture.points[p];
      const b = picture.points[q];
      // bulge away from the centre of the cross
      const mx = (px(a.x) + px(b.x)) / 2;
      const my = (py(a.y) + py(b.y)) / 2;
      const cx = px(7) + (mx - px(7)) * 1.06;
      const cy = py(7) + (my - py(7)) * 1.06;
      layers.passages.append(s("path", { d: `M${px(a.x)} ${py(a.y)}Q${cx} ${cy} ${px(b.x)} ${py(b.y)}` }));
    }
    picture.points.forEach((pt) => {
      layers.points.append(
        pt.strong
          ? s("rect", { x: px(pt.x) - 4, y: py(pt.y) - 4, width: 8, height: 8, fill: "#6d5434", transform: `rotate(45 ${px(pt.x)} ${py(pt.y)})` })
          : s("circle", { cx: px(pt.x), cy: py(pt.y), r: 3, fill: "#6d5434" }),
      );
    });
    const files = "abcdefghijklmno";
    for (let i = 0; i < 15; i++) {
      layers.labels.append(
        s("text", { x: px(i), y: size - 10 }, files[i]),
        s("text", { x: 12, y: py(i) + 3 }, String(15 - i)),
      );
    }
  }

  /** @param {number} point */
  function stepsOf(point) {
    return byStone.get(point) || [];
  }

  function drawStones() {
    layers.stones.replaceChildren();
    layers.last.replaceChildren();
    const last = picture.last_move;
    if (last && last.from !== undefined && !options.hideLast) {
      const a = picture.points[last.from];
      const b = picture.points[last.to];
      layers.last.append(
        s("line", { x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y), stroke: "#f2b01e", "stroke-width": 5, "stroke-linecap": "round", opacity: 0.7 }),
        s("circle", { cx: px(a.x), cy: py(a.y), r: 6, fill: "none", stroke: "#f2b01e", "stroke-width": 2.5 }),
      );
    }
    const chainStone = picture.chain ? picture.chain.stone : null;
    if (picture.chain) {
      for (const p of picture.chain.touched) {
        if (p === chainStone) continue;
        const pt = picture.points[p];
        layers.last.append(
          s("path", { d: `M${px(pt.x) - 6} ${py(pt.y) - 6}l12 12m0 -12l-12 12`, stroke: "#9b2c1c", "stroke-width": 2.5, class: "touched" }),
        );
      }
    }
    picture.stones.forEach((value, p) => {
      if (!value) return;
      const colour = picture.players[value - 1];
      const pt = picture.points[p];
      const eliminated = picture.eliminated.includes(value - 1); // out: still seen, dashed
      const movable = options.interactive && stepsOf(p).length > 0;
      const g = s("g", {
        class: `stone ${colour.toLowerCase()}${movable ? " movable" : ""}${p === selected ? " selected" : ""}`,
        "data-point": pt.name,
        tabindex: movable ? 0 : null,
        role: movable ? "button" : null,
        "aria-label": movable ? `stone on ${pt.name}` : null,
        opacity: eliminated ? 0.7 : 1,
      });
      if (p === selected || p === chainStone) {
        g.append(
          s("circle", { cx: px(pt.x), cy: py(pt.y), r: 15, fill: "none", stroke: "#f2b01e", "stroke-width": 3, class: p === chainStone ? "chain-ring" : "" }),
        );
      } else if (movable) {
        g.append(s("circle", { cx: px(pt.x), cy: py(pt.y), r: 14, fill: "none", stroke: "rgba(242,176,30,0.55)", "stroke-width": 1.5 }));
      }
      g.append(
        s("circle", {
          cx: px(pt.x),
          cy: py(pt.y),
          r: 11,
          fill: `url(#stone-${colour})`,
          stroke: eliminated ? "#1c130b" : STONE_EDGE[colour],
          "stroke-width": eliminated ? 2 : 1.2,
          "stroke-dasharray": eliminated ? "3 2" : null,
        }),
      );
      if (movable) {
        g.addEventListener("click", () => selectStone(p));
        g.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            selectStone(p, true);
            event.preventDefault();
          }
        });
      }
      layers.stones.append(g);
    });
  }

  // the hovered landing's path and the stones it would convert, on their own layer so that the
  // landings under the pointer are never replaced while it moves (a click needs the same
  // element under both halves of the press)
  function drawHover() {
    layers.hover.replaceChildren();
    if (selected === null || !hovered || !options.interactive) return;
    const from = picture.points[selected];
    const to = picture.points[hovered.to];
    layers.hover.append(
      s("line", { x1: px(from.x), y1: py(from.y), x2: px(to.x), y2: py(to.y), stroke: "#2f7d32", "stroke-width": 3, "stroke-dasharray": "4 4" }),
    );
    for (const p of hovered.converts) {
      const pt = picture.points[p];
      layers.hover.append(
        s("circle", { cx: px(pt.x), cy: py(pt.y), r: 13, fill: "rgba(179,38,30,0.25)", stroke: "#b3261e", "stroke-width": 3, class: "converts" }),
      );
    }
    status.textContent = describe(hovered);
  }

  function drawOverlay() {
    layers.overlay.replaceChildren();
    drawHover();
    if (selected === null || !options.interactive) {
      status.textContent = options.interactive
        ? picture.chain
          ? `Continue with the stone on ${picture.chain.name}, or stop`
          : "Click one of your stones"
        : "";
      return;
    }
    const steps = stepsOf(selected);
    const from = picture.points[selected];
    for (const step of steps) {
      const pt = picture.points[step.to];
      const converting = step.converts.length > 0;
      const g = s("g", {
        class: `landing${converting ? " converting" : ""}`,
        "data-point": pt.name,
        "data-notation": step.notation,
        tabindex: 0,
        role: "button",
        "aria-label": `${step.notation}${converting ? `, converts ${step.converts.length}` : ""}`,
      });
      g.append(
        s("circle", { cx: px(pt.x), cy: py(pt.y), r: 13, fill: "transparent" }),
        s("circle", {
          cx: px(pt.x),
          cy: py(pt.y),
          r: converting ? 9 : 7,
          fill: converting ? "rgba(47,125,50,0.85)" : "rgba(47,125,50,0.35)",
          stroke: "#1f5421",
          "stroke-width": 1.5,
        }),
      );
      if (converting) {
        g.append(s("text", { x: px(pt.x), y: py(pt.y) + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff", "font-weight": 700, "pointer-events": "none" }, String(step.converts.length)));
      }
      g.addEventListener("pointerenter", () => {
        hovered = step;
        drawHover();
      });
      g.addEventListener("focus", () => {
        hovered = step;
        drawHover();
      });
      g.addEventListener("click", () => play(step));
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          play(step);
          event.preventDefault();
        }
      });
      layers.overlay.append(g);
    }
    status.textContent = hovered ? describe(hovered) : `${from.name}: ${steps.length} landing${steps.length === 1 ? "" : "s"}`;
  }

  /** @param {AllmerStep} step */
  function describe(step) {
    if (!step.converts.length) return `${step.notation} · ${step.kind}`;
    const victims = [...new Set(step.converts.map((p) => picture.players[picture.stones[p] - 1]))];
    const n = step.converts.length;
    return `${step.notation} · converts ${n} ${victims.join(" and ")} stone${n === 1 ? "" : "s"}`;
  }

  // On a narrow screen the points are some 20 px apart: with a stone picked, the board grows
  // to 46 px a gap inside its frame, which scrolls to the stone (and back when it is dropped).
  const narrow = window.matchMedia("(max-width: 600px)");
  function zoom() {
    const on = narrow.matches && selected !== null && options.interactive;
    frame.classList.toggle("zoomed", on);
    svg.classList.toggle("zoomed", on);
    svg.style.width = on ? `${Math.ceil((size * 46) / GAP)}px` : "";
    if (on) {
      const pt = picture.points[selected];
      const scale = svg.getBoundingClientRect().width / size;
      frame.scrollLeft = px(pt.x) * scale - frame.clientWidth / 2;
      frame.scrollTop = py(pt.y) * scale - frame.clientHeight / 2;
    }
  }

  /**
   * Picks the stone on point p (again: drops it).
   * @param {number} p
   * @param {boolean} [fromKeys]
   */
  function selectStone(p, fromKeys = false) {
    selected = selected === p && !picture.chain ? null : p;
    hovered = null;
    drawStones();
    drawOverlay();
    zoom();
    // from the keyboard, the keys go on to the stone's first landing (or back to the stone)
    if (fromKeys) {
      const next = /** @type {SVGGElement | null} */ (layers.overlay.querySelector(".landing") || svg.querySelector(`.stone[data-point="${picture.points[p].name}"]`));
      if (next) next.focus();
    }
  }

  /** @param {AllmerStep} step */
  function play(step) {
    if (!options.interactive) return;
    onMove({ action: step.action, notation: step.notation });
  }

  function stop() {
    if (picture && picture.chain && picture.chain.stop && options.interactive) {
      onMove({ action: picture.chain.stop.action, notation: "stop" });
    }
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.target instanceof HTMLInputElement) return;
    if ((event.key === "s" || event.key === "S") && picture && picture.chain) {
      stop();
    } else if (event.key === "Escape" && selected !== null && !(picture && picture.chain)) {
      selectStone(selected);
    }
  }
  document.addEventListener("keydown", onKey);
  svg.addEventListener("pointerleave", () => {
    if (hovered) {
      hovered = null;
      drawHover();
    }
  });

  /**
   * A tap or click between points goes to the nearest stone or landing within one gap.
   * @param {MouseEvent} event
   * @returns {SVGGElement | null}
   */
  function nearest(event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = null;
    let bestDistance = GAP;
    for (const el of /** @type {NodeListOf<SVGGElement>} */ (svg.querySelectorAll(".landing, .stone.movable"))) {
      const at = picture.points.find((pt) => pt.name === el.dataset.point);
      if (!at) continue;
      const distance = Math.hypot(px(at.x) - point.x, py(at.y) - point.y);
      if (distance < bestDistance) {
        best = el;
        bestDistance = distance;
      }
    }
    return best;
  }

  svg.addEventListener("click", (event) => {
    if (!options.interactive || /** @type {Element} */ (event.target).closest(".landing, .stone.movable")) return;
    const target = nearest(event);
    if (target) target.dispatchEvent(new MouseEvent("click", { bubbles: false }));
    else if (selected !== null && !picture.chain) selectStone(selected); // away: zoom out
  });

  // The arrow keys walk the stones and landings in reading order, like Tab.
  svg.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    const items = [.../** @type {NodeListOf<SVGGElement>} */ (svg.querySelectorAll(".landing, .stone.movable"))];
    if (!items.length) return;
    const at = items.indexOf(/** @type {SVGGElement} */ (document.activeElement));
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    items[(at + step + items.length) % items.length].focus();
    event.preventDefault();
  });

  function drawHint() {
    layers.hint.replaceChildren();
    if (hintAction === null) return;
    for (const move of picture.moves) {
      const step = move.steps.find((st) => st.action === hintAction);
      if (!step) continue;
      const a = picture.points[move.from];
      const b = picture.points[step.to];
      layers.hint.append(
        s("line", { x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y), stroke: "#2f64b3", "stroke-width": 4, "stroke-linecap": "round", "stroke-dasharray": "6 4", class: "hint-arrow" }),
        s("circle", { cx: px(b.x), cy: py(b.y), r: 12, fill: "none", stroke: "#2f64b3", "stroke-width": 3 }),
      );
    }
  }

  return {
    /**
     * @param {AllmerPicture} next
     * @param {ShowOptions} [opts]
     */
    show(next, opts = {}) {
      picture = next;
      options = opts;
      byStone = new Map(picture.moves.map((m) => [m.from, m.steps]));
      if (picture.chain) selected = picture.chain.stone;
      else if (selected !== null && !byStone.has(selected)) selected = null;
      if (!opts.interactive) selected = picture.chain ? picture.chain.stone : null;
      hovered = null;
      drawField();
      drawStones();
      drawOverlay();
      zoom();
      hintAction = null;
      drawHint();
      // a keyboard player's turn: the keys start on the board (unless typing elsewhere)
      const away = document.activeElement && document.activeElement !== document.body && !svg.contains(document.activeElement);
      if (opts.interactive && !away) {
        const first = /** @type {SVGGElement | null} */ (picture.chain ? layers.overlay.querySelector(".landing") : svg.querySelector(".stone.movable"));
        if (first) first.focus({ preventScroll: true });
      }
      const canStop = Boolean(opts.interactive && picture.chain && picture.chain.stop);
      stopButton.classList.toggle("hidden", !canStop);
      tools.classList.toggle("hidden", !opts.interactive);
    },
    /**
     * Draws a hint's step as an arrow (null: none).
     * @param {number | null} action
     */
    showHint(action) {
      hintAction = action;
      drawHint();
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      root.replaceChildren();
    },
  };
}
