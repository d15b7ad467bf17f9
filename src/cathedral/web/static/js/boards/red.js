// @ts-check
// The Red Cathedral: the market ring with its dice and resource tiles, the influence cards, the
// cathedral's towers, every player's holdings, and the current decision's choices with what
// each yields (worked out by the engine and carried in the picture).

import { h, s, seatColour } from "../dom.js";

/** @typedef {import("../types.js").BoardHandlers} BoardHandlers */
/** @typedef {import("../types.js").RedChoice} RedChoice */
/** @typedef {import("../types.js").RedPicture} RedPicture */
/** @typedef {import("../types.js").RedSlot} RedSlot */
/** @typedef {import("../types.js").ShowOptions} ShowOptions */

/** @type {Record<string, string>} */
const RESOURCE_COLOUR = {
  wood: "#c08a4e",
  brick: "#b5462c",
  stone: "#9ea3a8",
  gold: "#e3b627",
  green: "#2f9e5b",
  purple: "#8a4fb8",
  rubles: "#d9c27a",
  recognition: "#466fb3",
};
/** @type {Record<string, string>} */
const DIE_COLOUR = { white: "#f4f1ea", red: "#c0392b", blue: "#2f64b3", yellow: "#e0b21b", green: "#2f8f4e" };
/** @type {Record<string, string>} */
const GROUP_COLOUR = { artisans: "#d8b98a", carriers: "#b9c8a4", merchants: "#e0c27c", clergy: "#c8a9c4" };
/** @type {Record<string, string>} */
const ORNAMENT_ICON = { door: "⌂", arch: "∩", cross: "✚" };
const KIND_TITLES = [
  ["die", "Move a die"],
  ["take", "Take from the market"],
  ["influence", "Influence"],
  ["activate", "Activate a workshop tile"],
  ["claim", "Claim a card"],
  ["tile", "Place the workshop tile"],
  ["deliver", "Deliver"],
  ["ornament", "Ornament"],
  ["reroll", "Reroll (costs prestige)"],
  ["rubles", "Sell prestige for rubles"],
  ["done", "End"],
];
/** @type {Record<number, [number, number][]>} where a die's pips sit, by its number */
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

const MATERIALS = ["wood", "brick", "stone", "gold", "green", "purple"];

/**
 * A resource with its colour and amount; hovering (or a screen reader) gives it in words.
 * @param {string} name
 * @param {number | string} [amount]
 */
function mat(name, amount) {
  const words = amount === undefined ? name : `${amount} ${name}`;
  return h("span", { class: `mat ${name}`, title: words, "aria-label": words }, h("i", { "aria-hidden": "true" }), amount === undefined ? name : `${amount}`);
}

/**
 * Each resource of a set, or a dash for none.
 * @param {Record<string, number>} obj
 */
function amounts(obj) {
  const entries = Object.entries(obj || {});
  if (!entries.length) return [h("span", { class: "muted" }, "—")];
  return entries.map(([name, n]) => mat(name, n));
}

/**
 * "2 brick, 1 stone"
 * @param {Record<string, number>} obj
 */
function inWords(obj) {
  const entries = Object.entries(obj || {}).filter(([, n]) => n);
  return entries.length ? entries.map(([name, n]) => `${n} ${name}`).join(", ") : "nothing";
}

/**
 * A cathedral card in words: what it costs (or still needs), what building it gives, and whom
 * its completion would cost recognition.
 * @param {RedSlot} slot
 * @param {string[]} players
 */
