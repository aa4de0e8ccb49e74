"""The ``coq`` check of each claim with Coq proofs (``posreal check``; verdict ``kernel-checked``).

Main definitions:

* :func:`coq_claim_check` — the audit (:func:`posreal.checks.coq.cached_audit`: coqc on every file of
  ``proofs/``, then Print Assumptions on every result) read for one claim through the concordance
  (:data:`posreal.checks.coq_concordance.CONCORDANCE`).  Verdict ``kernel-checked`` when every Coq theorem the
  concordance names for the claim exists, compiled, and rests on no assumption outside
  :data:`posreal.checks.coq.ALLOWED_AXIOMS`; ``failed`` otherwise; ``not run`` without coqc (never a pass).
  The negative control is the claim's ``control_*`` theorems: proved negations on concrete instances, so
  ``counterexample`` ("fails as it should") exactly when all of them are kernel-checked;
* :data:`COQ_CHECKS` — one :class:`~posreal.checks.base.DeclaredCheck` per claim, method ``coq``, whose
  ``unavailable`` says "coqc is not on PATH" when it cannot run (the runner then lists it as not run).

Reference: definitions.md#proved.
"""

from __future__ import annotations

from functools import partial

from posreal.checks import coq
from posreal.checks.base import FAILED, CheckResult, Control, DeclaredCheck, Verdict, timed
from posreal.checks.coq_concordance import CONCORDANCE
from posreal.checks.declare import declare

METHOD = "coq"


def coq_unavailable() -> str:
    """Why the Coq checks cannot run here ("" when they can).

    No coqc, or no proofs/ beside the package (an installed wheel; a source checkout has it)."""
    if not coq.proof_files():
        return f"no Coq files in {coq.PROOFS_DIR} (proofs/ ships with the source repository)"
    return "" if coq.coqc_path() else "coqc is not on PATH (Debian: apt-get install coq)"


def coq_claim_check(claim: str) -> CheckResult:
    """The kernel check of a claim's Coq results and controls (coqc, Print Assumptions)."""
    proofs = CONCORDANCE[claim]
    label = f"kernel check of proofs/{proofs.file} (coqc, Print Assumptions)"

    def body() -> CheckResult:
        report = coq.cached_audit()
        if not report.ran:
            return CheckResult(claim, label, METHOD, Verdict.NOT_RUN, None, detail=coq_unavailable())
        found = [(t, report.find(t.file, t.name)) for t in proofs.all_theorems()]
        missing = [str(t) for t, a in found if a is None]
        audits = [a for _, a in found if a is not None]
        results = [a for a in audits if not a.control]
        controls = [a for a in audits if a.control]
        bad = [f"{a.name}: {a.reason}" for a in audits if a.verdict is not coq.AuditVerdict.KERNEL_CHECKED]
        problems = [p for f in report.files if f.file == proofs.file for p in f.problems]
        good = not missing and not bad and not problems and bool(results)
        axiom_free = [a.name for a in results if a.axiom_free]
        used = sorted({name for a in results for name in a.assumptions})
        lines = [f"{len(results)} results of proofs/{proofs.file} checked by coqc {report.coqc_version}: "
                 f"{len(axiom_free)} rest on no axiom"
                 + (f", the others only on {', '.join(used)}" if used else ""),
                 f"{sum(c.verdict is coq.AuditVerdict.KERNEL_CHECKED for c in controls)}/{len(controls)} negative "
                 "controls (proved negations) kernel-checked"]
        lines += [f"missing theorem {m}" for m in missing] + bad + problems
        controls_ok = bool(controls) and all(c.verdict is coq.AuditVerdict.KERNEL_CHECKED for c in controls)
        return CheckResult(claim, label, METHOD, Verdict.KERNEL_CHECKED if good else FAILED,
                           Control.COUNTEREXAMPLE if controls_ok else Control.NO_COUNTEREXAMPLE,
                           detail="; ".join(lines),
                           data={"coqc": report.coqc_version, "file": proofs.file,
                                 "theorems": [a.to_json() for a in audits], "axiom_free": axiom_free,
                                 "missing": missing})

    return timed(body)


COQ_CHECKS: tuple[DeclaredCheck, ...] = tuple(
    DeclaredCheck(claim, METHOD, f"kernel check of proofs/{proofs.file} (coqc, Print Assumptions)",
                    partial(coq_claim_check, claim), unavailable=coq_unavailable)
    for claim, proofs in CONCORDANCE.items())
declare(__name__, *COQ_CHECKS)   # one per claim of the concordance, where the Coq theorems are named
