"""``table:PATH`` PEs: a researcher's own feature table as a JSON file, wherever a PE spec is accepted.

The expected values are derived by hand in the comments, not read off the code:

* relative table f(0) = 0, f(1) = -e1, f(2) = -e2, f(3) = (-1, 1, -1) on ``offset:0`` with L0 = 3.
  The training differences are f(0) - f(1) = e1 (rows 1, 2) and f(0) - f(2) = e2 (row 2), so
  θ* = argmin ‖θ‖ s.t. θ1 ≥ 1, θ2 ≥ 1 is (1, 1, 0), ‖θ*‖ = √2.  On row 3 of L = 4 the target
  (offset 0) scores ⟨θ*, f(0)⟩ = 0 and offset 3 scores ⟨θ*, f(3)⟩ = -1 + 1 = 0: a tie, so the
  row fails and α_4 = 3/4 (rows 0, 1, 2 keep their training margins).
* the same rows as a ``column`` table on ``position:0`` are the shear of that cell (Proposition 4),
  so α_4 = 3/4 again; the same ψ written out as a ``general`` table ψ(i, j) = f(i - j) on
  ``offset:0`` is the same PE, so α_4 = 3/4.
* every entry halved, written as ``"p/q"`` strings: the constraints become θ1/2 ≥ 1, θ2/2 ≥ 1, so
  θ* = (2, 2, 0), ‖θ*‖ = 2√2, and the realized rows (a scale-free property) are unchanged.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from posreal.theory import compute_alpha, parse_pe, register_pe
from posreal.theory.tables import unregister_pe
from posreal.theory.errors import SpecError
from posreal.theory.tables import table_document

from posreal.cli import main

ROOT = Path(__file__).resolve().parents[1]
ROWS = [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [-1, 1, -1]]          # f(δ) for δ = 0..3, p = 3
HALVED = [[str(Fraction(x, 2)) if x else "0" for x in row] for row in ROWS]


def _write(tmp_path: Path, name: str, document: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def _alpha(capsys, *argv: str) -> tuple[int, dict, str]:
    code = main(["alpha", *argv, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


def _general(rows: list) -> list:
    """ψ(i, j) = f(i - j) written out as a general table (j > i omitted)."""
    return [[rows[i - j] for j in range(i + 1)] for i in range(len(rows))]


# --------------------------------------------------------------------------- the example and its relatives
def test_relative_table_example_gives_three_quarters(tmp_path, capsys):
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    code, doc, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "offset:0", "--train-length", "3",
                            "--lengths", "4", "--exact")
    assert code == 0, err
    assert doc["alpha_exact"] == {"4": "3/4"}
    assert doc["rows"]["4"]["realized"] == 3 and doc["rows"]["4"]["failed"] == 1
    assert doc["selected"]["exact"] is True
    assert math.isclose(doc["selected"]["norm"], math.sqrt(2), rel_tol=1e-12)
    assert doc["pe"] == f"table:{path}"


@pytest.mark.subprocess
def test_relative_table_example_as_a_subprocess(tmp_path):
    """The command exactly as documented, from the file's own directory (relative PATH)."""
    _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "table:t.json", "--task", "offset:0",
                           "--train-length", "3", "--lengths", "4", "--exact", "--json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["alpha_exact"] == {"4": "3/4"}


def test_column_table_is_the_shear_of_the_relative_one(tmp_path, capsys):
    path = _write(tmp_path, "c.json", {"kind": "column", "rows": ROWS})
    assert parse_pe(f"table:{path}").kind == "column"
    code, doc, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "position:0", "--train-length", "3",
                            "--lengths", "4", "--exact")
    assert code == 0, err
    assert doc["alpha_exact"] == {"4": "3/4"}


def test_general_table_of_a_relative_map_is_the_same_pe(tmp_path, capsys):
    path = _write(tmp_path, "g.json", {"kind": "general", "rows": _general(ROWS)})
    assert parse_pe(f"table:{path}").kind == "general"
    code, doc, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "offset:0", "--train-length", "3",
                            "--lengths", "4", "--exact")
    assert code == 0, err
    assert doc["alpha_exact"] == {"4": "3/4"}


