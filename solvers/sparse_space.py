"""Compiled kernels of the take-and-break engine: the rare/common split ("sparse space") for moves
that leave at most two heaps, and option bitsets for moves that leave three.

A game is given by its digits ``d[k]`` (bit 1: removing k tokens may leave nothing, bit 2: one
heap, bit 4: two non-empty heaps, bit 8: three) and ``unequal`` (Grundy's game: the two heaps of a
split must differ).  Each kernel extends ``values`` (G(0), G(1), ...) from heap ``start`` to heap
``stop`` and returns the first heap it did not compute (``stop`` unless it needs more room).

**Sparse space** (Gangolli and Plambeck, "A note on periodicity in some octal games", 1989; the
open-source ``tczajka/octal-games`` solver uses the same split).  A mask m, and for some games the
parity of the heap size, split values into two classes: heap i is *common* when
``parity(G(i) & m) ^ pos(i)`` is 1, *rare* when it is 0, where ``pos(i)`` is 0, or
``(i ^ posbit) & 1`` when every split removes a number of tokens of parity ``posbit``.  The xor of
two common heaps' values always falls in the rare class of the heap being split, so the smallest
common value missing from the options is found from the one-heap moves and the splits with a rare
part alone (rare x everything); the common x common splits are then scanned only until every rare
value below that candidate is excluded, which ends early unless G(n) is itself rare.  The
mask is the one with the fewest rare heaps so far (a Walsh-Hadamard transform of the counts of
values by position parity, recomputed when a rare value appears).

Cost per heap n: O(s R + c) for R rare heaps so far and s split digits, c being the scan of
common x common splits (about 150 splits a heap in 0.16, 3,000 in 0.6, where many rare values lie
below the candidate; 64 splits are tested at a time without a branch), and O(n) when G(n) is rare
or the mask changes.  R stops growing at the last rare heap (53 for 0.16, 132 for 0.354, 1,584
for 0.6 up to 2^21), so the whole run is about linear in the heap count.  Memory: 2 bytes a value
plus 8 a rare heap.

**Three heaps** (hexadecimal digits with bit 8): the sets S2(x) of values of the two-heap splits
of x are kept as bitsets (one row per heap size), and the three-heap options of x are
``G(a) xor S2(x - a)``, grouped by G(a) and permuted once per value.  Cost per heap n: O(n W) word
operations for W words a bitset (values below 64 W), so quadratic overall; memory 8 W bytes a heap.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["VALUE_LIMIT", "MASK", "POSITION", "POSBIT", "RARE_COUNT", "new_sparse_state", "sparse_chunk",
           "bitset_chunk", "plain_chunk"]

VALUE_LIMIT = 1 << 16  # values are stored as uint16

# the sparse kernel's scalar state, one int64 array so the kernel can update it in place: the mask,
# whether the heap's parity (plus POSBIT) joins it, the bits of the largest value, the rare heaps
MASK, POSITION, POSBIT, BITS, RARE_COUNT, POSITION_ALLOWED = range(6)


def new_sparse_state(digits: np.ndarray, unequal: bool) -> np.ndarray:
    """The scalar state of ``sparse_chunk`` before heap 0: mask 0 (every heap rare), no values yet.

    The heap-parity term is allowed when every split removes tokens of one parity.

    Examples
    --------
    >>> new_sparse_state(np.array([0, 7, 7]), False).tolist()  # Kayles: splits remove 1 or 2
    [0, 0, 0, 0, 0, 0]
    """
    parities = {k & 1 for k, d in enumerate(digits) if d & 4}  # of the tokens each split removes
    state = np.zeros(6, dtype=np.int64)
    state[POSBIT] = min(parities, default=0)
    state[POSITION_ALLOWED] = len(parities) <= 1
    return state


@nb.njit(cache=True, inline="always")
def _parity(x):
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


@nb.njit(cache=True, inline="always")
def _mark_removals(values, n, digits, seen):
    # seen[v] = n for the value v of every move from heap n that leaves nothing or one heap
    for k in range(1, min(digits.size, n + 1)):
        if digits[k] & 1 and k == n:
            seen[0] = n
        if digits[k] & 2 and k < n:
            seen[values[n - k]] = n


@nb.njit(cache=True, nogil=True)
def _best_split(counts, bits, total, position_allowed):
    """(mask, position term, rare heaps) minimising the rare heaps, from value counts by parity."""
    size = 1 << (bits + 1)
    h = counts[:size].copy()
    step = 1
    while step < size:
        for i in range(0, size, 2 * step):
            for j in range(i, i + step):
                a = h[j]
                b = h[j + step]
                h[j] = a + b
                h[j + step] = a - b
        step *= 2
    best, best_rare = 0, total
    for w in range(1, size):
        if w & 1 and not position_allowed:
            continue
        rare = (total + h[w]) // 2
        if rare < best_rare:
            best, best_rare = w, rare
    return best >> 1, best & 1, best_rare


@nb.njit(cache=True, nogil=True)
def _rebuild_rare(values, n, mask, position, posbit, rare):
    count = 0
    for i in range(n):
        pos = ((i ^ posbit) & 1) if position else 0
        if _parity(values[i] & mask) ^ pos == 0:
            rare[count] = i
            count += 1
    return count


@nb.njit(cache=True, nogil=True)
def sparse_chunk(values, start, stop, digits, unequal, rare, counts, seen, missing_flags, state):
    """Extend ``values`` over heaps [start, stop) of a game whose moves leave at most two heaps.

    ``rare`` must have room for ``state[RARE_COUNT] + stop - start`` heaps; ``counts``, ``seen``
    and ``missing_flags`` hold 2 * VALUE_LIMIT entries (``seen`` starts at -1, the flags at 0).
    Returns the first heap not computed: ``stop``, or the heap whose value would reach VALUE_LIMIT.
    """
    mask, position, posbit = state[MASK], state[POSITION], state[POSBIT]
    bits, n_rare = state[BITS], state[RARE_COUNT]
    for n in range(start, stop):
        top = 1 << (bits + 1)  # every option value is below 1 << bits
        pos = ((n ^ posbit) & 1) if position else 0
        # the moves that leave at most one heap, and the splits with a rare part
        _mark_removals(values, n, digits, seen)
        for k in range(min(digits.size, n + 1)):
            s = n - k
            if digits[k] & 4:
                for i in range(n_rare):
                    r = rare[i]
                    if r >= s:
                        break
                    if r == 0 or (unequal and 2 * r == s):
                        continue
                    seen[values[r] ^ values[s - r]] = n
        # the smallest common value missing, and the rare values missing below it
        candidate, missing = top, 0
        for v in range(top):
            if seen[v] != n:
                if _parity(v & mask) ^ pos:
                    candidate = v
                    break
                missing += 1
        # common x common splits only give rare values: scan them until none is missing, 64
        # splits at a time with no branch until one of them hits a missing value
        if missing:
            for v in range(candidate):
                missing_flags[v] = seen[v] != n
            for k in range(min(digits.size, n + 1)):
                if not digits[k] & 4:
                    continue
                s = n - k
                lo = 1
                while lo <= s // 2 and missing:
                    hi = min(lo + 64, s // 2 + 1)
                    hit = 0
                    for a in range(lo, hi):
                        hit |= missing_flags[values[a] ^ values[s - a]]
                    if hit:
                        for a in range(lo, hi):
                            v = values[a] ^ values[s - a]
                            if missing_flags[v] and not (unequal and 2 * a == s):
                                missing_flags[v] = 0
                                seen[v] = n
                                missing -= 1
                    lo = hi
            missing_flags[:candidate] = 0
        g = candidate
        if missing:
            g = 0
            while seen[g] == n:
                g += 1
        if g >= VALUE_LIMIT:
            state[BITS], state[RARE_COUNT] = bits, n_rare
            return n
        values[n] = g
        counts[(g << 1) | ((n ^ posbit) & 1)] += 1
        grown = g >= (1 << bits)
        if grown:
            bits += 1
        if _parity(g & mask) ^ pos == 0:
            rare[n_rare] = n
            n_rare += 1
        if grown or _parity(g & mask) ^ pos == 0:
            best_mask, best_position, best_rare = _best_split(counts, bits, n + 1, state[POSITION_ALLOWED])
            if best_rare < n_rare:
                mask, position = best_mask, best_position
                n_rare = _rebuild_rare(values, n + 1, mask, position, posbit, rare)
                state[MASK], state[POSITION] = mask, position
    state[BITS], state[RARE_COUNT] = bits, n_rare
    return stop


_HALVES = np.array([0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x00FF00FF00FF00FF,
                    0x0000FFFF0000FFFF, 0x00000000FFFFFFFF], dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def _xor_permute(word, g):
    # bit i of the result is bit i ^ g of ``word`` (g < 64): swap the halves of every block of
    # 2 << j bits for each bit j of g
    for j in range(6):
        if g >> j & 1:
            shift = np.uint64(1 << j)
            word = ((word & _HALVES[j]) << shift) | ((word >> shift) & _HALVES[j])
    return word


@nb.njit(cache=True, inline="always")
def _lowest_zero(word):
    i = 0
    while word >> np.uint64(i) & np.uint64(1):
        i += 1
    return i


@nb.njit(cache=True, nogil=True)
def bitset_chunk(values, start, stop, digits, pairs, triples, by_value, used):
    """Extend ``values`` over heaps [start, stop) of a game with three-heap moves.

    ``pairs[x]`` receives S2(x), the values of the two-heap splits of x; ``triples[x % rows]`` the
    values of the three-heap splits of x (``rows`` = digits.size is enough); ``by_value`` and
    ``used`` are scratch of 64 W rows.  All are uint64 bitsets of W = pairs.shape[1] words.
    Returns ``stop``, or the first heap whose options fill all 64 W values (widen and resume).
    """
    width = pairs.shape[1]
    rows = triples.shape[0]
    options = np.zeros(width, dtype=np.uint64)
    one = np.uint64(1)
    for n in range(start, stop):
        pair = pairs[n]
        pair[:] = 0
        for a in range(1, n // 2 + 1):
            v = values[a] ^ values[n - a]
            pair[v >> 6] |= one << np.uint64(v & 63)
        # three heaps: G(a) xor S2(n - a), grouped by G(a)
        n_used = 0
        for a in range(1, n - 1):
            g = values[a]
            if not used[g]:
                used[g] = True
                by_value[g, :] = 0
                n_used += 1
            by_value[g] |= pairs[n - a]
        triple = triples[n % rows]
        triple[:] = 0
        for g in range(by_value.shape[0]):
            if not used[g]:
                continue
            used[g] = False
            for w in range(width):
                triple[w ^ (g >> 6)] |= _xor_permute(by_value[g, w], g & 63)
        options[:] = 0
        for k in range(min(digits.size, n + 1)):
            d = digits[k]
            s = n - k
            if d & 1 and s == 0 and k > 0:
                options[0] |= one
            if d & 2 and s > 0 and k > 0:
                options[values[s] >> 6] |= one << np.uint64(values[s] & 63)
            if d & 4 and s >= 2:
                options |= pairs[s]
            if d & 8 and s >= 3:
                options |= triples[s % rows]
        g = -1
        for w in range(width):
            if options[w] != np.uint64(0xFFFFFFFFFFFFFFFF):
                g = 64 * w + _lowest_zero(options[w])
                break
        if g < 0:
            return n
        values[n] = g
    return stop


@nb.njit(cache=True, nogil=True)
def plain_chunk(values, start, stop, digits, unequal):
    """Extend ``values`` over heaps [start, stop) by the definition: the mex over every option.

    O(n) work per heap for two-heap moves and O(n^2) for three-heap moves; the reference the
    engine is checked and benchmarked against."""
    seen = np.full(2 * VALUE_LIMIT, -1, dtype=np.int64)
    for n in range(start, stop):
        _mark_removals(values, n, digits, seen)
        for k in range(min(digits.size, n + 1)):
            d = digits[k]
            s = n - k
            if d & 4:
                for a in range(1, s // 2 + 1):
                    if not (unequal and 2 * a == s):
                        seen[values[a] ^ values[s - a]] = n
            if d & 8:
                for a in range(1, s // 3 + 1):
                    for b in range(a, (s - a) // 2 + 1):
                        seen[values[a] ^ values[b] ^ values[s - a - b]] = n
        g = 0
        while seen[g] == n:
            g += 1
        if g >= VALUE_LIMIT:
            return n
        values[n] = g
    return stop
