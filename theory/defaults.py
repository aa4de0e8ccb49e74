"""The project's defaults, defined once: the training length L0 and the evaluation lengths L.

Every module, command and docs page that needs a default imports it from here (standard library
only, so the command line can show them without loading numpy).  See the docs' Definitions page,
section "Transfer coefficient".
"""

from __future__ import annotations

import math

TRAIN_LENGTH = 16
"""L0: the training length of the reference values and of every command's default."""

LENGTHS = (32, 64, 128, 256)
"""The evaluation lengths L of the reference values and of ``posreal alpha``/``table``."""

SMT_TIMEOUT = 20.0
"""Seconds per z3 query, unless a caller gives another."""

MAX_CEILING_LENGTH = 64
"""The largest grid length ``posreal ceiling`` accepts (MaxSMT grows quickly with n)."""

TAU_MAX = math.exp(24.0)
"""Largest log-time τ = log t of the trajectory evidence: e^24 ≈ 2.6·10¹⁰, i.e. σ = log τ = log log t = 24,
where a log log t term has moved by O(1) (the flow is integrated in h = θ - θ* τ and σ, see
``posreal.theory.trajectory``)."""

KERNEL_CLASSES = ("relative", "column")
"""Free kernel classes of the class ceiling."""

REGISTRY_PES = ("nope", "relbias", "alibi", "rope:16", "abssin:16", "abscol:16", "colbias")
"""The project's idealized registry PEs with their default parameters (``relbias`` and ``alibi`` are the
older names of ``clipped`` and ``slope``, kept here because the registry cells, their checks and stored
results are spelled so)."""

def __getattr__(name: str) -> tuple[str, ...]:
    """``PUBLISHED_PES`` — the encodings practitioners use, as their papers define them, with their default
    parameters (each published family declares its spec: :func:`posreal.theory.declarations.published_pes`) — and
    ``TAXONOMY_PES`` = REGISTRY_PES + PUBLISHED_PES, the PEs of the taxonomy table (``posreal table`` and the docs'
    Taxonomy page).  Derived on use, so this module stays standard-library only until they are asked for."""
    if name in ("PUBLISHED_PES", "TAXONOMY_PES"):
        from posreal.theory.declarations import published_pes
        return published_pes() if name == "PUBLISHED_PES" else REGISTRY_PES + published_pes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


REGISTRY_TASKS = ("offset:1", "offset:2", "position:0", "position:1", "copy", "middle", "reverse", "half")
"""The tasks of the taxonomy table."""

GEOMETRIES = ("l2", "linf", "l1")
"""Norms of the selection (``--geometry``): ℓ2 (θ*, gradient descent; the default), ℓ∞, ℓ1."""

EXPERIMENT_MEMORY_MIB = 1024
"""Memory budget of ``posreal experiment`` in MiB, shared by its worker processes: the batched
trainer sizes its batches so that the arrays of one batch per worker fit in it."""

EXPERIMENT_STEP_CACHE_MIB = 16
"""Working set of one training step of a batch, in MiB: batches are also capped so that their
per-step arrays stay near this size (about a core's share of a last-level cache).  Larger batches
do not share more work, they only stream from main memory (measured: at (V, d) = (64, 128), 105
models per batch take 1.5× the time per model of 5).  It changes speed, never a record."""

ROWS = 10
"""Failed or undecided rows listed per length by ``posreal alpha --rows`` and ``AlphaResult.failing_rows``."""
