"""The source papers' experiments, one module each (see ``docs/papers.md``).

Each module has ``run(...) -> record`` (a JSON-ready dict) and ``write(record, folder)`` (figures, the record
and a report, ``index.md`` and ``index.html``, written whole or not at all); the ``discover`` commands call them:

- ``hqn``: the HQN paper's figures 9, 10 and 11 (``discover hqn wythoff``) and its symbolic model builder;
- ``learner_study``: the Nim study's learning curves and tournament (``discover tournament nim heaps=3``);
- ``nim_scenarios``: the Nim thesis's Q-learning scenarios (``discover scenarios``);
- ``alphazero``: the Notakto paper's AlphaZero experiment, and AlphaZero on Hex and Nim (``discover alphazero``).
"""
