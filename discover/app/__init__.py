"""What a person runs, above the discovery library: the ``discover`` command (``cli``, started by ``launch``), the
papers' experiments (``experiments``) and the reports and figures (``render``).

Nothing in the library (every other module of ``discover``) imports from here; the import-linter contracts in
``pyproject.toml`` hold that cut.
"""
