"""Discovery engines: a portfolio of estimators proposing symbolic rules from a labelled table."""
