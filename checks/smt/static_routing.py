"""The enumeration check of the static routing bound.

Claim ``expressivity``, method ``enumeration``: β = 1 for every registry positional task, β < 1 on every row of ``sort``
and ``addition``, from :func:`posreal.theory.expressivity.static_routing_bound`.

Controls: ``permutation`` (content-independent, must give β = 1 — if not, the check is wrong)
and, as the negative control, ``successor`` (F(x)_i = x_i + 1 mod V: the positional hypothesis
dropped) which must give β < 1, i.e. refute "β = 1".  One Monte Carlo instance beyond the
enumeration limit (seeded) must show β̂_i + 5·SE < 1 on every row.  (Lives in ``posreal.checks.smt``
for file ownership; it runs no solver.)
"""

from __future__ import annotations

from collections.abc import Callable

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, SolverChoice, timed
from posreal.theory.expressivity import DEFAULT_SEED, static_routing_bound
from posreal.theory.defaults import REGISTRY_TASKS

CLAIM = "expressivity"   # part (a) of the Expressivity bound, checked by enumeration (no solver)
POSITIONAL_CASES = [(spec, n, V) for spec in REGISTRY_TASKS + ("dual:copy", "dual:middle") for n, V in ((5, 2), (6, 3))]
CONTENT_CASES = [("sort", 2, 2), ("sort", 4, 3), ("sort", 6, 2), ("addition", 2, 2), ("addition", 4, 3),
                 ("addition", 6, 2)]
MONTE_CARLO = ("addition", 8, 10, 100_000)   # 10^8 inputs: beyond enumeration


def beta_check() -> CheckResult:
    """The enumeration check of the static routing bound, with its negative control."""
    def body() -> CheckResult:
        lines, bad, data = [], [], {}
        for spec, n, V in POSITIONAL_CASES:
            res = static_routing_bound(spec, n, V, method="enumeration")
            data[f"{spec} n={n} V={V}"] = res.to_json()["beta"]
            if res.rows and not all(b == 1 for b in res.beta):
                bad.append(f"{spec} (n={n}, V={V}) has β = {[str(b) for b in res.beta]} — expected 1")
        lines.append(f"positional tasks: β = 1 on every row in "
                     f"{len(POSITIONAL_CASES) - len(bad)}/{len(POSITIONAL_CASES)} cases")
        for spec, n, V in CONTENT_CASES:
            res = static_routing_bound(spec, n, V, method="enumeration")
            data[f"{spec} n={n} V={V}"] = res.to_json()["beta"]
            if not all(b < 1 for b in res.beta):
                bad.append(f"{spec} (n={n}, V={V}) has a row with β = 1: {[str(b) for b in res.beta]}")
            lines.append(f"{spec} n={n} V={V}: max β = {max(res.beta)}")
        spec, n, V, samples = MONTE_CARLO
        mc = static_routing_bound(spec, n, V, method="monte-carlo", samples=samples, seed=DEFAULT_SEED)
        data[f"{spec} n={n} V={V} monte-carlo"] = mc.to_json()
        upper = max(b + 5 * se for b, se in zip(mc.beta, mc.stderr))
        if not upper < 1:
            bad.append(f"Monte Carlo {spec} n={n} V={V}: β̂ + 5·SE reaches {upper:.4f}")
        lines.append(f"Monte Carlo {spec} n={n} V={V} (seed {DEFAULT_SEED}, {samples} samples): "
                     f"max β̂ = {max(mc.beta):.4f}, max β̂ + 5·SE = {upper:.4f}")
        perm = static_routing_bound("permutation", 5, 3, method="enumeration")
        if not all(b == 1 for b in perm.beta):
            bad.append(f"control permutation gave β = {[str(b) for b in perm.beta]} (must be 1)")
        lines.append(f"control permutation (content-independent): β = {sorted({str(b) for b in perm.beta})}")
        succ = static_routing_bound("successor", 5, 3, method="enumeration")
        refuted = any(b < 1 for b in succ.beta)
        lines.append(f"negative control successor (positional hypothesis dropped): β = "
                     f"{[str(b) for b in succ.beta]} — {'refutes' if refuted else 'does not refute'} β = 1")
        verdict = FAILED if bad else PASSED
        return CheckResult("expressivity",
                           "static routing bound: β = 1 for positional tasks, β < 1 for sort and addition",
                           "enumeration", verdict, Control.COUNTEREXAMPLE if refuted else Control.NO_COUNTEREXAMPLE,
                           detail="; ".join(bad + lines), data=data)

    return timed(body)


def static_routing_enumeration() -> CheckResult:
    """The runner's callable (its name tells the runner the method is ``enumeration``)."""
    return beta_check()


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The β enumeration (no solver: ``choice`` does not change it)."""
    return [static_routing_enumeration]