function cardWords(slot, players) {
  const parts = [`${slot.name}, a ${slot.level}`];
  if (slot.built) parts.push(`built${slot.owner !== null ? ` by ${players[slot.owner]}` : ""}`);
  else if (slot.owner !== null) parts.push(`claimed by ${players[slot.owner]}, still needs ${inWords(slot.need)}`);
  else parts.push(`costs ${inWords(slot.cost)}`);
  if (!slot.built) parts.push(`completing it gives ${slot.recognition} recognition${slot.rubles ? ` and ${slot.rubles} rubles` : ""}`);
  if (slot.penalties) {
    const lost = slot.penalties.map((n, p) => (n ? `${players[p]} ${n}` : "")).filter(Boolean);
    parts.push(`its completion costs ${lost.join(", ")} recognition (their unfinished cards below)`);
  }
  if (slot.tile) parts.push(`workshop tile: ${slot.tile.text}`);
  if (slot.ornament) parts.push(`${players[slot.ornament.owner]}'s ${slot.ornament.kind}`);
  return parts.join("; ");
}

/**
 * "+2 brick −1 rubles" with colours, from a yields object.
 * @param {Record<string, number>} yields the chooser's
 * @param {Record<string, Record<string, number>>} [others] the other players', by name
 */
function yieldText(yields, others) {
  const parts = [];
  for (const [key, n] of Object.entries(yields || {})) {
    if (key === "completed") {
      parts.push(h("span", { class: "plus" }, "completes "));
      continue;
    }
    parts.push(h("span", { class: n > 0 ? "plus" : "minus" }, `${n > 0 ? "+" : "−"}${Math.abs(n)} ${key} `));
  }
  for (const [name, delta] of Object.entries(others || {})) {
    for (const [key, n] of Object.entries(delta)) {
      parts.push(h("span", { class: n > 0 ? "plus" : "minus" }, `${name} ${n > 0 ? "+" : "−"}${Math.abs(n)} ${key} `));
    }
  }
  return parts.length ? parts : [h("span", {}, "no immediate gain")];
}

/**
 * A die's face centred on (cx, cy).
 * @param {number} cx
 * @param {number} cy
 * @param {string} colour
 * @param {number} pips
 * @param {number} [size]
 */
function die(cx, cy, colour, pips, size = 18) {
  const g = s("g", { class: "die-face", "data-die": colour });
  g.append(
    s("rect", {
      x: cx - size / 2,
      y: cy - size / 2,
      width: size,
      height: size,
      rx: 4,
      fill: DIE_COLOUR[colour],
      stroke: "#222",
      "stroke-width": 1.2,
    }),
  );
  const dot = colour === "white" || colour === "yellow" ? "#222" : "#fff";
  for (const [dx, dy] of PIPS[pips] || []) {
    g.append(s("circle", { cx: cx + dx * size * 0.27, cy: cy + dy * size * 0.27, r: size * 0.08, fill: dot }));
  }
  return g;
}

/**
 * @param {HTMLElement} root
 * @param {BoardHandlers} handlers
 * @returns {import("../types.js").Board<RedPicture>}
 */
