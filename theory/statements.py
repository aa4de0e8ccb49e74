"""The results of the docs' Definitions page (definitions.md#results), each declared once as a data
object with a stable id.

Main definitions:

* :class:`Statement` — id, name, status (``theorem`` / ``conjecture`` / ``refuted``), the anchor of
  the Definitions page that states it (``definitions.md#theorem-1``, shown by ``posreal check
  --json``), hypotheses, conclusion, the symbols it uses, the check methods that cover it, and ``uses``: the
  definitions (:data:`posreal.theory.dependencies.DEFINITIONS`) and results its proof uses;
* :data:`STATEMENTS` — ``theorem1``, ``theorem2``, ``proposition4``, ``underdetermination``,
  ``expressivity``, ``conjecture`` (refuted in its open case), ``conjecture-limit`` (Conjecture′,
  its corrected form with α♯_L), ``geometry``, ``extension`` (what each length-extension method keeps),
  ``escape-depth``, ``escape-content``, ``escape-induction``, ``escape-averaging`` (what escapes the
  positional theory)
  (in that order);
* :func:`statement` — look a result up by id (one-line :class:`SpecError` for an unknown id).

This is the one source of each statement's text: the docs render it onto the Definitions page and into
each result's page (``docs/hooks/statements_render.py``), and draw the graph of ``uses`` (the blueprint).
Checks (``checks/``), tests, the CLI (``posreal check``) and the docs' claims table refer to a
result only through its id.  The wording is this project's formalization of the preprint's
abstract, not the preprint's own text.
"""

from __future__ import annotations

from dataclasses import dataclass

from posreal.theory.errors import bad_value

THEOREM, CONJECTURE, REFUTED = "theorem", "conjecture", "refuted"
METHODS = ("smt", "symbolic", "property", "registry", "training", "enumeration", "dynamics")


@dataclass(frozen=True)
class CoqNames:
    """The Coq theorems of ``proofs/FILE`` that state a result over all lengths, and its negative controls (proved
    negations on concrete instances, one hypothesis dropped or weakened).  ``posreal.checks.coq_concordance`` reads
    them; ``posreal check`` kernel-checks them (method ``coq``)."""

    file: str                       # inside proofs/, e.g. "Theorem2.v"
    results: tuple[str, ...]
    controls: tuple[str, ...]

    def to_json(self) -> dict:
        return {"file": self.file, "results": list(self.results), "controls": list(self.controls)}


@dataclass(frozen=True)
class Statement:
    """One result: what it assumes, what it concludes, and how the project checks it."""

    id: str
    name: str
    status: str                             # "theorem" | "conjecture" | "refuted"
    section: str                            # anchor of the Definitions page that states it
    hypotheses: tuple[str, ...]
    conclusion: str
    symbols: tuple[tuple[str, str], ...]    # (symbol, meaning)
    checks: tuple[str, ...]                 # check methods covering it (subset of METHODS)
    notes: str = ""
    uses: tuple[str, ...] = ()              # ids of the definitions (theory.dependencies) and results its proof uses
    coq: CoqNames | None = None             # its Coq theorems in proofs/ (None: not stated in Coq)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "status": self.status, "section": self.section,
                "hypotheses": list(self.hypotheses), "conclusion": self.conclusion,
                "symbols": dict(self.symbols), "checks": list(self.checks), "notes": self.notes,
                "uses": list(self.uses), "coq": None if self.coq is None else self.coq.to_json()}


_SECTION = "definitions.md#"   # + the anchor of the result on the Definitions page

