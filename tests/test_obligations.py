"""Proof obligations as SMT-LIB 2 files (checks/smt/obligations.py, ``posreal check --export-smtlib``):
the committed copies in checks/obligations/ are what the code generates, each file says what it is,
and the files are the very text the solvers decide."""

from pathlib import Path

import pytest
import z3

from posreal.checks.base import ObligationKind
from posreal.checks.smt import all_obligations, proofs
from posreal.checks.smt import theorem2 as t2
from posreal.checks.smt.common import proof_obligations
from posreal.checks.smt.obligations import smtlib_body, write_obligations
from posreal.checks.smt.solvers import decide_cvc5
from posreal.cli import main

pytestmark = pytest.mark.smt

COMMITTED = Path(__file__).resolve().parent.parent / "checks" / "obligations"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("obligations")
    obligations = all_obligations()
    write_obligations(obligations, out)
    return obligations, out


def test_committed_obligations_are_what_the_code_generates(generated):
    _, out = generated
    made = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.smt2")}
    committed = {p.name: p.read_text(encoding="utf-8") for p in COMMITTED.glob("*.smt2")}
    missing, extra = sorted(set(made) - set(committed)), sorted(set(committed) - set(made))
    assert not missing and not extra, (f"not committed: {missing}; no longer generated (delete them): {extra}; "
                                       "regenerate with posreal check --export-smtlib checks/obligations")
    stale = [name for name in made if made[name] != committed[name]]
    assert not stale, f"stale committed obligations {stale}: run posreal check --export-smtlib checks/obligations"


def test_every_proof_has_its_three_obligations_and_file_names_are_unique(generated):
    obligations, _ = generated
    names = [ob.filename for ob in obligations]
    assert len(set(names)) == len(names)
    for check, _make in proofs():
        kinds = {ob.kind for ob in obligations if ob.check == check}
        assert kinds == set(ObligationKind), (check, kinds)
    ceilings = [ob for ob in obligations if "ceiling" in ob.check]
    assert {ob.kind for ob in ceilings} == {ObligationKind.ENCODING, ObligationKind.CONTROL}


def test_header_names_claim_statement_and_expected_answer(generated):
    obligations, out = generated
    for ob in obligations:
        text = (out / ob.filename).read_text(encoding="utf-8")
        head = [line for line in text.splitlines() if line.startswith(";")]
        assert f"; claim:      {ob.claim} — " in head[1]
        assert head[2] == f"; check:      {ob.check}" and head[3] == f"; statement:  {ob.statement}"
        expected = "unsat" if ob.kind is ObligationKind.ENCODING else "sat"
        assert head[5].startswith(f"; expected:   {expected} — ")
        assert f"(set-info :status {expected})" in text and text.rstrip().endswith("(check-sat)")


def _copy(assertions, noise: bool):
    """The assertions rebuilt in a fresh z3 context and, with noise, other live terms that share their
    subterms (created first: lower term ids, and more than one reference)."""
    ctx = z3.Context()
    kept = []
    if noise:
        i, n, dstar, N, t, j, delta = z3.Ints("i n dstar N t j delta", ctx)
        kept = [i < n, N > delta, t + 1, j <= i, delta != dstar, delta < N]
    return [a.translate(ctx) for a in assertions], kept


def test_the_text_does_not_depend_on_what_the_process_built_before():
    # z3 numbers terms in creation order and its printer let-binds by those numbers: the same
    # assertions, built after terms that share their subterms, must print the same text
    assertions = t2.deep_only_if().encodings[0][1]
    (plain, _), (noisy, alive) = _copy(assertions, False), _copy(assertions, True)
    assert alive   # held while printing: the printer let-binds what is referenced elsewhere too
    solvers = [z3.Solver(ctx=a[0].ctx) for a in (plain, noisy)]
    for solver, a in zip(solvers, (plain, noisy)):
        solver.add(*a)
    assert solvers[0].to_smt2() != solvers[1].to_smt2()     # z3's own printer: the text moves
    assert smtlib_body(plain) == smtlib_body(noisy) == smtlib_body(assertions)


def test_let_names_are_renumbered_consistently():
    x, y = z3.Ints("x y")
    body = smtlib_body([z3.And(x + y > 0, x + y < 5), z3.Or(x + y > 0, y > 2)])
    assert "(declare-fun x () Int)" in body and "(check-sat)" in body
    lets = [tok for tok in body.replace("(", " ").replace(")", " ").split() if tok[:2] in ("$x", "?x")]
    numbers = [int(t[2:]) for t in dict.fromkeys(lets)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_the_file_is_what_cvc5_decides():
    # the committed encoding of a proof is unsat for cvc5 when read back from disk; with one
    # hypothesis (i ≥ δ*) deleted from the text, it is not
    text = (COMMITTED / "theorem2.deep_only_if.encoding.smt2").read_text(encoding="utf-8")
    ob = proof_obligations(t2.deep_only_if(), "theorem2.deep_only_if")[0]
    assert decide_cvc5(text, ObligationKind.ENCODING, 20).status == "unsat"
    assert "(assert\n (>= i dstar))\n" in text
    broken = text.replace("(assert\n (>= i dstar))\n", "")
    assert decide_cvc5(broken, ob.kind, 2).status in ("sat", "unknown")


def test_export_command_writes_the_files(tmp_path, capsys):
    assert main(["check", "proposition4", "--export-smtlib", str(tmp_path / "out")]) == 0
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(files) == 3 * len(proofs(["proposition4"]))
    assert all(name.startswith("proposition4.") for name in files)
    for name in files:
        assert (tmp_path / "out" / name).read_text(encoding="utf-8") == (COMMITTED / name).read_text(encoding="utf-8")
    captured = capsys.readouterr()   # the list of files is the document; the count is a message (stderr)
    assert f"wrote {len(files)} SMT-LIB 2 obligations" in captured.err
    assert sorted(captured.out.splitlines()) == [str(tmp_path / "out" / name) for name in files]


def test_export_into_a_file_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["check", "--export-smtlib", str(blocker)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "not a directory" in err
