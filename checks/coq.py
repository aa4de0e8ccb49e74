"""The axiom audit of the Coq proofs in ``proofs/``.

Compile every file with ``coqc`` and print the assumptions of every result it declares (standard library and subprocess
only).

Main definitions:

* :data:`ALLOWED_AXIOMS` — the only axioms a result may rest on: those of the standard library's real
  numbers (Coq 8.16 builds ``R`` from ``ClassicalDedekindReals``, which needs ``sig_forall_dec``,
  ``sig_not_dec`` and ``functional_extensionality_dep``), and ``Classical_Prop.classic``, which the
  library's real analysis uses (``exp_increasing``, ``exp_ineq1``, the mean value theorem); each with
  the reason it is allowed;
* :func:`scan_source` — what the text of a file may not contain: ``Admitted``, ``admit``, ``Abort``,
  ``give_up``, commands that switch a kernel check off, and any ``Axiom`` / ``Parameter`` /
  ``Conjecture`` (anywhere) or ``Hypothesis`` / ``Variable`` outside a ``Section`` (at top level they
  are axioms);
* :func:`audit_file` / :func:`audit` — compile a copy of each file in a temporary directory (no
  ``.vo``, ``.glob`` or other output ever lands in the repository), with ``Print Assumptions`` appended
  for every declared result, and return the data: one :class:`TheoremAudit` per result (name, file,
  assumptions, verdict) inside one :class:`FileAudit` per file; :class:`AuditReport` holds them all;
* :func:`cached_audit` — the audit once per process for the same inputs, and, when ``POSREAL_COQ_AUDIT_CACHE``
  names a directory (the test suite and ``.ci/run`` set it), once for every process: kept under the sha256 of
  every input (this module, the coqc binary and version, each file);
* :class:`AuditVerdict` — ``kernel-checked`` (compiled, no forbidden text in its file, every assumption
  allowed), ``failed`` (with the reason), ``not run`` (``coqc`` is not on PATH: never a pass).

Conventions of ``proofs/``: ``Theorem`` and ``Corollary`` declare the results and the negative controls, and
every one of them is audited; a ``Lemma`` is a helper (Print Assumptions follows every dependency, so a
helper's axioms show on the results that use it, and auditing it alone would cost ~0.5 s each); names starting with
``control_`` are negative controls (a proved negation on a concrete instance).  Results over ``nat``
or an abstract order print "Closed under the global context": :attr:`TheoremAudit.axiom_free`.

Reference: definitions.md#proved (what ``kernel-checked`` means).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

PROOFS_DIR = Path(__file__).resolve().parent.parent / "proofs"
COQC_TIMEOUT = 300.0   # seconds per file; each file checks in a few seconds

ALLOWED_AXIOMS: dict[str, str] = {
    "ClassicalDedekindReals.sig_forall_dec": "Coq 8.16's construction of R (Dedekind cuts) assumes it",
    "ClassicalDedekindReals.sig_not_dec": "Coq 8.16's construction of R (Dedekind cuts) assumes it",
    "FunctionalExtensionality.functional_extensionality_dep": "Coq 8.16's construction of R assumes it",
    "Classical_Prop.classic": "the standard library's real analysis (exp_increasing, the mean value theorem) uses it",
}

MARKER = "posreal_audit_marker"
LOGICAL_ROOT = "PosrealAudit"
_RESULT = re.compile(r"(?<![\w.'])(Theorem|Corollary)\s+([A-Za-z_][\w']*)")
_FORBIDDEN = re.compile(r"(?<![\w.'])(Admitted|admit|Abort|give_up)(?![\w'])")
_UNCHECKED = re.compile(r"(?<![\w.'])(Unset\s+(Guard|Positivity|Universe)\s+Checking|Bypass_check|"
                        r"Unset\s+Kernel\s+Term\s+Sharing)")
_ALWAYS_AXIOM = re.compile(r"(?<![\w.'])(Axiom|Axioms|Parameter|Parameters|Conjecture)(?![\w'])")
_SECTION_ONLY = re.compile(r"(?<![\w.'])(Hypothesis|Hypotheses|Variable|Variables)(?![\w'])")
_BLOCK = re.compile(r"(?<![\w.'])(Section|Module(?:\s+Type)?|End)\s+([A-Za-z_][\w']*)")


class AuditVerdict(StrEnum):
    """What the audit concluded about one result (JSON: the value strings)."""

    KERNEL_CHECKED = "kernel-checked"   # compiled by coqc; every assumption in ALLOWED_AXIOMS
    FAILED = "failed"                   # did not compile, forbidden text, or an assumption outside the list
    NOT_RUN = "not run"                 # coqc is not on PATH: nothing was checked (never a pass)


@dataclass(frozen=True)
class TheoremAudit:
    """One declared result: its name, its file, what Print Assumptions listed, and the verdict."""

    name: str
    file: str                      # file name inside proofs/, e.g. "Theorem2.v"
    kind: str                      # "Theorem" | "Corollary"
    assumptions: tuple[str, ...]   # axiom names, as Print Assumptions prints them
    verdict: AuditVerdict
    reason: str = ""
    exact: bool = True             # False: ``assumptions`` is the union over a group of results (an upper bound)

    @property
    def control(self) -> bool:
        """A negative control: a proved negation on a concrete instance."""
        return self.name.startswith("control_")

    @property
    def axiom_free(self) -> bool:
        """Whether the result is kernel-checked, exact, and assumes nothing."""
        return self.verdict is AuditVerdict.KERNEL_CHECKED and not self.assumptions and self.exact

    def to_json(self) -> dict:
        """The audit of the result as a JSON object."""
        return {"name": self.name, "file": self.file, "kind": self.kind, "control": self.control,
                "assumptions": list(self.assumptions), "exact": self.exact, "verdict": self.verdict.value,
                "reason": self.reason or None}


@dataclass(frozen=True)
class FileAudit:
    """One file: coqc's exit code and seconds, the forbidden text found, and every declared result."""

    file: str
    returncode: int | None         # None: coqc was not run
    seconds: float
    problems: tuple[str, ...]      # forbidden text found by scan_source, coqc's error
    theorems: tuple[TheoremAudit, ...]

    @property
    def ok(self) -> bool:
        """Whether the file compiled without problems and every result in it is kernel-checked."""
        return (self.returncode == 0 and not self.problems and bool(self.theorems)
                and all(t.verdict is AuditVerdict.KERNEL_CHECKED for t in self.theorems))


