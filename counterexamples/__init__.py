"""posreal's counterexamples package.

The invalid outside-colspan argument reproduced, the search of the open Conjecture (deterministic necessity), and
certificates with an independent verifier.

Modules: :mod:`~posreal.counterexamples.colspan` (both forms of the flaw, exact certificates),
:mod:`~posreal.counterexamples.dynamics` (the first exact step, gradient-descent tie margins, the float
prediction), :mod:`~posreal.counterexamples.conjecture`
(the seeded, resumable search; its instance stream, the failing-row classes, α♯ and the log-time
gradient flow are theory: :mod:`~posreal.theory.random_instances`, :mod:`~posreal.theory.ties`,
:mod:`~posreal.theory.limit`, :mod:`~posreal.theory.flow`),
:mod:`~posreal.counterexamples.certify` (open-tie certificates),
:mod:`~posreal.counterexamples.designed` (hand-derived instances), :mod:`~posreal.counterexamples.shipped`
(regenerates ``certificates/``), :mod:`~posreal.counterexamples.certificate_writer` (writing
certificates), :mod:`~posreal.counterexamples.verifier.certificate` (the format, as checking reads it) and
:mod:`~posreal.counterexamples.verifier.verify` with :mod:`~posreal.counterexamples.verifier.exact_model` and
:mod:`~posreal.counterexamples.verifier.qla` (the fractions-only verifier).  Builds on
``theory`` only; this ``__init__`` imports nothing so the verifier stays light.
"""

if __name__ != "posreal.counterexamples":   # posreal/counterexamples -> ../counterexamples
    raise ImportError(f"import posreal.counterexamples, not {__name__}: the repository's top-level folders are "
                      "subpackages of posreal, never packages of their own")
