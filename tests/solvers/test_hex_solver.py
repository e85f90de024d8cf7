"""The Hex solver with virtual connections, checked against brute force and the other solvers.

A wrong "win" is the worst bug a solver can have, so every part is checked on its own: the
fill-in keeps each position's value, every connection H-search reports holds against every
defence inside its carrier, and the solver's values equal the retrograde's and the
proof-number search's wherever both reach.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from games import make_game
from games.hex import hex_connected, hex_geometry
from solvers import solve
from solvers.hex_connections import connections
from solvers.hex_patterns import fill_in, hex_tables, vulnerable
from solvers.hex_solver import HexSolver
from solvers.search import Prover, search


def _won(n, stones, player):
    geo = hex_geometry(n)
    start, goal = (geo[4], geo[5]) if player == 0 else (geo[6], geo[7])
    return bool(hex_connected(np.int64(stones), start, goal, geo))


def brute_value(n, a, b, turn):
    """Negamax over every move, the turn given apart from the stone counts."""
    full = (1 << (n * n)) - 1

    @lru_cache(maxsize=None)
    def value(a, b, turn):
        if _won(n, a, 0) or _won(n, b, 1):
            return 1 if _won(n, (a, b)[turn], turn) else -1
        empty = full & ~(a | b)
        for c in range(n * n):
            bit = 1 << c
            if empty & bit and -value(a | bit if turn == 0 else a, b | bit if turn == 1 else b, 1 - turn) == 1:
                return 1
        return -1

    return value(a, b, turn)


def random_positions(n, count, stones, seed):
    """``count`` positions with ``stones`` stones dealt alternately at random, no player connected."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        cells = rng.permutation(n * n)[:stones]
        a = sum(1 << int(c) for c in cells[0::2])
        b = sum(1 << int(c) for c in cells[1::2])
        if not (_won(n, a, 0) or _won(n, b, 1)):
            out.append((a, b))
    return out


@pytest.mark.parametrize("n, stones, seed", [(3, 2, 0), (3, 4, 1), (4, 6, 2), (4, 8, 3)])
def test_fill_in_keeps_the_value_for_either_player_to_move(n, stones, seed):
    geometry, neighbours, ring, sides = hex_tables(n)
    filled = 0
    for a, b in random_positions(n, 12, stones, seed):
        fa, fb, got_a, got_b = fill_in(np.int64(a), np.int64(b), geometry, neighbours, ring, sides)
        fa, fb = int(fa), int(fb)
        assert fa & a == a and fb & b == b and not fa & fb and (fa ^ a) == got_a and (fb ^ b) == got_b
        filled += (fa ^ a).bit_count() + (fb ^ b).bit_count()
        for turn in (0, 1):
            assert brute_value(n, fa, fb, turn) == brute_value(n, a, b, turn), (a, b, turn)
    assert filled > 0  # the test saw fill-in at work


def test_fill_in_known_patterns():
    geometry, neighbours, ring, sides = hex_tables(3)
    # the second player on 3 and 5 (row 1's ends): cell 4, the centre, keeps its use, nothing is filled
    assert fill_in(np.int64(0), np.int64(0), geometry, neighbours, ring, sides)[2:] == (0, 0)
    # first player on 1 and 4 (top centre, centre): cell 0 and 2 are dead or captured
    a, b, got_a, got_b = fill_in(np.int64(0b10010), np.int64(0), geometry, neighbours, ring, sides)
    assert got_a | got_b  # the first player's chain reaches the top: its neighbours there are filled


def _holds(n, xs, ys, player, ends, carrier, x_first):
    """Whether the player joins the two ends inside ``carrier`` whoever of the two the game starts with (every
    empty cell outside the carrier given to the opponent); an end is ("cell", c), ("chain", c) or a side mask."""
    stones, masks = xs, []
    for end in ends:
        if isinstance(end, tuple):
            stones |= 1 << end[1]
            masks.append(1 << end[1])
        else:
            masks.append(end)
    geo = hex_geometry(n)
    cells = [c for c in range(n * n) if carrier >> c & 1]

    @lru_cache(maxsize=None)
    def wins(mine, theirs, x_moves):
        if hex_connected(np.int64(stones | mine), masks[0], masks[1], geo):
            return True
        free = [c for c in cells if not (mine | theirs) >> c & 1]
        if x_moves:
            return any(wins(mine | 1 << c, theirs, False) for c in free)
        return all(wins(mine, theirs | 1 << c, True) for c in free)

    return wins(0, 0, x_first)


