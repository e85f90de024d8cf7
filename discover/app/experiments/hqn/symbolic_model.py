"""The symbolic model network: the HQN paper's proposal, a model layer that hypothesises rules.

In the HQN loop (``learners.hqn.learner``) the model builder gets the Q-agent's cold / hot dataset;
this builder fits the discovery engines to it and returns two models (one when they agree):
the rule that fits the dataset best (the shortest among equals) and the rule of highest
weighted accuracy less ``occam`` per unit of complexity, since the Q-agent's labels are noisy
and a short rule that misses a few of them may generalise where a long one that fits them all
does not; the HQN's play decides between them. Each model's agent moves into the positions the rule calls P.
The loop scores it by play, exactly as it scores a network; ``verify_rule`` can then put the
best rule on trial against the solver.
"""

from __future__ import annotations

import numpy as np

from discover.engines import make_engine
from discover.find import rules_from
from discover.table import build_table

__all__ = ["SymbolicModelBuilder", "SymbolicModel"]


class SymbolicModel:
    """A rule as a model: ``cold(positions)`` is the rule's predicate."""

    def __init__(self, rule):
        self.rule = rule

    def cold(self, positions) -> np.ndarray:
        return np.asarray(self.rule.predicate(np.asarray(positions, dtype=np.int64)), dtype=bool)

    def describe(self) -> str:
        return f"{self.rule.text()} ({self.rule.train_accuracy:.1%} of the dataset, by {self.rule.provenance.get('engine')})"


class SymbolicModelBuilder:
    """Builds ``SymbolicModel`` s with the discovery engines.

    Examples
    --------
    >>> from games import make_game
    >>> positions = np.array([[a, b] for a in range(8) for b in range(8)])
    >>> builder = SymbolicModelBuilder()
    >>> [model] = builder.build(make_game("nim", heaps=2), positions, positions[:, 0] == positions[:, 1], None, 7,
    ...                         np.random.default_rng(0))
    >>> model.rule.text(), model.cold([[30, 30], [2, 9]]).tolist()
    ('a = b', [True, False])
    """

    name = "symbolic"

    def __init__(self, engines=("sequence", "decision_list", "enumeration"), occam: float = 0.01):
        self.engines = tuple(engines)
        self.occam = occam

    def build(self, game, positions, cold, weights, bound: int, rng: np.random.Generator) -> list[SymbolicModel]:
        """The fittest and the simplest good rule the engines find for ``positions`` labelled ``cold``."""
        seed = int(rng.integers(2**31))
        provenance = {"game": game.spec(), "bound": bound, "source": "HQN Q-agent dataset"}
        table = build_table(game, positions, cold, None, weights, provenance)
        rules = []
        for name in self.engines:
            engine = make_engine(name, seed).fit(table.X, table.y("P"), feature_names=table.feature_names,
                                                 sample_weight=table.weights, target="P")
            rules += rules_from(engine.candidates_, table, "P", game, seed)
        if not rules:
            raise ValueError("no engine proposed a rule for this dataset")
        fittest = min(rules, key=lambda r: (-r.train_accuracy, r.complexity))
        simplest = max(rules, key=lambda r: (r.train_accuracy - self.occam * r.complexity, -r.complexity))
        return [SymbolicModel(r) for r in ([fittest] if fittest is simplest else [fittest, simplest])]
