"""Declared games: a game described as data (a TOML or JSON file, or the same dict in Python).

From one declaration come the compiled move kernel (``games.declared_kernel``: as fast as a built-in
family) and the symbolic move relation (``games.symbolic``: provable with no extra work).  The file is
parsed against a whitelist (``tomllib`` or ``json``, size and depth limited); nothing in it is executed,
and a bad value is a ``ValueError`` naming its field.

The vocabulary
--------------
Top level: ``name`` (letters, digits, ``_ . -``), ``heaps`` (coordinates, 1 to 16), ``misere`` (the
player with no move wins; default false), ``order`` ("nonincreasing": positions and options keep
a >= b >= ...; default "none") and ``moves``, a list of rules, each a table with one of these keys:

- ``take``: take an amount from one heap (``from = "one"``, the default), the same amount from every
  heap (``"all"``), from any non-empty set of heaps (``"any"``) or from listed sets (``[[1, 2], [2, 3]]``,
  heaps numbered from 1).  The amount: ``"any"`` (t >= 1), a number or a list (``[1, 3, 4]``), a range
  (``{min = 1, max = 3}``) or a function of the heap (``{up_to = "half"}``: t <= floor(heap / 2); also
  "third", "two_thirds").
- ``some = k``: any positive amounts from each of 1 to k heaps (Moore's Nim_k).
- ``step = [[2, 1], [1, 2]]``: subtract a fixed vector (a knight), ``times`` times: 1 (default), a list
  or range as above, or ``"any"`` (a queen's ray).  Entries may be negative (staircase Nim's
  ``[1, -1]``) when a weighted total of the heaps still falls with every move.
- ``bite = true``: Chomp's bite on row lengths (needs ``order = "nonincreasing"``).
- ``code = "0.77"``: an octal or hexadecimal take-and-break code (``heaps = 1``).
- ``split = 2`` (or 3): split one heap into that many non-empty heaps after removing ``remove`` tokens
  (0 by default; an amount as above, 0 allowed), all different when ``unequal = true`` (``heaps = 1``).

A game with ``code`` or ``split`` is a one-heap take-and-break game (an option is a sum of heaps); its
``take`` rules take from the one heap.  Rules add up: a move of any rule is a move.

Examples
--------
>>> game = declared_game({"name": "take13-or-both", "heaps": 2,
...                       "moves": [{"take": {"min": 1, "max": 3}}, {"take": 1, "from": "all"}]})
>>> game.moves((2, 1))
[(1, 1), (0, 1), (2, 0), (1, 0)]
>>> [type(m).__name__ for m in game.move_relation().members]
['Steps', 'Steps']
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import tomllib

import numpy as np

from cgbase.memory import check_memory
from games import declared_kernel as dk
from games.base import Game
from games.heaps import HeapGame
from games.symbolic import AnyOf, ChompBite, Steps, TakeAndBreak, TakeFromSome, TakeUpTo
from games.universe import Universe

__all__ = ["DeclaredGame", "declared_game", "read_game_spec", "FRACTIONS"]

FRACTIONS = {"half": (1, 2), "third": (1, 3), "two_thirds": (2, 3)}  # {up_to = NAME}: t <= floor(num * heap / den)
MAX_HEAPS, MAX_RULES, MAX_LIST, MAX_VALUE, MAX_ENTRY = 16, 64, 1024, 10**6, 64
MAX_FILE_BYTES, MAX_DEPTH = 64 * 1024, 6
_KINDS = {"take": ("from",), "some": (), "step": ("times",), "bite": (), "code": (), "split": ("remove", "unequal")}


def _int(value, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where} must be an integer from {low} to {high}, got {value!r}")
    return value


def _amounts(value, where: str, low: int = 1, fraction: bool = False):
    """"any" -> None; a number, list or {min, max} -> sorted tuple; {up_to = NAME} -> (num, den) in a dict."""
    if value == "any":
        return None
    if isinstance(value, dict):
        if fraction and set(value) == {"up_to"}:
            if value["up_to"] not in FRACTIONS:
                raise ValueError(f"{where}.up_to must be one of {', '.join(FRACTIONS)}, got {value['up_to']!r}")
            return {"up_to": value["up_to"]}
        if set(value) != {"min", "max"}:
            also = ' or {up_to = "half"}' if fraction else ""
            raise ValueError(f"{where} must be \"any\", a number, a list, {{min = 1, max = 3}}{also}, "
                             f"got the keys {sorted(value)}")
        lo = _int(value["min"], f"{where}.min", low, MAX_VALUE)
        hi = _int(value["max"], f"{where}.max", lo, lo + MAX_LIST - 1)
        return tuple(range(lo, hi + 1))
    items = value if isinstance(value, list) else [value]
    if not items or len(items) > MAX_LIST:
        raise ValueError(f"{where} must list 1 to {MAX_LIST} amounts, got {len(items)}")
    return tuple(sorted({_int(x, f"{where}[{i}]", low, MAX_VALUE) for i, x in enumerate(items)}))


def _heap_sets(value, heaps: int, where: str) -> list[tuple[int, ...]]:
    if value == "one":
        return [(i,) for i in range(heaps)]
    if value == "all":
        return [tuple(range(heaps))]
    if value == "any":
        return [s for r in range(1, heaps + 1) for s in itertools.combinations(range(heaps), r)]
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise ValueError(f"{where} must be \"one\", \"all\", \"any\" or a list of heap sets such as [[1, 2]]")
    sets = []
    for i, s in enumerate(value):
        if not isinstance(s, list) or not s:
            raise ValueError(f"{where}[{i}] must be a non-empty list of heap numbers 1 to {heaps}, got {s!r}")
        sets.append(tuple(sorted({_int(h, f"{where}[{i}]", 1, heaps) - 1 for h in s})))
    return list(dict.fromkeys(sets))


def _vectors(value, heaps: int, where: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise ValueError(f"{where} must be a list of 1 to {MAX_LIST} vectors of {heaps} integers")
    vectors = []
    for i, v in enumerate(value):
        if not isinstance(v, list) or len(v) != heaps:
            raise ValueError(f"{where}[{i}] must be a list of {heaps} integers (one per heap), got {v!r}")
        v = tuple(_int(x, f"{where}[{i}]", -MAX_ENTRY, MAX_ENTRY) for x in v)
        if max(v) <= 0:
            raise ValueError(f"{where}[{i}] must take from some heap (an entry > 0), got {list(v)}")
        vectors.append(v)
    return tuple(dict.fromkeys(vectors))


class _Rules:
    """The declaration read into atoms: step atoms (vectors, amounts), Moore's k, Chomp's bite, the digits."""

    def __init__(self, declaration: dict):
        if not isinstance(declaration, dict):
            raise ValueError(f"a game declaration is a table (dict), got {type(declaration).__name__}")
        unknown = set(declaration) - {"name", "heaps", "misere", "order", "moves"}
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0]!r}; fields: name, heaps, misere, order, moves")
        name = declaration.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
            raise ValueError(f"name must be 1 to 64 letters, digits, '_', '.' or '-', got {name!r}")
        self.name = name
        self.heaps = _int(declaration.get("heaps"), "heaps", 1, MAX_HEAPS)
        self.misere = declaration.get("misere", False)
        if not isinstance(self.misere, bool):
            raise ValueError(f"misere must be true or false, got {self.misere!r}")
        self.order = declaration.get("order", "none")
        if self.order not in ("none", "nonincreasing"):
            raise ValueError(f"order must be \"none\" or \"nonincreasing\", got {self.order!r}")
        moves = declaration.get("moves")
        if not isinstance(moves, list) or not 1 <= len(moves) <= MAX_RULES:
            raise ValueError(f"moves must be a list of 1 to {MAX_RULES} rules, got {moves!r}"[:200])
        self.steps: list[tuple[tuple, object]] = []  # (vectors, amounts: None, a tuple, or {"up_to": name})
        self.some, self.bite = 0, False
        self.digits: dict[int, int] = {}  # take-and-break digit per amount removed
        self.rest, self.unequal, self.breaks = 0, None, False
        for i, rule in enumerate(moves):
            self._read(rule, f"moves[{i}]")
        self._check()

    def _read(self, rule, where: str) -> None:
        if not isinstance(rule, dict):
            raise ValueError(f"{where} must be a table with one of {', '.join(_KINDS)}, got {rule!r}"[:200])
        kinds = [k for k in _KINDS if k in rule]
        if len(kinds) != 1:
            raise ValueError(f"{where} must have exactly one of {', '.join(_KINDS)}, got {sorted(rule)}")
        kind = kinds[0]
        extra = set(rule) - {kind, *_KINDS[kind]}
        if extra:
            raise ValueError(f"{where}.{sorted(extra)[0]} is not a field of a {kind} rule "
                             f"(fields: {', '.join((kind,) + _KINDS[kind])})")
        value, at = rule[kind], f"{where}.{kind}"
        if kind == "take":
            amounts = _amounts(value, at, fraction=True)
            sets = _heap_sets(rule.get("from", "one"), self.heaps, f"{where}.from")
            vectors = tuple(tuple(int(i in s) for i in range(self.heaps)) for s in sets)
            self.steps.append((vectors, amounts))
        elif kind == "step":
            self.steps.append((_vectors(value, self.heaps, at), _amounts(rule.get("times", 1), f"{where}.times")))
        elif kind == "some":
            self.some = max(self.some, _int(value, at, 1, self.heaps))
        elif kind == "bite":
            if value is not True:
                raise ValueError(f"{at} must be true, got {value!r}")
            self.bite = True
        elif kind == "code":
            self._code(value, at)
        else:
            parts = _int(value, at, 2, 3)
            self._unequal(rule.get("unequal", False), f"{where}.unequal")
            remove = _amounts(rule.get("remove", 0), f"{where}.remove", low=0)
            self._or_digits(remove, 4 if parts == 2 else 8)

    def _code(self, value, where: str) -> None:
        from games.heaps import _code_digits

        if not isinstance(value, str) or len(value) > MAX_LIST:
            raise ValueError(f"{where} must be a code such as \"0.77\", got {value!r}")
        radix = 8 if all(c in "01234567." for c in value) else 16
        digits = _code_digits(value.upper(), where, radix, "0.77 or 0.7F")
        self._unequal(False, where)
        for k, d in enumerate(digits.tolist()):
            self._or_digits((k,), d)

    def _unequal(self, value, where: str) -> None:
        if not isinstance(value, bool) or (self.unequal is not None and value != self.unequal):
            raise ValueError(f"{where} must be true or false, and the same for every split rule, got {value!r}")
        self.unequal, self.breaks = value, True

    def _or_digits(self, amounts, bits: int) -> None:
        if amounts is None:
            self.rest |= bits
        else:
            for k in amounts:
                self.digits[k] = self.digits.get(k, 0) | bits

    def _check(self) -> None:
        if self.breaks:
            if self.heaps != 1 or self.some or self.bite or self.order != "none":
                raise ValueError("code and split rules need heaps = 1, no some or bite rule and no order")
            for vectors, amounts in self.steps:  # taking from the one heap: leave nothing or one heap
                if isinstance(amounts, dict) or vectors != ((1,),):
                    raise ValueError("with code or split rules, a rule takes from the one heap: take with an amount "
                                     "\"any\", a list or a range (not step, not up_to)")
                self._or_digits(amounts, 3)
            self.steps = []
        if self.bite and (self.order != "nonincreasing" or self.heaps < 2):
            raise ValueError("a bite rule needs order = \"nonincreasing\" and heaps >= 2 (Chomp's rows)")
        vectors = [v for vs, _ in self.steps for v in vs]
        if any(min(v) < 0 for v in vectors):
            if self.order != "none" or any(isinstance(a, dict) for _, a in self.steps):
                raise ValueError("step vectors with negative entries cannot be combined with order or up_to")
            weights = self.weights
            for v in vectors:
                if np.dot(weights, v) <= 0:
                    raise ValueError(f"the step {list(v)} does not lower the total weighted by {list(weights)}: "
                                     f"with negative entries every step must lower it, so that play ends")

    @property
    def weights(self) -> tuple[int, ...]:
        """The measure every move lowers (the relation's own: stair i weighs i + 1 when steps add to a heap)."""
        vectors = [v for vs, _ in self.steps for v in vs]
        return Steps(tuple(vectors)).measure(self.heaps) if vectors else (1,) * self.heaps

    @property
    def parts(self) -> int:
        return 3 if (self.rest | max(self.digits.values(), default=0)) & 8 else 2 if self.breaks else 1

    def digit_table(self) -> list[int]:
        """d_0, d_1, ... up to the last listed amount; an unbounded rule (``rest``) holds for these too."""
        table = [self.digits.get(k, 0) | self.rest for k in range(max(self.digits, default=-1) + 1)]
        return [table[0] & ~3, *table[1:]] if table else table  # bits 1 and 2 need a removal


def _overlap(rules: _Rules) -> bool:
    """Whether two rules (or two vectors of one rule) may give the same option: then the kernel drops repeats."""
    directions = []
    for vectors, _ in rules.steps:
        for v in vectors:
            g = math.gcd(*v)
            directions.append(tuple(x // g for x in v))
    if len(set(directions)) < len(directions) or (rules.bite and (rules.steps or rules.some)):
        return True
    return bool(rules.some) and any(min(v) >= 0 and sum(x > 0 for x in v) <= rules.some for v in directions)


class DeclaredGame(Game):
    """A game declared as data (see the module docstring); make one with ``declared_game`` or ``read_game_spec``."""

    kernel = staticmethod(dk.declared_moves)

    def __init__(self, declaration: dict):
        rules = _Rules(declaration)
        super().__init__(misere=rules.misere)
        self.name, self.dims, self.misere, self._rules = rules.name, rules.heaps, rules.misere, rules
        self.parts = rules.parts
        self.declaration = json.loads(json.dumps(declaration))  # plain data, detached from the caller's
        self._params = dk.encode(self.dims, max(rules.parts, 1), rules.order != "none", _overlap(rules),
                                 self._kernel_rules())
        relation = self.move_relation()
        if isinstance(relation, Steps) and relation.amounts is None and set(np.ravel(relation.vectors)) <= {0, 1}:
            self.line_directions = relation.vectors  # rays: the solver's O(1)-per-position path
        finite = [a for _, a in rules.steps if isinstance(a, tuple)]
        if not rules.misere and self.dims == 1 and rules.steps and len(finite) == len(rules.steps) \
                and all(vs == ((1,),) for vs, _ in rules.steps):
            self.period_theorem, self.removal_limit = "subtraction", max(max(a) for a in finite)
        if not rules.misere and rules.breaks and rules.rest == 0 and not rules.unequal and any(rules.digit_table()):
            self.period_theorem = "octal"
            self.removal_limit = max(k for k, d in enumerate(rules.digit_table()) if d)

    def _kernel_rules(self) -> list:
        r, out = self._rules, []
        for vectors, amounts in r.steps:
            if amounts is None:
                head = [dk.ANY, 0, 1, 0]
            elif isinstance(amounts, dict):
                head = [dk.FRACTION, *FRACTIONS[amounts["up_to"]], 0]
            else:
                head = [dk.SET, 0, 1, len(amounts), *amounts]
            out.append((dk.STEP, [len(vectors), *head, *(x for v in vectors for x in v)]))
        if r.some:
            out.append((dk.SOME, [r.some]))
        if r.bite:
            out.append((dk.BITE, []))
        if r.breaks:
            table = r.digit_table()
            out.append((dk.BREAK, [r.rest, int(bool(r.unequal)), len(table), *table]))
        return out

    def kernel_params(self) -> np.ndarray:
        return self._params

    def max_moves(self, limits) -> int:
        limits = np.broadcast_to(np.asarray(limits, dtype=np.int64), (self.dims,)).tolist()
        r, total = self._rules, 0
        for vectors, amounts in r.steps:
            for v in vectors:
                reach = min(limits[i] // x for i, x in enumerate(v) if x > 0)
                total += min(len(amounts), reach) if isinstance(amounts, tuple) else reach
        for mask in range(1, 1 << self.dims) if r.some else ():
            chosen = [limits[i] for i in range(self.dims) if mask >> i & 1]
            total += math.prod(chosen) if len(chosen) <= r.some else 0
        total += sum(limits) if r.bite else 0
        if r.breaks:
            n = limits[0]
            last = n if r.rest else min(n, len(r.digit_table()) - 1)
            total += sum(1 + (n - k) // 2 + ((n - k) // 3) * ((n - k) // 2 + 1) * (self.parts > 2)
                         for k in range(last + 1))
        return max(total, 1)

    def move_relation(self):
        """The moves as a ``games.symbolic`` relation: one per kind of rule, an ``AnyOf`` when there are several.

        None where the vocabulary has no relation: three-heap splits, or an order kept by other rules than bites.
        """
        r, members = self._rules, []
        if r.breaks:
            digits = tuple(r.digit_table()) or (r.rest & ~3,)  # no listed amount: the rest holds from k = 0 (splits)
            return TakeAndBreak(digits, r.rest, bool(r.unequal)) if r.parts == 2 else None
        if r.order != "none" and (r.steps or r.some):
            return None
        grouped: dict = {}
        for vectors, amounts in r.steps:
            key = ("up_to", amounts["up_to"]) if isinstance(amounts, dict) else amounts
            grouped.setdefault(key, []).extend(vectors)
        for key, vectors in grouped.items():
            vectors = tuple(dict.fromkeys(vectors))
            members.append(TakeUpTo(vectors, *FRACTIONS[key[1]]) if isinstance(key, tuple) and key[0] == "up_to"
                           else Steps(vectors, key))
        members += [TakeFromSome(r.some)] * bool(r.some) + [ChompBite()] * r.bite
        return members[0] if len(members) == 1 else AnyOf(tuple(members))

    def universe(self, bound: int) -> Universe:
        """The box [0, bound]^heaps; ordered positions only under an order (the first row >= 1 with a bite);
        under steps that add to a heap, every position whose weighted total is at most the box corner's."""
        r = self._rules
        vectors = [v for vs, _ in r.steps for v in vs]
        if r.order == "none" and not any(min(v) < 0 for v in vectors):
            return Universe.box(self.dims, bound)
        weights = np.array(r.weights, dtype=np.int64)
        top = int(weights.sum()) * bound if r.order == "none" else bound
        limits = top // weights if r.order == "none" else [bound] * self.dims
        check_memory(8.0 * self.dims * math.prod(int(x) + 1 for x in limits), f"{self!r} at bound {bound}")
        grid = np.stack(np.meshgrid(*[np.arange(int(x) + 1) for x in limits], indexing="ij"), -1)
        rows = grid.reshape(-1, self.dims)
        if r.order == "none":
            keep = rows @ weights <= top
        else:
            keep = (np.diff(rows, axis=1) <= 0).all(axis=1) & (rows[:, 0] >= int(r.bite))
        return Universe.from_positions(rows[keep], bound=bound)

    def spec(self) -> dict:
        return {"name": self.name, "params": {"misere": self.misere}, "custom": True, "declared": self.declaration}

    def __repr__(self) -> str:
        return f"declared_game({self.name!r})"


class DeclaredHeapGame(DeclaredGame, HeapGame):
    """A declared one-heap take-and-break game: an option is a sum of heaps (``moves`` lists the heaps left)."""

    def take_and_break_code(self) -> tuple[np.ndarray, bool] | None:
        """(digits d_0 ... d_t, unequal splits) when a move removes at most t tokens, else None.

        ``solvers.take_and_break`` computes such a game's Grundy values as it does an octal game's.

        Examples
        --------
        >>> declared_game({"name": "g", "heaps": 1, "moves": [{"split": 2, "unequal": True}]}).take_and_break_code()
        (array([4]), True)
        """
        r = self._rules
        table = np.array(r.digit_table(), dtype=np.int64)
        if r.rest or not table.any():
            return None
        return table[: np.flatnonzero(table)[-1] + 1], bool(r.unequal)


def declared_game(declaration: dict) -> DeclaredGame:
    """The game a declaration (a dict in the vocabulary of the module docstring) describes.

    Examples
    --------
    >>> kayles = declared_game({"name": "kayles", "heaps": 1, "moves": [{"code": "0.77"}]})
    >>> kayles.moves((3,)), kayles.period_theorem
    ([(2,), (1, 1), (1,)], 'octal')
    """
    rules = _Rules(declaration)
    return DeclaredHeapGame(declaration) if rules.breaks else DeclaredGame(declaration)


def _nests_deeper(value, limit: int) -> bool:
    """True when dicts and lists nest in ``value`` more than ``limit`` levels (no recursion: any depth is safe)."""
    level = [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (dict, list)):
            if depth + 1 > limit:
                return True
            level.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def _unique_keys(pairs) -> dict:
    """A JSON object whose keys are all different (``json`` would keep the last of a repeated key silently)."""
    keys = [key for key, _ in pairs]
    if len(set(keys)) < len(keys):
        raise ValueError(f"the key {next(k for k in keys if keys.count(k) > 1)!r} is given twice")
    return dict(pairs)


def read_game_spec(path) -> DeclaredGame:
    """The declared game of a TOML (``.toml``) or JSON (``.json``) file; nothing in the file is executed.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('name = "nim2"\\nheaps = 2\\n[[moves]]\\ntake = "any"\\n')
    >>> read_game_spec(f.name).moves((1, 1))
    [(0, 1), (1, 0)]
    """
    path = os.fspath(path)
    kind = os.path.splitext(path)[1].lower()
    if kind not in (".toml", ".json"):
        raise ValueError(f"a game spec is a .toml or .json file, got {path}")
    if not os.path.isfile(path):
        raise ValueError(f"no game spec file at {path}")
    if os.path.getsize(path) > MAX_FILE_BYTES:
        raise ValueError(f"{path} is larger than {MAX_FILE_BYTES} bytes: a game spec is a few lines")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f) if kind == ".toml" else json.loads(f.read().decode("utf-8"),
                                                                         object_pairs_hook=_unique_keys)
    except ValueError as err:  # a decoding error, or a key given twice
        raise ValueError(f"{path} is not valid {kind[1:].upper()}: {err}") from None
    except RecursionError:  # the parser's own stack: nested far deeper than any spec
        raise ValueError(f"{path} nests deeper than {MAX_DEPTH} levels: not a game spec") from None
    if _nests_deeper(data, MAX_DEPTH):
        raise ValueError(f"{path} nests deeper than {MAX_DEPTH} levels: not a game spec")
    try:
        return declared_game(data)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
