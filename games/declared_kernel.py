"""The compiled move kernel of declared games (``games.declared``): one numba kernel reads the game's move
rules from its int64 parameter array, so every declared game runs at the speed of a built-in family.

The array is a header ``[dims, parts, ordered, dedupe, rules]`` and then one block per rule, ``[kind, size,
body...]`` (``size`` counts the whole block):

- ``STEP``: ``[count, mode, num, den, amounts, s_1 ... s_amounts, v_1 ... v_count]`` (each vector ``dims``
  entries): p -> p - t·v, every coordinate >= 0, with t >= 1 (mode ``ANY``), t in the listed amounts (mode
  ``SET``) or 1 <= t <= floor(num·p_i / den) for every i with v_i > 0 (mode ``FRACTION``);
- ``SOME``: ``[k]``: any positive amounts from each of 1 to k heaps (Moore's Nim_k);
- ``BITE``: Chomp's bite on non-increasing row lengths;
- ``BREAK``: ``[rest, unequal, digits, d_0 ... d_(digits-1)]``: one heap, remove k tokens as the
  take-and-break digit d_k allows (``rest`` beyond the listed digits): bit 1 leave nothing, bit 2 one heap,
  bit 4 two heaps, bit 8 three heaps (all different when ``unequal``); an option is ``parts`` heaps.

``ordered`` keeps only options whose coordinates do not increase; ``dedupe`` drops an option equal to an
earlier one of the same position (set where two rules may give the same option).

Examples
--------
>>> import numpy as np
>>> params = encode(1, 1, False, False, [(STEP, [1, SET, 0, 0, 2, 1, 3, 1])])
>>> counts, out = np.zeros(1, np.int64), np.zeros((1, 2, 1), np.int64)
>>> declared_moves(np.array([[4]]), params, counts, out)
>>> out[0, :counts[0], 0].tolist()
[3, 1]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.chomp import _chomp_moves_one
from games.moore import _moore_moves_one

__all__ = ["declared_moves", "encode", "STEP", "SOME", "BITE", "BREAK", "ANY", "SET", "FRACTION"]

STEP, SOME, BITE, BREAK = 0, 1, 2, 3
ANY, SET, FRACTION = 0, 1, 2
_HEADER = 5


def encode(dims: int, parts: int, ordered: bool, dedupe: bool, rules) -> np.ndarray:
    """The kernel's parameter array for rules given as ``(kind, body)`` pairs (see the module docstring).

    Examples
    --------
    >>> encode(2, 1, False, False, [(SOME, [2])]).tolist()
    [2, 1, 0, 0, 1, 1, 3, 2]
    """
    flat = [dims, parts, int(ordered), int(dedupe), len(rules)]
    for kind, body in rules:
        flat += [kind, 2 + len(body), *body]
    return np.array(flat, dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _steps(p, body, dims, out, count):
    nvec, mode, num, den, namounts = body[0], body[1], body[2], body[3], body[4]
    amounts = body[5: 5 + namounts]
    for d in range(nvec):
        v = body[5 + namounts + d * dims: 5 + namounts + (d + 1) * dims]
        reach = -1
        for i in range(dims):
            if v[i] > 0:
                most = p[i] // v[i]
                if mode == FRACTION:
                    most = min(most, num * p[i] // den)
                if reach < 0 or most < reach:
                    reach = most
        if mode == SET:
            for s in amounts:
                if s <= reach:
                    for i in range(dims):
                        out[count, i] = p[i] - s * v[i]
                    count += 1
        else:
            for t in range(1, reach + 1):
                for i in range(dims):
                    out[count, i] = p[i] - t * v[i]
                count += 1
    return count


@nb.njit(cache=True, nogil=True)
def _heaps(out, count, width, first, second, third):
    out[count, 0] = first
    out[count, 1] = second
    if width > 2:
        out[count, 2] = third
    return count + 1


@nb.njit(cache=True, nogil=True)
def _break(p, body, width, out, count):
    rest, unequal, ndigits = body[0], body[1], body[2]
    n = p[0]
    for k in range(n + 1):
        d = body[3 + k] if k < ndigits else rest
        if d == 0:
            if k >= ndigits:
                break
            continue
        left = n - k
        if d & 1 and left == 0 and k > 0:
            count = _heaps(out, count, width, 0, 0, 0)
        if d & 2 and left > 0 and k > 0:
            count = _heaps(out, count, width, left, 0, 0)
        if d & 4:
            for small in range(1, left // 2 + 1):
                if not (unequal and 2 * small == left):
                    count = _heaps(out, count, width, left - small, small, 0)
        if d & 8 and width > 2:
            for small in range(1, left // 3 + 1):
                for middle in range(small, (left - small) // 2 + 1):
                    big = left - small - middle
                    if not (unequal and (small == middle or middle == big)):
                        count = _heaps(out, count, width, big, middle, small)
    return count


@nb.njit(cache=True, nogil=True)
def _keep(out, count, width, dims, ordered, dedupe):
    """Compact the options in place: drop those breaking the order and repeats of earlier ones."""
    kept = 0
    for j in range(count):
        good = True
        if ordered:
            for i in range(dims - 1):
                if out[j, i] < out[j, i + 1]:
                    good = False
                    break
        if good and dedupe:
            for e in range(kept):
                same = True
                for i in range(width):
                    if out[e, i] != out[j, i]:
                        same = False
                        break
                if same:
                    good = False
                    break
        if good:
            if kept != j:
                for i in range(width):
                    out[kept, i] = out[j, i]
            kept += 1
    return kept


@nb.njit(cache=True, nogil=True)
def _declared_moves_one(p, params, out):
    dims, parts, ordered, dedupe, rules = params[0], params[1], params[2], params[3], params[4]
    count = 0
    at = _HEADER
    for _ in range(rules):
        kind, size = params[at], params[at + 1]
        body = params[at + 2: at + size]
        if kind == STEP:
            count = _steps(p, body, dims, out, count)
        elif kind == SOME:
            count += _moore_moves_one(p, body, out[count:])
        elif kind == BITE:
            count += _chomp_moves_one(p, body, out[count:])
        else:
            count = _break(p, body, dims * parts, out, count)
        at += size
    if ordered or dedupe:
        count = _keep(out, count, dims * parts, dims, ordered, dedupe)
    return count


@nb.njit(cache=True, nogil=True)
def declared_moves(P, params, counts, out):
    """The options of each row of ``P`` under the rules in ``params``: ``counts[r]`` rows of ``out[r]``."""
    for r in range(P.shape[0]):
        counts[r] = _declared_moves_one(P[r], params, out[r])