STATEMENTS: dict[str, Statement] = {s.id: s for s in (
    Statement(
        id="theorem1",
        name="Theorem 1 (sufficiency)",
        status=THEOREM,
        section=f"{_SECTION}theorem-1",
        hypotheses=(
            "Φ is a linear PE; θ* is the selected parameters at L0 and u = θ*/‖θ*‖",
            "θ_k satisfies ‖θ_k‖ → ∞ and θ_k/‖θ_k‖ → u (finite form: θ = ρ(u + e), ρ > 0, ‖e‖ ≤ ε)",
            "row i of the L-grid has m = |K_L(i)| keys and B = max_{j≤i} ‖ψ(i, j)‖",
        ),
        conclusion=("if γ_i(T_L u) > 0 the attention on t_L(i) tends to 1, if γ_i(T_L u) < 0 it tends to 0; "
                    "finite form: attention ≥ 1/(1 + (m-1)·exp(-ρ(γ_i - 2εB))) when γ_i > 0 and "
                    "≤ exp(-ρ(|γ_i| - 2εB)) when γ_i < 0; hence α_L = 1 implies length generalization to L"),
        symbols=(("θ_k", "gradient-descent iterates at L0"), ("u", "θ*/‖θ*‖"), ("ρ", "scale of θ"),
                 ("e", "direction error, ‖e‖ ≤ ε"), ("B", "max feature norm on row i"),
                 ("m", "number of keys of row i"), ("γ_i", "margin of row i under T_L u")),
        checks=("symbolic", "property", "training"),
        uses=("linear-pe", "margin", "selection", "transfer", "alpha"),
        coq=CoqNames("Theorem1.v",
                     results=("cauchy_schwarz", "theorem1_finite_pos", "theorem1_finite_neg", "theorem1_limit_pos",
                              "theorem1_limit_neg", "alpha_one_generalizes"),
                     controls=("control_direction_error", "control_bounded_scale")),
        notes="rows with γ_i = 0 are not covered (see the conjecture)",
    ),
    Statement(
        id="theorem2",
        name="Theorem 2 (relative deep-row characterization)",
        status=THEOREM,
        section=f"{_SECTION}theorem-2",
        hypotheses=(
            "r is a relative kernel on offsets 0..N-1",
            "r has a strict unique global maximizer δ*: r(δ*) > r(δ) for all δ ≠ δ*",
            "the grid has length n ≤ N; row i is deep if i ≥ δ*",
        ),
        conclusion=("a deep row i is realized for target t iff t = i - δ*; a shallow row i < δ* is realized "
                    "for t iff i - t is the unique maximizer of r on {0..i}; hence τ is realized on every deep "
                    "row of every length iff it agrees with offset:δ* there, position:p has at most one realized "
                    "deep row per length, and each growing registry task has all deep rows realized at finitely "
                    "many lengths at most"),
        symbols=(("r", "relative kernel profile r(δ) = ⟨θ, ψ(δ)⟩"), ("δ*", "unique maximizer of r"),
                 ("N", "number of offsets"), ("n", "grid length")),
        checks=("smt", "property", "registry"),
        uses=("grid", "task", "linear-pe", "margin"),
        coq=CoqNames("Theorem2.v",
                     results=("deep_row_iff", "shallow_row_iff", "deep_rows_iff_offset", "position_one_deep_row",
                              "copy_exact", "middle_exact", "reverse_exact", "half_exact", "copy_bound",
                              "middle_bound", "reverse_bound", "half_bound", "copy_last_row_bound",
                              "middle_last_row_bound", "reverse_last_row_bound", "half_last_row_bound",
                              "copy_last_row_tight", "middle_last_row_tight", "reverse_last_row_tight",
                              "half_last_row_tight", "slope_no_maximizer", "slope_realizes_position0"),
                     controls=("control_deep_weak_max", "control_deep_shallow", "control_position_depth",
                               "control_growing_offset", "control_slope_sign")),
        notes=("where it breaks: alibi with slope favouring the far end (no maximizer) realizes position:0 at "
               "every length; a non-unique maximizer (clipped buckets) makes ties"),
    ),
    Statement(
        id="proposition4",
        name="Proposition 4 (absolute/relative duality)",
        status=THEOREM,
        section=f"{_SECTION}proposition-4",
        hypotheses=(
            "the shear S(i, j) = (i, i - j) on the causal grid",
            "(Sκ)(i, j) = κ(i, i-j); (Sτ)_n(i) = i - t_n(i) on the same rows; ψ_S(i, j) = ψ(i, i-j)",
        ),
        conclusion=("S is an involution; γ_i(Sκ; Sτ) = γ_i(κ; τ); S maps relative PEs to column PEs and back, "
                    "offset:c ↔ position:c, copy ↔ middle, growing tasks to growing tasks; the selected θ* is "
                    "the same, so α_L(SΦ, Sτ) = α_L(Φ, τ) exactly; dually to Theorem 2, a column kernel whose "
                    "unique maximizer is p realizes, on the rows i ≥ p, exactly position:p"),
        symbols=(("S", "the shear"), ("κ", "kernel"), ("τ", "task"), ("Φ", "linear PE")),
        checks=("smt", "property", "registry"),
        uses=("grid", "task", "linear-pe", "margin", "selection", "alpha", "theorem2"),
        coq=CoqNames("Proposition4.v",
                     results=("shear_involution", "shear_task_involution", "shear_keys_onto", "shear_realized",
                              "shear_margin", "relative_to_column", "column_to_relative", "offset_to_position",
                              "position_to_offset", "copy_to_middle", "middle_to_copy", "fixed_offset_iff_position",
                              "growing_to_growing", "sheared_kernel", "same_constraints", "same_selection",
                              "same_row_outcomes", "column_deep_rows"),
                     controls=("control_involution_off_triangle", "control_task_not_sheared",
                               "control_constraints_task_not_sheared", "control_copy_off_rows")),
    ),
    Statement(
        id="underdetermination",
        name="Underdetermination (learned absolute PE)",
        status=THEOREM,
        section=f"{_SECTION}underdetermination",
        hypotheses=(
            "learned:d: κ(i, j) = E_iᵀ W E_j with a learned table E",
            "(W, E_{<L0}) realizes τ at L0 and L > L0; training at lengths ≤ L0 never touches E_j, j ≥ L0",
        ),
        conclusion=("(a) the completion E_j = 0 (j ≥ L0) ties every new row, so α_L = |R_L ∩ [0, L0)|/|R_L| when "
                    "the rows below L0 keep their L0 targets (offset, position, half; otherwise see the notes); "
                    "(b) for position:p with p ≤ L0-2 the completion E_j = E_{L0-1} gives α_L = 1; so α is not "
                    "a function of (Φ, τ) for learned absolute PEs; (c) under random initialization of the "
                    "untrained rows the expected α_L is estimated by seeded Monte Carlo"),
        symbols=(("E", "learned position table, rows E_j ∈ ℝ^d"), ("W", "d×d bilinear form"),
                 ("L0", "train length"), ("L", "test length")),
        checks=("smt", "property", "registry"),
        uses=("task", "learned-pe", "margin", "selection", "alpha"),
        coq=CoqNames("Underdetermination.v",
                     results=("zero_ties_new_rows", "zero_keeps_old_rows", "zero_completion_rows",
                              "realized_target_unique", "copy_zero_completion", "last_completion_position",
                              "not_a_function", "zero_form", "reverse_zero_completion"),
                     controls=("control_position_last_key", "control_copy_moves", "control_zero_form_additivity",
                               "control_reverse_same_length")),
        notes=("(a) as a formula presumes the rows of R_L below L0 keep their L0 targets: true for offset, "
               "position and half; for copy/middle it fails exactly when ⌊L/2⌋ ≠ ⌊L0/2⌋ and L < 2·L0 (L0 = 16, "
               "L = 17 gives 8/9 both ways), for reverse exactly when L0 < L < 2·L0 - 1; where it fails α_L = 0, "
               "and from L = 2·L0 (copy, middle) or 2·L0 - 1 (reverse) on both sides are 0"),
    ),
    Statement(
        id="expressivity",
        name="Expressivity bound (static routing and class ceiling)",
        status=THEOREM,
        section=f"{_SECTION}expressivity",
        hypotheses=(
            "(a) a positional-only head: its attention map depends on n alone; y = F(x), x ~ D",
            "(b) a PE Φ and task τ; T_L ranges over all θ",
        ),
        conclusion=("(a) a hard-attention head's accuracy on row i is at most β_i = max_{j≤i} P[x_j = F(x)_i]; "
                    "positional tasks have β = 1, sorting and addition β < 1; (b) α_L ≤ α*_L(Φ, τ) = max over θ "
                    "of the fraction of R_L realized by T_L θ (maximum feasible subsystem)"),
        symbols=(("β_i", "static-routing ceiling of row i"), ("α*_L", "class ceiling")),
        checks=("smt", "enumeration"),
        uses=("task", "linear-pe", "token-tasks", "transfer", "margin", "alpha"),
        coq=CoqNames("Expressivity.v",
                     results=("static_attention", "static_routing_bound", "positional_beta_full", "middle_one_row"),
                     controls=("control_content_attention", "control_content_route", "control_middle_free_position")),
    ),
    Statement(
        id="conjecture",
        name="Conjecture (deterministic necessity)",
        status=REFUTED,
        section=f"{_SECTION}conjecture",
        hypotheses=(
            "Φ is a deterministic linear PE (fixed feature map ψ) and τ is realizable at L0",
            "gradient descent from θ = 0 with a small enough fixed step on the positional cross-entropy at L0",
        ),
        conclusion=("lim_k acc_L(θ_k) = α_L; in particular α_L < 1 forbids length generalization. Refuted in its open "
                    "case (tie directions v with ⟨θ*, v⟩ = 0 not orthogonal to col Zᵀ) by an unconditional "
                    "counterexample; checked here: the refutation and the parts that hold (non-zero margins, "
                    "structural ties, and orthogonal ties: gradient descent from 0 stays in col Zᵀ, so v ⊥ col Zᵀ "
                    "keeps ⟨θ_k, v⟩ = 0 for every k)"),
        symbols=(("Z", "training differences z = ψ(i, t) - ψ(i, j) at L0"), ("v", "tie direction"),
                 ("acc_L", "fraction of R_L realized by T_L θ_k")),
        checks=("symbolic", "property"),
        uses=("selection", "structural-tie", "alpha", "theorem1"),
        notes=("counterexample (LOG2_TIE, posreal.counterexamples.designed): the relative table f(0) = 0, f(1) = -e1, "
               "f(2) = -e2, f(3) = (-1, 1, -1), offset:0, L0 = 3, L = 4 has α_4 = 3/4, yet the loss is "
               "log(1 + exp(-a)) + log(1 + exp(-a) + exp(-b)), so exp(a_k) = 2ηk + O(log k), exp(b_k) = ηk + O(log k) "
               "and the tie margin a_k - b_k → log 2 > 0: lim acc_4(θ_k) = 1 (elementary; no residual theorem). "
               "The corrected statement is conjecture-limit."),
    ),
    Statement(
        id="conjecture-limit",
        name="Conjecture′ (the limit of gradient descent is α♯)",
        status=CONJECTURE,
        section=f"{_SECTION}conjecture-prime",
        hypotheses=(
            "Φ is a deterministic linear PE and τ is realizable at L0; the ℓ2 geometry (gradient descent)",
            "gradient descent from θ = 0 with a small enough fixed step on the positional cross-entropy at L0",
            "α♯_L: rows with γ_i(T_L θ*) ≠ 0 as in α_L; structural and orthogonal ties lost; an open tie with "
            "direction v decided through the residual levels: by the sign of ⟨θ_k, v⟩ at the first level k ≥ 2 "
            "where it is non-zero; else, when v's projection on col Zᵀ lies in V_1 ⊕ V_2 ⊕ …, by the sign of "
            "Σ_k ⟨w̃_k, v⟩ (max-entropy residuals, exact in ℚ or with a certified bound); lost when a signed "
            "permutation preserving the training rows' differences maps v to -v; otherwise (trajectory-dependent, "
            "zero limit) undecided unless trajectory evidence decides it, and the kind of evidence is reported",
        ),
        conclusion=("lim_k acc_L(θ_k) lies in α♯_L = [wins, wins + undecided]/|R_L|, and equals wins/|R_L| when no "
                    "row is undecided.  Row by row: an open tie's margin ⟨θ_k, v⟩ grows like ⟨θ_k, v⟩ log^(∘k) t at "
                    "the first level k ≥ 2 with ⟨θ_k, v⟩ ≠ 0; otherwise it tends to Σ_k ⟨w̃_k, v⟩ when v's "
                    "projection lies in the sum of the level spans, and to a limit that depends on the path (loss, "
                    "algorithm, step) when it does not"),
        symbols=(("θ_k", "gradient-descent iterates; θ_k = θ* log k + θ_2 log log k + … + Σ_j w̃_j + o(1)"),
                 ("θ_k (level k ≥ 2)", "max-margin vector of the S0 differences of level k - 1 projected on U_{k-1}"),
                 ("S+, S0", "active differences positive in some / in no dual solution λ ∈ Λ"),
                 ("V_k, U_k", "span of the level's S+ vectors; span of its active vectors ⊖ V_k"),
                 ("w̃_k", "max-entropy residual of level k: Σ_{S+} n_{k,s} exp(-⟨w̃_k, u_{k,s}⟩) u_{k,s} = θ_k"),
                 ("n_s", "multiplicity of the difference z_s among the training pairs"),
                 ("λ_s", "dual variables of the hard-margin SVM"), ("α♯_L", "the predicted limit interval")),
        checks=("symbolic", "dynamics", "property"),
        uses=("alpha-sharp", "residual-levels", "trajectory-evidence", "theorem1", "conjecture"),
        notes=("Proved elsewhere: for the exponential and logistic losses on separable data, gradient descent with a "
               "small fixed step converges in direction to the ℓ2 max-margin vector, θ_k = θ* log k + ρ_k, and in the "
               "non-degenerate case (support vectors with positive dual variables) ρ_k converges to w̃ with "
               "η n_s exp(-⟨w̃, z_s⟩) = λ_s (Soudry, Hoffer, Nacson, Gunasekar & Srebro, JMLR 19(70):1-57, 2018); "
               "their treatment of degenerate data adds log log t terms to the residual.  The number of that "
               "theorem was not verified: the project could consult only the paper's bibliographic entry and "
               "opening, not its appendix.  For general data Ji & Telgarsky (2018, 'Risk and parameter convergence "
               "of logistic regression') give the direction rate O(ln ln t / ln t).  "
               "Proved here (exact, in ℚ): the level construction — the S+/S0 split certified by an interior dual "
               "point and a Farkas-type vector, θ_k by its KKT certificate, the optimality condition of the "
               "max-entropy residuals — and the symmetry lemma (a signed permutation preserving the training rows' "
               "differences with Qv = -v keeps ⟨θ_k, v⟩ = 0 for gradient descent at any step and for the flow), "
               "and the designed log-2 instance (elementary proof).  "
               "Derived here, not proved: that the softmax cross-entropy follows the level expansion (level k's "
               "residual is the exponential-loss flow of the projected S0 differences in time log^(∘(k-1)) t, with "
               "weights n_s exp(-Σ_{j<k} ⟨w̃_j, z_s⟩)).  "
               "Only checked: (dynamics) α♯'s closed forms against the gradient flow followed to τ = e^24 in "
               "h = θ - θ* τ and σ = log τ on at least 400 open-tie rows of two seeds, the flow's slope in "
               "log log t against ⟨θ_2, v⟩, and the rescaling of the non-active pairs (closed-form limits stay, "
               "trajectory-dependent ones move); (symbolic) the designed max-entropy, second-level and symmetric "
               "ties with their controls; (property) acc_L at the flow's horizon lies in α♯_L on random tables.  "
               "Open: trajectory-dependent rows (no function of the support data decides them; only trajectory "
               "evidence, per loss, algorithm and step), genuine zero limits (the margin decays like t^(-r) and the "
               "next order decides), and the expansion itself for the softmax loss"),
    ),
)}

