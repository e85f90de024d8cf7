"""Periods found by the solvers: of integer sequences (``sequences``: a growing Grundy sequence proved periodic as
it grows, and every short description of a finished table) and of two-heap tables (``grids``: a periodic core with
eventually periodic lines near the axes)."""
