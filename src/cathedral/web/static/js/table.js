// What the game page and the replay page share: the board of a game, the players panel, the
// move list and the result.

import { formatClock, h, seatColour } from "./api.js";

const BOARDS = {
  classic: () => import("./boards/classic.js"),
  allmer: () => import("./boards/allmer.js"),
  red: () => import("./boards/red.js"),
};

export const GAME_TITLES = {
  classic: "Cathedral (Moore)",
  allmer: "Cathedral (Allmer)",
  red: "The Red Cathedral",
};

export async function loadBoard(game, root, handlers) {
  const load = BOARDS[game];
  if (!load) throw new Error(`no board for the game ${game}`);
  const module = await load();
  return module.createBoard(root, handlers);
}

/** Seat colour for the swatch: classic's Light and Dark, the others by name. */
export function swatch(name) {
  return h("span", { class: "swatch", style: { background: seatColour(name) } });
}

/**
 * Fills the players list: name, who sits there, score, clock; marks the player to move.
 * `clockBase` is {view, receivedAt} so running clocks can tick between views.
 */
export function renderPlayers(list, view, { me = null, picture = null, clockBase = null } = {}) {
  const clock = view.clock;
  const scoreLabel = { classic: "unplaced", allmer: "stones", red: "prestige" }[view.game] || "";
  list.replaceChildren(
    ...view.players.map((name, player) => {
      const out = picture && picture.alive && !picture.alive[player];
      let clockText = null;
      if (clock) {
        let left = clock.remaining_s[player];
        if (clock.running === player && clockBase) left -= (Date.now() - clockBase) / 1000;
        clockText = h(
          "span",
          { class: `clock${clock.running === player ? " running" : ""}`, "data-clock": player },
          formatClock(left),
        );
      }
      const kind = view.seats[player];
      return h(
        "li",
        {
          class: `${view.status === "playing" && view.current_player === player ? "to-move" : ""}${out ? " out" : ""}`,
          "data-player": player,
        },
        swatch(name),
        h(
          "span",
          {},
          h("strong", {}, name),
          " ",
          h("span", { class: "seat-kind" }, player === me ? "you" : kind === "human" ? "human" : `computer · ${kind}`),
        ),
        h(
          "span",
          { class: "row", style: { gap: "0.4rem" } },
          clockText,
          h("span", { class: "score", title: scoreLabel }, view.scores ? String(view.scores[player]) : ""),
        ),
      );
    }),
  );
}

/** Fills the move list; `selected` is the ply shown (null: the live position). */
export function renderMoves(list, history, { selected = null, onPick } = {}) {
  list.replaceChildren(
    ...history.map((notation, i) => {
      const chance = /^(roll|setup|tiles?|plan|card|influence card|die setup)\b/.test(notation) && !/^die /.test(notation);
      return h(
        "li",
        { class: chance ? "chance" : "" },
        h(
          "button",
          {
            type: "button",
            "aria-current": String(selected === i + 1),
            "data-ply": i + 1,
            onclick: () => onPick(i + 1),
          },
          h("span", { class: "n" }, `${i + 1}.`),
          h("span", {}, notation),
        ),
      );
    }),
  );
  // scroll the list itself (never the page) to the shown move
  const current = list.querySelector('[aria-current="true"]');
  const target = current ? current.parentElement : list.lastElementChild;
  if (target) {
    const top = target.offsetTop; // the list is the offset parent (position: relative)
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + target.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + target.offsetHeight - list.clientHeight;
    }
  }
}

/** Fills the result panel (hidden while the game goes on). */
export function renderResult(panel, view) {
  if (view.status !== "finished" || !view.result) {
    panel.classList.add("hidden");
    return;
  }
  panel.classList.remove("hidden");
  const result = view.result;
  const rows = view.players.map((name, p) =>
    h(
      "tr",
      {},
      h("td", {}, swatch(name), " ", name),
      h("td", {}, String(result.scores ? result.scores[p] : "")),
      h("td", {}, result.returns ? (result.returns[p] > 0 ? "won" : result.returns[p] < 0 ? "lost" : "drew") : ""),
    ),
  );
  panel.replaceChildren(
    h("h3", {}, "Result"),
    h("div", {}, result.text),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, ""))),
      h("tbody", {}, rows),
    ),
  );
}

/** One line for the banner: whose turn, or the result. */
export function turnText(view, me) {
  if (view.status === "finished") return view.result ? view.result.text : "The game is over.";
  const player = view.current_player;
  const name = view.players[player];
  if (player === me) return `Your move — ${name}`;
  const kind = view.seats[player];
  if (kind && kind !== "human") return `${name} (${kind}) is thinking…`;
  return `${name} to move`;
}

/**
 * Shows a hint or an analysis: the best move, each player's expected score as a bar (0..1;
 * from `expected`, or `values` on the -1..1 scale), the line, and "solved: ..." when proven.
 */
export function renderAnalysis(info, players, { onPlay = null } = {}) {
  const expected = info.expected || (info.values || []).map((v) => (Number(v) + 1) / 2);
  const bars = expected.map((e, p) => {
    const pct = Math.round(Math.max(0, Math.min(1, Number(e))) * 100);
    const bar = h("span", { class: "bar" }, h("span", { class: "fill", style: { width: `${pct}%`, background: seatColour(players[p]) } }));
    return h("div", { class: "expect" }, swatch(players[p]), h("span", { class: "who" }, players[p]), bar, h("span", { class: "pct" }, `${pct}%`));
  });
  const thinking = info.final === false;
  const detail = [info.depth ? `depth ${info.depth}` : null, info.nodes ? `${Number(info.nodes).toLocaleString("en")} positions` : null]
    .filter(Boolean)
    .join(" · ");
  return [
    h(
      "div",
      {},
      thinking ? "Thinking… so far: " : "Best move: ",
      h("strong", { class: thinking ? "draft-move" : "best-move" }, info.move),
      info.proven ? " (proven)" : "",
    ),
    detail ? h("div", { class: "muted" }, detail) : null,
    info.solved ? h("div", { class: "solved" }, info.solved) : null,
    bars.length ? h("div", { class: "muted" }, "Expected score") : null,
    ...bars,
    info.pv && info.pv.length > 1 ? h("div", { class: "muted" }, `Line: ${info.pv.join(" · ")}`) : null,
    onPlay && !thinking ? h("button", { class: "btn small", type: "button", onclick: onPlay }, "Play it") : null,
  ].filter(Boolean);
}