STATEMENTS["geometry"] = Statement(
    id="geometry",
    name="Geometry (the prediction for another optimizer's implicit bias)",
    status=THEOREM,
    section=f"{_SECTION}geometry",
    hypotheses=(
        "Φ is a linear PE and τ is realizable at L0 (Zθ ≥ 1 is feasible; this does not depend on the norm)",
        "θ*_q = argmin ‖θ‖_q subject to Zθ ≥ 1 for q ∈ {2, ∞, 1}; F_q is its set of minimizers (the optimal "
        "face; for q = 2 the single point θ*)",
        "θ_k: steepest descent with respect to ‖·‖_q on the positional cross-entropy at L0 from θ = 0 "
        "(q = 2: gradient descent; q = ∞: sign descent; q = 1: coordinate descent)",
    ),
    conclusion=("θ_k eventually realizes every row of R_L that every θ ∈ F_q realizes with a positive margin, "
                "and eventually loses every row that every θ ∈ F_q loses; hence acc_L(θ_k) ends in "
                "[α^lo_L, α^hi_L] (every / some θ ∈ F_q, per row) up to the rows with a zero margin somewhere "
                "on the face"),
    symbols=(("q", "the norm: 2, ∞ or 1"), ("Z", "training differences z = ψ(i, t) - ψ(i, j) at L0"),
             ("F_q", "optimal face of min ‖θ‖_q s.t. Zθ ≥ 1"),
             ("α^lo_L, α^hi_L", "fraction of R_L realized by every / by some θ ∈ F_q")),
    checks=("property", "registry"),
    uses=("selection-q", "alpha-q", "theorem1"),
    notes=("Proved elsewhere, not here: steepest descent in a norm converges in direction to that norm's "
           "max-margin solution on separable data (Gunasekar, Lee, Soudry & Srebro, ICML 2018); full-batch "
           "Adam converges to the ℓ∞ one (Zhang, Zou & Cao, NeurIPS 2024); Signum does too at any batch size, "
           "mini-batch Adam can deviate (Baek, Song & Yun, 2025). Given that convergence, the row statement "
           "is Theorem 1's argument with θ*_q in place of θ*. The project only checks: (property) the late "
           "iterates of the three descents on random small integer tables against θ*_q when F_q is one point, "
           "with a margin gap, after finitely many steps; (registry) that θ*_∞ and θ*_1 are LP-optimal in ℚ "
           "on every realizable rational registry cell and that the LP is infeasible exactly where the ℓ2 "
           "selection is. No SMT statement fits: the claim is about the limit of an iteration."),
)

