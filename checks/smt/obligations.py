"""Proof obligations as files: each query of an SMT proof as SMT-LIB 2 text anyone can re-run.

An SMT proof poses three kinds of query (:class:`posreal.checks.base.ObligationKind`): the
*encoding* hypotheses ∧ ¬conclusion (expected unsat), its *negative control* with one
hypothesis dropped or weakened (expected sat), and the *hypotheses alone* (expected sat: the
proof is not vacuous).  Each becomes one file ``<check>.<kind>.smt2`` whose header comment names
the claim, the check, the statement, the obligation and the expected answer, and the command
lines that decide it as ``posreal check`` does.

Main definitions:

* :class:`Obligation` — one query: its z3 terms (what z3 decides) and :meth:`Obligation.text`,
  the SMT-LIB 2 file (what cvc5 decides, and what ``posreal check --export-smtlib DIR`` writes);
* :func:`smtlib_body` — z3's SMT-LIB printer (``Solver.to_smt2``) made reproducible: which subterms
  it let-binds, in which order, and their names (``$x54``, ``?x184``) follow z3's internal term ids
  and which terms are referenced elsewhere — both depend on every term the process built before.
  So the assertions are first translated into a fresh z3 context (ids and references then follow
  the terms' own structure) and the let names renumbered in order of first appearance (a renaming
  of bound names only);
* :func:`write_obligations` — the files, one per obligation, into a directory.

The committed copies live in ``checks/obligations/``; a test regenerates them and compares, so a
change to an encoding shows up in review as a diff of its obligation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import z3

from posreal.checks.base import ObligationKind, SolverStatus
from posreal.checks.smt.solvers import cvc5_command_line, z3_command_line
from posreal.runtime.output_files import write_atomic

EXPECTED = {ObligationKind.ENCODING: SolverStatus.UNSAT, ObligationKind.CONTROL: SolverStatus.SAT,
            ObligationKind.HYPOTHESES: SolverStatus.SAT}
MEANING = {
    ObligationKind.ENCODING: ("hypotheses ∧ ¬conclusion", "unsat — the statement holds"),
    ObligationKind.CONTROL: ("negative control, the encoding with one hypothesis dropped or weakened",
                             "sat — without that hypothesis the statement fails (the model is re-checked "
                             "in Python)"),
    ObligationKind.HYPOTHESES: ("the hypotheses alone", "sat — the hypotheses are consistent (the proof is "
                                                        "not vacuous)"),
}
_LET_NAME = re.compile(r"(?<![\w!$?.@])([$?])x(\d+)(?![\w!$?.@])")


def smtlib_body(assertions: Sequence[z3.BoolRef]) -> str:
    """z3's SMT-LIB text of the assertions (declarations, asserts, ``check-sat``), let names renumbered."""
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.add(*[a.translate(ctx) for a in assertions])
    lines = [line for line in solver.to_smt2().splitlines()
             if not line.startswith("; benchmark generated") and not line.startswith("(set-info :status")]
    text = "\n".join(lines)
    names: dict[str, str] = {}

    def rename(match: re.Match) -> str:
        key = match.group(0)
        if key not in names:
            names[key] = f"{match.group(1)}x{len(names) + 1}"
        return names[key]

    return _LET_NAME.sub(rename, text).rstrip() + "\n"


def slug(name: str) -> str:
    """A check name as a file stem: ``ceiling[relative·copy·n=16]`` -> ``ceiling.relative.copy.n16``."""
    out = re.sub(r"[^A-Za-z0-9_.-]+", ".", name.replace("=", "").replace(":", "-")).strip(".")
    return re.sub(r"\.{2,}", ".", out)


@dataclass(frozen=True, eq=False)   # z3 terms: == builds a formula, it does not compare
class Obligation:
    """One query of one SMT check."""

    check: str                          # the check's name, e.g. "theorem2.deep_only_if"
    claim: str                          # statement id
    statement: str                      # what the check establishes (one line)
    kind: ObligationKind
    label: str                          # the encoding's label, or which hypothesis the control drops
    assertions: tuple[z3.BoolRef, ...]
    timeout: float                      # seconds per solver call
    index: int = 0                      # 1, 2, ...: a fallback encoding tried after the first

    @property
    def expected(self) -> SolverStatus:
        """The status the obligation's kind expects."""
        return EXPECTED[self.kind]

    @property
    def filename(self) -> str:
        """The obligation's file name: check, kind and index."""
        suffix = f"-{self.index + 1}" if self.index else ""
        return f"{slug(self.check)}.{self.kind.value}{suffix}.smt2"

    def text(self) -> str:
        """The SMT-LIB 2 file: a header comment, then ``set-info :status``, ``set-logic ALL`` and the query."""
        from posreal.theory.statements import statement
        what, expected = MEANING[self.kind]
        header = [
            "; posreal proof obligation (SMT-LIB 2.6)",
            f"; claim:      {self.claim} — {statement(self.claim).name}",
            f"; check:      {self.check}",
            f"; statement:  {self.statement}",
            f"; obligation: {self.kind.value} ({self.label}): {what}",
            f"; expected:   {expected}",
            f"; decide:     {z3_command_line(self.timeout)}   or   {cvc5_command_line(self.kind, self.timeout)}",
            f"(set-info :status {self.expected.value})",
            "(set-logic ALL)",
        ]
        return "\n".join(header) + "\n" + smtlib_body(list(self.assertions))


def write_obligations(obligations: Iterable[Obligation], directory: str | Path, force: bool = False) -> list[Path]:
    """Write each obligation to ``directory/<file>``, atomically, and return the paths.

    Write each obligation to ``directory/<file>`` (created if missing), atomically; an existing file with
    other content is replaced only with ``force`` (:mod:`posreal.runtime.output_files`); the paths, in order."""
    out_dir = Path(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for ob in obligations:
        path = out_dir / ob.filename
        write_atomic(path, ob.text(), "SMT-LIB obligation file", force)
        written.append(path)
    return written
