"""Declared games: every built-in integer family re-expressed in the vocabulary gives the same move graph,
the same symbolic relation, and passes the public game and solver checks; bad declarations are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games import make_game
from games.checks import check_game
from games.declared import declared_game, read_game_spec
from games.symbolic import AnyOf, Steps, relation_from_record
from solvers.checks import check_solver
from solvers.graph import build_graph

STAIRS = [[1, 0, 0], [-1, 1, 0], [0, -1, 1]]  # coins from stair i + 1 to stair i

# (family, its parameters, the same game declared, a bound)
FAMILIES = [
    ("nim", {"heaps": 3}, {"heaps": 3, "moves": [{"take": "any"}]}, 6),
    ("nim", {"heaps": 2, "misere": True}, {"heaps": 2, "misere": True, "moves": [{"take": "any"}]}, 9),
    ("wythoff", {}, {"heaps": 2, "moves": [{"take": "any"}, {"take": "any", "from": "all"}]}, 12),
    ("wythoff", {"misere": True}, {"heaps": 2, "misere": True,
                                   "moves": [{"take": "any", "from": [[1], [2], [1, 2]]}]}, 12),
    ("wythoff_nd", {"heaps": 3}, {"heaps": 3, "moves": [{"take": "any", "from": "any"}]}, 6),
    ("subtraction", {"subtract": (1, 3, 4)}, {"heaps": 1, "moves": [{"take": [1, 3, 4]}]}, 40),
    ("subtraction", {"subtract": (1, 2, 3)}, {"heaps": 1, "moves": [{"take": {"min": 1, "max": 3}}]}, 40),
    ("moore", {"heaps": 3, "k": 2}, {"heaps": 3, "moves": [{"some": 2}]}, 5),
    ("staircase", {"stairs": 3}, {"heaps": 3, "moves": [{"step": STAIRS, "times": "any"}]}, 4),
    ("chomp", {"rows": 3}, {"heaps": 3, "order": "nonincreasing", "moves": [{"bite": True}]}, 7),
    ("octal", {"code": "0.77"}, {"heaps": 1, "moves": [{"code": "0.77"}]}, 30),
    ("octal", {"code": "0.137"}, {"heaps": 1, "moves": [{"code": "0.137"}]}, 30),
    ("octal", {"code": "4.07"}, {"heaps": 1, "moves": [{"code": "4.07"}]}, 30),
    ("octal", {"code": "0.77"}, {"heaps": 1, "moves": [{"take": [1, 2]}, {"split": 2, "remove": [1, 2]}]}, 30),
    ("hexadecimal", {"code": "0.7F"}, {"heaps": 1, "moves": [{"code": "0.7F"}]}, 20),
    ("lasker", {}, {"heaps": 1, "moves": [{"take": "any"}, {"split": 2}]}, 30),
    ("grundy_game", {}, {"heaps": 1, "moves": [{"split": 2, "unequal": True}]}, 30),
]
IDS = [f"{f}-{i}" for i, (f, *_) in enumerate(FAMILIES)]


def _declared(declaration, name="declared"):
    return declared_game({"name": name, **declaration})


def _option_sets(graph):
    """Each position's options as a set of sorted id tuples (a sum of heaps is unordered)."""
    rows = np.sort(graph.targets, axis=1)
    return [{tuple(r) for r in rows[graph.indptr[i]: graph.indptr[i + 1]].tolist()} for i in range(graph.size)]


@pytest.mark.parametrize("family, params, declaration, bound", FAMILIES, ids=IDS)
def test_same_graph_as_the_family(family, params, declaration, bound):
    builtin, declared = make_game(family, **params), _declared(declaration)
    universe = builtin.universe(bound)
    mine, theirs = build_graph(declared, universe), build_graph(builtin, universe)
    assert _option_sets(mine) == _option_sets(theirs)
    assert mine.edges == theirs.edges  # no option twice
    assert declared.misere == builtin.misere and declared.parts == builtin.parts
    assert set(declared.line_directions or ()) == set(builtin.line_directions or ())  # rays: the solver's fast path
    if family != "staircase":  # the declared staircase's universe is every position of no greater weight
        assert declared.universe(bound) == universe


@pytest.mark.parametrize("family, params, declaration, bound", FAMILIES, ids=IDS)
def test_same_relation_as_the_family(family, params, declaration, bound):
    builtin, declared = make_game(family, **params), _declared(declaration)
    ours, theirs = declared.move_relation(), builtin.move_relation()
    if isinstance(theirs, Steps):  # the same vectors, perhaps listed in another order
        assert isinstance(ours, Steps) and set(ours.vectors) == set(theirs.vectors) and ours.amounts == theirs.amounts
    else:
        assert ours == theirs
    assert declared.period_theorem == builtin.period_theorem
    if ours is not None:
        assert relation_from_record(json.loads(json.dumps(ours.to_record()))) == ours