STATEMENTS["extension"] = Statement(
    id="extension",
    name="Length extension (what position interpolation, NTK and YaRN keep)",
    status=THEOREM,
    section=f"{_SECTION}length-extension",
    hypotheses=(
        "Φ is rope:d[:base] (key index k = i - j) or abscol:d[:base] (k = j), or a shear of one; θ (θ* is selected "
        "at L0 without extension) defines the continuous profile V(x) = Σ_f a_f cos ω_f x + b_f sin ω_f x on real x, "
        "whose values at the integers are the kernel at L0; V_f is its frequency-f term",
        "a length extension σ rescales ω_f to ω_f/λ_f(s), s = L/L0 > 1, so key index k of the L-grid carries "
        "V^σ(k) = Σ_f V_f(k/λ_f(s)); under PI (λ_f = s) that is V(x_k), x_k = k·L0/L",
        "by target key index: copy (rope) and middle (abscol) target k = ⌊L/2⌋; offset:c (rope) and position:c "
        "(abscol) target k = c; position:p (rope) and offset:p (abscol) target k = i - p",
    ),
    conclusion=(
        "(a) PI: row i of R_L is realized iff V(x_t) > V(x_k) for every other key k ≤ i — a finite set of rationals "
        "x_k = k·L0/L in [0, L0); every rational x ∈ [0, L0) is a key of the last row at some even L. "
        "(b) PI, copy/middle, L0 even: at every even L the target sits at x = L0/2, so every row of R_L is realized "
        "at every even L ≥ L0 iff V(L0/2) > V(x) for every rational x ∈ [0, L0) other than L0/2 — a condition on V "
        "between the integer offsets, which training never sees (it forces V'(L0/2) = 0); at odd L the target sits "
        "at L0/2 - L0/2L and key ⌊L/2⌋+1 at L0/2 + L0/2L, so each row i > ⌊L/2⌋ needs "
        "V(L0/2 - L0/2L) > V(L0/2 + L0/2L). "
        "(c) PI, target index c ≥ 1 (fixed offsets of rope, fixed positions of abscol): if V' has one strict sign on "
        "[0, (c+1)L0/L] — in particular once L > L_c = (c+1)·L0·M2/|V'(0)|, M2 = Σ_f ω_f²‖(a_f, b_f)‖ — no row "
        "i ≥ c+1 is realized and row c is realized iff V'(0) > 0: α_L^pi = [V'(0) > 0]/(L - c) → 0. Target "
        "index 0: realized on every row of every L iff V(0) > V(x) for every rational x ∈ (0, L0). "
        "(d) PI, target index i - p (fixed positions of rope, fixed offsets of abscol): p = 0 is realized on every "
        "row of every L iff V is strictly increasing on the rationals of [0, L0) (training sees only "
        "V(0) < V(1) < … < V(L0-1)); for p ≥ 1 a realized row i > p has a local maximum of V in "
        "((i-p-1)L0/L, (i-p+1)L0/L), and realized targets are at least two keys apart, so α_L^pi ≤ (1 + m)/(L - p) "
        "with m the number of local maxima of V in (0, L0) (kernel-checked; the bound first stated, (1 + 2m)/(L - p), "
        "is looser). "
        "(e) NTK and YaRN split the frequencies: NTK has λ_0 = 1 (ω_0 extrapolated: its term is the one of T_L) and "
        "λ_{d/2-1} = s (interpolated as by PI), 1 < λ_f < s between (d ≥ 4); YaRN has λ_f = 1 iff "
        "r_f = L0·ω_f/2π ≥ β = 32 and λ_f = s iff r_f ≤ α = 1, a ramp between — as r_f ≤ L0/2π, YaRN extrapolates "
        "no frequency fully when L0 < 2πβ ≈ 201. If θ has weight only on frequencies with λ_f = 1, α^σ_L = α_L "
        "(T_L); only on frequencies with λ_f = s, α^σ_L = α^pi_L. "
        "(f) What the split keeps: for a task whose rows and targets do not depend on n, a row i < L0 that θ "
        "realizes at L0 with margin γ_i stays realized under σ whenever 2i·Δ_σ(s) < γ_i, where "
        "Δ_σ(s) = Σ_f ω_f‖(a_f, b_f)‖·|1 - 1/λ_f(s)|: an extrapolated frequency adds nothing, an interpolated one "
        "ω_f‖(a_f, b_f)‖(1 - 1/s), so NTK, which leaves ω_0 alone, keeps the trained rows of fixed offsets that PI "
        "(the largest Δ) can lose; growing tasks put their targets at k ≥ L/2 ≥ L0, where the extrapolated terms "
        "are evaluated at offsets never trained, as under T_L"
    ),
    symbols=(("V", "continuous profile of θ, V(x) = ⟨θ, ψ(x)⟩ on real key index x"),
             ("s", "L/L0"), ("λ_f(s)", "rescaling factor of frequency f: ω_f → ω_f/λ_f"),
             ("x_k", "k·L0/L, the rescaled key index under PI"),
             ("M2", "Σ_f ω_f²‖(a_f, b_f)‖, a bound on |V''|"), ("r_f", "L0·ω_f/2π, periods of ω_f within L0"),
             ("Δ_σ(s)", "Σ_f ω_f‖(a_f, b_f)‖·|1 - 1/λ_f(s)|: how far σ moves V per unit of key index")),
    checks=("smt", "property", "registry"),
    uses=("task", "linear-pe", "margin", "selection", "extension-transfer", "alpha"),
    coq=CoqNames("Extension.v",
                 results=("xk_range", "pi_dense", "pi_copy_even", "pi_copy_even_necessary", "pi_copy_odd",
                          "pi_offset_increasing", "pi_offset_decreasing", "pi_offset_derivative", "pi_position0_iff",
                          "pi_position0_reals", "pi_position_local_max", "ntk_split", "yarn_split", "keep_rows",
                          "pi_offset_threshold_pos", "pi_offset_threshold_neg", "pi_offset0_iff", "split_extrapolated",
                          "split_interpolated", "pi_position_rows_bound", "pi_position_alpha_bound",
                          "transfer_moves_key", "keep_rows_sigma"),
                 controls=("control_copy_odd", "control_offset_peak", "control_position_integers",
                           "control_ntk_identity", "control_keep_bound", "control_offset_threshold",
                           "control_offset0_integers", "control_split_mixed", "control_position_discontinuous",
                           "control_keep_sigma_frequency_sign")),
    notes=("Where each part breaks. (b) at odd L: θ* of rope:32 · copy at L0 = 32 is symmetric about 16 (its sine "
           "terms about 16 vanish to rounding), so every row i > ⌊L/2⌋ ties at every odd L (α^pi_1023 = 1/512, "
           "511 rows undecided in float, while α^pi_1024 = 1); with L0 odd the target ⌊L/2⌋·L0/L is never a "
           "trained offset. (c) needs V'(0) ≠ 0 (otherwise the first non-zero derivative decides, with another "
           "threshold): rope:32 · offset:1 at L0 = 32 has α^pi_1024 = 1/1023. (d) p = 0 holds for rope:16 · "
           "position:0 (α^pi = 1 at every length, against 0.113 under T_L at L = 256). (e) and (f) bound only "
           "rows below L0: rows at or above L0 see keys never trained — rope:32 · offset:8 under NTK at L = 1024 "
           "keeps 0.155 while offset:1 keeps 1; YaRN at L0 = 16 moves ω_0 only 5 % of the way back toward "
           "extrapolation, yet that alone loses copy (rope:16 · copy: α^pi_256 = 1, α^yarn_256 = 0.008). "
           "α = 1 under PI also comes with small margins: near a smooth maximum the neighbouring keys are "
           "L0/L apart, so the margins shrink like (L0/L)² and a trained head of finite norm attends to the "
           "right key with a diffuse softmax. The bilinear abssin is outside (a)–(f). YaRN's temperature "
           "multiplies the kernel by (0.1 ln s + 1)² > 0: it changes no realized row, only the sharpness."),
)