@pytest.mark.parametrize("n, stones, seed", [(3, 0, 0), (3, 2, 4), (4, 0, 0), (4, 4, 5), (4, 7, 6)])
def test_every_reported_connection_holds_against_every_defence(n, stones, seed):
    geometry, _, _, sides = hex_tables(n)
    checked = 0
    for a, b in random_positions(n, 3, stones, seed):
        for player in (0, 1):
            xs, ys = (a, b) if player == 0 else (b, a)
            vc = connections(n, a, b, player)
            for kind, pairs in vc.items():
                for (u, v), carriers in pairs.items():
                    ends = [int(sides[player, "AB".index(e)]) if isinstance(e, str) else
                            (e if isinstance(e, tuple) else ("cell", e)) for e in (u, v)]
                    for carrier in carriers:
                        if carrier.bit_count() <= 9:
                            assert _holds(n, xs, ys, player, ends, carrier, kind == "semi"), (a, b, player, kind, u, v)
                            checked += 1
    assert checked > 50


def test_an_open_position_returns_its_must_play_region_and_its_semi_connections():
    from solvers.hex_solver import evaluate

    solver = HexSolver(5)
    seen = 0
    for a, b in random_positions(5, 40, 4, 12):
        turn = a.bit_count() - b.bit_count()
        status, fa, fb, moves, proof, filled = evaluate(np.int64(a), np.int64(b), turn, solver.geometry,
                                                        solver.neighbours, solver.ring, solver.sides, solver.centre,
                                                        solver.work, False)
        if status or not proof:
            continue
        must = sum(1 << int(c) for c in moves)
        empty = ((1 << 25) - 1) & ~(int(fa) | int(fb))
        assert must & proof == must and proof & empty == proof  # the region lies in the semis' cells
        opponent = connections(5, int(fa), int(fb), 1 - turn)["semi"][("A", "B")]
        common = empty
        for carrier in opponent:
            common &= carrier
        assert common == must
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("n, stones, seed", [(3, 2, 20), (4, 4, 21), (4, 6, 22), (4, 8, 23)])
def test_a_vulnerable_move_is_no_better_than_the_killers_stone_and_never_the_only_win(n, stones, seed):
    geo, neighbours, ring, sides = hex_tables(n)
    pruned_any = 0
    for a, b in random_positions(n, 30, stones, seed):
        turn = a.bit_count() - b.bit_count()
        a, b = (int(x) for x in fill_in(np.int64(a), np.int64(b), geo, neighbours, ring, sides)[:2])
        if _won(n, a, 0) or _won(n, b, 1):
            continue
        xs, ys = (a, b) if turn == 0 else (b, a)
        empty = int(geo[1]) & ~(a | b)
        pruned, _ = (int(x) for x in vulnerable(np.int64(xs), np.int64(ys), np.int64(empty), geo, neighbours,
                                                ring[turn], sides[turn, 0], sides[turn, 1]))
        wins = {c for c in range(n * n) if empty >> c & 1 and
                brute_value(n, a | (1 << c if turn == 0 else 0), b | (1 << c if turn == 1 else 0), 1 - turn) == -1}
        assert not wins or any(not pruned >> c & 1 for c in wins), (a, b, turn)
        for c in range(n * n):
            if not pruned >> c & 1:
                continue
            pruned_any += 1
            for k in range(n * n):  # some empty neighbour kills c: the mover's stone there is then no better
                if not (empty & int(neighbours[c])) >> k & 1:
                    continue
                mine, theirs = (1 << c, 1 << k) if turn == 0 else (1 << k, 1 << c)
                as_mine = brute_value(n, a | mine, b | theirs, turn)
                both = (1 << c | 1 << k)
                as_theirs = brute_value(n, a | (0 if turn == 0 else both), b | (both if turn == 0 else 0), turn)
                if as_mine <= as_theirs:
                    break
            else:
                raise AssertionError(f"no killer of {c} in {(a, b, turn)}")
    assert pruned_any > 5


def test_connections_examples():
    vc = connections(3, 0, 0, 0)
    assert ("A", "B") not in vc["full"]  # moving second, the first player cannot join on 3 x 3
    assert vc["semi"][("A", "B")] == [0b11010110]  # the centre with its two bridges to the sides
    with pytest.raises(ValueError, match="player must be 0"):
        connections(3, 0, 0, 2)
    with pytest.raises(ValueError, match="joined the sides"):
        connections(2, 0b101, 0, 0)


def test_solver_agrees_with_the_retrograde_on_every_3x3_position():
    game = make_game("hex", n=3)
    solution = solve(game)
    positions = solution.universe.positions()
    outcome = solution.outcome(positions)
    solver = HexSolver(3)
    for (a, b), value in zip(positions.tolist(), outcome.tolist()):
        if game.moves((a, b)):
            assert solver.value(a, b) == value, (a, b)


@pytest.mark.slow
def test_solver_agrees_with_the_retrograde_on_a_sample_of_4x4():
    game = make_game("hex", n=4)
    solution = solve(game)
    positions = solution.universe.positions()
    rng = np.random.default_rng(7)
    sample = positions[rng.choice(len(positions), 400, replace=False)]
    solver = HexSolver(4)
    checked = 0
    for (a, b), value in zip(sample.tolist(), solution.outcome(sample).tolist()):
        if game.moves((a, b)):
            assert solver.value(a, b) == value, (a, b)
            checked += 1
    assert checked > 300