@dataclass(frozen=True)
class AuditReport:
    """Every file of the audit, with the coqc version that checked them (empty when not run)."""

    coqc_version: str
    files: tuple[FileAudit, ...]

    @property
    def ran(self) -> bool:
        """Whether coqc ran (its version is known)."""
        return bool(self.coqc_version)

    @property
    def ok(self) -> bool:
        """Whether coqc ran and every audited file is ok."""
        return self.ran and bool(self.files) and all(f.ok for f in self.files)

    @property
    def theorems(self) -> tuple[TheoremAudit, ...]:
        """Every audited result, file by file."""
        return tuple(t for f in self.files for t in f.theorems)

    def find(self, file: str, name: str) -> TheoremAudit | None:
        """The audit of result ``name`` of ``file``, or None."""
        return next((t for t in self.theorems if t.file == file and t.name == name), None)

    def to_json(self) -> dict:
        """The report as a JSON object (:func:`report_from_json` reads it back)."""
        return {"coqc": self.coqc_version or None, "ok": self.ok, "allowed_axioms": dict(ALLOWED_AXIOMS),
                "files": [{"file": f.file, "returncode": f.returncode, "seconds": f.seconds,
                           "problems": list(f.problems), "theorems": [t.to_json() for t in f.theorems]}
                          for f in self.files]}


