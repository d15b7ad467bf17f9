// The Red Cathedral: the market ring with its dice and resource tiles, the influence cards, the
// cathedral's towers, every player's holdings, and the current decision's choices with what
// each yields (worked out by the engine and carried in the picture).

import { h, s, seatColour } from "../api.js";

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
const DIE_COLOUR = { white: "#f4f1ea", red: "#c0392b", blue: "#2f64b3", yellow: "#e0b21b", green: "#2f8f4e" };
const GROUP_COLOUR = { artisans: "#d8b98a", carriers: "#b9c8a4", merchants: "#e0c27c", clergy: "#c8a9c4" };
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
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function mat(name, amount) {
  return h("span", { class: `mat ${name}`, title: name }, h("i"), amount === undefined ? name : `${amount}`);
}

function amounts(obj) {
  const entries = Object.entries(obj || {});
  if (!entries.length) return [h("span", { class: "muted" }, "—")];
  return entries.map(([name, n]) => mat(name, n));
}

/** "+2 brick −1 rubles" with colours, from a yields object. */
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

export function createBoard(root, { onMove, side = null }) {
  let picture = null;
  let options = {};
  let focusSlot = null;
  let lastDice = null; // colour -> "space:pips" of the picture drawn before, to show rolls

  const marketSvg = s("svg", { class: "market-svg", viewBox: "0 0 320 320", role: "img", "aria-label": "The market" });
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
          y: y - 30,
          width: 34,
          height: 22,
          rx: 4,
          fill: RESOURCE_COLOUR[space.resource] || "#ccc",
          stroke: "#3a2a1a",
        }),
        s("text", { x, y: y - 14, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#1c130b" }, `×${space.yield}`),
        s("text", { x, y: y + 2, "text-anchor": "middle", "font-size": 8.5, fill: "#3a2a1a" }, space.resource || "?"),
        s("text", { x: x - 30, y: y - 24, "font-size": 9, fill: "#4b1a10", "font-weight": 700 }, String(i + 1)),
      );
      space.dice.forEach((d, k) => {
        const n = space.dice.length;
        const dx = x + (k - (n - 1) / 2) * 20;
        const face = die(dx, y + 18, d.colour, d.pips);
        const key = `${i}:${d.pips}`;
        if (lastDice && lastDice.get(d.colour) !== undefined && lastDice.get(d.colour) !== key) {
          face.classList.add(lastDice.get(d.colour).startsWith(`${i}:`) ? "rolled" : "moved");
        }
        const choice = dieChoices.get(d.colour);
        if (choice) {
          face.classList.add("clickable");
          face.setAttribute("tabindex", "0");
          face.setAttribute("role", "button");
          face.setAttribute("aria-label", `${choice.notation}: to space ${choice.space + 1}, take up to ${choice.take.up_to} ${choice.take.resource}`);
          face.append(s("title", {}, `${choice.notation} → space ${choice.space + 1}: take up to ${choice.take.up_to} ${choice.take.resource}`));
          face.prepend(s("rect", { x: dx - 12, y: y + 6, width: 24, height: 24, rx: 6, fill: "none", stroke: "#f2b01e", "stroke-width": 2.5 }));
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
    const buildSlots = new Set(choices().filter((c) => c.kind === "deliver" || c.kind === "ornament").map((c) => c.slot));
    for (const tower of picture.towers) {
      const col = h("div", { class: "tower" }, h("div", { class: "label" }, `T${tower.tower + 1}`));
      for (const slot of tower.slots) {
        if (!slot.card) {
          col.append(h("div", { class: "card" }, h("div", { class: "name" }, slot.name), "?"));
          continue;
        }
        const owner = slot.owner !== null ? picture.players[slot.owner] : null;
        const claim = claimBySlot.get(slot.slot);
        const target = buildSlots.has(slot.slot);
        const card = h(
          claim || target ? "button" : "div",
          {
            class: `card ${slot.level}${slot.built ? " built" : ""}${claim ? " claimable" : ""}${target ? " target" : ""}`,
            "data-slot": slot.name,
            type: claim || target ? "button" : null,
            style: owner ? { "--owner": seatColour(owner) } : null,
            title: claim ? `${claim.notation}` : target ? `build on ${slot.name}` : `${slot.name} ${slot.level}`,
            onclick: claim
              ? () => onMove(claim)
              : target
                ? () => {
                    focusSlot = focusSlot === slot.slot ? null : slot.slot;
                    drawDecision();
                  }
                : null,
          },
          h("div", { class: "name" }, slot.name, " ", h("span", { class: "level" }, slot.level)),
          h("div", {}, ...amounts(slot.built ? slot.cost : slot.owner !== null ? slot.need : slot.cost)),
          h("div", {}, mat("recognition", slot.recognition), slot.rubles ? mat("rubles", slot.rubles) : null),
          slot.tile ? h("div", { class: "muted" }, `tile ${slot.tile.text}`) : null,
          slot.penalties ? h("div", { style: { color: "var(--bad)" } }, `penalty ${slot.penalties.map((n, p) => (n ? `${picture.players[p]} −${n}` : "")).filter(Boolean).join(" ")}`) : null,
          owner ? h("span", { class: "flag", title: `${owner}'s banner` }) : null,
          slot.ornament ? h("span", { class: "orn", title: `${slot.ornament.kind} of ${picture.players[slot.ornament.owner]}` }, ORNAMENT_ICON[slot.ornament.kind]) : null,
        );
        col.append(card);
      }
      towers.append(col);
    }
    supply.replaceChildren(h("span", { class: "muted" }, "Supply "), ...amounts(picture.supply));
  }

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
            mat("recognition", `${p.recognition} (next ★ ${p.next_prestige_space})`),
            mat("rubles", `${p.rubles} rubles`),
          ),
          h("div", {}, "Inventory ", ...amounts(Object.fromEntries(Object.entries(p.inventory).filter(([, n]) => n))), h("span", { class: "muted" }, ` (${p.free_slots} free)`)),
          h("div", { class: "muted" }, `Banners ${p.banners_in_inventory} + ${p.banners_outside} · completed ${p.completed} · ornaments ${Object.entries(p.ornaments).map(([k, n]) => `${k} ${n}`).join(", ")}`),
          h(
            "div",
            { class: "workshop" },
            ...p.workshop.map((w) =>
              h(
                "div",
                { class: `ws${w.tile ? " filled" : ""}${w.up ? " up" : ""}`, title: `space ${w.space + 1}: ${w.die} die, cost ${w.cost}${w.ornament ? `, ${w.ornament}` : ""}` },
                h("div", { style: { color: DIE_COLOUR[w.die] === "#f4f1ea" ? "#777" : DIE_COLOUR[w.die], fontWeight: 700 } }, `${w.space + 1} ${w.die}`),
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
      let list = d.choices.filter((c) => c.kind === kind);
      if (focusSlot !== null && (kind === "deliver" || kind === "ornament")) {
        const focused = list.filter((c) => c.slot === focusSlot);
        if (focused.length) list = focused;
      }
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
                { class: "choice", type: "button", "data-notation": c.notation, onclick: () => onMove(c) },
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

  function label(c) {
    if (c.kind === "die") {
      return `${c.die} → ${c.space + 1}: up to ${c.take.up_to} ${c.take.resource}${c.extra ? ` (+${c.extra} paid)` : ""}`;
    }
    return c.notation;
  }

  return {
    show(next, opts = {}) {
      picture = next;
      options = opts;
      if (!picture.decision || picture.decision.phase !== "build") focusSlot = null;
      drawMarket();
      drawTowers();
      drawHoldings();
      drawDecision();
    },
    destroy() {
      decision.remove();
      root.replaceChildren();
    },
  };
}
