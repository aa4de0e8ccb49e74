"""The trusted certificate verifier behind ``posreal verify``: standard library only.

Modules: :mod:`~posreal.counterexamples.verifier.certificate` (the format: name, version, digest,
rationals as ``"p/q"`` strings), :mod:`~posreal.counterexamples.verifier.exact_model` (tasks and
rational features re-derived with :class:`fractions.Fraction`), :mod:`~posreal.counterexamples.verifier.qla`
(exact linear algebra over ℚ), :mod:`~posreal.counterexamples.verifier.verify` (re-derives each
verdict; the format-version-2 kinds in :mod:`~posreal.counterexamples.verifier.residual`) and
:mod:`~posreal.counterexamples.verifier.errors`.  Nothing here imports numpy, scipy,
sympy, z3 or matplotlib, and of ``posreal.theory`` only :mod:`posreal.theory.errors` (the error base
class, ``quote``) and :mod:`posreal.runtime.resources` (bounded file reading), both standard library
only; this ``__init__`` imports nothing at all.  Writing certificates is not here:
:mod:`posreal.counterexamples.certificate_writer`.
"""
