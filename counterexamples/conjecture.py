"""The search of the open Conjecture (deterministic necessity), THEORY.md §2.

Main functions:

* :func:`evaluate` — one instance (PE, task, L0, L): θ* (exact in ℚ for rational features),
  every failing row of T_L θ* classified (:mod:`posreal.counterexamples.classify`), and for each open tie
  the gradient-descent tie margins ⟨θ_k, v_j⟩ with their limit verdict and the exact-sign
  exponential-tail prediction (:mod:`posreal.counterexamples.dynamics`).  A **candidate counterexample**
  is an open-tie row that gradient descent wins: all its tie margins tend to a positive limit,
  so lim acc_L(θ_k) > α_L.  Rows of irrational PEs that are tied within float tolerance
  (``undecided``) get the same treatment as *float ties*; a won one is a **float candidate**
  (the tie itself is not certified in ℚ);
* :func:`search` — the seeded, resumable search: instance ``k`` of seed ``s`` is a function of
  (s, k) (:mod:`posreal.counterexamples.sampling`), results are appended to a JSONL file as they are
  found (one header line with seed, parameters and tool versions, then one line per instance),
  and ``resume`` skips indices already in the file;
* :func:`summarize` — counts per class and the candidates, from the file's records.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Iterator

from posreal.theory.encodings import parse_pe, register_pe, unregister_pe
from posreal.theory import limits
from posreal.theory.errors import PosrealError, SpecError, quote
from posreal.theory.provenance import versions
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import parse_task

from posreal.counterexamples.verifier.certificate import q, qvec
from posreal.counterexamples.classify import CLASSES, classify
from posreal.counterexamples.dynamics import (DEFAULT_STEPS, LOSES, UNDECIDED, WINS, limit_verdict, predict, predict_float,
                                      tie_margins)
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.sampling import FAMILIES, Instance, instance

FILE_FORMAT = "posreal-conjecture-search"
FILE_VERSION = 1
_SELECTIONS: "OrderedDict[tuple, Selection]" = OrderedDict()
_CACHE_SIZE = 64


def _selection(pe, task, L0: int, cacheable: bool) -> Selection:
    key = (str(pe), str(task), L0)
    if cacheable and key in _SELECTIONS:
        _SELECTIONS.move_to_end(key)
        return _SELECTIONS[key]
    sel = select(pe, task, L0)
    if cacheable:
        _SELECTIONS[key] = sel
        if len(_SELECTIONS) > _CACHE_SIZE:
            _SELECTIONS.popitem(last=False)
    return sel


class registered:
    """Context manager: register an instance's feature table under its name, then remove it."""

    def __init__(self, inst: Instance):
        self.inst = inst
        self.name = inst.pe[5:] if inst.pe.startswith("dual:") else inst.pe

    def __enter__(self):
        if self.inst.table is not None:
            register_pe(self.name, self.inst.table, self.inst.table_kind)
        return self

    def __exit__(self, *exc):
        if self.inst.table is not None:
            unregister_pe(self.name)
        return False


def _row_verdict(verdicts: list[str]) -> str:
    """A row is won iff every tied rival's margin tends to a positive limit."""
    if any(v == LOSES for v in verdicts):
        return LOSES
    return WINS if verdicts and all(v == WINS for v in verdicts) else UNDECIDED


