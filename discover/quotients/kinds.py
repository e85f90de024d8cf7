"""Which games have a misère quotient for a rule: what the game declares (``Game.capabilities``), read for the
quotients' own checks of their arguments (``find_rule`` reads the capabilities in ``discover.road``).

Kept apart from the construction (``discover.quotients.discovery``, ``board_discovery``) so that asking costs no
import of it: ``discover nim heaps=3`` learns here that Nim in normal play is no quotient game and goes on.
"""

from __future__ import annotations

from games import Game

__all__ = ["is_misere_heap_game", "is_board_sum_game"]


def is_misere_heap_game(game) -> bool:
    """True for an impartial one-heap game played misère whose options are sums of heaps (its rule is a quotient).

    Examples
    --------
    >>> from games import make_game
    >>> is_misere_heap_game(make_game("octal", code="0.77", misere=True)), is_misere_heap_game(make_game("nim"))
    (True, False)
    """
    return isinstance(game, Game) and game.capabilities().misere_heaps


def is_board_sum_game(game) -> bool:
    """True for Notakto: a position is the misère sum of its boards, so its rule is a misère quotient.

    Examples
    --------
    >>> from games import make_game
    >>> is_board_sum_game(make_game("notakto", n=3, boards=2)), is_board_sum_game(make_game("hex", n=3))
    (True, False)
    """
    return isinstance(game, Game) and game.capabilities().board_sums
