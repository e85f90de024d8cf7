"""Results in a notebook: a short one-line repr, an HTML card (the rule in MathML, status, proof, checks), and
``Discovery.summary()`` the very text the command line prints."""

from __future__ import annotations

from html import unescape

import pytest

from discover.find import find_rule
from games import make_game


@pytest.fixture(scope="module")
def wythoff():
    return find_rule(make_game("wythoff"), bound=20, verify_bound=60)


def _one_line(text: str) -> None:
    assert "\n" not in text and len(text) <= 200, text


def test_discovery_repr_and_card(wythoff):
    _one_line(repr(wythoff))
    assert repr(wythoff).startswith("Discovery(Wythoff's game: verified on bound 60")
    html = wythoff._repr_html_()
    assert "<math" in html and "verified on bound 60" in html
    assert all(check.name in html for check in wythoff.checks)
    assert wythoff.proof.line() in unescape(html)  # the proof's status in words
    _one_line(repr(wythoff.rule))
    assert "<math" in wythoff.rule._repr_html_()


def test_discovery_without_rule():
    found = find_rule(make_game("grundy_game"), bound=20, engines=["decision_list"])
    assert found.status != "verified"
    _one_line(repr(found))
    assert "No rule found" in found._repr_html_() and "No rule found" in found.summary()


def test_summary_is_what_the_command_prints(wythoff, capsys):
    from discover.app.cli.rule import _print_discovery

    _print_discovery(wythoff)
    assert capsys.readouterr().out == wythoff.summary() + "\n"
    assert "P iff min(a, b) = ⌊φ·|a - b|⌋" in wythoff.summary()


def test_quotient_views():
    from discover.quotients import discover_quotient

    found = discover_quotient(make_game("octal", code="0.77", misere=True), heaps=20, seconds=30)
    for view in (repr(found), repr(found.rule)):
        _one_line(view)
    html = found._repr_html_()
    assert "<math" in html and found.statement() in unescape(html)
    assert "<math" in found.rule._repr_html_()


def test_solution_and_learner_views():
    from learners import QLearner
    from solvers import solve

    solution = solve(make_game("nim", heaps=3), bound=5)
    _one_line(repr(solution))
    assert "losses (P)" in solution._repr_html_() and "(1, 1, 0)" in solution._repr_html_()
    learner = QLearner(random_state=0).fit(make_game("wythoff"), bound=4, episodes=100)
    _one_line(repr(learner))
    _one_line(repr(learner.value_table_))
    html = learner._repr_html_()
    assert "Value table" in html and "history_ (" in html and "alpha" in html
    assert "history_" not in QLearner()._repr_html_()  # unfitted: the parameters only
