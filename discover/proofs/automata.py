"""Presburger arithmetic with bitwise operators (Büchi arithmetic), decided by finite automata.

A relation on natural numbers x1, ..., xk is a deterministic automaton that reads their binary digits together,
least significant first, one symbol a column (bit i of a symbol is the digit of track i), the shorter numbers
padded with zeros.  Every automaton here accepts a tuple whatever the number of zero columns read after it, the
invariant each operation keeps: linear equations and inequalities with integer coefficients (``linear``: the
states are the carries), x ⊕ y = z, x & y = z, x | y = z (``bitwise``), And and Or (products over the union of the
tracks), Not (the final states flipped: every automaton is complete), and ∃x (``exists``: the track projected,
made deterministic by the subset construction, a subset final when one of its states reaches a final state on
zero columns of the other tracks, so that a witness longer than the rest is still found).  By Büchi's theorem
(in Bruyère's form) every first-order statement over (N, +, bitwise operators) is so decided; with the
statement's free variables all quantified, its automaton has no track, and it holds iff its one state is final.

Examples
--------
>>> x_plus_1 = linear({"x": 1, "y": -1}, -1, equal=True)  # x - y = -1
>>> both = conj(x_plus_1, bitwise("xor", "x", "y", "z"))  # y = x + 1 and z = x ⊕ y
>>> holds(neg(exists(conj(both, linear({"z": 1}, 0, equal=False)), "x", "y", "z")))  # no x with z <= 0
True

References
----------
J. R. Büchi, "Weak second-order arithmetic and finite automata", Zeitschrift für mathematische Logik und
Grundlagen der Mathematik 6 (1960), 66-92; V. Bruyère, G. Hansel, C. Michaux and R. Villemaire, "Logic and
p-recognizable sets of integers", Bulletin of the Belgian Mathematical Society 1 (1994), 191-238; P. Wolper and
B. Boigelot, "On the construction of automata from linear arithmetic constraints", TACAS 2000 (the carries).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cgbase.deadline import current

__all__ = ["Automaton", "TooLarge", "linear", "bitwise", "constant", "conj", "disj", "neg", "exists", "rename",
           "holds", "is_empty", "least", "MAX_STATES", "MAX_TRACKS", "MAX_CELLS"]

MAX_STATES = 50_000  # the most states an automaton may reach before the statement is given up
MAX_TRACKS = 12  # the most numbers read together (4,096 symbols)
MAX_CELLS = 1 << 22  # the most transitions (states × symbols) of a table built: about 150 MB as Python lists


class TooLarge(ValueError):
    """An automaton past ``MAX_STATES`` states, ``MAX_CELLS`` transitions or ``MAX_TRACKS`` tracks: the statement is
    not decided here."""


@dataclass(frozen=True)
class Automaton:
    """A complete deterministic automaton over ``tracks``: ``delta[state, symbol]``, start state 0."""

    tracks: tuple[str, ...]
    delta: np.ndarray
    final: np.ndarray

    @property
    def size(self) -> int:
        return int(self.final.size)


def constant(value: bool) -> Automaton:
    """The relation with no track that always (``True``) or never holds."""
    return Automaton((), np.zeros((1, 1), dtype=np.int64), np.array([bool(value)]))


def _symbols(k: int) -> np.ndarray:
    if k > MAX_TRACKS:
        raise TooLarge(f"{k} numbers read together: more than {MAX_TRACKS}")
    return np.arange(1 << k, dtype=np.int64)


def _bits(symbols: np.ndarray, k: int) -> np.ndarray:
    return (symbols[:, None] >> np.arange(k)) & 1  # (symbols, k)


def _integers(values: list) -> np.ndarray:
    """``values`` (Python ints, nested lists of them) as int64, or as exact Python ints past int64 (numpy would make
    such a mix float64)."""
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        return np.array(values, dtype=object)


def _from_table(tracks, codes: list, rows: list, final) -> Automaton:
    """An automaton from states named by ``codes`` (in order, the first the start) and their successors' codes."""
    codes, rows = _integers(codes), _integers(rows)
    order = np.argsort(codes, kind="stable")
    delta = order[np.searchsorted(codes[order], rows)]
    return _minimal(Automaton(tuple(tracks), delta.astype(np.int64), np.asarray(final, dtype=bool)))


