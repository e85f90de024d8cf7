"""Budgets and sizes checked before the work: deadlines read inside the quotient construction, Notakto's boards,
the sample searches, the graph a solve builds and find_rule's table growth (a passed deadline, no clock
measured); requests that would not fit refused with their size before allocating."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from cgbase.deadline import Deadline, OutOfTime, current, within
from discover.quotients import construct
from discover.quotients.board_discovery import sample_check
from discover.quotients.boards import NotaktoBoards
from discover.quotients.components import MAX_HEAPS
from discover.quotients.construct import QuotientBuilder
from discover.quotients.discovery import discover_quotient
from discover.quotients.rule import quotient_rule
from games import custom_game, make_game
from solvers import solve

NIM = {1: [()], 2: [(), (1,)], 3: [(), (1,), (2,)]}  # misère Nim heaps 1, 2, 3


def take_any():
    """One heap, take any number: heap n has n options."""
    return custom_game("take_any", lambda p: [(m,) for m in range(p[0])], dims=1)


def test_a_deadline_within_a_block_is_the_earlier_one_and_ends_with_it():
    with within(Deadline(60)):
        with within(Deadline(1000)):
            assert current().seconds == 60
        assert current().seconds == 60
    assert current().seconds == float("inf") and not current().passed()


def test_a_passed_deadline_stops_the_construction_and_keeps_the_quotient_before():
    builder = QuotientBuilder(NIM.__getitem__)
    builder.add(1)
    builder.deadline = Deadline(0)
    with pytest.raises(OutOfTime, match="budget ran out"):
        builder.add(2)
    assert builder.ids == [1] and builder.monoid.order == 2 and 2 not in builder.element


def test_a_quotient_past_its_largest_order_is_refused_before_its_table(monkeypatch):
    monkeypatch.setattr(construct, "MAX_ORDER", 2)
    builder = QuotientBuilder(NIM.__getitem__)
    builder.add(1)
    with pytest.raises(ValueError, match="reduces to 6 elements, more than the 2"):
        builder.add(2)
    assert builder.ids == [1] and builder.monoid.order == 2


def test_the_quotient_discovery_stops_at_its_deadline():
    with pytest.raises(ValueError, match="no heap was added: heap 1, where the 1e-09-second budget ran out"):
        discover_quotient(make_game("octal", code="0.77", misere=True), seconds=1e-9, checks=())


def test_heaps_past_the_limit_are_refused_with_the_size():
    with pytest.raises(ValueError, match=f"heaps=1,000,000,000,000 is more than the {MAX_HEAPS:,}.*GiB"):
        discover_quotient(make_game("octal", code="0.77", misere=True), heaps=10**12)


def test_listing_large_boards_reads_the_deadline():
    with pytest.raises(OutOfTime, match="listing the live 7 x 7 boards"):
        NotaktoBoards(7, deadline=Deadline(0))


def test_the_sample_search_reads_the_deadline():
    three = NotaktoBoards(3)
    with pytest.raises(OutOfTime, match="the search of a sum of 3 boards"):
        sample_check(quotient_rule(three), three, three.ids(), 3, size=5, deadline=Deadline(0))


@pytest.mark.parametrize("game", [take_any(), make_game("subtraction", subtract=(1, 2))], ids=["python", "kernel"])
def test_a_solve_reads_the_deadline_of_its_block(game):
    with within(Deadline(0)), pytest.raises(OutOfTime, match="the graph of"):
        solve(game, bound=50)
    assert solve(game, bound=50).outcome_table.size == 51  # outside the block: no deadline


def test_the_table_growth_stops_at_its_deadline(monkeypatch):
    from discover import period_growth

    monkeypatch.setattr(period_growth, "GROWTH_SECONDS", 0.0)
    seen = []
    assert period_growth.settled_bound(take_any(), 30, progress=seen.append) is None
    assert "no period settled within 0 s" in seen[-1]


def test_padded_options_that_would_not_fit_are_refused_with_their_size(monkeypatch):
    monkeypatch.setattr("cgbase.memory.memory_limit", lambda: 1 << 20)
    with pytest.raises(ValueError, match=r"options of 200 positions .* padded to the 1,000 .*ask for fewer"):
        take_any().option_block(np.full((200, 1), 1000))
    with pytest.raises(ValueError, match=r"options of 200 positions .*ask for fewer"):
        make_game("subtraction", subtract=tuple(range(1, 1001))).option_block(np.full((200, 1), 1000))


def test_a_strategy_over_moves_reads_options_a_few_positions_at_a_time(monkeypatch):
    """Positions with many options each: one position a call (the old code asked for all, padded, at once)."""
    from discover.expr.nodes import BitXor
    from discover.rule import Rule
    from discover.strategy import HEAP, Branch, MovesOf, Strategy

    game = custom_game("nim2", lambda p: [(v, p[1]) for v in range(p[0])] + [(p[0], v) for v in range(p[1])], 2)
    calls = []
    asked = game.option_rows
    monkeypatch.setattr(game, "option_rows", lambda positions: calls.append(len(positions)) or asked(positions))
    relation = MovesOf(game)
    monkeypatch.setattr(relation, "BLOCK_OPTIONS", 64)
    s = sp.Symbol("xor_all")
    strategy = Strategy(Rule(sp.Eq(s, 0), ("a", "b")), relation, [Branch((BitXor(HEAP, s),), per_heap=True)])
    positions = np.array([[300, 200], [250, 290], [300, 200], [7, 9]])
    moves = strategy.moves(positions)
    assert (np.bitwise_xor.reduce(moves, axis=1) == 0).all() and (moves <= positions).all()
    assert calls and max(calls) == 1
    assert relation.allows(np.array([[5, 5], [5, 5]]), np.array([[3, 5], [5, 6]])).tolist() == [True, False]
