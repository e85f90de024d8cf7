"""Misère play of heap games and their misère quotients, checked against brute force and the sum solver."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from discover.quotients import (BipartiteMonoid, HeapComponents, QuotientBuilder, QuotientRule, check_sums,
                                plain_quotient, quotient_rule)
from games import make_game
from solvers import solve
from solvers.heap_sums import HeapSums

MISERE_GAMES = [("octal", {"code": "0.77"}), ("octal", {"code": "0.07"}), ("octal", {"code": "4.07"}),
                ("hexadecimal", {"code": "0.7F"}), ("subtraction", {"subtract": (1, 3, 4)}), ("lasker", {}),
                ("grundy_game", {})]


def _brute_force(game):
    """A tiny recursive solver of sums (sorted tuples), independent of solvers.heap_sums: True when P."""

    @functools.lru_cache(maxsize=None)
    def is_p(position: tuple) -> bool:
        moves = []
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1:]
            for option in game.moves((h,)):
                moves.append(tuple(sorted(rest + tuple(x for x in option if x), reverse=True)))
        if not moves:
            return not game.misere  # no move: the player to move loses in normal play, wins in misère play
        return not any(is_p(m) for m in moves)

    return is_p


def _sums(largest: int, parts: int):
    return [s for k in range(1, parts + 1) for s in itertools.combinations_with_replacement(range(1, largest + 1), k)]


@pytest.mark.parametrize("name,params", MISERE_GAMES)
def test_sum_solver_matches_brute_force_in_misere_play(name, params):
    game = make_game(name, misere=True, **params)
    sums = _sums(6, 3)
    brute = _brute_force(game)
    expected = [-1 if brute(tuple(sorted(s, reverse=True))) else 1 for s in sums]
    assert HeapSums(game).outcome(sums).tolist() == expected


def test_misere_parameter_changes_single_heaps_and_is_recorded():
    normal, misere = make_game("octal", code="0.77"), make_game("octal", code="0.77", misere=True)
    assert normal.spec()["params"] == {"code": "0.77", "misere": False} and normal.slug() == "octal-code0.77"
    assert misere.spec()["params"] == {"code": "0.77", "misere": True} and misere.slug() == "octal-code0.77-misere"
    brute = _brute_force(misere)
    outcome = solve(misere, bound=12).outcome([[n] for n in range(13)])
    assert outcome.tolist() == [-1 if brute((n,) if n else ()) else 1 for n in range(13)]
    assert outcome[0] == 1 and solve(normal, bound=3).outcome([[0]])[0] == -1


@pytest.mark.parametrize("name", ["octal", "subtraction", "lasker", "grundy_game", "hexadecimal"])
def test_misere_must_be_a_bool(name):
    with pytest.raises(ValueError, match="misere must be True or False"):
        make_game(name, misere="yes")


def test_grundy_engine_refuses_misere_games():
    from solvers.take_and_break import grundy_sequence

    with pytest.raises(ValueError, match="misère"):
        grundy_sequence(make_game("octal", code="0.77", misere=True), heaps=100)


def _nim(largest: int) -> HeapComponents:
    """Nim heaps 1 .. largest: octal 0.333... (remove 1, 2 or 3 tokens, leaving at most one heap)."""
    return HeapComponents(make_game("octal", code="0." + "3" * largest, misere=True), heaps=largest)


def test_misere_nim_heaps_of_one_give_t2():
    rule = quotient_rule(_nim(1))
    assert rule.monoid.order == 2 and rule.p_names() == ["a"]
    assert rule.presentation.text() == "⟨a | a² = 1⟩"


def test_misere_nim_heaps_to_three_give_the_six_element_tame_quotient():
    # sums of *1, *2, *3: a = *1, b = *2, *3 = ab; P iff (no heap above 1 and an odd count) or (nim-sum 0 and a
    # heap above 1): P = {a, b^2}
    rule = quotient_rule(_nim(3))
    assert rule.monoid.order == 6
    assert rule.presentation.text() == "⟨a, b | a² = 1, b³ = b⟩"
    assert sorted(rule.p_names()) == ["a", "b²"]
    assert rule.element[3] == rule.product((1, 2))


@pytest.mark.parametrize("code,largest,parts", [("0.77", 10, 3), ("0.07", 10, 3), ("0.77", 6, 4), ("0.07", 6, 4)])
def test_predictions_agree_with_the_sum_solver(code, largest, parts):
    components = HeapComponents(make_game("octal", code=code, misere=True), heaps=largest)
    rule = quotient_rule(components)
    result = check_sums(rule, components, components.ids(), parts)
    assert result.passed, result.line()
    assert rule.monoid.is_reduced() and rule.monoid.is_associative()


def _partitions(total: int):
    """Every sum of heaps (a partition, largest heap first) with ``total`` tokens."""
    def parts(n, most):
        if n == 0:
            yield ()
            return
        for first in range(min(n, most), 0, -1):
            yield from ((first, *rest) for rest in parts(n - first, first))
    return parts(total, total)


@pytest.mark.parametrize("code", ["0.77", "0.07"])
def test_every_sum_of_few_tokens_agrees_with_brute_force(code):
    """Any number of heaps (up to 20 heaps of one), every sum of at most 20 tokens, by the plain recursion."""
    game = make_game("octal", code=code, misere=True)
    rule = quotient_rule(HeapComponents(game, heaps=20))
    brute = _brute_force(game)
    sums = [p for total in range(21) for p in _partitions(total)]
    assert len(sums) == 2714
    assert [rule.is_p(s) for s in sums] == [brute(s) for s in sums]


@pytest.mark.parametrize("name,params", [("subtraction", {"subtract": (1, 3, 4)}), ("lasker", {}),
                                         ("grundy_game", {}), ("hexadecimal", {"code": "0.7F"})])
def test_other_heap_families_agree_with_the_sum_solver(name, params):
    components = HeapComponents(make_game(name, misere=True, **params), heaps=7)
    assert check_sums(quotient_rule(components), components, components.ids(), 3).passed


def test_plain_construction_is_a_coarsening_of_the_proved_quotient():
    components = HeapComponents(make_game("octal", code="0.07", misere=True), heaps=8)
    rule = quotient_rule(components)
    plain = plain_quotient(components, components.ids(), 2)
    assert plain.consistent_with(rule) and plain.order <= rule.monoid.order


def test_winning_moves_lead_to_p_positions():
    components = HeapComponents(make_game("octal", code="0.77", misere=True), heaps=8)
    rule = quotient_rule(components)
    for s in _sums(8, 2):
        move = rule.winning_move(s, components.options)
        truth = components.outcome([s])[0]
        assert (move is None) == (truth == -1)
        if move is not None:
            i, replacement = move
            after = s[:i] + replacement + s[i + 1:]
            assert components.outcome([after])[0] == -1


class _Planted:
    """Heaps of misère "take one" (T2), except that heap ``odd`` has the options of a nim heap of 2."""

    def __init__(self, heaps: int, odd: int):
        self.heaps, self.odd = heaps, odd

    def ids(self):
        return list(range(1, self.heaps + 1))

    def options(self, c):
        if c == self.odd:
            return [(), (1,)]
        return [(c - 1,)] if c > 1 else [()]


def test_a_quotient_of_too_few_components_is_never_called_complete():
    short = quotient_rule(_Planted(6, 7))  # the planted heap 7 is beyond the heaps computed
    assert short.monoid.order == 2 and short.period is not None and not short.period.proved
    with pytest.raises(ValueError, match="beyond the components computed"):
        short.element_of(7)
    full = quotient_rule(_Planted(8, 7))
    assert full.monoid.order > 2  # heap 7's element is new: the short quotient was not the quotient
    kayles = quotient_rule(HeapComponents(make_game("octal", code="0.77", misere=True), heaps=4), removal_limit=2)
    assert kayles.period is None or not kayles.period.proved
    with pytest.raises(ValueError, match="no period of the heap-to-element map is proved"):
        kayles.is_p((5,))


def test_a_proved_period_decides_heaps_beyond_those_computed():
    # misère "take 1 or 2" (octal 0.33): t = 2; the theorem proves the period once enough heaps are computed
    components = HeapComponents(make_game("subtraction", subtract=(1, 2), misere=True), heaps=20)
    rule = quotient_rule(components, removal_limit=2)
    assert rule.period is not None and rule.period.proved
    big = (101, 57, 3)
    truth = HeapSums(make_game("subtraction", subtract=(1, 2), misere=True)).outcome([big])[0]
    assert rule.outcome([big])[0] == truth


def test_rule_json_round_trip_and_hostile_input():
    components = HeapComponents(make_game("octal", code="0.07", misere=True), heaps=8)
    rule = quotient_rule(components, game=components.game.spec())
    again = QuotientRule.from_json(rule.to_json())
    assert again.monoid.order == rule.monoid.order and again.element == rule.element
    sums = _sums(8, 2)
    assert again.outcome(sums).tolist() == rule.outcome(sums).tolist()
    record = rule.to_record()
    assert len(record["actions"]) == len(record["generators"]) < record["order"] == rule.monoid.order
    actions, order = record["actions"], record["order"]
    shifted = [[(x + 1) % order for x in actions[0]]] + actions[1:]  # its identity goes elsewhere
    swapped = [actions[0][::-1]] + actions[1:]
    for bad, why in (({**record, "p_portion": [10 ** 6]}, "below"), ({**record, "extra": 1}, "extra"),
                     ({**record, "components": [[1, -1]]}, "component"), ({**record, "components": [[True, 0]]},
                                                                           "component"),
                     ({**record, "kind": "formula"}, "kind"), ({**record, "order": order + 1}, "one action"),
                     ({**record, "actions": actions[:-1]}, "one action"), ({**record, "actions": shifted}, "identity"),
                     ({**record, "actions": swapped}, "identity|commute"),
                     ({**record, "generators": [0] * len(actions), "actions": [list(range(order))] * len(actions)},
                      "reach"),
                     ({**record, "order": 10 ** 9}, "above"),
                     ({k: v for k, v in record.items() if k not in ("order", "generators", "actions")}
                      | {"table": [[0, 1], [1]]}, "square"),
                     ({k: v for k, v in record.items() if k not in ("order", "generators", "actions")}
                      | {"table": [[0, 1], [0, 1]], "p_portion": [1]}, "identity"),
                     ({k: v for k, v in record.items() if k not in ("order", "generators", "actions")}
                      | {"table": [[0, 1], [1, 2 ** 32]], "p_portion": [1]}, "elements 0 .. order - 1")):  # 2^32
                     # would wrap round to 0 as int32, making the two-element group
        with pytest.raises(ValueError, match=why):
            QuotientRule.from_json(bad)
    with pytest.raises(ValueError):
        QuotientRule.from_json('{"kind": "misere_quotient", "order": NaN}')


def test_a_rule_in_the_earlier_form_with_its_whole_table_still_reads_back():
    rule = quotient_rule(_nim(3))
    record = {k: v for k, v in rule.to_record().items() if k not in ("order", "generators", "actions")}
    again = QuotientRule.from_json({**record, "table": rule.monoid.table.tolist()})
    assert (again.monoid.table == rule.monoid.table).all() and again.element == rule.element


def test_a_record_holds_a_quotient_past_the_old_4096_elements_in_its_generators_actions():
    """The cyclic group of order 4,100 (heap 1 its generator): the table is 16.8 million numbers, the record's one
    action 4,100; the table rebuilt from it is the group's."""
    n = 4100
    table = np.add.outer(np.arange(n), np.arange(n)) % n
    rule = QuotientRule(BipartiteMonoid(table, np.arange(n) == 1), {1: 1, 2: 2})
    record = rule.to_record()
    assert record["generators"] == [1] and record["actions"] == [((np.arange(n) + 1) % n).tolist()]
    again = QuotientRule.from_json(rule.to_json())
    assert (again.monoid.table == table).all() and again.element == rule.element


def test_rule_text_latex_and_mathml_show_the_presentation():
    rule = quotient_rule(_nim(3))
    assert "⟨a, b | a² = 1, b³ = b⟩" in rule.text()
    assert r"\langle a, b \mid a^{2} = 1, b^{3} = b \rangle" in rule.latex()
    assert rule.mathml().startswith("<math>") and "<msup><mi>b</mi><mn>3</mn></msup>" in rule.mathml()


def test_builder_refuses_components_out_of_order():
    builder = QuotientBuilder({1: [()], 2: [(1,), (3,)]}.__getitem__)
    builder.add(1)
    with pytest.raises(ValueError, match="not added yet"):
        builder.add(2)


def test_sum_solver_refuses_bad_heaps_and_large_questions():
    sums = HeapSums(make_game("octal", code="0.77", misere=True), max_sums=50)
    with pytest.raises(ValueError, match="heap sizes must be integers >= 0"):
        sums.outcome([(3, -1)])
    with pytest.raises(ValueError, match="exceed 50 positions"):
        sums.outcome([(20, 20, 20)])
    assert np.array_equal(sums.outcome([(0, 0)]), [1])
