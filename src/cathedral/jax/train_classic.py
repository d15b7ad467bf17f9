"""Trains classic's learned value (``cathedral.games.classic.network``) by distillation.

The recipe: self-play games of a search (``cathedral.jax.selfplay``) give positions, each
with who won in the end and the search's own value there. The network learns a correction,
in squares, to the hand-weighted margin of ``cathedral.games.classic.heuristic`` so that the
evaluation ``tanh((margin + correction) / divisor)`` predicts the expected score, as a
soft target that mixes the final result with the search's value (``--search-weight``).
Loss: cross-entropy of the expected score; optimiser: Adam (optax) with weight decay;
the last layer starts at zero, so training starts from the hand evaluation exactly.

Between epochs it can play a checkpoint match (``--match``): the same depth-limited search
with and without the network, colours swapped in pairs from random openings, which is what
"stronger at the same depth" means before a timed match says what it is worth per second.

    python -m cathedral.jax.train_classic --games benchmarks/cache/classic_selfplay_d2.jsonl \\
        --epochs 30 --out src/cathedral/games/classic/data/value.npz \\
        --curve benchmarks/training/classic_value.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

from cathedral.core.registry import load
from cathedral.games.classic import heuristic
from cathedral.games.classic.network import ValueNetwork
from cathedral.games.classic.pieces import DARK, IN_HAND, LIGHT

HIDDEN = (64, 32)


# ----- data ---------------------------------------------------------------------------------


def positions(lines: list[dict], siblings: bool = True) -> dict[str, np.ndarray]:
    """Replays each game line and returns its positions as arrays: ``x`` (the network's
    input), ``lead`` (the hand margin for the mover), ``divisor``, ``outcome`` (the mover's
    final score: 1, 0.5 or 0; NaN for a sibling), ``search`` (the search's value for the
    mover, NaN where the move was random) and ``game`` (the line's index).

    With ``siblings``, each searched move's best root actions (where the line keeps them)
    add the positions they lead to, with the search's value for them and no outcome: the
    positions a search compares, to be ranked as the deeper search ranked them."""
    game = load("classic")
    rows: dict[str, list] = {k: [] for k in ("x", "lead", "divisor", "outcome", "search", "game")}
    w = heuristic.WEIGHTS

    def add(position, outcome: float, search: float, index: int) -> None:
        mover = position.to_move
        both = (heuristic.features(position, LIGHT), heuristic.features(position, DARK))
        lead, left = heuristic.weighted_margin(both)
        rows["x"].append(heuristic.value_input(position, both, mover, (lead, left)))
        rows["lead"].append(lead if mover == LIGHT else -lead)
        rows["divisor"].append(w["scale"] + w["per_square"] * left)
        rows["outcome"].append(outcome)
        rows["search"].append(search)
        rows["game"].append(index)

    for index, line in enumerate(lines):
        light, dark = line["scores"]
        result = 0.5 if light == dark else float(light < dark)  # Light's score
        state = game.new_initial_state()
        kept = line.get("siblings") if siblings else None
        for ply, (action, value) in enumerate(zip(line["actions"], line["values"])):
            position = state.position
            if position.cathedral_state != IN_HAND:
                mover = position.to_move
                add(position, result if mover == LIGHT else 1.0 - result,
                    math.nan if value is None else value, index)
                for other, searched in kept[ply] if kept else ():
                    child = state.clone()
                    child.apply_action(other)
                    after = child.position
                    if child.is_terminal() or after.cathedral_state == IN_HAND:
                        continue
                    add(after, math.nan, searched if after.to_move == mover else -searched,
                        index)
            state.apply_action(action)
    return {k: np.asarray(v, dtype=np.int32 if k == "game" else np.float32)
            for k, v in rows.items()}


def rotated(data: dict, turns: int) -> dict:
    """Returns ``data`` with every board turned by ``turns`` quarter turns: the same
    positions as far as the rules go (buildings turn, never reflect), so four times the
    examples. Only the five board planes at the front of the input change."""
    x = data["x"].copy()
    planes = x[:, :500].reshape(-1, 5, 10, 10)
    x[:, :500] = np.rot90(planes, turns, axes=(2, 3)).reshape(-1, 500)
    return {**data, "x": x}


def read_games(paths: list[Path]) -> list[dict]:
    lines = []
    for path in paths:
        with path.open(encoding="utf-8") as source:
            lines += [json.loads(text) for text in source if text.strip()]
    return lines


# ----- the model ----------------------------------------------------------------------------


def init_params(key, inputs: int) -> dict:
    import jax

    sizes = (inputs, *HIDDEN)
    params = {}
    keys = jax.random.split(key, len(HIDDEN))
    for layer, (a, b) in enumerate(itertools.pairwise(sizes)):
        params[f"w{layer}"] = jax.random.normal(keys[layer], (a, b)) * math.sqrt(2.0 / a)
        params[f"b{layer}"] = np.zeros(b, dtype=np.float32)
    last = len(HIDDEN)
    params[f"w{last}"] = np.zeros((HIDDEN[-1], 1), dtype=np.float32)  # starts as the hand eval
    params[f"b{last}"] = np.zeros(1, dtype=np.float32)
    return params


def correction(params: dict, x):
    import jax.numpy as jnp

    hidden = jnp.maximum(x @ params["w0"] + params["b0"], 0.0)
    hidden = jnp.maximum(hidden @ params["w1"] + params["b1"], 0.0)
    return (hidden @ params["w2"] + params["b2"])[:, 0]


def expected_score(params: dict | None, batch: dict):
    import jax.numpy as jnp

    lead = batch["lead"] if params is None else batch["lead"] + correction(params, batch["x"])
    return (jnp.tanh(lead / batch["divisor"]) + 1.0) / 2.0


def cross_entropy(p, target):
    import jax.numpy as jnp

    p = jnp.clip(p, 1e-4, 1 - 1e-4)
    return -jnp.mean(target * jnp.log(p) + (1 - target) * jnp.log(1 - p))


def targets(data: dict, search_weight: float) -> np.ndarray:
    """The soft target: the final result, mixed with the search's expected score where the
    position was searched; a sibling's is the search's alone."""
    searched = (data["search"] + 1.0) / 2.0
    mixed = (1 - search_weight) * data["outcome"] + search_weight * searched
    target = np.where(np.isnan(data["search"]), data["outcome"], mixed)
    return np.where(np.isnan(data["outcome"]), searched, target).astype(np.float32)


# ----- checkpoint matches -------------------------------------------------------------------


class _WithEvaluation:
    """An agent that searches with a given network in classic's evaluation (None: the hand
    evaluation alone), so two evaluations can meet in one process."""

    def __init__(self, agent, network: ValueNetwork | None) -> None:
        self.agent = agent
        self.network = network

    def choose(self, state):
        heuristic.use_network(self.network)
        try:
            return self.agent.choose(state)
        finally:
            heuristic.use_network(None)


def match(network: ValueNetwork, games: int, spec: str, seed: int = 0) -> dict:
    """Plays ``games`` games (pairs with colours swapped, each pair from its own random
    opening of 2-5 placements) between ``spec`` with the network and ``spec`` without, and
    returns the network side's wins, draws, losses, score and margin."""
    from cathedral.ai import load_agent

    game = load("classic")
    tally = {"wins": 0, "draws": 0, "losses": 0, "margin": 0}
    for pair in range(games // 2):
        rng = random.Random(seed * 100_003 + pair)
        opening = []
        state = game.new_initial_state()
        for _ in range(rng.randint(2, 5)):
            action = rng.choice(state.legal_actions())
            opening.append(action)
            state.apply_action(action)
        for net_colour in (LIGHT, DARK):
            agents = [
                _WithEvaluation(load_agent(spec, game, seed=pair * 2 + colour),
                                network if colour == net_colour else None)
                for colour in (LIGHT, DARK)
            ]
            state = game.new_initial_state()
            for action in opening:
                state.apply_action(action)
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].choose(state))
            scores = state.scores()
            mine, theirs = scores[net_colour], scores[1 - net_colour]
            tally["margin"] += int(theirs - mine)
            key = "wins" if mine < theirs else "draws" if mine == theirs else "losses"
            tally[key] += 1
    played = tally["wins"] + tally["draws"] + tally["losses"]
    tally["score"] = (tally["wins"] + 0.5 * tally["draws"]) / played
    return tally