def test_general_table_can_differ_from_every_relative_one(tmp_path):
    """A general table that breaks the tie on row 3 (ψ(3, 0) lowered): row 3 is realized, α_4 = 1."""
    rows = _general(ROWS)
    rows[3][0] = [-1, 1, -2]            # ⟨θ*, ψ(3, 0)⟩ = -1 + 1 + 0 = 0 still: θ*3 = 0, so still tied
    rows_broken = _general(ROWS)
    rows_broken[3][0] = [-2, 1, 0]      # ⟨θ*, ψ(3, 0)⟩ = -2 + 1 = -1 < 0 = target: realized
    same = compute_alpha(f"table:{_write(tmp_path, 'g1.json', {'kind': 'general', 'rows': rows})}",
                         "offset:0", train_length=3, lengths=[4], mode="exact")
    broken = compute_alpha(f"table:{_write(tmp_path, 'g2.json', {'kind': 'general', 'rows': rows_broken})}",
                           "offset:0", train_length=3, lengths=[4], mode="exact")
    assert same.to_json()["alpha_exact"] == {"4": "3/4"}
    assert broken.to_json()["alpha_exact"] == {"4": "1"}


def test_rational_string_entries_are_exact(tmp_path, capsys):
    path = _write(tmp_path, "half.json", {"kind": "relative", "rows": HALVED})
    assert HALVED[1][0] == "-1/2"
    pe = parse_pe(f"table:{path}")
    assert pe.rational
    code, doc, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "offset:0", "--train-length", "3",
                            "--lengths", "4", "--exact")
    assert code == 0, err
    assert doc["alpha_exact"] == {"4": "3/4"}
    assert math.isclose(doc["selected"]["norm"], 2 * math.sqrt(2), rel_tol=1e-12)


def test_float_entries_work_in_float_mode_and_are_refused_in_exact_mode(tmp_path, capsys):
    path = _write(tmp_path, "f.json", {"kind": "relative", "rows": [[0.0, 0.0], [-0.5, 0.25], [0.1, -1.0]]})
    assert not parse_pe(f"table:{path}").rational
    code, doc, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "offset:0", "--train-length", "2",
                            "--lengths", "3")
    assert code == 0, err
    assert doc["realizable"] is True
    code, _, err = _alpha(capsys, "--pe", f"table:{path}", "--task", "offset:0", "--train-length", "2",
                          "--lengths", "3", "--exact")
    assert code == 2 and "exact" in err and len(err.strip().splitlines()) == 1


def test_dual_of_a_table(tmp_path, capsys):
    """dual:table:PATH is the shear: the relative example's dual on position:0 keeps α_4 = 3/4."""
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    pe = parse_pe(f"dual:table:{path}")
    assert pe.kind == "column"
    code, doc, err = _alpha(capsys, "--pe", f"dual:table:{path}", "--task", "position:0", "--train-length", "3",
                            "--lengths", "4", "--exact")
    assert code == 0, err
    assert doc["alpha_exact"] == {"4": "3/4"} and doc["pe"] == f"dual:table:{path}"


@pytest.mark.parametrize("prefix", ["", "dual:"])
def test_spec_round_trips_through_str(tmp_path, prefix):
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    spec = f"{prefix}table:{path}"
    pe = parse_pe(spec)
    assert str(pe) == spec
    assert str(parse_pe(str(pe))) == spec and parse_pe(str(pe)) == pe


