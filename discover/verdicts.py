"""The toolkit's verdicts as enums: what a discovery, a proof and a part of a certificate can conclude.

Every road of ``find_rule`` and every proof speak these words and no others; a verdict is decided by comparing
members, never by the text of a message.  Members are ``str`` (``StrEnum``): records and printed output read
"verified", "proved", ... as before, a member equals its value, and its ``repr`` is its value's (a notebook and a
doctest show ``'verified'``; ``type()`` tells the enum).

Examples
--------
>>> Status.VERIFIED == "verified", ProofStatus("proved") is ProofStatus.PROVED, ProofStatus.PROVED
(True, True, 'proved')
>>> CertificatePart.NO_P_TO_P.text
'no move from P to P'
"""

from __future__ import annotations

from enum import StrEnum as _StrEnum

__all__ = ["Status", "ProofStatus", "QuotientStatus", "ClaimStatus", "PartResult", "CertificatePart", "PART_TEXT", "Road"]


class ValueEnum(_StrEnum):
    """A ``StrEnum`` whose ``repr`` is its value's."""

    def __repr__(self) -> str:
        return repr(self.value)


class Status(ValueEnum):
    """What a discovery concluded: a rule passed every check (``VERIFIED``), the best candidate failed one
    (``REFUTED``), or no candidate came (``NONE``)."""

    VERIFIED = "verified"
    REFUTED = "refuted"
    NONE = "none"


class ProofStatus(ValueEnum):
    """What a proof attempt concluded for every position (or every heap size, every sum)."""

    PROVED = "proved"
    DISPROVED = "disproved"
    UNKNOWN = "unknown"


class QuotientStatus(ValueEnum):
    """What a misère quotient's construction concluded: proved for every position (a proved period, every board),
    verified (proved for sums of the components added, none beyond decided), partial (stopped before every board)
    or refuted (a sum check failed)."""

    PROVED = "proved"
    VERIFIED = "verified"
    PARTIAL = "partial"
    REFUTED = "refuted"


class ClaimStatus(ValueEnum):
    """How far a rule read for any number of heaps is known to hold (``discover.generality``)."""

    PROVED = "proved"
    VERIFIED = "verified"
    REFUTED = "refuted"
    CONJECTURE = "conjecture"


class PartResult(ValueEnum):
    """One part of a certificate: no position breaks it, one does, or the solver did not decide."""

    HOLDS = "holds"
    FAILS = "fails"
    UNKNOWN = "unknown"


class CertificatePart(ValueEnum):
    """The parts of the closure certificate, by key; their sentences are ``PART_TEXT``'s (wording only)."""

    MEASURE = "measure"
    BOUNDED = "bounded"
    TERMINAL = "terminal"
    NO_P_TO_P = "no_p_to_p"
    MOVE_INTO_P = "move_into_p"

    @property
    def text(self) -> str:
        """The part in words, as records and output print it."""
        return PART_TEXT[self]


PART_TEXT = {
    CertificatePart.MEASURE: "every move decreases the measure",
    CertificatePart.BOUNDED: "moves stay in the bounded set",
    CertificatePart.TERMINAL: "terminal positions follow the terminal rule",
    CertificatePart.NO_P_TO_P: "no move from P to P",
    CertificatePart.MOVE_INTO_P: "every N position has a move into P",
}


class Road(ValueEnum):
    """How ``find_rule`` explains a game (``discover.road.choose_road`` picks one, from what the game declares)."""

    QUOTIENT = "misère quotient"  # a misère heap game and its sums: Plambeck and Siegel's construction
    BOARD_QUOTIENT = "misère quotient over boards"  # sums of boards (Notakto)
    TAKE_AND_BREAK = "take-and-break"  # Guy and Smith: Grundy values until a period is proved
    COMPOSITION = "Grundy composition"  # a sum of components: their Grundy formulas xored (Sprague-Grundy)
    ENGINES = "engines"  # a table, the engine portfolio, the trial