def linear(coefficients: dict, bound: int, equal: bool) -> Automaton:
    """Σ c_x · x = bound (``equal``) or Σ c_x · x <= bound, over naturals x: states are what is left of the bound.

    Reading the low digits b_x, Σ c_x x <= r becomes Σ c_x x' <= floor((r - Σ c_x b_x) / 2) for the numbers
    x' = (x - b_x) / 2 left (= with r - Σ c_x b_x even, r' its half); at the end, with x' = 0: 0 <= r (0 = r).

    Examples
    --------
    >>> a = linear({"x": 2, "y": -3}, 1, equal=True)  # 2x - 3y = 1
    >>> a.tracks, holds(exists(a, "x", "y"))
    (('x', 'y'), True)
    """
    names = tuple(name for name, c in coefficients.items() if c)
    if not names:
        return constant(0 == bound if equal else 0 <= bound)
    c = [int(coefficients[name]) for name in names]
    # every remainder stays within |bound| + Σ|c|: in int64 below 2^62, else in Python's exact integers
    exact = np.int64 if abs(int(bound)) + sum(map(abs, c)) < 2**62 else object
    symbols = _symbols(len(names))
    dot = _bits(symbols, len(names)).astype(exact) @ np.array(c, dtype=exact)
    dead = None  # an odd remainder: the equation fails whatever follows
    codes, rows, seen = [int(bound)], [], {int(bound)}
    deadline = current()  # remainders span about 2 Σ|c| values: a huge coefficient (a modulus of 2^64) has many
    i = 0
    while i < len(codes):
        if i % 1024 == 0:
            deadline.check("a linear relation's automaton")
            _refuse_growth(len(codes), symbols.size, "a linear relation")
        r = codes[i]
        if r == dead:
            rows.append([dead] * symbols.size)
        else:
            t = r - dot
            step = [int(x) for x in t // 2] if not equal else [int(x) // 2 if x % 2 == 0 else dead for x in t]
            rows.append(step)
            for s in set(step) - seen:
                seen.add(s)
                codes.append(s)
        i += 1
    marker = max(abs(x) for x in codes if x is not None) + 1  # the dead state's code, apart from every remainder
    codes = [marker if x is None else x for x in codes]
    rows = [[marker if x is None else x for x in row] for row in rows]
    final = [x == 0 if equal else (x >= 0 and x != marker) for x in codes]
    return _from_table(names, codes, rows, final)


_BITWISE = {"xor": np.bitwise_xor, "and": np.bitwise_and, "or": np.bitwise_or}


def bitwise(op: str, x: str, y: str, z: str) -> Automaton:
    """x op y = z, for op "xor", "and" or "or" (three different tracks): column by column.

    Examples
    --------
    >>> holds(exists(conj(bitwise("xor", "x", "y", "z"), linear({"x": 1, "y": 1, "z": -1}, -1, True)), "x", "y", "z"))
    False
    """
    if len({x, y, z}) < 3:
        raise ValueError(f"bitwise needs three different tracks, got {x!r}, {y!r}, {z!r}")
    bits = _bits(_symbols(3), 3)
    good = _BITWISE[op](bits[:, 0], bits[:, 1]) == bits[:, 2]
    delta = np.where(good[None, :], np.array([[0], [1]]), 1)
    return Automaton((x, y, z), delta.astype(np.int64), np.array([True, False]))


def _align(tracks: tuple, sub: tuple) -> np.ndarray:
    """For each symbol over ``tracks``, the symbol it reads over ``sub`` (a subset of them)."""
    bits = _bits(_symbols(len(tracks)), len(tracks))
    out = np.zeros(bits.shape[0], dtype=np.int64)
    for j, name in enumerate(sub):
        out |= bits[:, tracks.index(name)] << j
    return out


def _product(a: Automaton, b: Automaton, keep) -> Automaton:
    tracks = a.tracks + tuple(t for t in b.tracks if t not in a.tracks)
    pa, pb = _align(tracks, a.tracks), _align(tracks, b.tracks)
    width, deadline = b.size, current()
    codes, rows, seen = [0], [], {0}
    i = 0
    while i < len(codes):
        deadline.check("an automaton's product")
        block = np.array(codes[i:])
        i = len(codes)
        step = a.delta[block // width][:, pa] * width + b.delta[block % width][:, pb]
        rows.extend(step.tolist())
        for code in np.unique(step).tolist():
            if code not in seen:
                seen.add(code)
                codes.append(code)
        _refuse_growth(len(codes), pa.size, "a product")
    codes_array = np.array(codes)
    final = keep(a.final[codes_array // width], b.final[codes_array % width])
    return _from_table(tracks, codes, rows, final)


def _refuse_growth(states: int, symbols: int, what: str) -> None:
    """TooLarge once a table under construction passes ``MAX_STATES`` states or ``MAX_CELLS`` transitions."""
    if states > MAX_STATES or states * symbols > MAX_CELLS:
        raise TooLarge(f"{what} of more than {min(MAX_STATES, MAX_CELLS // symbols):,} states over {symbols:,} "
                       f"symbols")


def conj(*parts: Automaton) -> Automaton:
    """The relations all holding (over the union of their tracks)."""
    out = parts[0]
    for p in parts[1:]:
        out = _product(out, p, np.logical_and)
    return out


def disj(*parts: Automaton) -> Automaton:
    """Some of the relations holding (over the union of their tracks)."""
    out = parts[0]
    for p in parts[1:]:
        out = _product(out, p, np.logical_or)
    return out


def neg(a: Automaton) -> Automaton:
    """The relation not holding (a complete automaton with its final states flipped)."""
    return Automaton(a.tracks, a.delta, ~a.final)


def rename(a: Automaton, names: dict) -> Automaton:
    """The same relation with tracks renamed (``{"y": "y2"}``)."""
    tracks = tuple(names.get(t, t) for t in a.tracks)
    if len(set(tracks)) < len(tracks):
        raise ValueError(f"renaming {a.tracks} by {names} merges two tracks")
    return Automaton(tracks, a.delta, a.final)


def _closure(final: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """The states from which some state of ``final`` is reached by the successors ``moves`` (states, choices)."""
    reach = final.copy()
    while True:
        more = reach | reach[moves].any(axis=1)
        if (more == reach).all():
            return reach
        reach = more


def exists(a: Automaton, *names: str) -> Automaton:
    """∃ names: each track projected away, made deterministic again (subset construction, dead states dropped).

    A subset is final when one of its states reaches a final state reading zeros on the other tracks: the witness
    may be longer than every other number.

    Examples
    --------
    >>> even = exists(linear({"x": 1, "h": -2}, 0, equal=True), "h")  # x = 2h for some h
    >>> even.tracks, holds(neg(exists(conj(even, linear({"x": 1}, 7, True)), "x")))
    (('x',), True)
    """
    for name in names[1:]:
        a = exists(a, name)
    if not names or names[0] not in a.tracks:
        return a
    i = a.tracks.index(names[0])
    tracks = a.tracks[:i] + a.tracks[i + 1:]
    rest = _symbols(len(tracks))
    low = rest & ((1 << i) - 1)
    s0 = low | ((rest >> i) << (i + 1))
    d0, d1 = a.delta[:, s0], a.delta[:, s0 | (1 << i)]
    accepting = _closure(a.final, a.delta[:, [0, 1 << i]])  # zeros on the other tracks, anything on this one
    live = _closure(a.final, a.delta)
    deadline = current()
    start = (0,) if live[0] else ()
    codes, rows, ids = [start], [], {start: 0}
    i = 0
    while i < len(codes):
        deadline.check("an automaton's projection")
        members = np.array(codes[i], dtype=np.int64)
        i += 1
        succ = np.concatenate([d0[members], d1[members]]).T if members.size else np.zeros((rest.size, 0), np.int64)
        row = []
        for column in succ:
            key = tuple(int(q) for q in np.unique(column) if live[q])
            if key not in ids:
                ids[key] = len(codes)
                codes.append(key)
            row.append(ids[key])
        rows.append(row)
        _refuse_growth(len(codes), rest.size, "a projection")
    final = [bool(accepting[list(c)].any()) if c else False for c in codes]
    return _from_table(tracks, list(range(len(codes))), rows, final)


def _minimal(a: Automaton) -> Automaton:
    """The minimal automaton (Moore's refinement of the reachable states), start state 0."""
    reach = np.zeros(a.size, dtype=bool)
    reach[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(a.delta[frontier])
        frontier = nxt[~reach[nxt]]
        reach[frontier] = True
    keep = np.flatnonzero(reach)
    index = np.full(a.size, -1, dtype=np.int64)
    index[keep] = np.arange(keep.size)
    delta, final = index[a.delta[keep]], a.final[keep]
    classes = final.astype(np.int64)
    count = np.unique(classes).size
    while True:
        _, classes = np.unique(np.column_stack([classes, classes[delta]]), axis=0, return_inverse=True)
        classes = classes.ravel()
        new = int(classes.max()) + 1
        if new == count:
            break
        count = new
    first = np.unique(classes, return_index=True)[1]  # a representative of each class
    order = np.argsort(first)  # classes numbered by their first state: the start's class is 0
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    reps = first[order]
    return Automaton(a.tracks, rank[classes[delta[reps]]], final[reps])


def is_empty(a: Automaton) -> bool:
    """Whether no tuple satisfies the relation (no final state: every state is reachable)."""
    return not bool(a.final.any())


def holds(a: Automaton) -> bool:
    """Whether a statement with no free variable (an automaton with no track) is true.

    Examples
    --------
    >>> holds(constant(True)), holds(exists(linear({"x": 1}, -1, equal=False), "x"))  # some x <= -1?
    (True, False)
    """
    if a.tracks:
        raise ValueError(f"a statement with free variables {', '.join(a.tracks)} is not true or false")
    return bool(a.final[0])


def least(a: Automaton, bits: int = 22) -> int | None:
    """The least number a one-track automaton accepts, looked for below 2^bits (None: none there).

    Examples
    --------
    >>> least(exists(conj(linear({"x": 1, "h": -3}, 0, True), linear({"x": -1}, -10, False)), "h"))  # 3 | x >= 10
    12
    """
    if len(a.tracks) != 1:
        raise ValueError(f"least reads one track, not {len(a.tracks)}")
    for width in range(min(8, bits), bits + 1, 4):  # short numbers first: most answers are small
        values = np.arange(1 << width, dtype=np.int64)
        states = np.zeros(values.size, dtype=np.int64)
        for i in range(width + 1):
            states = a.delta[states, (values >> i) & 1]
        hits = np.flatnonzero(a.final[states])
        if hits.size:
            return int(hits[0])
    return None