# What escapes the positional theory (definitions.md#what-escapes): depth alone does not, content does, and the
# induction circuit turns copy into offset:1 plus content.  Soft averaging (E4) is not encoded (a note below).
STATEMENTS["escape-depth"] = Statement(
    id="escape-depth",
    name="E1 (depth alone does not escape: the route lemma and β^(K))",
    status=THEOREM,
    section=f"{_SECTION}escape-depth",
    hypotheses=(
        "K positional-only hard-attention layers with a residual stream: layer k routes row i to route_k(i) ≤ i, a "
        "function of (n, i) alone, and appends to row i the stream of row route_k(i)",
        "y = F(x) with x uniform on {0..V-1}^n; output row i may read the positions visible(i)",
    ),
    conclusion=("the stream of row i after K layers is a function of x restricted to S_K(i), S_0(i) = {i}, "
                "S_k(i) = S_{k-1}(i) ∪ S_{k-1}(route_k(i)) ⊆ {0..i}, |S_K(i)| ≤ 2^K, and S_K depends on (n, i) only; "
                "hence any readout's accuracy on row i is at most β_i^(K) = max_{|S| ≤ 2^K} (Bayes accuracy of "
                "F(x)_i from x_S), and sorting and addition have β^(K) < 1 on some row once n outgrows 2^K"),
    symbols=(("route_k", "layer k's static route map"), ("S_K(i)", "positions read by row i after K layers"),
             ("β_i^(K)", "Bayes accuracy of F(x)_i from the best 2^K positions")),
    checks=("smt", "property", "enumeration"),
    uses=("token-tasks", "expressivity"),
    coq=CoqNames("EscapeDepth.v",
                 results=("route_lemma", "reads_causal", "reads_length", "reads_card", "readout_factors",
                          "depth_accuracy_bound", "needs_sensitive_position", "depth_sensitivity_bound",
                          "prefix_parity_escapes_depth", "sort_last_escapes_depth", "addition_carry_escapes_depth"),
                 controls=("control_token_route", "control_noncausal_route")),
    notes=("The SMT proof is the induction step for every n and K (two inputs agreeing on S_K(i) ∪ S_K(route(i)) "
           "give equal streams); the size bound is |A ∪ B| ≤ |A| + |B|, checked with the step by simulating random "
           "route maps. β^(0) with a readout is at least the static β of the Expressivity bound (no readout)."),
)

