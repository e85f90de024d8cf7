"""The base layer below the rules of play: files and journals, workers, progress, validation, memory, the
machine and version, the check runner and optional imports. It imports nothing of the toolkit's other packages.
"""