def evaluate(inst: Instance, gd_steps: int = DEFAULT_STEPS) -> dict:
    """Classify one instance; returns its JSON record (deterministic: no timings)."""
    record = inst.to_json()
    with registered(inst):
        pe, task = parse_pe(inst.pe), parse_task(inst.task)
        try:
            pe.check_length(inst.length, inst.train_length)
            sel = _selection(pe, task, inst.train_length, cacheable=inst.table is None)
        except PosrealError as err:
            record.update(status="skipped", reason=str(err))
            return record
        record["realizable"] = bool(sel.realizable)
        if not sel.realizable:
            record.update(status="not realizable at L0", reason=sel.reason.split(":")[0])
            return record
        cls = classify(pe, task, sel, inst.length)
        record.update(status="classified", exact=cls.exact, rows=cls.total, realized=cls.realized,
                      alpha=q(cls.alpha) if cls.exact else float(cls.alpha), classes=cls.counts())
        open_rows = cls.open_rows
        float_rows = [r for r in cls.failing if r.cls == "undecided" and r.rivals
                      and not any(v.orthogonal for v in r.rivals)]
        record["open_ties"], record["float_ties"] = [], []
        record["candidate"] = record["float_candidate"] = False
        if not open_rows and not float_rows:
            return record
        directions = [r.direction for row in open_rows + float_rows for r in row.rivals]
        traj = tie_margins(pe, task, inst.train_length, [[float(x) for x in v] for v in directions], gd_steps)
        n = 0
        for row in open_rows + float_rows:
            exact = row.cls == "open_tie"
            rivals = []
            for rival in row.rivals:
                verdict = limit_verdict(traj.steps, traj.margins[n])
                n += 1
                if exact:
                    pred = predict(pe, task, sel, rival.direction)
                    pred = None if pred is None else {"sign": pred["sign"], "value": pred["value"]}
                    direction = qvec(rival.direction)
                else:
                    pred = predict_float(pe, task, sel, rival.direction)
                    pred = None if pred is None else {"sign": None, "value": pred["value"]}
                    direction = [float(x) for x in rival.direction]
                rivals.append({"rival": rival.rival, "direction": direction, "gd": verdict, "prediction": pred})
            row_verdict = _row_verdict([r["gd"]["verdict"] for r in rivals])
            if exact:
                signs = [r["prediction"]["sign"] for r in rivals if r["prediction"] is not None]
            else:
                signs = [(r["prediction"]["value"] > 0) - (r["prediction"]["value"] < 0)
                         for r in rivals if r["prediction"] is not None]
            predicted_wins = all(x == 1 for x in signs) if len(signs) == len(rivals) else None
            (record["open_ties"] if exact else record["float_ties"]).append({
                "row": row.row, "target": row.target, "rivals": rivals, "gd_verdict": row_verdict,
                "limit_estimate": min(r["gd"]["estimate"] for r in rivals),
                "predicted_wins": predicted_wins,
                "prediction_disagrees": predicted_wins is not None and row_verdict != UNDECIDED
                and predicted_wins != (row_verdict == WINS),
            })
        record["gd_steps"] = gd_steps
        record["candidate"] = any(t["gd_verdict"] == WINS for t in record["open_ties"])
        record["float_candidate"] = any(t["gd_verdict"] == WINS for t in record["float_ties"])
    return record


# --------------------------------------------------------------------------- the JSONL file
def header(seed: int, families: tuple[str, ...], gd_steps: int) -> dict:
    return {"type": "header", "format": FILE_FORMAT, "version": FILE_VERSION, "seed": seed,
            "families": list(families), "gd_steps": gd_steps, "versions": versions()}


def read_results(path: Path) -> tuple[dict | None, dict[int, dict], int]:
    """(header, records by index, byte length of the complete lines).  A partial last line (an
    interrupted write) is ignored; any other malformed line is an error."""
    if not path.exists():
        return None, {}, 0
    try:
        limits.regular_file(str(path), "result file", limits.MAX_RECORDS_BYTES)   # never a device or FIFO
        data = path.read_bytes()
    except OSError as exc:
        raise CertificateError(f"cannot read result file {str(path)!r}: {exc.strerror or exc}; "
                               f"accepted: a {FILE_FORMAT} JSONL file") from None
    lines = data.split(b"\n")
    good = 0
    head, records = None, {}
    for n, raw in enumerate(lines):
        if not raw.strip():
            good += len(raw) + (1 if n < len(lines) - 1 else 0)
            continue
        try:
            doc = limits.load_json(raw.decode("utf-8"), "result line")   # bounded depth and integers
        except (UnicodeDecodeError, SpecError):
            if n == len(lines) - 1:
                break  # partial last line
            raise CertificateError(f"malformed result file {quote(str(path))}: line {n + 1} is not UTF-8 JSON; "
                                   f"accepted: a {FILE_FORMAT} JSONL file") from None
        if n == len(lines) - 1:
            break  # no trailing newline: treat as partial
        good += len(raw) + 1
        if n == 0:
            if not isinstance(doc, dict) or doc.get("type") != "header" or doc.get("format") != FILE_FORMAT:
                raise CertificateError(f"malformed result file {str(path)!r}: first line is not a "
                                       f"{FILE_FORMAT} header")
            head = doc
        elif isinstance(doc, dict) and isinstance(doc.get("index"), int):
            records[doc["index"]] = doc
        else:
            raise CertificateError(f"malformed result file {str(path)!r}: line {n + 1} has no instance index")
    return head, records, good


@dataclass
class SearchRun:
    """What one call of :func:`search` did (timings are here, never in the file)."""

    path: Path | None
    records: dict[int, dict] = field(default_factory=dict)
    evaluated: int = 0
    skipped_done: int = 0
    elapsed: float = 0.0
    evaluated_time: float = 0.0
    seed: int = 0

    @property
    def throughput(self) -> float:
        return self.evaluated / self.evaluated_time if self.evaluated_time > 0 else float("nan")


