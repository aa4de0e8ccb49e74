"""posreal's counterexamples package: the invalid outside-colspan argument reproduced, the search
of the open Conjecture (deterministic necessity), and certificates with an independent verifier.

Modules: :mod:`~posreal.counterexamples.colspan` (both forms of the flaw, exact certificates),
:mod:`~posreal.counterexamples.classify` (failing rows: strict misrank / structural / orthogonal / open
tie), :mod:`~posreal.counterexamples.dynamics` (gradient-descent tie margins and their limit),
:mod:`~posreal.counterexamples.sampling` (the deterministic instance stream), :mod:`~posreal.counterexamples.conjecture`
(the seeded, resumable search), :mod:`~posreal.counterexamples.certify` (open-tie certificates),
:mod:`~posreal.counterexamples.designed` (hand-derived instances), :mod:`~posreal.counterexamples.shipped`
(regenerates ``certificates/``), :mod:`~posreal.counterexamples.verifier.certificate` (the format) and
:mod:`~posreal.counterexamples.verifier.verify` with :mod:`~posreal.counterexamples.verifier.exact_model` and
:mod:`~posreal.counterexamples.verifier.qla` (the fractions-only verifier).  Builds on
``theory`` only; this ``__init__`` imports nothing so the verifier stays light.
"""
