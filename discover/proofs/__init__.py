"""Proofs that a rule holds for every position: z3 closure certificates and theorems with checked hypotheses."""
