"""Misère quotients: the rule of sums of components (heaps, boards) in misère play.

One idea per module:

- ``components``: the interface a set of components offers (ids, options, outcomes of sums) and ``HeapComponents``;
- ``monoid``: ``BipartiteMonoid``, a commutative monoid with a P-portion, and its reduction;
- ``proof``: the proof that a candidate is the quotient, by exploring (element, transition set) states;
- ``construct``: ``QuotientBuilder``, Plambeck and Siegel's construction component by component;
- ``presentation``: generators, relations and element names;
- ``period``: the heap-to-element period and the periodicity theorem for misère quotients of octal games;
- ``rule``: ``QuotientRule`` (P iff the product lies in the P-portion) and ``quotient_rule``;
- ``plain``: the plain construction from the solver's outcomes (baseline and independent check);
- ``check``: the rule's predictions against the solver on every sum of up to k components;
- ``brute``: a heap game's rule on every sum of at most T tokens, and sums classed by their outcomes;
- ``discovery``: ``discover_quotient``, a heap game's quotient heap by heap until its period is proved, checked;
- ``boards``: ``NotaktoBoards``, the live Notakto boards up to symmetry as components;
- ``board_discovery``: ``discover_board_quotient``, Notakto's rule over boards, proved and checked;
- ``published``: Plambeck and Whitehead's Notakto quotient and ``compare_published``.

Examples
--------
>>> from games import make_game
>>> kayles = HeapComponents(make_game("octal", code="0.77", misere=True), heaps=4)
>>> rule = quotient_rule(kayles, removal_limit=2)
>>> rule.monoid.order, rule.is_p((1,)), rule.is_p((2, 2))
(6, True, True)
"""

from discover.quotients.board_discovery import BoardQuotientDiscovery, discover_board_quotient, is_board_sum_game
from discover.quotients.boards import NotaktoBoards
from discover.quotients.brute import OutcomeClasses, TokenCheck, check_token_sums, outcome_classes
from discover.quotients.check import SumCheck, check_sums
from discover.quotients.components import HeapComponents
from discover.quotients.construct import QuotientBuilder
from discover.quotients.discovery import QuotientDiscovery, discover_quotient, is_misere_heap_game
from discover.quotients.monoid import BipartiteMonoid
from discover.quotients.period import HeapPeriod, heap_period
from discover.quotients.plain import PlainQuotient, plain_quotient
from discover.quotients.presentation import Presentation, presentation
from discover.quotients.published import PLAMBECK_WHITEHEAD, Comparison, compare_published
from discover.quotients.rule import QuotientRule, quotient_rule

__all__ = ["HeapComponents", "BipartiteMonoid", "QuotientBuilder", "Presentation", "presentation", "HeapPeriod",
           "heap_period", "QuotientRule", "quotient_rule", "PlainQuotient", "plain_quotient", "SumCheck",
           "check_sums", "TokenCheck", "check_token_sums", "OutcomeClasses", "outcome_classes", "QuotientDiscovery", "discover_quotient", "is_misere_heap_game", "NotaktoBoards",
           "BoardQuotientDiscovery", "discover_board_quotient", "is_board_sum_game", "PLAMBECK_WHITEHEAD", "Comparison",
           "compare_published"]
