"""The concordance between the results of :mod:`posreal.theory.statements` and their Coq theorems in ``proofs/``.

Main definitions:

* :class:`CoqTheorem` — one Coq declaration: its file inside ``proofs/`` and its name;
* :class:`ClaimProofs` — for one claim id: the Coq theorems that state its for-all parts, the negative controls
  (proved negations on concrete instances, one hypothesis dropped or weakened), and, for each SMT proof of the
  claim (the names of :func:`posreal.checks.smt.proofs`), the Coq theorems that state the same thing;
* :data:`CONCORDANCE` — claim id -> :class:`ClaimProofs`, generated from the statements: each result of
  :mod:`posreal.theory.statements` names its Coq file, theorems and controls where it is stated
  (``Statement.coq``); :data:`SMT_TO_COQ` adds, per claim, which Coq theorems state what each SMT proof proves.
  Every claim with a statement over all lengths needs one (every claim the SMT layer proves for all lengths, and
  Theorem 1, whose finite form holds for every number of keys m and width p);
* :data:`NOT_IN_COQ` — the SMT checks of those claims that have no Coq theorem, each with the reason (finite
  instances, checked at one length);
* :func:`for_all_claims` — the claim ids that must appear in :data:`CONCORDANCE`, read off the statements;
* :func:`concordance_problems` — every named theorem its file does not declare (read from the text).

``tests/test_coq.py`` fails when a for-all claim has no Coq theorem, when an SMT proof of such a claim is neither
in the table nor in :data:`NOT_IN_COQ`, or when a named theorem is not declared in its file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from posreal.theory.statements import STATEMENTS


@dataclass(frozen=True)
class CoqTheorem:
    """A Coq result: its file and its name."""

    file: str   # inside proofs/, e.g. "Theorem2.v"
    name: str

    def __str__(self) -> str:
        return f"{self.file}:{self.name}"


@dataclass(frozen=True)
class ClaimProofs:
    """The Coq results and controls of one claim, and the Coq theorems of each of its SMT proofs."""

    claim: str
    results: tuple[CoqTheorem, ...]
    controls: tuple[CoqTheorem, ...]
    smt: dict[str, tuple[str, ...]] = field(default_factory=dict)   # SMT proof name -> Coq theorem names

    @property
    def file(self) -> str:
        """The file of the claim's first result."""
        return self.results[0].file

    def all_theorems(self) -> tuple[CoqTheorem, ...]:
        """The results, then the controls."""
        return self.results + self.controls


def _in(file: str, *names: str) -> tuple[CoqTheorem, ...]:
    return tuple(CoqTheorem(file, n) for n in names)


# SMT proof name (posreal.checks.smt.proofs) -> the Coq theorems of its claim that state the same thing
SMT_TO_COQ: dict[str, dict[str, tuple[str, ...]]] = {
    "theorem2": {
        "theorem2.deep_only_if": ("deep_row_iff",), "theorem2.deep_if": ("deep_row_iff",),
        "theorem2.shallow_iff": ("shallow_row_iff",), "theorem2.position_one_deep_row": ("position_one_deep_row",),
        "theorem2.alibi_breaks": ("slope_realizes_position0", "slope_no_maximizer"),
        "theorem2.growing_finite[copy]": ("copy_exact", "copy_bound", "copy_last_row_bound"),
        "theorem2.growing_finite[middle]": ("middle_exact", "middle_bound", "middle_last_row_bound"),
        "theorem2.growing_finite[reverse]": ("reverse_exact", "reverse_bound", "reverse_last_row_bound"),
        "theorem2.growing_finite[half]": ("half_exact", "half_bound", "half_last_row_bound")},
    "proposition4": {
        "proposition4.involution": ("shear_involution", "shear_task_involution"),
        "proposition4.key_set_onto": ("shear_keys_onto",),
        "proposition4.margins": ("shear_margin", "shear_realized"),
        "proposition4.relative_to_column": ("relative_to_column", "column_to_relative"),
        "proposition4.task_classes": ("fixed_offset_iff_position", "growing_to_growing"),
        "proposition4.task_duals": ("offset_to_position", "position_to_offset", "copy_to_middle", "middle_to_copy"),
        "proposition4.dual_theorem2": ("column_deep_rows",)},
    "underdetermination": {
        "underdetermination.zero_form": ("zero_form",),
        "underdetermination.zero_ties": ("zero_ties_new_rows",),
        "underdetermination.zero_alpha": ("zero_completion_rows", "zero_keeps_old_rows"),
        "underdetermination.last_realizes": ("last_completion_position",),
        "underdetermination.zero_copy": ("copy_zero_completion",)},
    "expressivity": {
        "expressivity.token_independence": ("static_attention",),
        "expressivity.middle_one_row": ("middle_one_row",)},
    "extension": {
        "extension.pi_copy_even": ("pi_copy_even",),
        "extension.pi_copy_dense": ("pi_dense", "pi_copy_even_necessary"),
        "extension.pi_fixed_offset_increasing": ("pi_offset_increasing",),
        "extension.pi_fixed_offset_decreasing": ("pi_offset_decreasing",),
        "extension.pi_position0_increasing": ("pi_position0_reals", "pi_position0_iff")},
    "escape-depth": {"escape-depth.route_lemma_step": ("route_lemma", "reads_causal", "reads_card")},
    "escape-content": {"escape-content.match_exact_condition": ("match_exact",)},
    "escape-induction": {"escape-induction.alpha_one_implies_induction": ("alpha_one_implies_induction",)},
}