# ----- training -----------------------------------------------------------------------------


def to_network(params: dict, meta: dict) -> ValueNetwork:
    return ValueNetwork({k: np.asarray(v) for k, v in params.items()}, meta)


def train(data: dict, *, epochs: int, batch: int, lr: float, decay: float,
          search_weight: float, sibling_weight: float, seed: int, match_games: int,
          match_spec: str, match_every: int, augment: bool = True,
          log=print) -> tuple[dict, list[dict], dict]:
    """Trains on ``positions``; returns the parameters of the epoch with the lowest held-out
    loss (outcome loss of the games' own positions, plus the siblings' loss against the
    search where there are siblings), the curve, and what to remember of the run."""
    import jax
    import optax

    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    held_out = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    is_val = np.isin(data["game"], list(held_out))
    sibling = np.isnan(data["outcome"])
    columns = {"x": data["x"], "lead": data["lead"], "divisor": data["divisor"],
               "target": targets(data, search_weight),
               "weight": np.where(sibling, sibling_weight, 1.0).astype(np.float32)}
    parts = {name: {k: v[mask] for k, v in columns.items()}
             for name, mask in (("train", ~is_val), ("val", is_val))}
    # What is measured: each part's own positions against their outcome, and its siblings
    # against the search's value.
    judged = {"outcome": data["outcome"], "siblings": columns["target"]}
    measured = {
        (name, kind): {**{k: columns[k][where] for k in ("x", "lead", "divisor")},
                       "target": judged[kind][where]}
        for name, in_part in (("train", ~is_val), ("val", is_val))
        for kind, where in (("outcome", in_part & ~sibling), ("siblings", in_part & sibling))
    }
    turns = [rotated(parts["train"], k) for k in range(1, 4 if augment else 1)]
    train_part = {k: np.concatenate([parts["train"][k]] + [t[k] for t in turns])
                  for k in parts["train"]}
    params = init_params(jax.random.PRNGKey(seed), data["x"].shape[1])
    optimiser = optax.adamw(lr, weight_decay=decay)
    state = optimiser.init(params)

    def loss(p, b):
        p_hat = jax.numpy.clip(expected_score(p, b), 1e-4, 1 - 1e-4)
        each = -(b["target"] * jax.numpy.log(p_hat)
                 + (1 - b["target"]) * jax.numpy.log(1 - p_hat))
        return (each * b["weight"]).sum() / b["weight"].sum()

    @jax.jit
    def update(p, s, b):
        value, grads = jax.value_and_grad(loss)(p, b)
        updates, s = optimiser.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    def losses_of(p) -> dict[str, float]:
        return {f"{name}_{kind}_loss": float(cross_entropy(expected_score(p, part),
                                                           part["target"]))
                for (name, kind), part in measured.items() if len(part["lead"])}

    hand = losses_of(None)
    log(f"{len(train_part['lead'])} training positions (turns included), "
        f"{int(is_val.sum())} held out; the hand evaluation: {json.dumps(hand)}")
    curve: list[dict] = []
    best = None  # (params, held-out loss, epoch): the epoch kept
    size = len(train_part["lead"])
    for epoch in range(1, epochs + 1):
        began = time.perf_counter()
        order = rng.permutation(size)
        batch_losses = []
        for start in range(0, size - batch + 1, batch):
            index = order[start:start + batch]
            params, state, value = update(params, state, {k: v[index] for k, v in
                                                          train_part.items()})
            batch_losses.append(float(value))
        point = {"epoch": epoch, "train_loss": float(np.mean(batch_losses)), **losses_of(params),
                 "seconds": round(time.perf_counter() - began, 2)}
        if match_games and (epoch % match_every == 0 or epoch == epochs):
            point["match"] = match(to_network(params, {}), match_games, match_spec, seed=epoch)
        held = point["val_outcome_loss"] + point.get("val_siblings_loss", 0.0)
        if best is None or held < best[1]:
            best = (params, held, epoch)
        curve.append(point)
        log(json.dumps(point))
    params, _, kept = best
    final = curve[kept - 1]
    meta = {"hidden": list(HIDDEN), "epochs": epochs, "positions": int((~sibling).sum()),
            "siblings": int(sibling.sum()), "games": len(games),
            "search_weight": search_weight, "sibling_weight": sibling_weight, "lr": lr,
            "weight_decay": decay, "kept_epoch": kept, "rotations": augment,
            "hand_val_outcome_loss": hand["val_outcome_loss"],
            "val_outcome_loss": final["val_outcome_loss"]}
    if "val_siblings_loss" in final:
        meta |= {"hand_val_siblings_loss": hand["val_siblings_loss"],
                 "val_siblings_loss": final["val_siblings_loss"]}
    return params, curve, meta


