"""``find_rule`` is the one road: every kind of game through the API, one result type, settings and defaults
named once (``discover.defaults``), the command line built from them."""

from __future__ import annotations

import dataclasses
import json

import click
import pytest

from discover import defaults
from discover.app.cli.rule import rule_command
from discover.app.cli.rule_settings import RuleSettings
from discover.discovery import Discovery
from discover.find import find_rule
from discover.find_settings import FindSettings
from discover.road import choose_road
from discover.verdicts import ProofStatus, Road, Status
from games import make_game


def test_a_misere_octal_game_gets_its_proved_quotient_through_the_api():
    found = find_rule(make_game("octal", code="0.77", misere=True))
    assert isinstance(found, Discovery) and found.road == Road.QUOTIENT
    assert found.status == Status.VERIFIED and found.proof.status == ProofStatus.PROVED
    assert found.rule.monoid.order == 40 and found.rule.is_p((1,)) and not found.rule.is_p((2,))
    record = json.loads(json.dumps(found.to_record()))
    assert record["status"] == "verified" and record["proof"]["status"] == "proved"
    assert record["road"] == "misère quotient" and record["rule"]["kind"] == "misere_quotient"


def test_sums_of_notakto_boards_get_their_proved_quotient_through_the_api():
    found = find_rule(make_game("notakto", n=3, boards=2))
    assert found.road == Road.BOARD_QUOTIENT and found.status == Status.VERIFIED
    assert found.proof.status == ProofStatus.PROVED and found.quotient.complete
    assert found.rule.is_p((0, 0))  # two empty boards: the second player wins (Plambeck and Whitehead)


def test_a_quotient_cut_short_is_verified_and_its_proof_unknown():
    found = find_rule(make_game("octal", code="0.77", misere=True), heaps=12)
    assert found.status == Status.VERIFIED and found.proof.status == ProofStatus.UNKNOWN
    assert found.verified_bound == 12 and "heaps beyond 12 are not decided" in found.proof.reason


@pytest.mark.parametrize("game, settings, road", [
    (make_game("octal", code="0.77", misere=True), FindSettings(), Road.QUOTIENT),
    (make_game("subtraction", subtract=(1, 2), misere=True), FindSettings(), Road.QUOTIENT),
    (make_game("notakto", n=3, boards=2), FindSettings(), Road.BOARD_QUOTIENT),
    (make_game("octal", code="0.77"), FindSettings(), Road.TAKE_AND_BREAK),
    (make_game("grundy_game"), FindSettings(), Road.TAKE_AND_BREAK),
    (make_game("octal", code="0.77"), FindSettings(bound=40), Road.ENGINES),
    (make_game("subtraction", subtract=(1, 2), misere=True), FindSettings(bound=20), Road.ENGINES),
    (make_game("nim", heaps=3, misere=True), FindSettings(), Road.ENGINES),
    (make_game("nim", heaps=3), FindSettings(), Road.ENGINES),  # a sum, but Nim: the engines state and prove it
    (make_game("wythoff"), FindSettings(), Road.ENGINES),
])
def test_the_road_is_chosen_from_what_the_game_declares(game, settings, road):
    assert choose_road(game, settings) == road


@pytest.mark.parametrize("settings, refused", [
    (FindSettings(verify_bound=50), "verify_bound"), (FindSettings(prove=False), "prove=False"),
    (FindSettings(strategy=False), "strategy=False"), (FindSettings(proof_seconds=5), "proof_seconds"),
])
def test_a_setting_the_quotient_makes_meaningless_is_refused(settings, refused):
    with pytest.raises(ValueError, match=refused):
        choose_road(make_game("octal", code="0.77", misere=True), settings)


def test_a_default_changed_in_one_place_is_seen_everywhere(monkeypatch):
    """``discover.defaults`` is read when the work runs: the library's settings, the command line's settings and
    the quotient's budget all follow one change."""
    monkeypatch.setattr(defaults, "ENGINES", dataclasses.replace(defaults.ENGINES, proof_seconds=7.0, games=3,
                                                                 confidence=0.6, learned_min_accuracy=0.9))
    monkeypatch.setattr(defaults, "QUOTIENT", dataclasses.replace(defaults.QUOTIENT, heaps=5))
    assert FindSettings().proof_seconds == 7.0 and FindSettings().games == 3
    cli = RuleSettings(game="nim")
    assert cli.find_settings(learned=False).proof_seconds == 7.0
    assert RuleSettings(game="nim", source="q").confidence == 0.6
    assert RuleSettings(game="nim", source="q").find_settings(learned=True).min_accuracy == 0.9
    assert find_rule(make_game("octal", code="0.77", misere=True)).quotient.heaps == 5
    with pytest.raises(ValueError, match="proof_seconds"):  # 30 s is no longer the default: now it is a choice
        choose_road(make_game("octal", code="0.77", misere=True), FindSettings(proof_seconds=30.0))


def _option(name: str) -> click.Option:
    return next(p for p in rule_command.params if isinstance(p, click.Option) and p.name == name)


def test_the_command_lines_defaults_are_the_librarys():
    assert f"(default {defaults.ENGINES.confidence:g})" in _option("confidence").help
    assert f"(default {defaults.ENGINES.proof_seconds:g};" in _option("proof_seconds").help
    for name in defaults.ENGINES.engines:
        assert name in _option("engines").help
    seconds = _option("seconds").help
    assert f"{defaults.TAKE_AND_BREAK.seconds:g}" in seconds and f"{defaults.QUOTIENT.seconds:g}" in seconds
    assert f"{defaults.TAKE_AND_BREAK.heaps:,}" in _option("heaps").help
    assert f"{defaults.QUOTIENT.heaps:,}" in _option("heaps").help
    settings = RuleSettings(game="nim").find_settings(learned=False)  # nothing given on the command line
    assert settings == FindSettings()


def test_the_learners_threshold_is_the_librarys():
    import inspect

    from learners.value_table import ValueTable

    assert inspect.signature(ValueTable.partition).parameters["confidence"].default == defaults.ENGINES.confidence


def test_a_custom_nim_proved_for_its_relation_is_no_theorem_for_any_number_of_heaps():
    """A proof that rests on an inferred relation says nothing of other numbers of heaps: the reading for any
    number of heaps is never 'proved' by Moore's or Bouton's theorem for a game given by moves()."""
    from games import custom_game

    def moves(p):
        return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(3) for t in range(1, p[i] + 1)]

    found = find_rule(custom_game("mynim", moves, dims=3), bound=6, verify_bound=14, games=4)
    assert found.proof.status == "proved" and found.proof.rests_on["agrees_with_moves_up_to"] == 14
    assert found.general is None or found.general.status != "proved"
