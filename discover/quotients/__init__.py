"""Misère quotients: the rule of sums of components (heaps, boards) in misère play."""
