"""Engines that check the statements of theory/.

SMT proofs (z3) with negative controls, symbolic derivations (sympy), property and registry checks, the trained-head
experiment, and the claim runner behind ``posreal check``."""

if __name__ != "posreal.checks":   # the subpackage posreal.checks (posreal/checks -> ../checks)
    raise ImportError(f"import posreal.checks, not {__name__}: the repository's top-level folders are "
                      "subpackages of posreal, never packages of their own")
