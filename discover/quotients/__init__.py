"""Misère quotients: the rule of sums of components (heaps, boards) in misère play.

One idea per module:

- ``components``: the interface a set of components offers (ids, options, outcomes of sums) and ``HeapComponents``;
- ``monoid``: ``BipartiteMonoid``, a commutative monoid with a P-portion, and its reduction;
- ``proof``: the proof that a candidate is the quotient, by exploring (element, transition set) states;
- ``construct``: ``QuotientBuilder``, Plambeck and Siegel's construction component by component;
- ``trial``: the growth step's trial monoid (a known monoid times cyclic ones), marked by first sums and reduced;
- ``labels``: pairs labelled by hashing, the step of the reduction's partition refinement (numba);
- ``tables``: a commutative monoid's table from its generators' actions (numba);
- ``kernels``: the construction's numba kernels made ready before it is timed, and what that cost;
- ``presentation``: generators, relations and element names;
- ``period``: the heap-to-element period and the periodicity theorem for misère quotients of octal games;
- ``rule``: ``QuotientRule`` (P iff the product lies in the P-portion) and ``quotient_rule``;
- ``plain``: the plain construction from the solver's outcomes (baseline and independent check);
- ``check``: the rule's predictions against the solver on every sum of up to k components;
- ``brute``: a heap game's rule on every sum of at most T tokens, and sums classed by their outcomes;
- ``discovery``: ``discover_quotient``, a heap game's quotient heap by heap until its period is proved, checked;
- ``boards``: ``NotaktoBoards``, the live Notakto boards up to symmetry as components;
- ``board_discovery``: ``discover_board_quotient``, Notakto's rule over boards, proved and checked;
- ``published``: Plambeck and Whitehead's Notakto quotient and ``compare_published``;
- ``kinds``: ``is_misere_heap_game`` and ``is_board_sum_game``, which games have a quotient for a rule.

The names below are imported from their modules when first used: asking whether a game is a quotient game
(``kinds``) imports none of the construction.

Examples
--------
>>> from games import make_game
>>> from discover.quotients import HeapComponents, quotient_rule
>>> kayles = HeapComponents(make_game("octal", code="0.77", misere=True), heaps=4)
>>> rule = quotient_rule(kayles, removal_limit=2)
>>> rule.monoid.order, rule.is_p((1,)), rule.is_p((2, 2))
(6, True, True)
"""

import importlib

# a function named like its module is bound here at once: a later import of the module would otherwise put the
# module, not the function, under its name (both modules are light: numpy only)
from discover.quotients.presentation import Presentation, presentation

__all__ = ["HeapComponents", "BipartiteMonoid", "QuotientBuilder", "Presentation", "presentation", "HeapPeriod",
           "heap_period", "QuotientRule", "quotient_rule", "PlainQuotient", "plain_quotient", "SumCheck",
           "check_sums", "TokenCheck", "check_token_sums", "OutcomeClasses", "outcome_classes", "QuotientDiscovery",
           "discover_quotient", "is_misere_heap_game", "NotaktoBoards",
           "BoardQuotientDiscovery", "discover_board_quotient", "is_board_sum_game", "PLAMBECK_WHITEHEAD", "Comparison",
           "compare_published"]

_HOMES = {  # each name's module, imported when the name is first used
    "BoardQuotientDiscovery": "board_discovery", "discover_board_quotient": "board_discovery",
    "is_board_sum_game": "kinds", "is_misere_heap_game": "kinds",
    "NotaktoBoards": "boards",
    "OutcomeClasses": "brute", "TokenCheck": "brute", "check_token_sums": "brute", "outcome_classes": "brute",
    "SumCheck": "check", "check_sums": "check",
    "HeapComponents": "components",
    "QuotientBuilder": "construct",
    "QuotientDiscovery": "discovery", "discover_quotient": "discovery",
    "BipartiteMonoid": "monoid",
    "HeapPeriod": "period", "heap_period": "period",
    "PlainQuotient": "plain", "plain_quotient": "plain",
    "PLAMBECK_WHITEHEAD": "published", "Comparison": "published", "compare_published": "published",
    "QuotientRule": "rule", "quotient_rule": "rule",
}


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'discover.quotients' has no attribute {name!r}")
    return getattr(importlib.import_module(f"discover.quotients.{_HOMES[name]}"), name)


def __dir__():
    return sorted(list(globals()) + __all__)
