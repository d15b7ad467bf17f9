"""The ``layout="hwc"`` observations of the JAX engines: the reference tensors rearranged
channels last (classic (10, 10, 29), Allmer (15, 15, 2n + 5)), in ``state.observation``, in
``observe(state, player)`` and in ``observation_shape``, and usable by a channels-last conv."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import cathedral  # noqa: E402
import cathedral.jax as cj  # noqa: E402

BATCH = 4
STEPS = 12
CHECK_AT = (0, 1, 5, 11)  # the steps whose positions are compared (0: the initial one)

# name, params, reference shape, hwc shape
ENGINES = [
    ("classic", {}, (524,), (10, 10, 29)),
    ("allmer", {"players": 2}, (9, 15, 15), (15, 15, 9)),
    ("allmer", {"players": 4}, (13, 15, 15), (15, 15, 13)),
]
IDS = ["classic", "allmer2", "allmer4"]


def rearranged(name: str, reference: np.ndarray) -> np.ndarray:
    """The hwc form of reference observations (any leading axes), by the documented formula."""
    if name == "classic":
        lead = reference.shape[:-1]
        planes = np.moveaxis(reference[..., :500].reshape(*lead, 5, 10, 10), -3, -1)
        tail = reference[..., 500:]
        tail = np.broadcast_to(tail[..., None, None, :], (*lead, 10, 10, tail.shape[-1]))
        return np.concatenate([planes, tail], axis=-1)
    return np.moveaxis(reference, -3, -1)


def positions(env, seed: int):
    """Yields (step number, batched state) along BATCH random games of ``env`` (random legal
    actions; finished games stay put, as pgx's step leaves them)."""
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, BATCH))
    for t in range(STEPS):
        if t in CHECK_AT:
            yield t, state
        key, sub = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(sub, logits).astype(jnp.int32))


@pytest.mark.filterwarnings("ignore:.*player_id.*:DeprecationWarning")  # Allmer: pgx's observe
@pytest.mark.parametrize(("name", "params", "ref_shape", "hwc_shape"), ENGINES, ids=IDS)
def test_hwc_is_the_reference_rearranged(name, params, ref_shape, hwc_shape):
    reference = cj.make(name, **params)
    hwc = cj.make(name, layout="hwc", **params)
    assert reference.layout == "reference" and hwc.layout == "hwc"
    assert reference.observation_shape == ref_shape
    assert hwc.observation_shape == hwc_shape
    players = range(hwc.num_players)

    @jax.jit
    def views(state):
        """The mover's reference view, and every player's view in either layout."""

        def one(s):
            return (
                reference.observe(s),
                jnp.stack([reference.observe(s, p) for p in players]),
                jnp.stack([hwc.observe(s, p) for p in players]),
            )

        return jax.vmap(one)(state)

    # Played by the hwc env; a state's fields are the same in either layout.
    for t, state in positions(hwc, seed=len(ref_shape) + 7 * params.get("players", 0)):
        obs = np.asarray(state.observation)
        assert obs.shape == (BATCH, *hwc_shape) and obs.dtype == np.float32, t
        mover, ref_views, hwc_views = (np.asarray(x) for x in views(state))
        assert np.array_equal(obs, rearranged(name, mover)), t
        assert ref_views.shape == (BATCH, hwc.num_players, *ref_shape)
        assert np.array_equal(hwc_views, rearranged(name, ref_views)), t


@pytest.mark.parametrize(("name", "params", "ref_shape", "hwc_shape"), ENGINES, ids=IDS)
def test_default_layout_is_the_reference(name, params, ref_shape, hwc_shape):
    env = cj.make(name, **params)
    assert env.layout == "reference" and env.observation_shape == ref_shape
    assert tuple(cathedral.load(name, **params).observation_shape()) == ref_shape


def test_classic_hwc_planes_are_rank_by_file():
    """Square s = rank * 10 + file lands at row rank, column file of channel (plane)."""
    from cathedral.jax.classic import to_hwc

    obs = np.arange(524, dtype=np.float32)
    img = np.asarray(to_hwc(jnp.asarray(obs)))
    assert img.shape == (10, 10, 29)
    assert np.array_equal(img, rearranged("classic", obs))
    assert img[3, 7, 2] == 2 * 100 + 3 * 10 + 7
    assert (img[:, :, 5] == 500).all() and (img[:, :, 28] == 523).all()


@pytest.mark.parametrize(
    ("name", "params"),
    [("classic", {}), ("allmer", {"players": 2}), ("allmer", {"players": 4})],
    ids=IDS,
)
def test_bad_layout_is_refused(name, params):
    with pytest.raises(ValueError, match=r"reference.*hwc"):
        cj.make(name, layout="chw", **params)


@pytest.mark.parametrize(("name", "params", "ref_shape", "hwc_shape"), ENGINES, ids=IDS)
def test_channels_last_conv_sees_every_channel(name, params, ref_shape, hwc_shape):
    """A 3x3 NHWC conv (pgx's examples' form) over a batch of hwc observations."""
    env = cj.make(name, layout="hwc", **params)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), BATCH))
    channels = hwc_shape[-1]
    assert channels == {"classic": 29}.get(name, 2 * params.get("players", 0) + 5)
    kernel = jnp.ones((3, 3, channels, 8), jnp.float32)
    out = jax.lax.conv_general_dilated(
        state.observation,
        kernel,
        window_strides=(1, 1),
        padding="SAME",
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
    )
    assert out.shape == (BATCH, hwc_shape[0], hwc_shape[1], 8)
    # every input channel reaches the output: the centre of a ones-kernel conv is the 3x3 sum
    # over all channels
    obs = np.asarray(state.observation)
    i, j = hwc_shape[0] // 2, hwc_shape[1] // 2
    np.testing.assert_allclose(
        np.asarray(out[:, i, j, 0]),
        obs[:, i - 1 : i + 2, j - 1 : j + 2, :].sum(axis=(1, 2, 3)),
        rtol=1e-5,
    )