# ------------------------------------------------------------------ the source text
def strip_comments(text: str) -> str:
    """The text with every (nested) comment and string literal replaced by spaces (line breaks kept)."""
    out, depth, i, in_string = [], 0, 0, False
    while i < len(text):
        two = text[i:i + 2]
        if in_string:
            if text[i] == '"':
                in_string = text[i + 1:i + 2] == '"'   # "" is an escaped quote inside a string
                i += 2 if in_string else 1
                out.append("  " if in_string else " ")
                continue
            out.append("\n" if text[i] == "\n" else " ")
            i += 1
        elif two == "(*":
            depth += 1
            out.append("  ")
            i += 2
        elif two == "*)" and depth:
            depth -= 1
            out.append("  ")
            i += 2
        elif depth:
            out.append("\n" if text[i] == "\n" else " ")
            i += 1
        elif text[i] == '"':
            in_string = True
            out.append(" ")
            i += 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def scan_source(text: str) -> list[str]:
    """Forbidden text of one file (comments and strings excluded), one line per finding."""
    code = strip_comments(text)
    problems = [f"line {_line(code, m.start())}: {m.group(1)} (an unfinished proof)" for m in _FORBIDDEN.finditer(code)]
    problems += [f"line {_line(code, m.start())}: {m.group(1)} (switches a kernel check off)"
                 for m in _UNCHECKED.finditer(code)]
    problems += [f"line {_line(code, m.start())}: {m.group(1)} (the project may declare no axiom)"
                 for m in _ALWAYS_AXIOM.finditer(code)]
    events = sorted([(m.start(), "block", m) for m in _BLOCK.finditer(code)]
                    + [(m.start(), "decl", m) for m in _SECTION_ONLY.finditer(code)], key=lambda e: e[0])
    stack: list[tuple[str, str]] = []   # (kind, name) of the open Sections and Modules
    for pos, what, m in events:
        if what == "block":
            kind, name = m.group(1).split()[0], m.group(2)
            if kind == "End":
                while stack and stack[-1][1] != name:
                    stack.pop()
                if stack:
                    stack.pop()
            else:
                stack.append((kind, name))
        elif not any(kind == "Section" for kind, _ in stack):
            problems.append(f"line {_line(code, pos)}: {m.group(1)} outside a Section (a top-level axiom)")
    return problems


def declared_results(text: str) -> list[tuple[str, str]]:
    """(kind, name) of every Theorem and Corollary of a file, in order (comments excluded)."""
    return [(m.group(1), m.group(2)) for m in _RESULT.finditer(strip_comments(text))]


# ------------------------------------------------------------------ coqc
def coqc_path() -> str | None:
    """The path of ``coqc`` on PATH, or None."""
    return shutil.which("coqc")


def coqc_version(coqc: str) -> str:
    """The version ``coqc --version`` prints ("unknown" when it prints none)."""
    out = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    match = re.search(r"version\s+(\S+)", out)
    return match.group(1) if match else out.strip().splitlines()[0] if out.strip() else "unknown"


def parse_assumptions(chunk: str) -> tuple[tuple[str, ...], str]:
    """The axiom names of one Print Assumptions output, and a complaint if it lists anything else."""
    lines = [line for line in chunk.splitlines() if line.strip()]
    if any(line.strip() == "Closed under the global context" for line in lines):
        return (), ""
    names, header, other = [], "", []
    for line in lines:
        if not line[0].isspace() and line.rstrip().endswith(":") and " : " not in line:
            header = line.strip()
            continue
        if line[0].isspace():
            continue   # the type of the entry above, continued
        if header == "Axioms:":
            names.append(line.split(" : ")[0].strip())
        else:
            other.append(f"{header or '(no header)'} {line.strip()}")
    if not names and not other:
        return (), "Print Assumptions printed nothing recognizable"
    return tuple(names), "; ".join(other)


def _run_coqc(coqc: str, tmp: str, name: str) -> tuple[int, str, str]:
    """coqc on one file of the temporary directory (logical root ``PosrealAudit``: later rounds load it)."""
    try:
        proc = subprocess.run([coqc, "-q", "-Q", ".", LOGICAL_ROOT, name], cwd=tmp, capture_output=True, text=True,
                              timeout=COQC_TIMEOUT, check=False)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        return -1, "", f"coqc timed out after {COQC_TIMEOUT:.0f} s"


