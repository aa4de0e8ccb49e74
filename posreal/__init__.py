"""posreal: a proof companion for positional realizability, as one importable namespace.

Subpackages (imports only point down): :mod:`posreal.theory` (definitions and computations),
:mod:`posreal.checks` (engines that check the statements), :mod:`posreal.counterexamples`
(the invalid outside-colspan argument, the conjecture search, certificates and their
standard-library verifier), :mod:`posreal.experiment` (trained heads against α_L) and
:mod:`posreal.cli` (the ``posreal`` console script).

In the repository the subpackages are the top-level folders ``theory/``, ``checks/``,
``counterexamples/`` and ``experiment/``, reached through the committed relative symlinks
``posreal/theory -> ../theory`` and so on: an install, mypy and mutmut see an ordinary package.
"""