STATEMENTS["escape-content"] = Statement(
    id="escape-content",
    name="E2 (content escapes: match by a content head, and where a growing positional part overrides it)",
    status=THEOREM,
    section=f"{_SECTION}escape-content",
    hypotheses=(
        "s(i, j) = r(i - j) + β·[x_i = x_j] for keys j ≤ i, hard attention (the unique maximizer)",
        "task match: rows i whose token occurred before; target t = the latest j < i with x_j = x_i, δ_t = i - t",
        "a vocabulary of at least two tokens (every pattern of matching and non-matching keys occurs)",
    ),
    conclusion=("row i ≥ 2 is realized on every token sequence that scores it iff (1) r(0) < r(δ) for 1 ≤ δ ≤ i, "
                "(2) r is strictly decreasing on 1..i and (3) β > r(1) - r(i); on one sequence iff r(δ_t) > r(0), "
                "r(δ_t) > r(δ) for the other matching δ and r(δ_t) + β > r(δ) for the non-matching δ; every row of "
                "every length iff (1), (2) for all δ ≥ 1 and β ≥ r(1) - inf_{δ≥1} r(δ). With r(δ) = -μδ (δ ≥ 1), "
                "r(0) = ρ, the first failing row is i* = min(1 + ⌈β/μ⌉, ⌈-ρ/μ⌉) (length i* + 1) when that is at least "
                "2; otherwise row 2 already fails"),
    symbols=(("r", "relative positional part"), ("β", "content weight"), ("δ_t", "offset of the target"),
             ("μ, ρ", "slope and self score of an unbounded positional part")),
    checks=("smt", "property"),
    uses=("token-tasks", "margin"),
    coq=CoqNames("EscapeContent.v",
                 results=("match_exact", "match_one_sequence", "match_every_row", "first_condition_not_necessary",
                          "slope_row_iff", "slope_first_failing_row"),
                 controls=("control_drop_margin", "control_one_token")),
    notes=("The condition first written down, β > max_{δ≤i} r(δ) - min_{δ≤i} r(δ) = r(1) - r(0), is sufficient "
           "and not necessary (r(0) < r(i)): r(δ) = 1/δ, r(0) = -1 needs β ≥ 1, not β > 2."),
)

