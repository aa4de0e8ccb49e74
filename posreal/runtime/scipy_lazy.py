"""scipy's solvers, imported on their first call (module ``posreal.runtime.scipy_lazy``).

Importing ``scipy.optimize`` takes about half a second; :mod:`posreal.theory.selection`,
:mod:`posreal.theory.norm_programs` and :mod:`posreal.theory.warm_lp` import these wrappers instead,
so a command that solves no program (``posreal --help``, a trivial ``posreal alpha``) does not pay
for it.  Each wrapper passes its arguments through unchanged and returns scipy's result.
"""

from __future__ import annotations

from typing import Any


def linprog(*args: Any, **kwargs: Any) -> Any:
    """``scipy.optimize.linprog``, loaded on the first call."""
    from scipy.optimize import linprog as solve
    return solve(*args, **kwargs)


def nnls(*args: Any, **kwargs: Any) -> Any:
    """``scipy.optimize.nnls``, loaded on the first call."""
    from scipy.optimize import nnls as solve
    return solve(*args, **kwargs)
