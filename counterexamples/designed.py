"""Hand-designed instances whose outcome is derived on paper, used by tests and shipped certificates.

* :data:`LOG2_TIE` — relative table f(0) = 0, f(1) = -e1, f(2) = -e2, f(3) = (-1, 1, -1), task
  ``offset:0``, L0 = 3, L = 4.  Derivation: Z = {e1, e2} (z1 = f0 - f1 occurs in rows 1 and 2,
  z2 = f0 - f2 in row 2), θ* = e1 + e2 with λ = (1, 1).  On row 3 the rival key 0 (offset 3) has
  v = f(0) - f(3) = (1, -1, 1): ⟨θ*, v⟩ = 0, v ∉ col Zᵀ = span{e1, e2}, Z v = (1, -1) ≠ 0 — an
  open tie.  ∇ℓ(0) = -(5/6, 1/3, 0), β = 2, θ_1 = (5/12, 1/6, 0), ⟨θ_1, v⟩ = 1/4.  Along
  gradient descent θ_k = (a_k, b_k, 0) with ℓ ≈ 2e^{-a} + e^{-b}, so e^{a_k} ≈ 2ηk, e^{b_k} ≈ ηk
  and ⟨θ_k, v⟩ = a_k - b_k → log 2 > 0 (the residual equation gives Σ c_s log(n_s/λ_s) =
  log(2/1) - log(1/1)).  Row 3 is won in the limit: lim acc_4(θ_k) = 1 > α_4 = 3/4.  The
  estimates are elementary (e^{a_k} = 2ηk + O(log k), e^{b_k} = ηk + O(log k), for every step
  η > 0; written out on the docs' Conjecture page, checked by
  :func:`posreal.checks.symbolic.derive_log2_tie`): a counterexample to the Conjecture as
  formalized, with no residual theorem needed.  QED.
* :data:`ORTHOGONAL_TIE` — relative table f(0) = 0, f(1) = (-1, 0), f(2) = (0, 1), ``offset:0``,
  L0 = 2, L = 3: Z = {e1}, θ* = e1, row 2's v = f(0) - f(2) = (0, -1) ⊥ col Zᵀ: ⟨θ_k, v⟩ = 0 for
  every k (the known, proven case).
"""

from __future__ import annotations

from posreal.theory.random_instances import Instance

LOG2_TIE = Instance(index=0, family="designed", pe="logtwo", task="offset:0", train_length=3, length=4,
                    table=((0, 0, 0), (-1, 0, 0), (0, -1, 0), (-1, 1, -1)), table_kind="relative")
ORTHOGONAL_TIE = Instance(index=1, family="designed", pe="orthotie", task="offset:0", train_length=2, length=3,
                          table=((0, 0), (-1, 0), (0, 1)), table_kind="relative")