export function createBoard(root, { onMove, side = null }) {
  /** @type {RedPicture | null} */
  let picture = null;
  /** @type {ShowOptions} */
  let options = {};
  /** @type {HTMLElement | null} the ways to build on a card (or its words), shown next to it */
  let menu = null;
  /** @type {Map<string, string> | null} colour -> "space:pips" of the picture drawn before, to show rolls */
  let lastDice = null;

  const marketSvg = s("svg", { class: "market-svg", viewBox: "0 0 320 320", role: "group", "aria-label": "The market: eight spaces, their resources and dice" });
  const influenceList = h("div", { class: "influence", style: { fontSize: "0.78rem" } });
  const towers = h("div", { class: "towers" });
  const supply = h("div", { class: "row", style: { fontSize: "0.8rem", marginTop: "0.4rem" } });
  const holdings = h("div", { class: "holdings" });
  const decision = h("section", { class: "panel decision", "aria-label": "Your choices" });
  // the choices sit in the page's side column on a wide screen, above the table on a phone
  const inSide = Boolean(side) && !window.matchMedia("(max-width: 900px)").matches;
  if (inSide) side.append(decision);
  else root.append(decision);
  root.append(
    h(
      "div",
      { class: "red-table" },
      h("section", { class: "panel" }, h("h3", {}, "Market"), marketSvg, influenceList),
      h("section", { class: "panel" }, h("h3", { class: "plan-title" }, "Cathedral"), towers, supply),
    ),
    h("section", { class: "panel" }, h("h3", {}, "Holdings"), holdings),
  );

  /**
   * The choices the player may make now, of one kind or all (none when not interactive).
   * @param {string} [kind]
   * @returns {RedChoice[]}
   */
  function choices(kind) {
    const d = picture.decision;
    if (!d || !options.interactive) return [];
    return d.choices.filter((c) => !kind || c.kind === kind);
  }

  function drawMarket() {
    marketSvg.replaceChildren();
    const cx = 160;
    const cy = 160;
    marketSvg.append(
      s("circle", { cx, cy, r: 150, fill: "#7a2e1f", stroke: "#4b1a10", "stroke-width": 3 }),
      s("circle", { cx, cy, r: 62, fill: "#f4ead2", stroke: "#4b1a10", "stroke-width": 2 }),
    );
    const dieChoices = new Map(choices("die").filter((c) => c.extra === 0).map((c) => [c.die, c]));
    picture.market.forEach((space, i) => {
      // space 1 at the top, clockwise
      const angle = (-90 + i * 45 + 22.5) * (Math.PI / 180);
      const x = cx + Math.cos(angle) * 106;
      const y = cy + Math.sin(angle) * 106;
      const g = s("g", { class: `space${space.visited ? " visited" : ""}`, "data-space": i + 1 });
      g.append(
        s("circle", {
          cx: x,
          cy: y,
          r: 40,
          fill: GROUP_COLOUR[space.group] || "#e8d7ad",
          stroke: space.visited ? "#f2b01e" : "#4b1a10",
          "stroke-width": space.visited ? 4 : 1.5,
        }),
        s("rect", {
          x: x - 17,
          y: y - 34,
          width: 34,
          height: 20,
          rx: 4,
          fill: RESOURCE_COLOUR[space.resource] || "#ccc",
          stroke: "#3a2a1a",
        }),
        s("text", { x, y: y - 19.5, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#1c130b" }, `×${space.yield}`),
        // the label above the dice: a die never hides it
        s("text", { x, y: y - 3, "text-anchor": "middle", "font-size": 9, fill: "#2b1d12" }, space.resource || "?"),
        s("text", { x: x - 30, y: y - 24, "font-size": 9, fill: "#4b1a10", "font-weight": 700 }, String(i + 1)),
      );
      space.dice.forEach((d, k) => {
        const n = space.dice.length;
        const dx = x + (k - (n - 1) / 2) * 19;
        const face = die(dx, y + 16, d.colour, d.pips, 17);
        const key = `${i}:${d.pips}`;
        if (lastDice && lastDice.get(d.colour) !== undefined && lastDice.get(d.colour) !== key) {
          face.classList.add(lastDice.get(d.colour).startsWith(`${i}:`) ? "rolled" : "moved");
        }
        const choice = dieChoices.get(d.colour);
        if (choice) {
          face.classList.add("clickable");
          face.dataset.action = String(choice.action);
          face.setAttribute("tabindex", "0");
          face.setAttribute("role", "button");
          face.setAttribute("aria-label", `${choice.notation}: to space ${choice.space + 1}, take up to ${choice.take.up_to} ${choice.take.resource}`);
          face.append(s("title", {}, `${choice.notation} → space ${choice.space + 1}: take up to ${choice.take.up_to} ${choice.take.resource}`));
          face.prepend(s("rect", { x: dx - 11.5, y: y + 4.5, width: 23, height: 23, rx: 6, fill: "none", stroke: "#f2b01e", "stroke-width": 2.5 }));
          face.addEventListener("click", () => onMove(choice));
          face.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") onMove(choice);
          });
        }
        g.append(face);
      });
      marketSvg.append(g);
    });
    lastDice = new Map(picture.market.flatMap((space, i) => space.dice.map((d) => [d.colour, `${i}:${d.pips}`])));
    const rolling = picture.rolling && picture.rolling.length;
    marketSvg.append(
      s("text", { x: cx, y: cy - 6, "text-anchor": "middle", "font-size": 13, "font-family": "Georgia, serif", fill: "#4b1a10" }, "Market"),
      s("text", { x: cx, y: cy + 12, "text-anchor": "middle", "font-size": 10, fill: "#7a6650" }, rolling ? `rolling ${picture.rolling.join(", ")}` : `round ${picture.round}`),
    );
    influenceList.replaceChildren(
      ...picture.influence.map((card) =>
        h(
          "div",
          { style: { margin: "0.3rem 0", padding: "0.3rem 0.45rem", borderRadius: "6px", background: GROUP_COLOUR[card.group] } },
          h("strong", {}, `${card.group} `),
          h("span", { class: "muted" }, `spaces ${card.spaces[0] + 1}–${card.spaces[1] + 1} · ${card.card}`),
          ...card.actions.map((a, i) => h("div", {}, `${i + 1}) ${a.text}`)),
        ),
      ),
    );
  }

  function drawTowers() {
    towers.replaceChildren();
    root.querySelector(".plan-title").textContent = picture.plan ? `Cathedral · plan ${picture.plan}` : "Cathedral";
    const claimBySlot = new Map(choices("claim").map((c) => [c.slot, c]));
    /** @type {Map<number, RedChoice[]>} */
    const buildBySlot = new Map();
    for (const c of choices().filter((c) => c.kind === "deliver" || c.kind === "ornament")) {
      if (!buildBySlot.has(c.slot)) buildBySlot.set(c.slot, []);
      buildBySlot.get(c.slot).push(c);
    }
    for (const tower of picture.towers) {
      const col = h("div", { class: "tower" }, h("div", { class: "label" }, `T${tower.tower + 1}`));
      for (const slot of tower.slots) {
        if (!slot.card) {
          col.append(h("div", { class: "card" }, h("div", { class: "name" }, slot.name), "?"));
          continue;
        }
        const owner = slot.owner !== null ? picture.players[slot.owner] : null;
        const claim = claimBySlot.get(slot.slot);
        const builds = buildBySlot.get(slot.slot) || [];
        const words = cardWords(slot, picture.players);
        const action = claim ? ` Click to ${claim.notation}.` : builds.length ? ` Click to build on it (${builds.length === 1 ? builds[0].notation : `${builds.length} ways`}).` : "";
        const stillNeeds = !slot.built && slot.owner !== null;
        const card = h(
          claim || builds.length ? "button" : "div",
          {
            class: `card ${slot.level}${slot.built ? " built" : ""}${claim ? " claimable" : ""}${builds.length ? " target" : ""}`,
            "data-slot": slot.name,
            type: claim || builds.length ? "button" : null,
            style: owner ? { "--owner": seatColour(owner) } : null,
            title: words + action,
            "aria-label": words + action,
            // a card that offers nothing now says what it is, for a touch screen has no hover
            onclick: claim
              ? () => onMove(claim)
              : builds.length
                ? (event) => build(/** @type {HTMLElement} */ (event.currentTarget), slot, builds)
                : (event) => explain(/** @type {HTMLElement} */ (event.currentTarget), words),
            "data-actions": [claim, ...builds].filter(Boolean).map((c) => c.action).join(" ") || null,
          },
          h("div", { class: "name" }, slot.name, " ", h("span", { class: "level" }, slot.level)),
          h("div", { class: "line" }, h("span", { class: "tag" }, slot.built ? "cost" : stillNeeds ? "needs" : "cost"), ...amounts(slot.built ? slot.cost : stillNeeds ? slot.need : slot.cost)),
          slot.built ? null : h("div", { class: "line" }, h("span", { class: "tag" }, "gives"), mat("recognition", slot.recognition), slot.rubles ? mat("rubles", slot.rubles) : null),
          slot.tile ? h("div", { class: "muted" }, `tile ${slot.tile.text}`) : null,
          slot.penalties ? h("div", { class: "penalty" }, `if built: ${slot.penalties.map((n, p) => (n ? `${picture.players[p]} −${n}` : "")).filter(Boolean).join(" ")}`) : null,
          owner ? h("span", { class: "flag", title: `${owner}'s banner`, "aria-hidden": "true" }) : null,
          slot.ornament ? h("span", { class: "orn", title: `${slot.ornament.kind} of ${picture.players[slot.ornament.owner]}`, "aria-hidden": "true" }, ORNAMENT_ICON[slot.ornament.kind]) : null,
        );
        col.append(card);
      }
      towers.append(col);
    }
    supply.replaceChildren(
      h("div", { class: "row" }, h("span", { class: "muted" }, "Supply "), ...amounts(picture.supply)),
      h(
        "div",
        { class: "legend", "aria-label": "Legend" },
        ...MATERIALS.map((name) => mat(name)),
        mat("recognition"),
        mat("rubles"),
        h("span", { class: "muted" }, "· a card's “cost” is what its owner delivers, “gives” what completing it earns, “if built” the recognition its completion costs owners of unfinished cards below"),
      ),
    );
  }

  /**
   * Building on a card: its one way at once, or the few ways next to the card.
   * @param {HTMLElement} anchor the card
   * @param {RedSlot} slot
   * @param {RedChoice[]} builds
   */
  function build(anchor, slot, builds) {
    closeMenu();
    if (builds.length === 1) {
      onMove(builds[0]);
      return;
    }
    const rect = anchor.getBoundingClientRect();
    menu = h(
      "div",
      { class: "card-menu panel", role: "menu", "aria-label": `Build on ${slot.name}` },
      h("div", { class: "muted small" }, `Build on ${slot.name}`),
      ...builds.map((c) =>
        h(
          "button",
          { class: "choice", type: "button", role: "menuitem", "data-notation": c.notation, onclick: () => { closeMenu(); onMove(c); } },
          h("strong", {}, c.notation),
          h("span", { class: "yield" }, ...yieldText(c.yields, c.others)),
        ),
      ),
    );
    menu.style.left = `${Math.max(8, Math.min(window.scrollX + rect.left, window.scrollX + document.documentElement.clientWidth - 260))}px`;
    menu.style.top = `${window.scrollY + rect.bottom + 4}px`;
    document.body.append(menu);
    menu.querySelector("button").focus();
  }

  /**
   * The words of a card, beside it.
   * @param {HTMLElement} anchor the card
   * @param {string} words
   */
  function explain(anchor, words) {
    closeMenu();
    const rect = anchor.getBoundingClientRect();
    menu = h("div", { class: "card-menu panel", role: "note" }, h("div", {}, words));
    menu.style.left = `${Math.max(8, Math.min(window.scrollX + rect.left, window.scrollX + document.documentElement.clientWidth - 260))}px`;
    menu.style.top = `${window.scrollY + rect.bottom + 4}px`;
    document.body.append(menu);
  }

  function closeMenu() {
    if (menu) menu.remove();
    menu = null;
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.key === "Escape") closeMenu();
  }
  /** @param {PointerEvent} event */
  function onOutside(event) {
    const target = /** @type {Element} */ (event.target);
    if (menu && !menu.contains(target) && !target.closest(".card")) closeMenu();
  }
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onOutside);

  function drawHoldings() {
    holdings.replaceChildren(
      ...picture.holdings.map((p, i) =>
        h(
          "div",
          {
            class: `holding${picture.to_move === i ? " to-move" : ""}`,
            style: { "--owner": seatColour(p.name) },
            "data-player": p.name,
          },
          h("div", { class: "row" }, h("strong", {}, p.name), h("span", { class: "muted" }, `${p.die} die`)),
          h(
            "div",
            { class: "stats" },
            mat("prestige", `${p.prestige} prestige`),
            h("span", { title: "The recognition marker moves a space per recognition point; each prestige space it reaches is a prestige point" }, mat("recognition", `marker on ${p.recognition}`), h("span", { class: "muted" }, ` · next prestige at ${p.next_prestige_space}`)),
            mat("rubles", `${p.rubles} rubles`),
          ),
          h("div", {}, "Inventory ", ...amounts(Object.fromEntries(Object.entries(p.inventory).filter(([, n]) => n))), h("span", { class: "muted" }, ` (${p.free_slots} slot${p.free_slots === 1 ? "" : "s"} free)`)),
          h("div", { class: "muted" }, `Banners to place: ${p.banners_in_inventory} in the inventory, ${p.banners_outside} beside it · sections completed: ${p.completed}`),
          h("div", { class: "muted" }, `Ornaments left: ${Object.entries(p.ornaments).map(([k, n]) => `${k} ${n}`).join(", ")}`),
          h(
            "div",
            { class: "workshop" },
            ...p.workshop.map((w) =>
              h(
                "div",
                { class: `ws${w.tile ? " filled" : ""}${w.up ? " up" : ""}`, title: `space ${w.space + 1}: ${w.die} die, cost ${w.cost}${w.ornament ? `, ${w.ornament}` : ""}` },
                h("div", { class: "ws-die" }, h("i", { class: "die-dot", style: { background: DIE_COLOUR[w.die] }, "aria-hidden": "true" }), `${w.space + 1} ${w.die}`),
                w.tile ? (w.up ? w.text : "face down") : `${w.cost}₽`,
              ),
            ),
          ),
        ),
      ),
    );
  }

  function drawDecision() {
    decision.replaceChildren();
    const d = picture.decision;
    if (!d) {
      decision.classList.add("hidden");
      return;
    }
    decision.classList.remove("hidden");
    decision.append(h("h3", {}, options.interactive ? "Your choices" : `${picture.players[d.player]} is choosing`));
    decision.append(h("div", { class: "muted", style: { fontSize: "0.85rem", marginBottom: "0.4rem" } }, d.hint));
    if (!options.interactive) return;
    const groups = h("div", { class: "choices" });
    for (const [kind, title] of KIND_TITLES) {
      const list = d.choices.filter((c) => c.kind === kind);
      if (!list.length) continue;
      groups.append(
        h(
          "div",
          { class: "choice-group", "data-kind": kind },
          h("h4", {}, title),
          h(
            "div",
            { class: "row" },
            ...list.map((c) =>
              h(
                "button",
                { class: "choice", type: "button", "data-notation": c.notation, "data-action": c.action, onclick: () => onMove(c) },
                h("strong", {}, label(c)),
                h("span", { class: "yield" }, ...yieldText(c.yields, c.others)),
              ),
            ),
          ),
        ),
      );
    }
    decision.append(groups);
  }

  /** @param {RedChoice} c */
  function label(c) {
    if (c.kind === "die") {
      return `${c.die} → ${c.space + 1}: up to ${c.take.up_to} ${c.take.resource}${c.extra ? ` (+${c.extra} paid)` : ""}`;
    }
    return c.notation;
  }

  return {
    /**
     * @param {RedPicture} next
     * @param {ShowOptions} [opts]
     */
    show(next, opts = {}) {
      picture = next;
      options = opts;
      closeMenu();
      drawMarket();
      drawTowers();
      drawHoldings();
      drawDecision();
    },
    /**
     * Marks a hint's choice, and its die or card, on the table (null: none).
     * @param {number | null} action
     */
    showHint(action) {
      for (const el of document.querySelectorAll(".red-table .hinted, .decision .hinted")) el.classList.remove("hinted");
      if (action === null) return;
      for (const el of document.querySelectorAll(`.decision [data-action="${action}"], .market-svg [data-action="${action}"]`)) el.classList.add("hinted");
      for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".card[data-actions]"))) {
        if (el.dataset.actions.split(" ").includes(String(action))) el.classList.add("hinted");
      }
    },
    destroy() {
      closeMenu();
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onOutside);
      decision.remove();
      root.replaceChildren();
    },
  };
}