STATEMENTS["escape-induction"] = Statement(
    id="escape-induction",
    name="E3 (the induction circuit: α^ind from layer 1's offset:1 routes)",
    status=THEOREM,
    section=f"{_SECTION}escape-induction",
    hypotheses=(
        "layer 1: a positional-only head with θ₁ = θ*(Φ, offset:1; L0) transferred by T_L^σ; route₁(j) its unique "
        "maximizer on row j (a tied row counts as a possible route to each of its tied keys)",
        "layer 2: a content head scoring key j by β·[x_i = x_{route₁(j)}], β > 0",
        "induction: n = 2m + 1, m ≥ 2, BOS at 0 equal to no other token, x_1..x_m distinct, x_{m+k} = x_k; rows "
        "i ∈ [m+1, 2m-1], target t = i - m + 1",
    ),
    conclusion=("row i (s = i - m) is realized for every choice of tied routes iff (a) route₁(t) = s, (b) "
                "route₁(i) ≠ i and (c) no other key j ∈ [s, i] has route₁(j) = s; α_L^ind is the fraction of rows so "
                "realized, a function of layer 1's row outcomes alone; α_L(Φ, offset:1) = 1 implies α_L^ind = 1 at "
                "every length; otherwise (a) fails exactly on the rows t ∈ [2, m] where offset:1 fails, so "
                "α_L^ind ≤ (realized offset:1 rows among 2..m)/(m - 1)"),
    symbols=(("route₁", "layer 1's route map under T_L^σ θ*(Φ, offset:1; L0)"),
             ("α_L^ind", "fraction of induction rows the circuit realizes"), ("s", "i - m, the earlier occurrence")),
    checks=("smt", "property", "registry"),
    uses=("token-tasks", "selection", "extension-transfer", "alpha", "escape-content"),
    coq=CoqNames("EscapeInduction.v",
                 results=("circuit_fixed", "circuit_row_iff", "row_b_realized", "alpha_one_implies_induction",
                          "induction_needs_offset1", "induction_count_bound"),
                 controls=("control_weak_alpha", "control_no_bos")),
    notes=("The converse fails: rope:16 at L0 = 16 has α_257(offset:1) = 0.6875 and α_257^ind = 1 (the failing "
           "offset:1 rows are deep second-half rows that route neither to themselves nor to a first-half source)."),
)