def claim_proofs(claim: str) -> ClaimProofs | None:
    """The Coq theorems a statement declares (``Statement.coq``), with the SMT table of its claim; None without."""
    names = STATEMENTS[claim].coq
    if names is None:
        return None
    return ClaimProofs(claim, _in(names.file, *names.results), _in(names.file, *names.controls),
                       dict(SMT_TO_COQ.get(claim, {})))


CONCORDANCE: dict[str, ClaimProofs] = {cid: proofs for cid in STATEMENTS if (proofs := claim_proofs(cid)) is not None}
"""Claim id -> its Coq theorems, read off the statements (``posreal.theory.statements.Statement.coq``)."""

NOT_IN_COQ: dict[str, str] = {
    "expressivity.ceiling": "the class ceilings of copy, reverse and position:1 are finite instances at n = 16 "
                            "(a maximum feasible subsystem), not statements over all lengths",
}

NOT_YET_IN_COQ: dict[str, str] = {}
"""For-all claims with no Coq theorem yet, named so that the gap is visible (``posreal check`` shows no
kernel-checked method for them); the concordance test fails for any other claim without one."""

FOR_ALL_BESIDES_SMT = ("theorem1",)   # statements over every m and p that the SMT layer does not prove


def for_all_claims() -> tuple[str, ...]:
    """Claim ids whose statement holds over all lengths (or all m and p).

    Each of them needs a Coq theorem: every theorem the SMT layer proves, and Theorem 1."""
    return tuple(cid for cid, st in STATEMENTS.items()
                 if st.status == "theorem" and ("smt" in st.checks or cid in FOR_ALL_BESIDES_SMT))


def concordance_problems(proofs_dir: Path | None = None) -> list[str]:
    """Every disagreement between the claims and the Coq files, read from the text.

    Every named theorem that its file does not declare as a Theorem or Corollary (read from the text, without
    coqc), every claim without results or controls, and every SMT-table name outside the claim's results."""
    from posreal.checks import coq
    folder = Path(proofs_dir) if proofs_dir is not None else coq.PROOFS_DIR
    problems: list[str] = []
    for cid, proofs in CONCORDANCE.items():
        if not proofs.results or not proofs.controls:
            problems.append(f"{cid}: no Coq results or no negative controls")
        for thm in proofs.all_theorems():
            path = folder / thm.file
            declared = ({n for _, n in coq.declared_results(path.read_text(encoding="utf-8"))}
                        if path.exists() else set())
            if thm.name not in declared:
                problems.append(f"{cid}: {thm} is not a Theorem or Corollary of proofs/{thm.file}")
        outside = {n for names in proofs.smt.values() for n in names} - {t.name for t in proofs.results}
        problems += [f"{cid}: SMT table names {n}, not one of the claim's results" for n in sorted(outside)]
    return problems


def coq_names_for(smt_name: str) -> tuple[CoqTheorem, ...]:
    """The Coq theorems stating what the SMT proof ``smt_name`` proves (empty when it has none)."""
    for proofs in CONCORDANCE.values():
        if smt_name in proofs.smt:
            return _in(proofs.file, *proofs.smt[smt_name])
    return ()
