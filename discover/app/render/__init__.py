"""What the toolkit shows: rule text, figures, board pictures, learning curves, documents and reports.

``text`` (rules as a mathematician writes them), ``figure`` (one figure style and one save helper), ``solution``
(P positions of a solved game), ``partitions`` (exact, rule and learned partitions, Grundy values), ``boards`` (a
board game's first moves), ``curves`` (learning curves), ``document`` (blocks rendered to Markdown and HTML),
``report`` (the report of a found rule).
"""