def test_solver_agrees_with_the_search_on_5x5_middle_games():
    game = make_game("hex", n=5)
    prover, solver = Prover(game), HexSolver(5)
    for stones in (6, 9, 12):
        for a, b in random_positions(5, 5, stones, stones):
            assert solver.value(a, b) == prover.value((a, b)), (a, b)


def _settled(game, position, nodes):
    """The search's value of ``position`` within ``nodes`` positions, or None."""
    try:
        return search(game, position, moves=False, max_nodes=nodes).value
    except RuntimeError:
        return None


def test_solver_agrees_with_the_search_on_late_6x6_positions():
    game, solver = make_game("hex", n=6), HexSolver(6)
    compared = 0
    for stones in (20, 18):
        late = [p for p in random_positions(6, 40, stones, stones) if _settled(game, p, 1) is None][:4]
        for a, b in late:
            value = _settled(game, (a, b), 100_000)
            if value is not None:
                assert solver.value(a, b) == value, (a, b)
                compared += 1
    assert compared >= 6


@pytest.mark.parametrize("n, stones, seed, count", [(3, 1, 8, 8), (3, 3, 9, 8), (4, 2, 10, 16), (4, 3, 12, 16),
                                                    (4, 6, 11, 16)])
def test_proof_sets_hold_when_the_loser_owns_every_other_cell(n, stones, seed, count):
    solver = HexSolver(n)
    full = (1 << (n * n)) - 1
    for a, b in random_positions(n, count, stones, seed):
        turn = (a.bit_count() != b.bit_count())
        value, proof = solver.solve(a, b)
        loser = turn if value == -1 else 1 - turn
        outside = full & ~(a | b | proof)
        a2, b2 = (a | outside, b) if loser == 0 else (a, b | outside)
        assert brute_value(n, a2, b2, turn) == value == brute_value(n, a, b, turn), (a, b, proof)


def test_openings_of_4x4_and_5x5():
    for n, winning in ((4, {(r, 3 - r) for r in range(4)}),
                       (5, {(0, 4), (1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2),
                            (3, 3), (4, 0)})):
        solver = HexSolver(n)
        found = {divmod(c, n) for c in range(n * n) if solver.value(1 << c, 0) == -1}
        assert found == winning


def test_bad_input():
    solver = HexSolver(3)
    with pytest.raises(ValueError, match="overlap"):
        solver.value(1, 1)
    with pytest.raises(ValueError, match="not implied"):
        solver.value(0b111, 0)
    with pytest.raises(ValueError, match="bitboard"):
        solver.value(1 << 9, 0)
    with pytest.raises(ValueError, match="to_move"):
        solver.value(0, 0, to_move=2)
    with pytest.raises(ValueError, match="full_cap"):
        HexSolver(3, full_cap=0)
    with pytest.raises(ValueError, match="n in"):
        HexSolver(8)


def test_an_opening_past_its_budget_is_unsettled_never_guessed(monkeypatch):
    """With a tiny budget some 6 x 6 openings stay open: shown as '?', counted apart, never compared."""
    import solvers.openings as openings_module
    from discover.app.cli.solve import _openings_record
    from solvers.hex_published import published_openings

    monkeypatch.setattr(openings_module, "HEX_OPENING_POSITIONS", 300)
    result = openings_module.openings(make_game("hex", n=6))
    record = _openings_record(result)
    settled = np.isfinite(result.values[0])
    assert 0 < result.open_moves == record["unsettled_first_moves"] == (~settled).sum() < 36
    assert result.text().count("?") == result.open_moves and "D" not in result.text()
    assert (result.values[0][settled] == published_openings(6)[settled]).all()
    assert record["published_agree"] == settled.sum() and record["published_differ"] == []
    assert all(p["value"] is None for p in record["proofs"] if not settled[p["row"], p["column"]])


def test_an_opening_left_open_takes_its_settled_twins_value(monkeypatch):
    """The 180-degree twin of an opening has its value: an open opening whose twin settled later is settled."""
    from solvers.hex_solver import hex_openings

    budgets = iter([1] + [None] * 35)  # the first opening, (0, 0), gets one position; its twin (5, 5) all it needs
    solver = HexSolver(6)
    plain = solver.timed_value
    raw = []
    monkeypatch.setattr(solver, "timed_value", lambda f, s, t, max_nodes: raw.append(plain(f, s, t, next(budgets)))
                        or raw[-1])
    values, nodes, _ = hex_openings(6, solver=solver)
    assert raw[0][0] == 0 and raw[-1][0] != 0  # (0, 0) left open, (5, 5) settled
    assert values[0, 0] == values[5, 5] == -1
