"""The transfer operator T_L: how parameters θ selected at L0 meet the longer L-grid.

Main definitions (definitions.md#transfer-operator):

* :class:`Transfer` is the strategy: given a PE, the evaluation length L and the training length
  L0, it names the encoding whose features the L-grid uses (:meth:`Transfer.at_length`).  θ is
  always selected at L0 with the plain features; a transfer acts at evaluation only;
* :data:`REEVALUATION` (spec ``none``) is the simulation transfer operator of the preprint:
  T_L θ = (⟨θ, ψ(i, j)⟩)_{j ≤ i < L}, the same features at the new positions;
* :func:`transfer` (float) and :func:`exact_transfer` (ℚ, rational PEs) are the validating entry
  points: a kernel in index form (:mod:`posreal.theory.kernels`), never an L×L×p tensor;
* :func:`naive_kernel_matrix` is the dense reference that materializes the features (tests and
  benchmarks only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from posreal.theory.declarations import ExtensionEntry, TransferType, declare_transfer, extension_forms
from posreal.theory.encodings import Encoding, irrational
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.kernels import Kernel
from posreal.theory.pe_specs import parse_pe


@dataclass(frozen=True)
class Transfer:
    """A transfer operator T_L^σ.  ``name`` is its spec (``none`` for plain re-evaluation)."""

    name: str

    def accept(self, pe: Encoding, train_length: int) -> None:
        """Refuse a PE this transfer cannot act on (plain re-evaluation acts on every PE)."""

    def at_length(self, pe: Encoding, length: int, train_length: int) -> Encoding:
        """The encoding whose features T_L^σ evaluates on the ``length``-grid (plain re-evaluation: ``pe``)."""
        return pe

    def logit_scale(self, length: int, train_length: int) -> float:
        """The positive factor the attention logits are multiplied by at this length; 1 for plain re-evaluation.

        A temperature: it changes no realized row, only how sharp the attention is."""
        return 1.0

    def __str__(self) -> str:
        return self.name


REEVALUATION = Transfer("none")
"""T_L: the same parameters re-evaluated on the longer grid, with the same features."""

TRANSFER_FORMS = "none (plain re-evaluation)"


def _reevaluation(name: str, rest: str, spec: str) -> Transfer:
    if rest:
        raise bad_value("extension", spec, extension_forms())
    return REEVALUATION


declare_transfer(TransferType("none", ("none",), _reevaluation, (ExtensionEntry(
    "none", "-", "T_L θ: the same features on the longer grid", "the preprint's T_L"),), rank=0, in_all=("none",)))


def parse_transfer(spec: str | Transfer) -> Transfer:
    """A transfer operator from its spec (``none``); a :class:`Transfer` is returned as it is."""
    if isinstance(spec, Transfer):
        return spec
    if spec == REEVALUATION.name:
        return REEVALUATION
    raise bad_value("transfer", spec, TRANSFER_FORMS)


def check_theta_width(pe: Encoding, width: int, train_length: int) -> None:
    if width != pe.dim(train_length):   # a θ of another width is refused, never truncated
        raise SpecError(f"invalid θ of shape ({width},) for PE {str(pe)!r}; accepted: shape "
                        f"({pe.dim(train_length)},) at train length {train_length}")


def transfer(pe: str | Encoding, theta: np.ndarray | Sequence[float], length: int, train_length: int) -> Kernel:
    """T_L θ for a linear PE (an Encoding or its spec string), float: θ (p,) -> Kernel on the ``length``-grid."""
    pe = parse_pe(pe)
    pe.check_length(length, train_length)
    vec = np.asarray(theta, dtype=float)  # (p,)
    if vec.ndim != 1:
        raise SpecError(f"invalid θ of shape {vec.shape} for PE {str(pe)!r}; accepted: shape "
                        f"({pe.dim(train_length)},) at train length {train_length}")
    check_theta_width(pe, vec.size, train_length)
    return pe.kernel(vec, length, train_length)


def exact_transfer(pe: str | Encoding, theta: Sequence[Fraction], length: int, train_length: int) -> Kernel:
    """T_L θ in ℚ for a rational PE (an Encoding or its spec string): values are Fractions."""
    pe = parse_pe(pe)
    pe.check_length(length, train_length)
    theta = list(theta)
    check_theta_width(pe, len(theta), train_length)
    if not pe.rational:                       # refused here, naming the spec given
        raise irrational(pe)
    return pe.exact_kernel(theta, length, train_length)


def naive_kernel_matrix(pe: str | Encoding, theta: np.ndarray | Sequence[float], length: int,
                        train_length: int) -> np.ndarray:
    """Reference T_L θ straight from the definition: materializes ψ(i, j) for all j ≤ i, i.e. an
    (L, L, p) feature tensor, then contracts with θ.  Dense κ with -inf above the diagonal."""
    pe = parse_pe(pe)
    i, j = np.tril_indices(length)
    feats = pe.pair_features(i, j, train_length)  # (L(L+1)/2, p)
    out = np.full((length, length), -np.inf)
    out[i, j] = feats @ np.asarray(theta, dtype=float)
    return out
