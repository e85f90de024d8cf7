"""The figure of a board game's first moves."""

from __future__ import annotations

import pytest

from discover.app.render.boards import plot_openings
from games import make_game
from solvers import solve
from solvers.openings import openings


def test_figure_is_written_atomically(tmp_path):
    game = make_game("notakto", n=3, boards=2)
    path = tmp_path / "openings.pdf"
    assert plot_openings(openings(game, solve(game)), path) == str(path)
    assert path.read_bytes()[:4] == b"%PDF" and [p.name for p in tmp_path.iterdir()] == ["openings.pdf"]
    with pytest.raises(ValueError, match="figure format"):
        plot_openings(openings(game, solve(game)), tmp_path / "openings.xyz")