# ----- the curve as a picture ----------------------------------------------------------------


def curve_svg(curve: list[dict], meta: dict) -> str:
    """Returns an SVG of the training curve: the held-out loss against the hand evaluation's
    (left), and the checkpoint matches' score with the network (right)."""
    width, height, pad, plot = 320, 290, 40, 140  # plot: the height of the plotting area
    epochs = [point["epoch"] for point in curve]
    last = max(epochs)

    def panel(x0: int, title: str, series: list[tuple[str, str, list[tuple[float, float]]]],
              low: float, high: float, ticks: list[float]) -> list[str]:
        def sx(epoch: float) -> float:
            return x0 + pad + (width - pad - 10) * epoch / last

        def sy(value: float) -> float:
            return 30 + plot * (high - value) / (high - low)

        out = [f'<text x="{x0 + width / 2}" y="18" text-anchor="middle" '
               f'font-weight="bold">{title}</text>',
               f'<line x1="{sx(0)}" y1="{sy(low)}" x2="{sx(last)}" y2="{sy(low)}" '
               'stroke="#444"/>',
               f'<line x1="{sx(0)}" y1="{sy(low)}" x2="{sx(0)}" y2="{sy(high)}" stroke="#444"/>',
               f'<text x="{x0 + width / 2}" y="{sy(low) + 28}" text-anchor="middle">epoch</text>']
        for tick in ticks:
            out.append(f'<text x="{sx(0) - 4}" y="{sy(tick) + 4}" text-anchor="end">'
                       f'{tick:g}</text>')
        for epoch in sorted({0, last // 2, last}):
            out.append(f'<text x="{sx(epoch)}" y="{sy(low) + 14}" text-anchor="middle">'
                       f'{epoch}</text>')
        for label, colour, points in series:
            if not points:
                continue
            path = " ".join(f"{sx(e):.1f},{sy(v):.1f}" for e, v in points)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       'stroke-width="2"/>')
            for e, v in points if len(points) < 12 else []:
                out.append(f'<circle cx="{sx(e):.1f}" cy="{sy(v):.1f}" r="3" fill="{colour}"/>')
            y = sy(low) + 48 + 14 * [s[0] for s in series].index(label)
            out.append(f'<line x1="{x0 + pad}" y1="{y - 4}" x2="{x0 + pad + 16}" y2="{y - 4}" '
                       f'stroke="{colour}" stroke-width="2"/>')
            out.append(f'<text x="{x0 + pad + 22}" y="{y}">{label}</text>')
        return out

    hand = meta["hand_val_outcome_loss"]
    keys = ("train_outcome_loss", "val_outcome_loss", "val_siblings_loss")
    losses = [point[key] for point in curve for key in keys if key in point] + [hand]
    losses += [meta["hand_val_siblings_loss"]] if "hand_val_siblings_loss" in meta else []
    low = math.floor(min(losses) * 20) / 20
    high = math.ceil(max(losses) * 20) / 20
    parts = panel(0, "Outcome loss (cross-entropy)", [
        ("train", "#1f77b4", [(p["epoch"], p["train_outcome_loss"]) for p in curve]),
        ("held out", "#d62728", [(p["epoch"], p["val_outcome_loss"]) for p in curve]),
        ("hand evaluation, held out", "#7f7f7f", [(0, hand), (last, hand)]),
        *([("held-out siblings vs. search", "#9467bd",
            [(p["epoch"], p["val_siblings_loss"]) for p in curve]),
           ("hand evaluation, siblings", "#c5b0d5",
            [(0, meta["hand_val_siblings_loss"]), (last, meta["hand_val_siblings_loss"])])]
          if "hand_val_siblings_loss" in meta else []),
    ], low, high, [low, (low + high) / 2, high])
    matches = [(p["epoch"], p["match"]["score"]) for p in curve if "match" in p]
    parts += panel(width, "Score with the network (depth-2 search)", [
        ("vs. the same search without", "#2ca02c", matches),
        ("even", "#7f7f7f", [(0, 0.5), (last, 0.5)]),
    ], 0.0, 1.0, [0.0, 0.5, 1.0])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width}" height="{height}" '
            'font-family="sans-serif" font-size="11">\n'
            '<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, nargs="+", required=True,
                        help="self-play JSON lines (cathedral.jax.selfplay)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-3)
    parser.add_argument("--search-weight", type=float, default=0.5,
                        help="the share of the search's value in the target (0: result only)")
    parser.add_argument("--sibling-weight", type=float, default=0.25,
                        help="the weight of each sibling position against a game's own (1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", type=int, default=0,
                        help="games of each checkpoint match (0: none)")
    parser.add_argument("--match-every", type=int, default=10)
    parser.add_argument("--match-spec", default="alphabeta:depth=2,width=8,root_width=24")
    parser.add_argument("--out", type=Path, required=True, help="the weights (.npz)")
    parser.add_argument("--curve", type=Path, help="the training curve (JSON)")
    parser.add_argument("--svg", type=Path, help="the training curve as a picture (SVG)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    lines = read_games(args.games)
    data = positions(lines)
    print(f"{len(lines)} games, {len(data['lead'])} positions "
          f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)
    params, curve, meta = train(
        data, epochs=args.epochs, batch=args.batch, lr=args.lr, decay=args.weight_decay,
        search_weight=args.search_weight, sibling_weight=args.sibling_weight, seed=args.seed,
        match_games=args.match, match_spec=args.match_spec, match_every=args.match_every,
        log=lambda text: print(text, file=sys.stderr))
    meta["sources"] = [path.name for path in args.games]
    meta["seconds"] = round(time.perf_counter() - began)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    to_network(params, meta).save(args.out)
    if args.curve:
        args.curve.parent.mkdir(parents=True, exist_ok=True)
        args.curve.write_text(json.dumps({"meta": meta, "curve": curve}, indent=1) + "\n",
                              encoding="utf-8")
    if args.svg:
        args.svg.write_text(curve_svg(curve, meta), encoding="utf-8")
    print(f"weights in {args.out} ({args.out.stat().st_size // 1024} kB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