def _print_round(coqc: str, tmp: str, module: str, round_no: int,
                 groups: list[list[str]]) -> list[tuple[tuple[str, ...], str]] | str:
    """One Print Assumptions per group of results (a group is printed as the tuple of its proofs, so one walk of
    the dependencies gives the union of its members' assumptions); an error message when coqc fails."""
    lines = [f"Require Import {LOGICAL_ROOT}.{module}.", f"Definition {MARKER} := tt."]
    for k, group in enumerate(groups):
        lines += [f"Definition posreal_group_{k} := ({', '.join('@' + n for n in group)}).",
                  f"Print {MARKER}.", f"Print Assumptions posreal_group_{k}."]
    name = f"PosrealAuditRound{round_no}.v"
    (Path(tmp) / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run_coqc(coqc, tmp, name)
    if code != 0:
        return f"Print Assumptions failed (coqc exited {code}): " + " ".join((err or out).split())[:400]
    chunks = re.split(rf"^{MARKER} = tt\s*\n\s*: unit\s*$", out, flags=re.MULTILINE)[1:]
    if len(chunks) != len(groups):
        return f"expected {len(groups)} Print Assumptions outputs, read {len(chunks)}"
    return [parse_assumptions(chunk) for chunk in chunks]


def assumptions_by_result(coqc: str, tmp: str, module: str,
                          names: list[str]) -> dict[str, tuple[tuple[str, ...], bool, str]]:
    """name -> (assumptions, exact, complaint) for the results of a compiled module, by bisection over groups.

    Print Assumptions walks every dependency again at each call (about 0.5 s of CPU for a proof by lia, seconds
    through the real analysis library), so results are printed in groups, one coqc run per round: a group whose
    union is empty makes all its members axiom-free (exact); a single result is exact; a larger group is split in
    two, unless both halves list the same assumptions as the whole, in which case each member is reported with
    that union (an upper bound: ``exact`` False).  Verdicts use the union given, so a bound only makes them
    stricter."""
    out: dict[str, tuple[tuple[str, ...], bool, str]] = {}
    pending: list[tuple[list[str], tuple[str, ...] | None]] = [(list(names), None)] if names else []
    round_no = 0

    def settle(group: list[str], union: tuple[str, ...], other: str, may_split: bool, nxt: list) -> None:
        if not union or len(group) == 1 or other or not may_split:
            for n in group:
                out[n] = (union, (not union or len(group) == 1) and not other, other)
        else:
            mid = len(group) // 2
            nxt += [(group[:mid], union), (group[mid:], union)]

    while pending:
        round_no += 1
        printed = _print_round(coqc, tmp, module, round_no, [g for g, _ in pending])
        if isinstance(printed, str):
            for group, _ in pending:
                for n in group:
                    out[n] = ((), False, printed)
            return out
        rows = list(zip(pending, printed))
        nxt: list[tuple[list[str], tuple[str, ...] | None]] = []
        k = 0
        while k < len(rows):
            (group, parent), (union, other) = rows[k]
            if parent is None:
                settle(group, union, other, True, nxt)
                k += 1
                continue
            (group2, _), (union2, other2) = rows[k + 1]     # children come in pairs with one parent
            uniform = bool(union) and set(union) == set(parent) == set(union2)
            settle(group, union, other, not uniform, nxt)
            settle(group2, union2, other2, not uniform, nxt)
            k += 2
        pending = nxt
    return out


def audit_file(path: Path, coqc: str | None = None, per_result: bool = True) -> FileAudit:
    """Compile a copy of one .v file and print the assumptions of every declared result.

    Compile a copy of one .v file in a temporary directory, then print the assumptions of every declared
    result (:func:`assumptions_by_result`); never writes beside the source.  ``per_result=False`` prints the
    file's results as one group: every result gets the union (an upper bound, one Print Assumptions)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    problems = scan_source(text)
    results = declared_results(text)
    coqc = coqc or coqc_path()
    if coqc is None:
        return FileAudit(path.name, None, 0.0, tuple(problems),
                         tuple(TheoremAudit(n, path.name, k, (), AuditVerdict.NOT_RUN, "coqc is not on PATH")
                               for k, n in results))
    module = path.stem
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", module) or module.startswith("PosrealAudit"):
        problems.append(f"file name {path.name!r} is not a Coq module name")
        return FileAudit(path.name, None, 0.0, tuple(problems),
                         tuple(TheoremAudit(n, path.name, k, (), AuditVerdict.FAILED, problems[-1])
                               for k, n in results))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="posreal-coq-") as tmp:
        (Path(tmp) / path.name).write_text(text, encoding="utf-8")
        returncode, out, err = _run_coqc(coqc, tmp, path.name)
        result_names = [n for _, n in results]
        found: dict[str, tuple[tuple[str, ...], bool, str]] = {}
        if returncode == 0 and per_result:
            found = assumptions_by_result(coqc, tmp, module, result_names)
        elif returncode == 0 and result_names:
            printed = _print_round(coqc, tmp, module, 1, [result_names])
            union, other = ((), printed) if isinstance(printed, str) else printed[0]
            found = {n: (union, not union, other) for n in result_names}
    seconds = round(time.perf_counter() - start, 3)
    if returncode != 0:
        problems.append(f"coqc exited {returncode}: " + " ".join((err or out).split())[:400])
    theorems = []
    for kind, name in results:
        if returncode != 0 or name not in found:
            theorems.append(TheoremAudit(name, path.name, kind, (), AuditVerdict.FAILED, "coqc did not check the file"))
            continue
        names, exact, other = found[name]
        bad = [a for a in names if a not in ALLOWED_AXIOMS]
        reasons = ([f"assumes {', '.join(bad)} (not in the allowed list)"] if bad else []) + ([other] if other else [])
        if problems:
            reasons.append("its file has forbidden text: " + "; ".join(problems))
        verdict = AuditVerdict.FAILED if reasons else AuditVerdict.KERNEL_CHECKED
        theorems.append(TheoremAudit(name, path.name, kind, names, verdict, "; ".join(reasons), exact))
    return FileAudit(path.name, returncode, seconds, tuple(problems), tuple(theorems))


def proof_files(proofs_dir: Path | None = None) -> list[Path]:
    """The .v files of ``proofs_dir`` (default: the repository's proofs/), sorted."""
    return sorted(Path(proofs_dir if proofs_dir is not None else PROOFS_DIR).glob("*.v"))


def audit(proofs_dir: Path | None = None, coqc: str | None = None, files: list[Path] | None = None,
          workers: int = 2, per_result: bool = True) -> AuditReport:
    """Audit every .v file of ``proofs_dir`` (or the given files).

    ``workers`` coqc processes at a time; ``not run`` throughout without coqc."""
    coqc = coqc or coqc_path()
    paths = files if files is not None else proof_files(proofs_dir)
    version = coqc_version(coqc) if coqc else ""
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        audits = tuple(pool.map(lambda p: audit_file(p, coqc, per_result), paths))
    return AuditReport(version, audits)


CACHE_ENV = "POSREAL_COQ_AUDIT_CACHE"   # a directory: audits stored by the hash of what they read (tests set it)
_CACHE: dict[str, AuditReport] = {}


def audit_key(paths: list[Path], coqc: str | None) -> str:
    """The sha256 of everything an audit reads: this module's source, the coqc binary and version, every file."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(f"{coqc}|{coqc_version(coqc) if coqc else ''}".encode())
    for p in paths:
        digest.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return digest.hexdigest()


def report_from_json(doc: dict) -> AuditReport:
    """The AuditReport of a JSON object written by :meth:`AuditReport.to_json`."""
    files = tuple(FileAudit(f["file"], f["returncode"], f["seconds"], tuple(f["problems"]),
                            tuple(TheoremAudit(t["name"], t["file"], t["kind"], tuple(t["assumptions"]),
                                               AuditVerdict(t["verdict"]), t["reason"] or "", t["exact"])
                                  for t in f["theorems"]))
                  for f in doc["files"])
    return AuditReport(doc["coqc"] or "", files)


def cached_audit(proofs_dir: Path | None = None) -> AuditReport:
    """:func:`audit` once per process for the same inputs (the claim checks of several claims share it).

    When the environment variable ``POSREAL_COQ_AUDIT_CACHE`` names a directory (the test suite sets it: its
    processes share one audit), the report is also kept there under :func:`audit_key`, the hash of every input, and
    read back by any process that asks for the same inputs (under a file lock).
    """
    paths = proof_files(proofs_dir)
    coqc = coqc_path()
    key = audit_key(paths, coqc)
    if key in _CACHE:
        return _CACHE[key]
    folder = os.environ.get(CACHE_ENV, "")
    if not folder or coqc is None:
        _CACHE[key] = audit(proofs_dir)
        return _CACHE[key]
    Path(folder).mkdir(parents=True, exist_ok=True)
    stored = Path(folder) / f"{key}.json"
    with open(Path(folder) / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # a second process waits for the first audit, then reads it
        if stored.exists():
            report = report_from_json(json.loads(stored.read_text(encoding="utf-8")))
        else:
            report = audit(proofs_dir)
            stored.write_text(json.dumps(report.to_json(), sort_keys=True), encoding="utf-8")
    _CACHE[key] = report
    return report