def test_table_command_accepts_a_table(tmp_path, capsys):
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    code = main(["table", "--pes", f"table:{path}", "--tasks", "offset:0", "--train-length", "3",
                 "--lengths", "4", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"table:{path}" in out


# --------------------------------------------------------------------------- register_pe takes the same entries
def test_register_pe_accepts_the_file_entries():
    name = "tables_test_halved"
    register_pe(name, HALVED, kind="relative")
    try:
        result = compute_alpha(name, "offset:0", train_length=3, lengths=[4], mode="exact").to_json()
        assert result["alpha_exact"] == {"4": "3/4"}
        assert parse_pe(name).rational
    finally:
        unregister_pe(name)


def test_table_document_is_the_file_format(tmp_path):
    """table_document writes what load_table reads: the features survive the round trip exactly."""
    exact_rows = [[Fraction(x) for x in row] for row in ROWS]
    document = table_document("relative", exact_rows)
    assert document["rows"][1] == ["-1/1", "0/1", "0/1"]
    pe = parse_pe(f"table:{_write(tmp_path, 'doc.json', document)}")
    assert [tuple(v) for v in pe.exact_features(range(4), 3)] == [tuple(r) for r in exact_rows]


# --------------------------------------------------------------------------- malformed files: one line, exit 2
def _bad_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """name -> (path, a fragment the error must contain)."""
    def text(name: str, content: str | bytes) -> str:
        p = tmp_path / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        return str(p)

    def doc(name: str, document: object) -> str:
        return _write(tmp_path, name, document)

    deep = '{"kind": "relative", "rows": ' + "[" * 50_000 + "]" * 50_000 + "}"
    (tmp_path / "a_directory").mkdir()
    return {
        "not JSON": (text("notjson.json", "kind: relative"), "not JSON (Expecting value at line 1)"),
        "empty file": (text("empty.json", ""), "not JSON (Expecting value at line 1)"),
        "a list": (doc("list.json", ROWS), "expected exactly the keys kind and rows"),
        "wrong keys": (doc("keys.json", {"kind": "relative", "values": ROWS}), "expected exactly the keys"),
        "extra key": (doc("extra.json", {"kind": "relative", "rows": ROWS, "p": 3}), "expected exactly the keys"),
        "wrong kind": (doc("kind.json", {"kind": "diagonal", "rows": ROWS}), "kind 'diagonal'"),
        "no rows": (doc("norows.json", {"kind": "relative", "rows": []}), "non-empty list"),
        "ragged rows": (doc("ragged.json", {"kind": "relative", "rows": [[0, 0], [1]]}), "rows[1] has 1 entries"),
        "a zero denominator": (doc("zero.json", {"kind": "relative", "rows": [[0], ["1/0"]]}), "'1/0'"),
        "a word": (doc("word.json", {"kind": "relative", "rows": [[0], ["abc"]]}), "'abc'"),
        "a boolean": (doc("bool.json", {"kind": "relative", "rows": [[0], [True]]}), "True"),
        "null": (doc("null.json", {"kind": "relative", "rows": [[0], [None]]}), "None"),
        "NaN": (text("nan.json", '{"kind": "relative", "rows": [[0], [NaN]]}'), "'NaN is not JSON'"),
        "Infinity": (text("inf.json", '{"kind": "relative", "rows": [[0], [-Infinity]]}'), "'-Infinity is not JSON'"),
        "a nested entry": (doc("nested.json", {"kind": "relative", "rows": [[0], [[1]]]}), "rows[1][0]"),
        "deep nesting": (text("deep.json", deep), "JSON nested 50001 levels deep; accepted: at most 64"),
        "a huge integer": (text("hugeint.json", '{"kind": "relative", "rows": [[0], [' + "9" * 401 + "]]}"),
                           "'an integer of 401 digits (at most 400)'"),
        "a float beyond range": (text("big.json", '{"kind": "relative", "rows": [[0], [1e999]]}'),
                                 "'the number 1e999 is beyond the floating-point range'"),
        "a general row too short": (doc("gen.json", {"kind": "general", "rows": [[[0]], [[1]]]}), "rows[1]"),
        "a directory": (str(tmp_path / "a_directory"), "not a regular file"),
        "a missing file": (str(tmp_path / "missing.json"), "cannot be read"),
        "non-UTF-8": (text("latin1.json", b'{"kind": "relative", "rows": [[0], [1]], "\xe9": 1}'), "not UTF-8"),
        "a huge number string": (doc("huge.json", {"kind": "relative", "rows": [[0], ["9" * 500]]}), "'999"),
    }


BAD_CASES = ["not JSON", "empty file", "a list", "wrong keys", "extra key", "wrong kind", "no rows", "ragged rows",
             "a zero denominator", "a word", "a boolean", "null", "NaN", "Infinity", "a nested entry", "deep nesting",
             "a huge integer", "a float beyond range",
             "a general row too short", "a directory", "a missing file", "non-UTF-8", "a huge number string"]


@pytest.mark.parametrize("case", BAD_CASES)
def test_malformed_table_is_a_one_line_usage_error(tmp_path, capsys, case):
    path, fragment = _bad_files(tmp_path)[case]
    for spec in (f"table:{path}", f"dual:table:{path}"):
        code = main(["alpha", "--pe", spec, "--task", "offset:0", "--train-length", "2", "--lengths", "3"])
        out, err = capsys.readouterr()
        assert code == 2, (case, err)
        assert out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1, lines
        assert path[:60] in lines[0], f"the error does not name the file: {lines[0]}"
        assert fragment in lines[0], f"{case}: {lines[0]}"
        assert "Traceback" not in err
        assert len(lines[0]) < 600, "the error quotes too much of the bad value"
        with pytest.raises(SpecError):
            parse_pe(spec)


def test_bad_cases_cover_every_malformed_file(tmp_path):
    """The parametrization runs over BAD_CASES: it must name every file that _bad_files writes."""
    assert sorted(BAD_CASES) == sorted(_bad_files(tmp_path))


@pytest.mark.parametrize("argv, fragment", [
    (["--train-length", "3", "--lengths", "5"], "lengths up to 4"),     # too short for L = 5
    (["--train-length", "5", "--lengths", "6"], "lengths up to 4"),     # too short for L0 = 5
])
def test_table_too_short_for_the_lengths(tmp_path, capsys, argv, fragment):
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    for spec in (f"table:{path}", f"dual:table:{path}"):
        code = main(["alpha", "--pe", spec, "--task", "offset:0", *argv])
        _, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert path in lines[0] and fragment in lines[0] and "feature table" in lines[0], lines[0]


@pytest.mark.subprocess
def test_malformed_table_through_the_installed_entry_point(tmp_path):
    """Once as a subprocess: no traceback reaches the terminal."""
    (tmp_path / "bad.json").write_text('{"kind": "relative", "rows": [[0], ["1/0"]]}')
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "table:bad.json", "--task", "offset:0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "bad.json" in proc.stderr and "'1/0'" in proc.stderr


def test_ceiling_accepts_a_table(tmp_path, capsys):
    """θ = (1, 1, 1) scores offsets 0..3 as 0, -1, -1, -1: every row of offset:0 at n = 4 is realized,
    so the class ceiling is 4/4 although α_4 of the selected θ* is 3/4 (a ceiling bounds α from above)."""
    path = _write(tmp_path, "t.json", {"kind": "relative", "rows": ROWS})
    code = main(["ceiling", "--pe", f"table:{path}", "--task", "offset:0", "--length", "4", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    doc = json.loads(out)
    assert doc["ceiling"] == "4/4" and doc["optimal"] == "proved"


# --------------------------------------------------------------------------- certificates store the same format
def _open_tie_certificates() -> list[Path]:
    found = []
    for path in sorted((ROOT / "counterexamples" / "certificates").glob("*.json")):
        doc = json.loads(path.read_text())
        if doc.get("kind") == "open-tie" and doc["instance"].get("tables"):
            found.append(path)
    return found


@pytest.mark.parametrize("certificate", _open_tie_certificates(), ids=lambda p: p.name)
def test_a_certificate_table_is_a_table_file(tmp_path, certificate):
    """The table a certificate embeds, written verbatim to a file, is a ``table:PATH`` PE whose exact α
    equals the α the certificate states (re-derived by the standard-library verifier, not by theory)."""
    doc = json.loads(certificate.read_text())
    inst = doc["instance"]
    (name, table), = inst["tables"].items()
    path = _write(tmp_path, f"{name}.json", table)
    spec = inst["pe"].replace(name, f"table:{path}")
    assert spec != inst["pe"]
    result = compute_alpha(spec, inst["task"], train_length=inst["train_length"], lengths=[inst["length"]],
                           mode="exact").to_json()
    assert Fraction(result["alpha_exact"][str(inst["length"])]) == Fraction(doc["claims"]["alpha"])


def test_certificates_with_tables_are_found():
    assert len(_open_tie_certificates()) >= 5


# Exists because a mutant survived: a width given with a feature table could be refused without naming it.
def test_register_pe_refuses_a_width_for_a_table_by_name() -> None:
    with pytest.raises(SpecError, match=r"^invalid width for a feature table 2; accepted: no width \(the table"):
        register_pe("widthless", [[1.0], [0.5]], "relative", width=2)
    with pytest.raises(SpecError, match=r"^invalid PE 'widthless'"):     # and nothing was registered
        parse_pe("widthless")


# Exists because a mutant survived: integer entries beyond int64 mixed with small ones were never tried.
def test_large_integer_entries_keep_the_table_rational_and_exact() -> None:
    """Entries 2^63 and -1 (no common int64 form) stay exact rationals: the table is rational."""
    from posreal.theory.tables import build_table
    pe = build_table("big", [[2 ** 63], [-1]], "relative")
    assert pe.rational
    assert pe.exact_index_features([1, 1], [0, 1], 2) == [(Fraction(2 ** 63),), (Fraction(-1),)]


# Exists because a mutant survived: the entries a general table file omits (j > i) were never read.
def test_a_general_table_files_omitted_entries_add_nothing_to_the_feature_bound(tmp_path: Path) -> None:
    """Every given entry is ±1/2: the certified-mode bound max |ψ| is 1/2 (the omitted j > i entries are 0)."""
    from posreal.theory.tables import load_table
    rows = [[["1/2"]], [["-1/2"], ["1/2"]], [["1/2"], ["1/2"], ["-1/2"]]]
    pe = load_table(_write(tmp_path, "general.json", {"kind": "general", "rows": rows}))
    assert pe.max_abs_feature(3, 2) == 0.5
    assert pe.exact_index_features([2, 1], [2, 0], 2) == [(Fraction(-1, 2),), (Fraction(-1, 2),)]


# Exists because a mutant survived: the feature bound of a profile table wider than the length was unchecked.
def test_a_profile_tables_feature_bound_reads_every_feature_of_the_first_keys() -> None:
    """Relative table f(0) = (0, 0, 5), f(1) = 0: on a grid of length 1 the bound max |ψ| is 5 (all p = 3 features)."""
    from posreal.theory.tables import build_table
    pe = build_table("wide", [[0, 0, 5], [0, 0, 0]], "relative")
    assert pe.max_abs_feature(1, 1) == 5.0
    assert build_table("deep", [[0], [7]], "relative").max_abs_feature(1, 1) == 0.0


# Exists because a mutant survived: a profile table's features were only ever asked for on int64 arrays.
def test_a_profile_tables_features_take_key_lists_like_the_one_hot_pes() -> None:
    """The relative table f(0) = (1, 0), f(n ≥ 1) = (0, 1) on 4 offsets is relbias:1's one-hot: features of a key
    list, of an int32 array and of no keys at all (shape (0, 2)) are the same as relbias:1's."""
    import numpy as np
    from posreal.theory.tables import build_table
    pe = build_table("onehot1", [[1, 0], [0, 1], [0, 1], [0, 1]], "relative")
    clipped = parse_pe("relbias:1")
    for keys in ([3, 0, 1], np.array([2, 0], dtype=np.int32), []):
        got = pe.features(keys, 4)
        assert (got.shape, got.tolist()) == (clipped.features(keys, 4).shape, clipped.features(keys, 4).tolist())
    assert pe.features([3, 0, 1], 4).tolist() == [[0, 1], [1, 0], [0, 1]]
    assert pe.features([], 4).shape == (0, 2)
