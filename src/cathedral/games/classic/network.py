"""The learned part of classic's evaluation: a small network run with numpy alone.

The network reads a position from the mover's side (``heuristic.value_input``: the
observation tensor and the hand-made features of both colours) and returns a correction, in
squares, to the hand-weighted margin of ``heuristic``; the evaluation is then the same
``tanh(margin / divisor)`` as without it. Being a correction, a network that learned nothing
(all weights zero) leaves the evaluation as it was.

Its weights ship in ``data/value.npz``: ``w0``, ``b0``, ``w1``, ``b1``, ``w2``, ``b2`` for
two hidden layers with ReLU and a linear output, plus ``meta`` (a JSON string: how they were
trained). ``cathedral.jax.train_classic`` writes them; playing needs numpy only.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from importlib import resources

import numpy as np

WEIGHTS_FILE = "value.npz"
_LAYERS = ("w0", "b0", "w1", "b1", "w2", "b2")


class ValueNetwork:
    """A two-hidden-layer perceptron over float32 inputs (see the module docstring)."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict | None = None) -> None:
        missing = [name for name in _LAYERS if name not in arrays]
        if missing:
            raise ValueError(f"value network weights lack {', '.join(missing)}")
        self.w0, self.b0, self.w1, self.b1, self.w2, self.b2 = (
            np.asarray(arrays[name], dtype=np.float32) for name in _LAYERS
        )
        self.inputs = self.w0.shape[0]
        self.meta = meta or {}

    @classmethod
    def load(cls, path=None) -> ValueNetwork:
        """Returns the network in ``path`` (default: the one shipped with the package)."""
        source = path or resources.files("cathedral.games.classic").joinpath("data", WEIGHTS_FILE)
        with resources.as_file(source) if path is None else nullcontext(path) as file, \
                np.load(file, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "meta"}
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        return cls(arrays, meta)

    def correction(self, x: np.ndarray) -> float:
        """Returns the correction in squares for one input vector (the mover's view)."""
        hidden = np.maximum(x @ self.w0 + self.b0, 0.0)
        hidden = np.maximum(hidden @ self.w1 + self.b1, 0.0)
        return float(hidden @ self.w2[:, 0] + self.b2[0])

    def corrections(self, x: np.ndarray) -> np.ndarray:
        """Returns the corrections for a batch of input rows."""
        hidden = np.maximum(x @ self.w0 + self.b0, 0.0)
        hidden = np.maximum(hidden @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2[:, 0] + self.b2[0]

    def save(self, path) -> None:
        arrays = {name: getattr(self, name) for name in _LAYERS}
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta)), **arrays)


_SHIPPED: list[ValueNetwork | None] = []


def shipped() -> ValueNetwork | None:
    """Returns the network shipped with the package, loaded once (None when there is none)."""
    if not _SHIPPED:
        try:
            _SHIPPED.append(ValueNetwork.load())
        except FileNotFoundError:
            _SHIPPED.append(None)
    return _SHIPPED[0]
