"""``Discovery``: what ``find_rule`` found, on every road, in one type with one JSON record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cgbase.version import __version__
from discover.relation_inference import relation_record
from discover.verdicts import ProofStatus, QuotientStatus, Road, Status
from discover.verify import Check
from games import Game

if TYPE_CHECKING:
    from discover.generality import GeneralClaim
    from discover.proofs.prove import Proof
    from discover.quotients.board_discovery import BoardQuotientDiscovery
    from discover.quotients.discovery import QuotientDiscovery
    from discover.quotients.rule import QuotientRule
    from discover.rule import Rule
    from discover.composition import SumStrategy
    from discover.move_chooser import MoveChooser
    from discover.strategy import Strategy
    from solvers.take_and_break import GrundySequence

__all__ = ["Discovery", "QUOTIENT_METHOD"]

RARE_LISTED = 1000  # rare heaps listed in a record
CANDIDATES_KEPT = 10  # candidates a record keeps, best first (``candidates_proposed`` counts them all)
QUOTIENT_METHOD = "Plambeck and Siegel's construction of the misère quotient"


@dataclass
class Discovery:
    """What ``find_rule`` found: the rule, its status and the evidence, whatever the road.

    In a notebook a discovery shows as a card (the rule in MathML, status, proof, checks); ``summary()`` is the
    text ``discover GAME`` prints; ``to_record()`` the JSON record of ``--json``.

    Attributes
    ----------
    game : Game
        The game explained.
    rule : Rule or QuotientRule or None
        A formula (``discover.rule.Rule``) or, on a quotient road, the misère quotient (``QuotientRule``).
    status : Status
        Verified (the rule passed every check), refuted (the best candidate failed one) or none.
    verified_bound : int or None
        The bound the checks covered (on the quotient road of heaps: the heaps added).
    candidates : list of Rule
        Every candidate the engines proposed, best first.
    checks : list
        The trial: ``discover.verify.Check`` for formulas, the sum checks for a quotient.
    train_bound, verify_bound : int or None
        The training and verification bounds (None on a quotient road, which trains on no table).
    timings : dict
        Seconds by stage.
    best_partial : Rule or None
        The best candidate when none was verified.
    source : str
        Where the training table came from ("solver", a learner, "take_and_break", "quotient").
    sequence : GrundySequence or None
        The take-and-break engine's values, on that road.
    strategy : Strategy or SumStrategy or MoveChooser or None
        The winning-move strategy of a verified P rule, when one was found: formulas (``Strategy``), the Nim
        strategy over the components' Grundy values (``SumStrategy``), or for a custom game with no formula found
        a move chooser over its ``moves()`` (``MoveChooser``, checked on the verification bound).
    strategy_check : Check or None
        The strategy's own self-play (a failure leaves the rule verified).
    proof : Proof or None
        The proof attempt of a verified rule (on a quotient road: the construction's).
    notes : list of str
        What the engines left out and why.
    general : GeneralClaim or None
        The rule read for any number of heaps, and how far that holds.
    road : Road
        The road ``discover.road.choose_road`` took.
    quotient : QuotientDiscovery or BoardQuotientDiscovery or None
        A quotient road's own record: growth, heaps or boards added, element of the start.
    budget : float or None
        The whole run's time budget in seconds (``discover.run_budget``).
    out_of_time : str or None
        Where the budget ran out before a rule was verified (status none), or None.
    """

    game: Game
    rule: Rule | QuotientRule | None
    status: Status
    verified_bound: int | None
    candidates: list[Rule]
    checks: list
    train_bound: int | None
    verify_bound: int | None
    timings: dict = field(default_factory=dict)
    best_partial: Rule | None = None
    source: str = "solver"
    sequence: GrundySequence | None = None
    strategy: Strategy | SumStrategy | MoveChooser | None = None
    strategy_check: Check | None = None
    proof: Proof | None = None
    notes: list[str] = field(default_factory=list)
    general: GeneralClaim | None = None
    road: Road = Road.ENGINES
    quotient: QuotientDiscovery | BoardQuotientDiscovery | None = None
    budget: float | None = None
    out_of_time: str | None = None

    def __post_init__(self):
        self.status = Status(self.status)
        self.road = Road(self.road)

    def summary(self) -> str:
        """The text ``discover GAME`` prints (plain, as in a pipe): the rule, its strategy, proof and checks, or
        what came closest and what to try."""
        from discover.summary import summary_text

        return summary_text(self)

    def ran_out(self, error: Exception) -> Discovery:
        """This discovery (one with no verified rule) once the run's budget ended it (``error``, the
        ``cgbase.deadline.OutOfTime`` raised): status none, ``out_of_time`` the budget's message, its best candidate
        the best partial.

        Examples
        --------
        >>> from games import make_game
        >>> found = Discovery(make_game("wythoff"), None, "none", None, [], [], 30, 300)
        >>> found.ran_out(ValueError("the 5-second budget ran out in the trial")).out_of_time
        'the 5-second budget ran out in the trial'
        """
        if self.status == Status.VERIFIED:
            raise ValueError("a verified rule stays verified when the budget runs out: ran_out is for the others")
        self.best_partial = self.best_partial or self.rule or (self.candidates[0] if self.candidates else None)
        self.rule, self.status, self.verified_bound, self.out_of_time = None, Status.NONE, None, str(error)
        return self

    def line(self) -> str:
        """The outcome in one line: "verified on bound B, proved: RULE", "refuted: RULE failed CHECK", "none within
        S s: where it ran out; best partial: ..." or "none: ...".

        Examples
        --------
        >>> from discover.find import find_rule
        >>> from games import make_game
        >>> find_rule(make_game("subtraction", subtract=(1, 2))).line()
        'verified on bound 300, proved: P iff n mod 3 = 0'
        """
        from discover.no_rule import shorten_rule_text
        from discover.summary import rule_line

        if self.status == Status.VERIFIED:
            proved = _proved_words(self.proof)
            where = "" if self.verified_bound is None else f" on bound {self.verified_bound:,}"
            return f"verified{where}{proved}: {shorten_rule_text(rule_line(self.rule), 160)}"
        if self.status == Status.REFUTED:
            failed = next((c.name for c in self.checks if not c.passed), "its checks")
            return f"refuted: {shorten_rule_text(rule_line(self.rule))} failed {failed}"
        head = "none" if self.out_of_time is None else "none within " + (
            "its budget" if self.budget is None else f"{self.budget:g} s")
        if self.sequence is not None:
            return f"{head}: {self.sequence.statement}"
        said = [self.out_of_time] if self.out_of_time is not None else []
        best = self.best_partial
        said.append("no candidate" if best is None else f"best partial: {shorten_rule_text(best.text())} "
                    f"({best.train_accuracy:.1%} of the training table)")
        return f"{head}: {'; '.join(said)}"

    def __repr__(self) -> str:
        from cgbase.html import short
        from discover.summary import rule_line

        status = str(self.status)
        if self.status == Status.VERIFIED:
            status += "" if self.verified_bound is None else f" on bound {self.verified_bound:,}"
            status += _proved_words(self.proof)
        rule = "" if self.rule is None else f"; {rule_line(self.rule)}"
        return short(f"Discovery({self.game.title()}: {status}{rule}", 199) + ")"

    def _repr_html_(self) -> str:
        if self.quotient is not None:
            return self.quotient._repr_html_()
        from cgbase.html import card, escape
        from discover.no_rule import no_rule_paragraph

        proof = self.proof
        rows = [("game", escape(f"{self.game.title()} ({self.game!r})")),
                ("status", escape(str(self.status) + (f" on bound {self.verified_bound:,}"
                                                      if self.verified_bound is not None else ""))),
                ("trained on", None if self.train_bound is None else escape(
                    f"{self.source} table at bound {self.train_bound:,}" + (
                        "" if self.verify_bound is None else f"; verification bound {self.verify_bound:,}")))]
        if self.status == Status.VERIFIED:
            rows += self.rule.html_rows()
            rows += [("proof", None if proof is None else escape(proof.line())),
                     ("strategy", None if self.strategy is None else escape(self.strategy.text()))]
        else:
            rows.append(("no rule", escape(no_rule_paragraph(self, "to_record()"))))
        checks = "".join(f"<li>{escape(c.line())} ({c.seconds:.2f} s)</li>" for c in self.checks)
        notes = "".join(f"<li>{escape(note)}</li>" for note in self.notes)
        sections = [(name, f"<ul>{items}</ul>") for name, items in (("checks", checks), ("notes", notes)) if items]
        return card("Discovery", rows, sections)

    @classmethod
    def from_quotient(cls, found: QuotientDiscovery | BoardQuotientDiscovery, road: Road) -> Discovery:
        """A quotient road's result: verified unless a sum check refuted it; proved when the construction proves it
        for every position (a proved period, or every board added), else the proof is unknown and says how far it
        goes."""
        from discover.proofs.prove import Proof

        refuted = found.status == QuotientStatus.REFUTED
        proved = found.status == QuotientStatus.PROVED
        proof = None if refuted else Proof(ProofStatus.PROVED if proved else ProofStatus.UNKNOWN, QUOTIENT_METHOD,
                                           found.statement(), seconds=found.seconds,
                                           reason="" if proved else found.statement())
        heaps = found.heaps if road == Road.QUOTIENT else None  # the heaps added; boards: no bound
        return cls(found.game, found.rule, Status.REFUTED if refuted else Status.VERIFIED,
                   None if refuted else heaps, [], list(found.checks), None, None,
                   timings=_quotient_timings(found), source="quotient", proof=proof, road=road, quotient=found)

    def to_record(self) -> dict:
        """A JSON-ready record; ``record["rule"]`` is in the form ``Rule.from_json`` (or ``QuotientRule``'s record)
        reads."""
        if self.quotient is not None:
            return {**self.quotient.to_record(), "road": self.road, "status": self.status,
                    "proof": None if self.proof is None else self.proof.to_record(), "strategy": None,
                    "budget": self.budget, "version": __version__}

        def rule_record(rule):
            return None if rule is None else json.loads(rule.to_json())

        return {
            "game": self.game.spec(),
            "relation": relation_record(self.game),
            "road": self.road,
            "status": self.status,
            "rule": rule_record(self.rule),
            "train_bound": self.train_bound,
            "source": self.source,
            "verify_bound": self.verify_bound,
            "verified_bound": self.verified_bound,
            "checks": [_check_record(c) for c in self.checks],
            "best_partial": rule_record(self.best_partial),
            "candidates": [rule_record(r) for r in self.candidates[:CANDIDATES_KEPT]],
            "candidates_proposed": len(self.candidates),
            "sequence": None if self.sequence is None else _sequence_record(self.sequence),
            "notes": list(self.notes),
            "strategy": None if self.strategy is None else json.loads(self.strategy.to_json()),
            "strategy_check": None if self.strategy_check is None else _check_record(self.strategy_check),
            "proof": None if self.proof is None else self.proof.to_record(),
            "general": None if self.general is None else self.general.to_record(),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "budget": self.budget,
            "out_of_time": self.out_of_time,
            "version": __version__,
        }

    @classmethod
    def from_record(cls, record: dict, game: Game | None = None) -> Discovery:
        """Read back what ``to_record`` wrote on the engines' and the Grundy composition's roads (a report's
        ``discovery.json``): the rule, candidates, checks, strategy, proof and timings, each through its own reader.

        ``game`` is needed for a custom game (its ``moves()`` are Python, not data); a take-and-break or quotient
        road's record leaves out the values it was computed from, and is refused.

        Examples
        --------
        >>> from games import make_game
        >>> from discover import find_rule
        >>> found = find_rule(make_game("subtraction", subtract=(1, 2)), games=10)
        >>> again = Discovery.from_record(found.to_record())
        >>> again.rule.text(), again.proof.status, again.to_record() == found.to_record()
        ('n mod 3 = 0', 'proved', True)
        """
        from discover.proofs.prove import Proof
        from discover.rule import Rule
        from games.registry import game_from_spec

        try:
            road = Road(record["road"])
            if road not in (Road.ENGINES, Road.COMPOSITION) or record.get("sequence") is not None:
                raise ValueError(f"a record of the {road} road leaves out the values it was computed from: find the "
                                 "rule again")
            game = game_from_spec(record["game"], game, "the discovery record")

            def rule(part):
                return None if part is None else Rule.from_json(part)

            return cls(game, rule(record["rule"]), Status(record["status"]), record["verified_bound"],
                       [rule(r) for r in record["candidates"]], [_check(c) for c in record["checks"]],
                       record["train_bound"], record["verify_bound"], dict(record["timings"]),
                       rule(record["best_partial"]), str(record["source"]), None, _strategy(record["strategy"], game),
                       None if record["strategy_check"] is None else _check(record["strategy_check"]),
                       None if record["proof"] is None else Proof.from_record(record["proof"]),
                       [str(note) for note in record["notes"]], _general(record["general"]), road,
                       budget=None if record.get("budget") is None else float(record["budget"]),
                       out_of_time=None if record.get("out_of_time") is None else str(record["out_of_time"]))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a discovery record: {type(err).__name__} {err}") from None


def _check(record: dict) -> Check:
    counterexample = record["counterexample"]
    if counterexample is not None and not isinstance(counterexample, dict):
        raise ValueError(f"a check's counterexample is an object or null, got {counterexample!r}")
    return Check(str(record["name"]), bool(record["passed"]), str(record["detail"]), counterexample,
                 float(record["seconds"]))


def _strategy(record, game):
    """A strategy record read by its own type's reader (the composition's and the move chooser's have kinds of their
    own)."""
    if record is None:
        return None
    if record.get("kind") == "sum of components":
        from discover.composition import SumStrategy

        return SumStrategy.from_json(record)
    if record.get("kind") == "move chooser":
        from discover.move_chooser import MoveChooser

        return MoveChooser.from_json(record, game)
    from discover.strategy import Strategy

    return Strategy.from_json(record, game)


def _general(record):
    if record is None:
        return None
    from discover.generality import GeneralClaim

    return GeneralClaim(str(record["text"]), record["status"], str(record["evidence"]), record["counterexample"])


def _check_record(check: Check) -> dict:
    return {"name": check.name, "passed": check.passed, "detail": check.detail,
            "counterexample": check.counterexample, "seconds": round(check.seconds, 4)}


def _sequence_record(sequence: GrundySequence) -> dict:
    """What the take-and-break engine found, without its values (a periodic rule holds those)."""
    rare = sequence.rare
    return {
        "heaps": sequence.heaps, "seconds": round(sequence.seconds, 4), "proved": sequence.proved,
        "preperiod": sequence.preperiod, "period": sequence.period,
        "hypothesis": None if sequence.hypothesis is None else list(sequence.hypothesis),
        "statement": sequence.statement, "largest": int(sequence.values.max()),
        "rare": None if rare is None else {
            "mask": rare.mask, "heap_parity": rare.heap_parity, "offset": rare.offset, "count": int(rare.heaps.size),
            "heaps": rare.heaps[:RARE_LISTED].tolist(), "last": int(rare.heaps[-1]) if rare.heaps.size else None},
    }


def _quotient_timings(found) -> dict:
    """A quotient road's stages: the kernels made ready first (when it says), then the quotient."""
    return ({} if found.kernels is None else {"numba kernels": found.kernels.seconds}) | {"quotient": found.seconds}


def _proved_words(proof) -> str:
    """", proved" for a proof of every position, ", proved below 2^bits" for a bit-vector one, "" for no proof."""
    if proof is None or proof.status != ProofStatus.PROVED:
        return ""
    return ", proved" if proof.bits is None else f", proved below 2^{proof.bits}"
