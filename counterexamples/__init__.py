"""posreal's counterexamples package: the invalid outside-colspan argument reproduced, the search
of the open Conjecture (deterministic necessity), and certificates with an independent verifier.

Modules: :mod:`~counterexamples.colspan` (both forms of the flaw, exact certificates),
:mod:`~counterexamples.classify` (failing rows: strict misrank / structural / orthogonal / open
tie), :mod:`~counterexamples.dynamics` (gradient-descent tie margins and their limit),
:mod:`~counterexamples.sampling` (the deterministic instance stream), :mod:`~counterexamples.conjecture`
(the seeded, resumable search), :mod:`~counterexamples.certify` (open-tie certificates),
:mod:`~counterexamples.designed` (hand-derived instances), :mod:`~counterexamples.shipped`
(regenerates ``certificates/``), :mod:`~counterexamples.certificate` (the format) and
:mod:`~counterexamples.verify` with :mod:`~counterexamples.exact_model` and :mod:`~counterexamples.qla`
(the fractions-only verifier).  Builds on
``theory`` only; this ``__init__`` imports nothing so the verifier stays light.
"""
