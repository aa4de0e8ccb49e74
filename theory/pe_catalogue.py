"""The catalogue of PE spec forms: formula, kind, parameters and reference of every PE (``posreal pes``).

Standard library only, so the command line lists it without loading numpy.  Each
:class:`CatalogueEntry` names a spec form, its older names (aliases: they parse to the same encoding
and print as they were written), the kind of ψ, the formula, the parameters with their defaults, what
θ ranges over, whether exact mode applies, and the paper it follows.  The formulas are those of the
docs' Definitions page (definitions.md#linear-pe, #published-pe, #fixed-bias, #feature-tables,
#function-pe); tests parse every ``example`` with :func:`posreal.theory.pe_specs.parse_pe` and check
its kind, rationality and θ range against the entry.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Parameter:
    """One parameter of a spec form."""

    name: str
    meaning: str
    default: str


@dataclass(frozen=True)
class CatalogueEntry:
    """One spec form of the PE registry (or of a user PE)."""

    form: str                       # e.g. "t5[:B[:M]]"
    kind: str                       # relative, column, bilinear, general, "the shear's", "—"
    formula: str                    # ψ(i, j), n = i - j
    parameters: tuple[Parameter, ...]
    theta: str                      # what θ ranges over
    exact: str                      # whether --exact applies: yes, no, or when
    reference: str
    example: str | None             # a spec that parses (None: needs a file or a module)
    aliases: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return asdict(self)


_FREQ = Parameter("base", "base of the frequencies ω_f = base^(-2f/d), f = 0..d/2-1", "10000")
_WIDTH = Parameter("d", "width: an even number of features", "—")

CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("nope", "relative", "ψ(i, j) = () (p = 0): κ ≡ 0", (), "—", "yes",
                   "no positional encoding (as in Kazemnejad et al. 2023, NeurIPS)", "nope"),
    CatalogueEntry(
        "clipped[:D]", "relative", "ψ(i, j) = one-hot of min(n, D)",
        (Parameter("D", "last bucket: offsets ≥ D share it", "L0 - 1"),), "θ ∈ ℝ^(D+1)", "yes",
        "the project's idealization of T5's buckets (Raffel et al. 2020): exact offsets, clipped at D",
        "clipped", ("relbias[:D]",)),
    CatalogueEntry(
        "colbias[:D]", "column", "ψ(i, j) = one-hot of min(j, D)",
        (Parameter("D", "last bucket: positions ≥ D share it", "L0 - 1"),), "θ ∈ ℝ^(D+1)", "yes",
        "the column mirror of clipped (Proposition 4)", "colbias"),
    CatalogueEntry(
        "slope", "relative", "ψ(i, j) = [-n]: κ = θ·(-n), one learned slope of either sign", (), "θ ∈ ℝ", "yes",
        "ALiBi's linear bias (Press, Smith & Lewis 2022) with a free slope; the paper's fixed slopes are "
        "alibi-fixed", "slope", ("alibi",)),
    CatalogueEntry(
        "t5[:B[:M]]", "relative",
        "ψ(i, j) = one-hot of bucket(n): with e = ⌊B/2⌋, bucket(n) = n if n < e, else "
        "min(B - 1, e + ⌊(B - e) · log(n/e) / log(M/e)⌋) (the floor taken exactly)",
        (Parameter("B", "number of buckets (2..1024)", "32"),
         Parameter("M", "max distance: offsets ≥ M share the last bucket (M > B/2)", "128")),
        "θ ∈ ℝ^B", "yes",
        "Raffel et al. 2020, 'Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer', "
        "JMLR 21: the unidirectional (causal) relative-position buckets", "t5"),
    CatalogueEntry(
        "alibi-fixed[:H[:h]]", "relative",
        "ψ(i, j) = [-m_h n] with m_h = 2^(-8h/H) fixed: κ = c·(-m_h n), one positive scale c",
        (Parameter("H", "number of heads", "8"), Parameter("h", "the head (1..H)", "1")),
        "c > 0 (a fixed bias: a row is realized iff the bias realizes it)", "when 8h/H is an integer",
        "Press, Smith & Lewis 2022, 'Train Short, Test Long: Attention with Linear Biases Enables Input Length "
        "Extrapolation', ICLR", "alibi-fixed"),
    CatalogueEntry(
        "kerple-log[:r]", "relative",
        "ψ(i, j) = [-log(1 + r n)], inner scale r fixed: κ = c·(-log(1 + r n)), c > 0 learned",
        (Parameter("r", "inner scale r₂ of the logarithmic kernel (> 0)", "1"),),
        "c > 0 (a fixed bias: a row is realized iff the bias realizes it)", "no (certified mode)",
        "Chi, Fan, Ramadge & Rudnicky 2022, 'KERPLE: Kernelized Relative Positional Embedding for Length "
        "Extrapolation', NeurIPS: the logarithmic variant -r₁ log(1 + r₂ n)", "kerple-log"),
    CatalogueEntry(
        "rope:d[:base]", "relative", "ψ(i, j) = [cos ω_f n]_f ++ [sin ω_f n]_f", (_WIDTH, _FREQ), "θ ∈ ℝ^d",
        "no (certified mode)", "Su et al. 2021, 'RoFormer' (RoPE), reduced to its positional part", "rope:16"),
    CatalogueEntry(
        "xpos:d[:base[:scale]]", "relative",
        "ψ(i, j) = [ζ_f^(n/γ) cos ω_f n]_f ++ [ζ_f^(n/γ) sin ω_f n]_f with ζ_f = (2f + 0.4 d)/(1.4 d), γ = scale",
        (_WIDTH, _FREQ, Parameter("scale", "γ, the decay's scale base", "512")), "θ ∈ ℝ^d",
        "no (certified mode)",
        "Sun et al. 2023, 'A Length-Extrapolatable Transformer', ACL: RoPE with a per-frequency exponential "
        "decay (causal only: ζ_f < 1 and n ≥ 0)", "xpos:16"),
    CatalogueEntry(
        "abscol:d[:base]", "column", "ψ(i, j) = φ(j), φ(x) = [sin ω_f x]_f ++ [cos ω_f x]_f", (_WIDTH, _FREQ),
        "θ ∈ ℝ^d", "no (certified mode)", "Vaswani et al. 2017's sinusoids, read by a column kernel", "abscol:16"),
    CatalogueEntry(
        "abssin:d[:base]", "bilinear", "ψ(i, j) = vec(φ(i) φ(j)ᵀ): κ(i, j) = φ(i)ᵀ W φ(j)", (_WIDTH, _FREQ),
        "θ = W ∈ ℝ^(d×d)",
        "no (certified mode)", "Vaswani et al. 2017's sinusoidal absolute PE in a positional-only head", "abssin:16"),
    CatalogueEntry(
        "fire[:K[:T]]", "general",
        "ψ(i, j) = [h_k(u)]_k with u = log(1 + n) / log(1 + max(T, i)) and h_k(u) = max(0, 1 - |(K - 1)u - k|), "
        "k = 0..K-1: f(u) = Σ θ_k h_k(u) is piecewise linear with K knots on [0, 1]",
        (Parameter("K", "knots of the piecewise-linear f (2..1024)", "8"),
         Parameter("T", "threshold of the progressive interpolation", "L0")),
        "θ ∈ ℝ^K", "no (certified mode)",
        "Li et al. 2024, 'Functional Interpolation for Relative Positions Improves Long Context Transformers', "
        "ICLR: f_θ(ψ(i - j)/ψ(max(L, i))), ψ(x) = log(cx + 1), with c = 1 and f in a fixed basis",
        "fire"),
    CatalogueEntry(
        "dual:PE", "the shear's: relative ↔ column", "ψ(i, j) = ψ_PE(i, i - j)",
        (Parameter("PE", "any linear PE", "—"),),
        "as PE", "as PE", "Proposition 4 (absolute/relative duality)", "dual:t5"),
    CatalogueEntry(
        "table:PATH", "relative, column or general (the file's kind)",
        "ψ(i, j) = rows[n], rows[j] or rows[i][j] of a JSON feature table",
        (Parameter("PATH", "a JSON table file", "—"),),
        "θ ∈ ℝ^p", "when every entry is an integer or a rational string", "your own PE as a table", None),
    CatalogueEntry(
        "py:MODULE:FUNCTION", "--pe-kind: relative, column or general",
        "ψ(i, j) = FUNCTION(n), FUNCTION(j) or FUNCTION(i, j), called on int64 arrays of shape (m,), returning (m, p)",
        (Parameter("--pe-kind", "relative, column or general", "—"), Parameter("--pe-width", "p", "—")),
        "θ ∈ ℝ^p", "when the function returns ints or Fractions", "your own PE as a Python function "
        "(register_pe(name, psi=f, kind=..., width=p) from Python)", None),
    CatalogueEntry(
        "hf:CONFIG.json", "relative",
        "a model's RoPE: rope:d:b with d = head_dim × partial_rotary_factor and b = rope_theta (proportional: the "
        "rotated pairs with exponents over the head width); its rope_scaling is the default --extension and its "
        "original_max_position_embeddings the default L0",
        (Parameter("CONFIG.json", "a transformers config.json (examples/configs/ has six real ones)", "—"),),
        "θ ∈ ℝ^d", "no (float: the config's frequencies)",
        "transformers' config format and rope_scaling types ('posreal extensions' lists them)", None),
    CatalogueEntry(
        "learned:d", "—", "κ(i, j) = E_iᵀ W E_j with a learned table E: not linear in one θ",
        (Parameter("d", "width of the position table", "—"),), "—", "—",
        "learned absolute PEs: their α_L is an interval (Underdetermination)", None),
)
"""Every spec form, in the order ``posreal pes`` prints them."""
