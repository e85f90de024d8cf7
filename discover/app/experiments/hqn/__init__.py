"""The HQN paper: its experiments (figures 9, 10 and 11) and the symbolic model network it proposes.

``experiment`` holds ``run(game, ...) -> record`` and ``write(record, folder)`` (``discover hqn wythoff``);
``symbolic_model`` holds ``SymbolicModelBuilder``, the model layer that hypothesises rules with the discovery
engines (``HQN(model=SymbolicModelBuilder())``).  The HQN loop and its neural model builder are
``learners.hqn``; this builder lives here because it fits the discovery engines, which sit above the learners.
"""

from discover.app.experiments.hqn.experiment import (GRAPH_LIMIT, MARKERS, accuracy_by_size, accuracy_over_time,
                                                  many_heap_games, model_accuracy, rule_change_cycle, run, write)
from discover.app.experiments.hqn.symbolic_model import SymbolicModel, SymbolicModelBuilder

__all__ = ["run", "write", "accuracy_over_time", "accuracy_by_size", "rule_change_cycle", "model_accuracy",
           "many_heap_games", "GRAPH_LIMIT", "MARKERS", "SymbolicModelBuilder", "SymbolicModel"]
