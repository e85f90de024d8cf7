"""``FindSettings``: find_rule's settings checked once; keywords and ``settings=`` give the same run."""

from __future__ import annotations

import dataclasses

import pytest

from discover.find import FindSettings, find_rule
from games import make_game


def test_settings_and_keywords_find_the_same_rule():
    game = make_game("subtraction", subtract=(1, 2))
    by_keywords = find_rule(game, bound=20, games=10, prove=False)
    by_settings = find_rule(game, settings=FindSettings(bound=20, games=10, prove=False))
    assert by_settings.to_record()["rule"] == by_keywords.to_record()["rule"]
    assert by_settings.verified_bound == by_keywords.verified_bound


def test_settings_and_keywords_together_are_refused():
    with pytest.raises(ValueError, match="either settings= or the keywords seed, games"):
        find_rule(make_game("nim", heaps=2), games=5, seed=2, settings=FindSettings())


@pytest.mark.parametrize("field, value, message", [
    ("bound", 0, "bound must be a positive integer"),
    ("verify_bound", -3, "verify_bound must be a positive integer"),
    ("seed", -1, "seed must be a non-negative integer"),
    ("games", 2.5, "games must be a non-negative integer"),
    ("heaps", 0, "heaps must be a positive integer"),
    ("seconds", float("nan"), "seconds must be a positive number"),
    ("min_accuracy", 0.5, r"min_accuracy must be in \(0.5, 1\]"),
    ("proof_seconds", 0, "proof_seconds must be positive"),
    ("strategy", "yes", "strategy must be True or False"),
    ("engines", "sequence", "engines must be a list of engine names"),
    ("engines", ["sequence", "magic"], "unknown engine 'magic'"),
])
def test_each_bad_field_is_named(field, value, message):
    with pytest.raises(ValueError, match=message):
        FindSettings(**{field: value})


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        FindSettings().bound = 3
