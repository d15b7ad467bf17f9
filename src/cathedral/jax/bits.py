"""Bitboards as short arrays of uint32 words, for jit-compiled engines (no game rules here).

JAX computes in 32-bit integers unless x64 is switched on for the whole process, which an
environment must not do behind its user's back. So a set of up to ``32 * n`` squares is a
``uint32[..., n]`` array: square ``s`` is bit ``s & 31`` of word ``s >> 5``, i.e. the words
are the little-endian limbs of one wide integer (a 10 x 10 board is 4 words, bits 100-127
always zero). Every function here is a fixed handful of element-wise operations on the last
axis with shift amounts known when tracing, so XLA fuses them and ``vmap`` batches them
without gathers or loops.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

WORD = 32


def words_of(mask: int, n: int) -> np.ndarray:
    """Returns a Python int of at most ``32 * n`` bits as ``n`` uint32 words (numpy)."""
    return np.array([(mask >> (WORD * i)) & 0xFFFFFFFF for i in range(n)], dtype=np.uint32)


def int_of(words) -> int:
    """Returns the Python int of a word array (the inverse of ``words_of``)."""
    return sum(int(w) << (WORD * i) for i, w in enumerate(np.asarray(words).tolist()))


def _pad(x: jnp.ndarray, before: int, after: int) -> jnp.ndarray:
    zeros = jnp.zeros(x.shape[:-1], dtype=x.dtype)[..., None]
    parts = [zeros] * before + [x] + [zeros] * after
    return jnp.concatenate(parts, axis=-1)


def shift_right(x: jnp.ndarray, k: int) -> jnp.ndarray:
    """Returns the wide integer ``x >> k`` (towards lower squares), bits past the top zero."""
    n = x.shape[-1]
    q, r = divmod(k, WORD)
    if q >= n:
        return jnp.zeros_like(x)
    src = _pad(x, 0, q + 1)
    low = src[..., q : q + n]
    if r == 0:
        return low
    high = src[..., q + 1 : q + 1 + n]
    return (low >> np.uint32(r)) | (high << np.uint32(WORD - r))


def shift_left(x: jnp.ndarray, k: int) -> jnp.ndarray:
    """Returns the wide integer ``x << k`` (towards higher squares), truncated to ``n`` words;
    callers clip to their board."""
    n = x.shape[-1]
    q, r = divmod(k, WORD)
    if q >= n:
        return jnp.zeros_like(x)
    src = _pad(x, q + 1, 0)
    high = src[..., 1 : 1 + n]
    if r == 0:
        return high
    low = src[..., 0:n]
    return (high << np.uint32(r)) | (low >> np.uint32(WORD - r))


def any_bits(x: jnp.ndarray) -> jnp.ndarray:
    """Whether any bit is set (reduces the last axis)."""
    return jnp.any(x != 0, axis=-1)


def lowest_bit(x: jnp.ndarray) -> jnp.ndarray:
    """Returns the lowest set bit of the wide integer (all zero for zero)."""
    low = x & (jnp.uint32(0) - x)  # per word: x & -x
    nonzero = (x != 0).astype(jnp.int32)
    # Keep only the first nonzero word: those before it contributed nothing.
    seen_before = jnp.cumsum(nonzero, axis=-1) - nonzero
    return jnp.where(seen_before == 0, low, jnp.uint32(0))


def unpack(x: jnp.ndarray, count: int) -> jnp.ndarray:
    """Returns the first ``count`` bits as a bool array (square ``s`` at index ``s``): a
    broadcast shift and a reshape, no gather."""
    every = (x[..., None] >> np.arange(WORD, dtype=np.uint32)) & np.uint32(1)
    return every.reshape((*x.shape[:-1], -1))[..., :count].astype(jnp.bool_)