STATEMENTS["escape-averaging"] = Statement(
    id="escape-averaging",
    name="E4 (soft averaging: BOS and no PE recover position and counts at every length, margins like 1/n)",
    status=THEOREM,
    section=f"{_SECTION}escape-averaging",
    hypotheses=(
        "tokens x_1..x_i over {0..V-1} after a BOS at position 0 that equals no token; one-hot values, BOS on its "
        "own coordinate",
        "no PE and zero scores: the causal softmax is uniform, so row i reads "
        "h_i = (e_BOS + Σ_{1 ≤ j ≤ i} e_{x_j}) / (i + 1)",
    ),
    conclusion=("at every length, i = 1/h_i[BOS] - 1 and c_a(i) = h_i[a] / h_i[BOS] exactly; two prefixes of row i "
                "with different counts are at ℓ∞ distance at least 1/(i + 1), and rows i < i' differ in the BOS "
                "coordinate by at least 1/((i + 1)(i + 2)), both attained; majority (c_a ≠ c_b, target "
                "[c_a > c_b]) is decided on every row by the fixed readout h_i[a] - h_i[b] with margin at least "
                "1/(i + 1)"),
    symbols=(("h_i", "row i's output under uniform attention"), ("c_a(i)", "occurrences of token a in x_1..x_i"),
             ("e_BOS, e_a", "one-hot values")),
    checks=("enumeration", "symbolic"),
    uses=("token-tasks",),
    notes=("Without BOS, or with a BOS equal to a token, the position is lost: two prefixes of different rows average "
           "to the same vector (the negative control). The margins shrink like 1/n, so a readout with a fixed noise "
           "floor ε loses the rows with 1/(i + 1) ≤ ε."),
)

STATEMENT_IDS: tuple[str, ...] = tuple(STATEMENTS)


def statement(claim_id: str) -> Statement:
    """The statement with this id; one-line :class:`SpecError` naming the accepted ids otherwise."""
    if not isinstance(claim_id, str) or claim_id not in STATEMENTS:
        raise bad_value("claim id", claim_id, ", ".join(STATEMENT_IDS))
    return STATEMENTS[claim_id]
