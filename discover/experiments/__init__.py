"""The source papers' experiments, one module each: ``run(...) -> record`` and ``write(record, folder)``."""
