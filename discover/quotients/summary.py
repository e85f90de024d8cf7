"""A misère quotient in words: the lines ``discover GAME misere=true`` (heap games) and ``discover notakto
boards=B`` print for ``find_rule``'s quotient roads (``discover.summary`` calls them): order, P-portion,
presentation, each heap's (board's) element, proof status, checks and a winning move.
"""

from __future__ import annotations

import itertools


__all__ = ["quotient_lines", "example_move", "board_quotient_lines", "board_move"]


def example_move(found, parts: int = 3):
    """A sum of ``parts`` heaps that is an N-position and the rule's winning move from it: ``(sum, i, replacement)``,
    or None when no such sum has one (each is a P-position, or an N-position with no move at all, which in misère
    play the player to move has already won: ``octal code=0.0``)."""
    rule = found.rule
    top = min(found.heaps, 9)
    options = rule_options(found)
    for s in itertools.combinations_with_replacement(range(top, 0, -1), parts):
        move = None if rule.is_p(s) else rule.winning_move(s, options)
        if move is not None:
            return (s, *move)
    return None


def rule_options(found):
    """The options of one heap of the found game (the sums it leaves)."""
    from solvers.heap_sums import HeapSums

    return HeapSums(found.game).heap_options


def _heap_map(found, limit: int = 40) -> str:
    rule = found.rule
    names = [f"{n}:{rule.presentation.element_name(rule.element[n])}" for n in range(1, min(found.heaps, limit) + 1)]
    more = f" ... (heaps up to {found.heaps} computed)" if found.heaps > limit else ""
    return " ".join(names) + more


def quotient_lines(found) -> list[tuple[str, str | None]]:
    """What ``discover_quotient`` found as ``(text, style)`` pairs: order, P-portion, presentation, heap elements,
    proof, a winning move."""
    rule = found.rule
    out: list[tuple[str, str | None]] = []

    def line(text: str, style: str | None = None) -> None:
        out.append((text, style))

    line(f"{found.game!r}: {found.game.title()}", "bold")
    grew = ", ".join(f"{c} (order {o})" for c, o in found.growth)
    line(f"misère quotient of heaps 1 .. {found.heaps} by Plambeck and Siegel's construction in "
         f"{found.seconds:.2f} s (stopped at {found.stopped}{_kernels(found)}); "
         + (f"it grew at heaps {grew}" if grew else "no heap made it grow (order 1)"))
    style = {"proved": "bold green", "verified": "bold green", "refuted": "bold red"}[found.status]
    line(f"\nRule ({found.status}): P iff the product of the heaps' elements lies in the P-portion", style)
    _print_monoid(line, rule)
    line(f"  heap -> element: {_heap_map(found)}")
    if rule.period is not None:
        line(f"  {rule.period.line()}")
    _print_proof_and_checks(line, rule, found, style)
    move = example_move(found)
    if move is not None:
        s, i, replacement = move
        after = " + ".join(map(str, replacement)) if replacement else "nothing"
        line(f"\nWinning move from {' + '.join(map(str, s))}: heap {s[i]} -> {after} "
             f"(leaves a P-position)", "bold")
    return out


def board_move(found):
    """The rule's winning move from the start of a Notakto game: ``(board, row, column)`` (0-based), or None when
    the start is a P-position (or its boards were not all computed)."""
    components, rule, game = found.components, found.rule, found.game
    if 0 not in rule.element or rule.is_p((0,) * game.dims):
        return None
    move = rule.winning_move((0,) * game.dims, components.options)
    if move is None:  # no move at all
        return None
    i, replacement = move
    start = tuple(int(x) for x in game.start)
    for option in game.moves(start):
        if components.sum_of((option[i],)) == tuple(replacement):
            cell = (option[i] ^ start[i]).bit_length() - 1
            return i, cell // game.n, cell % game.n
    return None


def board_quotient_lines(found) -> list[tuple[str, str | None]]:
    """What ``discover_board_quotient`` found as ``(text, style)`` pairs: order, P-portion, presentation, the start's
    element, the comparison with Plambeck and Whitehead (3 x 3), the proof status, the checks and a winning move."""
    from discover.quotients.published import compare_published

    rule, game, components = found.rule, found.game, found.components
    out: list[tuple[str, str | None]] = []

    def line(text: str, style: str | None = None) -> None:
        out.append((text, style))

    line(f"{game!r}: {game.title()}", "bold")
    grew = ", ".join(f"{components.label(c)} (order {o})" for c, o in found.growth)
    line(f"misère quotient of {found.added} of the {len(components.ids())} live {game.n} x {game.n} boards "
         f"(up to symmetry) by Plambeck and Siegel's construction in {found.build_seconds:.2f} s (with the "
         f"checks {found.seconds:.2f} s{_kernels(found)}); it grew at {grew}")
    style = {"proved": "bold green", "partial": "bold yellow", "refuted": "bold red"}[found.status]
    line(f"\nRule ({found.status}): a position is P iff the product of its live boards' elements lies in "
         "the P-portion (a dead board is the identity)", style)
    _print_monoid(line, rule)
    counts: dict = {}
    for x in rule.element.values():
        counts[x] = counts.get(x, 0) + 1
    by_element = ", ".join(f"{rule.presentation.element_name(x)} ×{counts[x]}" for x in sorted(counts))
    line(f"  live boards by element: {by_element} (each board: discover report)")
    start = found.start_element()
    if start is not None:
        side = "P: the second player wins" if rule.is_p((0,) * game.dims) else "N: the first player wins"
        line(f"  {game.dims} empty board{'s' * (game.dims > 1)}: element {start}, {side}")
    if game.n == 3 and game.k == 3 and found.complete:
        comparison = compare_published(rule, components)
        line(f"  {comparison.line()}")
        if comparison.matches:
            names = ", ".join(f"{rule.presentation.element_name(x)} = {comparison.mapping[x]}"
                              for x in range(rule.monoid.order))
            line(f"  in their names: {names}")
    _print_proof_and_checks(line, rule, found, style)
    for unchecked in found.unchecked:
        line(f"  not checked: {unchecked}")
    move = board_move(found)
    if move is not None:
        board, row, column = move
        line(f"\nWinning move from the start: X on board {board + 1}, row {row + 1}, column {column + 1} "
             "(leaves a P-position)", "bold")
    return out


def _kernels(found) -> str:
    """``; before it, numba kernels: 0.31 s (8 read from its cache)``, or nothing when the record does not say."""
    return "" if found.kernels is None else f"; before it, {found.kernels.line()}"


def _print_monoid(line, rule) -> None:
    """The quotient's order, P-portion and presentation, two lines."""
    size = int(rule.monoid.p_portion.sum())
    line(f"  order {rule.monoid.order}, P-portion ({size} element{'s' * (size != 1)}): "
         f"{{{', '.join(rule.p_names())}}}")
    line(f"  presentation: {rule.presentation.text()}")


def _print_proof_and_checks(line, rule, found, style: str) -> None:
    """The rule in LaTeX, what is proved, and each check against the solver."""
    line(f"  LaTeX: {rule.latex()}")
    line(f"\n{found.statement()}", style)
    line("\nVerification", "bold")
    for check in found.checks:
        line(f"  {check.line()}")
