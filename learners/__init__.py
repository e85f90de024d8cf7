"""Learners that play games and fill value tables over a game's universe (arrive with the learners' issue)."""

__all__: list[str] = []
