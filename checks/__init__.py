"""Engines that check the statements of theory/: SMT proofs (z3) with negative controls,
symbolic derivations (sympy), property and registry checks, the trained-head experiment,
and the claim runner behind ``posreal check``."""
