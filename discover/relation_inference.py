"""A custom game's move relation, inferred from its ``moves()`` on the verification box, for strategy and proof.

``find_rule`` calls ``with_inferred_relation`` first: a game written as a Python ``moves()`` function that states
no relation gets the shortest relation of ``games.symbolic`` that gives exactly the options of ``moves()`` at every
position of the box (``games.infer_relation``), read from the graph ``find_rule`` builds there anyway (one call of
``moves()`` a position).  The strategy and the proof then use that relation, and the proof says what it rests on:
the relation, and the box on which it agrees with ``moves()`` (``discover.proofs.prove``).  Beyond the box
``moves()`` may differ: nothing is ever claimed for ``moves()`` itself there.
"""

from __future__ import annotations

from games import Game
from games.custom import CustomGame
from games.infer_relation import infer_relation
from solvers import build_graph
from solvers.graph_store import graph_options, remember_graph

__all__ = ["with_inferred_relation", "inferred_again", "relation_line", "relation_record"]


def with_inferred_relation(game: Game, bound: int, say=lambda message: None) -> tuple[Game, str | None]:
    """``game`` stating the relation inferred from its ``moves()`` on the box of ``bound``, and None; or ``game``
    unchanged and a one-line note saying why no relation fits.  Any game but a custom one without a relation is
    returned as it is (a relation given by the user wins; a game whose options are sums of heaps states no steps).

    Call it inside ``solvers.graph_store.keep_graphs()``: the graph built on the box serves the inferred game too.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers.graph_store import keep_graphs
    >>> game = custom_game("take134", lambda p: [(p[0] - t,) for t in (1, 3, 4) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     inferred, note = with_inferred_relation(game, 100)
    >>> relation_line(inferred)
    'subtract t·v (t in {1, 3, 4}, every coordinate staying ≥ 0) for v in 1 (inferred: the options of moves() at every position up to 100)'
    """
    if not isinstance(game, CustomGame) or game.move_relation() is not None or game.parts > 1:
        return game, None
    say(f"inferring the move relation of {game!r} from moves() on bound {bound:,}")
    universe = game.universe(bound)
    graph = build_graph(game, universe)
    relation, why = infer_relation(universe.positions(), lambda block: graph_options(graph, universe, block))
    if relation is None:
        return game, (f"the moves of {game!r} fit no relation of the vocabulary (games.symbolic) on bound {bound:,} "
                      f"({why}): strategies and proofs rest on moves() within the bound only")
    inferred = game.with_relation(relation, bound)
    remember_graph(inferred, universe, graph)  # the same moves(): its graph is the inferred game's too
    return inferred, None


def inferred_again(game: Game, bound: int, say=lambda message: None) -> tuple[Game, str | None]:
    """A game whose relation was inferred on a bound below ``bound`` with its relation inferred again on ``bound``
    (``with_inferred_relation``: a larger verification bound may show amounts the smaller did not), and the note
    when none fits there; any other game unchanged, and None.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers.graph_store import keep_graphs
    >>> game = custom_game("take134", lambda p: [(p[0] - t,) for t in (1, 3, 4, 150) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     small, _ = with_inferred_relation(game, 100)
    ...     large, _ = inferred_again(small, 300)
    >>> small.move_relation().amounts, large.move_relation().amounts, large.relation_inferred_on
    ((1, 3, 4), (1, 3, 4, 150), 300)
    """
    inferred_on = getattr(game, "relation_inferred_on", None)
    if not isinstance(game, CustomGame) or inferred_on is None or inferred_on >= bound:
        return game, None
    return with_inferred_relation(game.without_inferred_relation(), bound, say)


def relation_line(game: Game) -> str | None:
    """A custom game's move relation in words and where it comes from, or None (no relation, or not custom)."""
    relation = game.move_relation()
    if not isinstance(game, CustomGame) or relation is None:
        return None
    if game.relation_inferred_on is None:
        return f"{relation.words()} (given with moves(), checked against it by the proof)"
    return f"{relation.words()} (inferred: the options of moves() at every position up to {game.relation_inferred_on:,})"


def relation_record(game: Game) -> dict | None:
    """A custom game's move relation for a JSON record: its words, its ``to_record()``, and whether it was inferred
    (with the bound up to which it gives exactly the options of ``moves()``) or given."""
    relation = game.move_relation()
    if not isinstance(game, CustomGame) or relation is None:
        return None
    return {"words": relation.words(), "relation": relation.to_record(),
            "inferred_on": game.relation_inferred_on, "source": "given" if game.relation_inferred_on is None
            else "inferred from moves()"}