def search(seed: int = 0, budget: int | None = None, seconds: float | None = None, out: str | Path | None = None,
           resume: bool = False, families: tuple[str, ...] = FAMILIES, gd_steps: int = DEFAULT_STEPS,
           progress: Callable[[Iterator, int | None], Iterator] | None = None) -> SearchRun:
    """Run the seeded search over indices 0, 1, 2, ... until ``budget`` indices are done or
    ``seconds`` have passed; append records to ``out`` (JSONL) as they are found."""
    if budget is None and seconds is None:
        raise CertificateError("invalid search limits: give a budget (instances) or a time (seconds)")
    for f in families:
        if f not in FAMILIES:
            raise CertificateError(f"invalid family {f!r}; accepted: {', '.join(FAMILIES)}")
    path = Path(out) if out is not None else None
    head = header(seed, tuple(families), gd_steps)
    run = SearchRun(path, seed=seed)
    handle = None
    if path is not None:
        old_head, done, good = read_results(path)
        if old_head is not None and not resume:
            raise CertificateError(f"result file {str(path)!r} exists; accepted: --resume to continue it, "
                                   "or a new --out file")
        if old_head is None and path.exists() and path.read_bytes().strip():
            raise CertificateError(f"result file {str(path)!r} exists and is not a {FILE_FORMAT} file; "
                                   "accepted: a new --out file or one written by this search")
        if old_head is not None:
            for key in ("seed", "families", "gd_steps"):
                if old_head.get(key) != head[key]:
                    raise CertificateError(f"cannot resume {str(path)!r}: it was written with {key} = "
                                           f"{old_head.get(key)!r}, this run has {head[key]!r}")
            run.records = dict(done)
        try:
            if old_head is not None:
                with open(path, "r+b") as fh:   # drop a partial last line
                    fh.truncate(good)
            handle = open(path, "a", encoding="utf-8")
            if old_head is None:
                handle.write(json.dumps(head, sort_keys=True) + "\n")
                handle.flush()
        except OSError as exc:
            if handle is not None:
                handle.close()
            raise CertificateError(f"cannot write result file {str(path)!r}: {exc.strerror or exc}; "
                                   "accepted: a writable file path in an existing directory") from None
    start = time.perf_counter()

    def indices() -> Iterator[int]:
        k = 0
        while budget is None or k < budget:
            if seconds is not None and time.perf_counter() - start >= seconds:
                return
            yield k
            k += 1

    stream = indices()
    if progress is not None:
        stream = progress(stream, budget)
    try:
        for k in stream:
            if k in run.records:
                run.skipped_done += 1
                continue
            t0 = time.perf_counter()
            record = evaluate(instance(seed, k, tuple(families)), gd_steps)
            run.evaluated_time += time.perf_counter() - t0
            run.evaluated += 1
            run.records[k] = record
            if handle is not None:
                handle.write(json.dumps(record, sort_keys=True) + "\n")
                handle.flush()
    finally:
        if handle is not None:
            handle.close()
        run.elapsed = time.perf_counter() - start
    return run


def summarize(records: dict[int, dict]) -> dict:
    """Counts per class (failing rows), instance outcomes, open-tie verdicts and the candidates."""
    rows = {c: 0 for c in CLASSES}
    status: dict[str, int] = {}
    per_family: dict[str, dict[str, int]] = {}
    verdicts = {WINS: 0, LOSES: 0, UNDECIDED: 0}
    float_verdicts = {WINS: 0, LOSES: 0, UNDECIDED: 0}
    candidates, float_candidates, disagreements = [], [], []
    for k in sorted(records):
        r = records[k]
        status[r.get("status", "?")] = status.get(r.get("status", "?"), 0) + 1
        fam = per_family.setdefault(r.get("family", "?"), {"instances": 0, "open_tie_rows": 0, "candidates": 0})
        fam["instances"] += 1
        for c, n in r.get("classes", {}).items():
            rows[c] = rows.get(c, 0) + n
        for tie in r.get("open_ties", []):
            verdicts[tie["gd_verdict"]] += 1
            fam["open_tie_rows"] += 1
            if tie["prediction_disagrees"]:
                disagreements.append({"index": k, "row": tie["row"], "exact": True})
        for tie in r.get("float_ties", []):
            float_verdicts[tie["gd_verdict"]] += 1
            if tie["prediction_disagrees"]:
                disagreements.append({"index": k, "row": tie["row"], "exact": False})
        if r.get("float_candidate"):
            won = [t for t in r["float_ties"] if t["gd_verdict"] == WINS]
            float_candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                     "length": r["length"], "rows_won": [t["row"] for t in won],
                                     "limit_estimate": max(t["limit_estimate"] for t in won),
                                     "predicted_wins": all(t["predicted_wins"] for t in won)})
        if r.get("candidate"):
            fam["candidates"] += 1
            best = max((t for t in r["open_ties"] if t["gd_verdict"] == WINS), key=lambda t: t["limit_estimate"])
            candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                               "length": r["length"], "alpha": r["alpha"], "row": best["row"],
                               "limit_estimate": best["limit_estimate"], "predicted_wins": best["predicted_wins"],
                               "table": r.get("table")})
    return {"instances": len(records), "status": status, "failing_rows": rows, "open_tie_verdicts": verdicts,
            "float_tie_verdicts": float_verdicts, "families": per_family, "candidates": candidates,
            "float_candidates": float_candidates, "prediction_disagreements": disagreements}
