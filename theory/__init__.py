"""posreal's theory package: definitions and computations of THEORY.md §1 (no z3 here).

Public API: :func:`parse_pe`, :func:`parse_task`, :func:`register_pe`, :func:`select` (θ*),
:func:`transfer` (T_L θ), :func:`compute_alpha` (α_L), :func:`alpha_sweep`,
:func:`gradient_descent`.
"""

from theory.encodings import dual_pe, parse_pe, register_pe, unregister_pe
from theory.errors import PosrealError, SpecError
from theory.kernels import exact_transfer, naive_kernel_matrix, transfer
from theory.selection import Selection, select
from theory.tasks import dual_task, parse_task
from theory.training import gradient_descent
from theory.alpha import AlphaResult, alpha_sweep, compute_alpha, row_outcomes

__all__ = [
    "AlphaResult", "PosrealError", "Selection", "SpecError", "alpha_sweep", "compute_alpha", "dual_pe",
    "dual_task", "exact_transfer", "gradient_descent", "naive_kernel_matrix", "parse_pe", "parse_task",
    "register_pe", "row_outcomes", "select", "transfer", "unregister_pe",
]