GAMES = {
    "take13-or-both": {"heaps": 2, "moves": [{"take": {"min": 1, "max": 3}}, {"take": 1, "from": "all"}]},
    "half-or-one": {"heaps": 2, "moves": [{"take": {"up_to": "half"}}, {"take": 1}]},
    "knight": {"heaps": 2, "moves": [{"step": [[2, 1], [1, 2]]}]},
    "queen-range": {"heaps": 2, "misere": True, "moves": [{"take": {"min": 1, "max": 2}, "from": "any"}]},
    "ordered-take": {"heaps": 3, "order": "nonincreasing", "moves": [{"take": "any"}]},
    "split-any-remove": {"heaps": 1, "moves": [{"take": [1]}, {"split": 3, "remove": "any"}]},
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_declared_games_pass_the_public_checks(name):
    game = _declared(GAMES[name], name)
    check_game(game, 5 if game.dims > 1 else 15)
    check_solver(game, 5 if game.dims > 1 else 15)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_moves_agree_with_the_relation(name):
    game = _declared(GAMES[name], name)
    relation = game.move_relation()
    if relation is None:
        assert name in ("ordered-take", "split-any-remove")  # an order kept by take rules; three-heap splits
        return
    points = game.universe(6 if game.dims > 1 else 20).positions()
    n = len(points)
    claimed = relation.allows(np.repeat(points, n, axis=0), np.tile(points, (n, 1))).reshape(n, n)
    for i, p in enumerate(points):
        assert {tuple(o) for o in game.options(p).tolist()} == {tuple(q) for q in points[claimed[i]].tolist()}, p


def test_overlapping_rules_give_each_option_once():
    game = _declared({"heaps": 2, "moves": [{"take": "any"}, {"take": [1, 2]}, {"some": 1}]})
    assert game.moves((2, 1)) == [(1, 1), (0, 1), (2, 0)]


def test_a_spec_file_is_read_and_rebuilds(tmp_path):
    toml = tmp_path / "g.toml"
    toml.write_text('name = "take13-or-both"\nheaps = 2\n[[moves]]\ntake = {min = 1, max = 3}\n'
                    '[[moves]]\ntake = 1\nfrom = "all"\n')
    game = read_game_spec(toml)
    jsonfile = tmp_path / "g.json"
    jsonfile.write_text(json.dumps(game.declaration))
    assert read_game_spec(jsonfile) == game and isinstance(game.move_relation(), AnyOf)
    from games.registry import game_from_spec

    assert game_from_spec(game.spec()) == game


@pytest.mark.parametrize("declaration, field", [
    ({"heaps": 2, "moves": [{"take": "all"}]}, "moves[0].take"),
    ({"heaps": 2, "moves": [{"take": 1, "form": "one"}]}, "moves[0].form"),
    ({"heaps": 2, "moves": [{"take": 1, "from": [[3]]}]}, "moves[0].from[0]"),
    ({"heaps": 2, "moves": [{"take": {"up_to": "__import__('os')"}}]}, "moves[0].take.up_to"),
    ({"heaps": 2, "moves": [{"step": [[1, -1]]}]}, "[1, -1]"),
    ({"heaps": 2, "moves": [{"step": [[1]]}]}, "moves[0].step[0]"),
    ({"heaps": 2, "moves": [{"bite": True}]}, "nonincreasing"),
    ({"heaps": 2, "moves": [{"code": "0.77"}]}, "heaps = 1"),
    ({"heaps": 1, "moves": [{"code": "0.G"}]}, "moves[0].code"),
    ({"heaps": 0, "moves": [{"take": 1}]}, "heaps"),
    ({"heaps": 2, "moves": []}, "moves"),
    ({"heaps": 2, "moves": [{"take": 1, "some": 1}]}, "exactly one"),
    ({"heaps": 2, "misere": "yes", "moves": [{"take": 1}]}, "misere"),
    ({"heaps": 2, "colour": 1, "moves": [{"take": 1}]}, "colour"),
])
def test_bad_declarations_name_their_field(declaration, field):
    with pytest.raises(ValueError) as err:
        _declared(declaration)
    assert field in str(err.value)


def test_bad_files_are_refused(tmp_path):
    for name, text, words in [("a.toml", "name = [", "not valid TOML"), ("a.py", "game = 1", ".toml or .json"),
                              ("b.json", "[" * 50 + "]" * 50, "nests deeper")]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ValueError, match=words):
            read_game_spec(path)
