"""Check a figure's words: no text over other text, none off the canvas (``text_problems``).

The check draws the figure once with matplotlib's Agg renderer, records every piece of text the draw actually
puts on the canvas (tick labels outside the view are not drawn and not counted) and compares their bounding
boxes (``Text.get_window_extent``), the same boxes matplotlib's own layout uses. The test suite runs it on
every figure the toolkit writes.
"""

from __future__ import annotations

__all__ = ["text_problems"]

TOLERANCE = 2.0  # pixels a box may cross another or the edge (antialiased edges, the layout's rounding) unflagged


def text_problems(fig, tolerance: float = TOLERANCE) -> list[str]:
    """The text of ``fig`` that overlaps other text or leaves the canvas, one line each (empty: none).

    Examples
    --------
    >>> from discover.app.render.figure import new_figure
    >>> fig, (ax,) = new_figure(4, 3)
    >>> _ = ax.set_title("a title"), ax.set_xlabel("x"), ax.set_ylabel("y")
    >>> text_problems(fig)
    []
    >>> _ = ax.text(0.5, 0.5, "here"), ax.text(0.5, 0.5, "there")
    >>> text_problems(fig)
    ["'here' overlaps 'there'"]
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    drawn = {}
    draw_text = renderer.draw_text

    def record(gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None and mtext.get_text().strip():
            drawn[id(mtext)] = mtext
        return draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    renderer.draw_text = record
    try:
        fig.draw(renderer)
    finally:
        del renderer.draw_text
    boxes = [(text, text.get_window_extent(renderer)) for text in drawn.values()]
    canvas_box = fig.bbox
    problems = []
    for text, box in boxes:
        if (box.x0 < canvas_box.x0 - tolerance or box.y0 < canvas_box.y0 - tolerance
                or box.x1 > canvas_box.x1 + tolerance or box.y1 > canvas_box.y1 + tolerance):
            problems.append(f"{_name(text)} leaves the canvas")
    for i, (text, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1:]:
            width = min(box.x1, other_box.x1) - max(box.x0, other_box.x0)
            height = min(box.y1, other_box.y1) - max(box.y0, other_box.y0)
            if width > tolerance and height > tolerance:
                problems.append(f"{_name(text)} overlaps {_name(other)}")
    return problems


def _name(text) -> str:
    words = text.get_text().replace("\n", " ")
    return repr(words if len(words) <= 60 else words[:57] + "...")
