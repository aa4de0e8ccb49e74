"""Your own PE as a Python function (theory/function_pe.py): ``register_pe(name, psi=f, kind=..., width=p)``
and ``--pe py:MODULE:FUNCTION`` with ``--pe-kind``/``--pe-width``.

Each function here computes features that another path of the project also computes — RoPE's sinusoids,
FIRE's hats, a table of the same integers — so the function path is checked against an independent one on
the same cells (the same θ*, the same α_L), not against numbers copied from its own output.  The laziness
is measured on the inputs the function receives: never the (L, L, p) grid a tabulation needs.
"""

from __future__ import annotations

import json
import pickle
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory import compute_alpha, parse_pe, register_pe
from posreal.theory.blocked import FEATURE_BLOCK, causal_pairs
from posreal.theory.errors import SpecError
from posreal.theory.function_pe import FunctionGeneral, FunctionProfile, load_python_pe
from posreal.theory.tables import unregister_pe

ROOT = Path(__file__).resolve().parents[1]
LENGTHS = [32, 64, 200]


def rope8(n: np.ndarray) -> np.ndarray:
    """RoPE's positional features written out: [cos ω_f n] ++ [sin ω_f n], ω_f = 10000^(-2f/8)."""
    omega = np.power(10000.0, -2.0 * np.arange(4) / 8)
    a = np.asarray(n, dtype=float)[:, None] * omega[None, :]
    return np.concatenate([np.cos(a), np.sin(a)], axis=1)


def fire4(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """FIRE's features written out (K = 4 hats, threshold T = 16 = L0 of the tests)."""
    u = np.log1p((i - j).astype(float)) / np.log1p(np.maximum(16, i))
    return np.maximum(0.0, 1.0 - np.abs(3 * u[:, None] - np.arange(4)[None, :]))


def sink(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Integers: a recency bias and a sink on key 0 (rational: exact mode decides it)."""
    return np.stack([-(i - j), (j == 0).astype(np.int64)], axis=1)


@pytest.fixture
def registered():
    names = []

    def register(name, **kwargs):
        names.append(name)
        return register_pe(name, **kwargs)
    yield register
    for name in names:
        unregister_pe(name)


def _alphas(pe, task, L0=16, lengths=LENGTHS, **kw):
    r = compute_alpha(pe, task, L0, lengths, **kw)
    return r.realizable, {L: r.alpha(L) for L in lengths} if r.realizable else None


# --------------------------------------------------------------------------- the same PE by two paths
@pytest.mark.parametrize("task", ["offset:1", "offset:3", "position:0", "half", "copy"])
def test_relative_function_is_the_registry_rope(registered, task):
    pe = registered("myrope", psi=rope8, kind="relative", width=8)
    assert isinstance(pe, FunctionProfile) and pe.kind == "relative" and not pe.rational
    assert _alphas("myrope", task) == _alphas("rope:8", task)
    assert _alphas("dual:myrope", f"dual:{task}") == _alphas("dual:rope:8", f"dual:{task}")


@pytest.mark.parametrize("task", ["offset:1", "position:0", "position:2", "half"])
def test_general_function_is_the_registry_fire(registered, task):
    pe = registered("myfire", psi=fire4, kind="general", width=4)
    assert isinstance(pe, FunctionGeneral) and pe.kind == "general"
    assert _alphas("myfire", task) == _alphas("fire:4:16", task)


def test_general_function_is_its_own_table(registered):
    """The function and the (N, N, p) table of its values: same θ*, same rows, in ℚ (N = 40)."""
    N = 40
    i, j = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
    table = sink(i.ravel(), np.minimum(j, i).ravel()).reshape(N, N, 2).tolist()
    registered("sinkf", psi=sink, kind="general", width=2)
    registered("sinkt", table=table, kind="general")
    assert parse_pe("sinkf").rational
    for task in ("position:0", "offset:0", "offset:1", "dual:position:3"):
        f = compute_alpha("sinkf", task, 8, [16, 40], mode="exact").to_json()
        t = compute_alpha("sinkt", task, 8, [16, 40], mode="exact").to_json()
        for key in ("realizable", "alpha_exact", "rows"):
            assert f.get(key) == t.get(key), (task, key)


def test_exact_mode_takes_fractions(registered):
    registered("thirds", psi=lambda n: [[Fraction(-int(k), 3)] for k in n], kind="relative", width=1)
    doc = compute_alpha("thirds", "offset:0", 4, [8], mode="exact").to_json()
    assert doc["alpha_exact"] == {"8": "1"} and doc["selected"]["exact"]
    assert compute_alpha("thirds", "position:0", 4, [8], mode="exact").to_json()["alpha_exact"] == {"8": "1"}


def test_everywhere_a_registry_pe_goes(registered):
    """Geometries, the limit α♯, the class ceiling, the table: the function PE behaves as its table."""
    from posreal.checks.smt.ceiling import compute_ceiling
    from posreal.theory.taxonomy import taxonomy
    registered("sinkf", psi=sink, kind="general", width=2)
    linf = compute_alpha("sinkf", "position:0", 8, [16], geometry="linf")
    assert linf.alpha_interval == {16: (1.0, 1.0)}
    limit = compute_alpha("sinkf", "offset:0", 8, [16], limit=True)
    assert limit.limits is not None and limit.limits[16].to_json()["interval"] is not None
    ceiling = compute_ceiling("position:0", 8, pe="sinkf", train_length=8)
    assert (ceiling.realized, ceiling.total, ceiling.verified) == (8, 8, True)
    rows = taxonomy(["sinkf", "dual:sinkf"], ["position:0"], 8, [16])
    assert [r.result.alpha(16) for r in rows] == [1.0, compute_alpha("dual:sinkf", "position:0", 8, [16]).alpha(16)]


def test_extensions_refuse_a_function(registered):
    registered("myrope", psi=rope8, kind="relative", width=8)
    with pytest.raises(SpecError, match="no frequencies or positions to rescale"):
        compute_alpha("myrope", "offset:1", 16, [64], extension="pi")


# --------------------------------------------------------------------------- lazy evaluation
class Recorder:
    """ψ that records the size of every call and the largest offset or position it was asked for."""

    def __init__(self, psi):
        self.psi, self.sizes, self.largest = psi, [], 0

    def __call__(self, *args):
        self.sizes.append(args[0].size)
        self.largest = max([self.largest] + [int(a.max(initial=0)) for a in args])
        return self.psi(*args)


def test_a_general_function_is_called_on_blocks_never_on_the_grid(registered):
    L, p = 2048, 9
    rec = Recorder(lambda i, j: np.repeat(fire4(i, j)[:, :3], 3, axis=1))
    registered("blocky", psi=rec, kind="general", width=p)
    result = compute_alpha("blocky", "position:0", 16, [L])
    assert result.realizable
    grid_pairs = L * (L + 1) // 2
    assert max(rec.sizes) <= FEATURE_BLOCK // p + L             # one block of rows at a time
    assert max(rec.sizes) * 10 < grid_pairs                     # control: the grid is 18× larger
    assert rec.largest == L - 1


def test_a_relative_function_is_evaluated_on_the_offsets_only(registered):
    L = 100_000
    rec = Recorder(rope8)
    registered("lazyrope", psi=rec, kind="relative", width=8)
    compute_alpha("lazyrope", "offset:1", 16, [L])
    assert rec.largest == L - 1 and sum(rec.sizes) <= 3 * L + 1000   # O(L) offsets in all, never pairs


# Exists because a mutant survived: an empty block of rows given as a plain list was never paired.
def test_causal_pairs_of_plain_lists() -> None:
    """Rows [2, 0] have the pairs (row 2: keys 0, 1, 2) and (row 0: key 0), as integer positions; an empty
    block (an empty list, whose numpy default is float) has none."""
    local, keys = causal_pairs([2, 0])
    assert local.tolist() == [0, 0, 0, 1] and keys.tolist() == [0, 1, 2, 0]
    none_local, none_keys = causal_pairs([])
    assert none_local.size == none_keys.size == 0 and none_keys.dtype == np.int64


# Exists because a mutant survived: a float tie of distinct rationals was never split in ℚ for a general function.
def test_a_general_rational_function_ties_only_exactly_equal_keys(registered):
    """ψ(i, j) = 1 + 10⁻²⁰ [j = 1]: keys 0 and 1 share the float 1.0 but differ in ℚ, keys 0 and 2 are equal.
    Row 1 (target 0, rival 1) has no structural tie; row 2 (target 0, rivals 1 and 2) ties key 2."""
    tiny = Fraction(1, 10 ** 20)
    assert float(1 + tiny) == 1.0
    pe = registered("nearly", psi=lambda i, j: [[1 + (tiny if int(k) == 1 else 0)] for k in j], kind="general",
                    width=1)
    assert pe.rational
    rows, targets = np.array([1, 2]), np.array([0, 0])
    assert pe.structural_ties(rows, targets, 3, 3).tolist() == [False, True]
    assert pe.float_row_margins(np.array([1.0]), rows, targets, 3, 3)[2].tolist() == [False, True]



# Exists because a mutant survived: a float tie of distinct rationals was never split in ℚ for a profile function.
def test_a_relative_rational_function_splits_a_float_tie_of_distinct_rationals(registered):
    """f(n) = 1 + 10⁻²⁰ [n = 1]: offsets 0, 1 and 2 share the float 1.0; offsets 0 and 2 are equal in ℚ, offset
    1 is not, so it gets an id of its own (the next unused one) and keys 0 and 2 keep theirs."""
    tiny = Fraction(1, 10 ** 20)
    pe = registered("nearlyrel", psi=lambda n: [[1 + (tiny if int(k) == 1 else 0)] for k in n], kind="relative",
                    width=1)
    assert pe.rational
    ids = pe.feature_ids(4, 4)
    assert ids.tolist() == [0, 1, 0, 0]


# --------------------------------------------------------------------------- bad functions: one line each
def _refused(call, *needles):
    with pytest.raises(SpecError) as err:
        call()
    text = str(err.value)
    assert "\n" not in text and all(n in text for n in needles), text
    return text


@pytest.mark.parametrize("psi,needles", [
    (lambda n: np.zeros((n.size, 3)), ["returned shape (4, 3)", "(m, 2)"]),
    (lambda n: np.zeros(n.size), ["shape (4,)"]),
    (lambda n: np.full((n.size, 2), np.nan), ["not finite", "offset 0"]),
    (lambda n: np.where(n[:, None] > 2, np.inf, 0.0) * np.ones((1, 2)), ["inf", "offset 3"]),
    (lambda n: 1 / 0, ["raised ZeroDivisionError", "offsets [0, 1, 2]"]),
    (lambda n: [["a", "b"]] * n.size, ["not an array of numbers"]),
    (lambda n: [[1, 2]] * (n.size - 1), ["returned shape (3, 2)"]),
])
def test_bad_functions_are_refused_at_registration(psi, needles):
    _refused(lambda: register_pe("bad", psi=psi, kind="relative", width=2), "'bad'", *needles)
    assert parse_pe_missing("bad")


def parse_pe_missing(name: str) -> bool:
    with pytest.raises(SpecError):
        parse_pe(name)
    return True


def test_a_function_that_fails_later_is_refused_where_it_fails(registered):
    def psi(n):
        if n.max(initial=0) > 40:
            raise ValueError("too far")
        return rope8(n)
    registered("short", psi=psi, kind="relative", width=8)
    assert compute_alpha("short", "offset:1", 16, [32]).realizable
    _refused(lambda: compute_alpha("short", "offset:1", 16, [64]), "'short'", "ValueError", "too far")


def test_exact_mode_refuses_floats(registered):
    """A float is refused where exact mode needs a rational — also from a function whose probe (offsets 0..3)
    returned integers, so that it counts as rational, and which turns to floats farther out."""
    registered("floaty", psi=rope8, kind="relative", width=8)
    _refused(lambda: compute_alpha("floaty", "offset:1", 16, [32], mode="exact"), "'floaty'", "rational PEs")
    registered("halfway", psi=lambda n: [[int(k)] if k < 8 else [0.5] for k in n], kind="relative", width=1)
    assert parse_pe("halfway").rational
    assert compute_alpha("halfway", "offset:0", 4, [8], mode="exact").realizable
    _refused(lambda: compute_alpha("halfway", "offset:0", 4, [16], mode="exact"), "'halfway' in exact mode",
             "returned 0.5", "offsets [8]")


@pytest.mark.parametrize("kwargs,needle", [({"psi": rope8, "table": [[0]]}, "exactly one"), ({}, "exactly one"),
                                            ({"psi": rope8, "width": 0}, "from 1"),
                                            ({"psi": rope8, "width": 8, "kind": "sideways"}, "relative, column"),
                                            ({"psi": 3, "width": 1}, "a function"),
                                            ({"table": [[0]], "width": 1}, "the table gives it")])
def test_register_pe_arguments(kwargs, needle):
    _refused(lambda: register_pe("args", **kwargs), needle)


# --------------------------------------------------------------------------- the command line
@pytest.fixture
def module_dir(tmp_path, monkeypatch):
    (tmp_path / "userpe.py").write_text(
        "import numpy as np\n"
        "def sink(i, j):\n    return np.stack([-(i - j), (j == 0).astype(np.int64)], axis=1)\n"
        "def boom(n):\n    raise RuntimeError('no')\n"
        "def nan(n):\n    return np.full((n.size, 1), float('nan'))\n")
    (tmp_path / "broken.py").write_text("raise ImportError('the module itself fails')\n")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in ("userpe", "broken"):
        sys.modules.pop(name, None)
    for spec in ("py:userpe:sink", "py:userpe:boom", "py:userpe:nan"):
        unregister_pe(spec)


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_function_pe(module_dir, capsys):
    code, out, err = _cli(capsys, "alpha", "--pe", "py:userpe:sink", "--pe-kind", "general", "--pe-width", "2",
                          "--task", "position:0", "--train-length", "8", "--lengths", "16,64", "--exact", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["pe"] == "py:userpe:sink" and doc["alpha_exact"] == {"16": "1", "64": "1"}
    code, out, err = _cli(capsys, "table", "--pes", "py:userpe:sink,dual:py:userpe:sink,clipped", "--pe-kind",
                          "general", "--pe-width", "2", "--tasks", "position:0", "--train-length", "8",
                          "--lengths", "16", "--json")
    assert code == 0, err
    assert [c["pe"] for c in json.loads(out)["cells"]] == ["py:userpe:sink", "dual:py:userpe:sink", "clipped"]
    code, out, err = _cli(capsys, "ceiling", "--pe", "py:userpe:sink", "--pe-kind", "general", "--pe-width", "2",
                          "--task", "position:0", "--length", "6", "--json")
    assert code == 0 and json.loads(out)["ceiling"] == "6/6", err


@pytest.mark.parametrize("argv,needle", [
    (["--pe", "py:userpe:boom", "--pe-kind", "relative", "--pe-width", "1"], "raised RuntimeError: 'no'"),
    (["--pe", "py:userpe:nan", "--pe-kind", "relative", "--pe-width", "1"], "not finite"),
    (["--pe", "py:userpe:sink", "--pe-kind", "general", "--pe-width", "3"], "returned shape (10, 2)"),
    (["--pe", "py:nosuchmodule:f", "--pe-kind", "relative", "--pe-width", "1"], "cannot be imported"),
    (["--pe", "py:broken:f", "--pe-kind", "relative", "--pe-width", "1"], "raised ImportError"),
    (["--pe", "py:userpe:absent", "--pe-kind", "relative", "--pe-width", "1"], "has no function 'absent'"),
    (["--pe", "py:userpe:sink"], "needs --pe-kind"),
    (["--pe", "py:userpe:sink", "--pe-kind", "general"], "needs --pe-kind"),
    (["--pe", "py:userpe", "--pe-kind", "general", "--pe-width", "2"], "py:MODULE:FUNCTION"),
    (["--pe", "clipped", "--pe-width", "2"], "without a py:MODULE:FUNCTION PE"),
])
def test_cli_bad_function_pe_exits_2_with_one_line(module_dir, capsys, argv, needle):
    code, out, err = _cli(capsys, "alpha", *argv, "--task", "offset:0", "--lengths", "32")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err, err


def test_an_unloaded_py_spec_says_how_to_load_it():
    _refused(lambda: parse_pe("py:examples.pe_function:log_distance"), "--pe-kind and --pe-width", "register_pe")


def test_the_example_module_loads(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    pe = load_python_pe("py:examples.pe_function:recency_and_sink", "general", 2)
    assert pe.rational and str(pe) == "py:examples.pe_function:recency_and_sink"


# --------------------------------------------------------------------------- the experiment
def test_experiment_trains_a_function_pe(registered, tmp_path):
    from posreal.experiment.grid import Grid
    from posreal.experiment.recipes import ADAM
    from posreal.experiment.runner import run_grid
    registered("myrope", psi=rope8, kind="relative", width=8)
    grid = Grid("tiny", ("myrope",), ("offset:1",), 1, ((8, 8),), (2,), (ADAM.with_changes(steps=30),))
    records = run_grid(grid, tmp_path / "run")
    assert len(records) == 1 and records[0]["pe"] == "myrope" and len(records[0]["theta"]) == 8
    assert records[0]["alpha"] == compute_alpha("rope:8", "offset:1", 16, [32]).alpha(32)


@pytest.mark.subprocess   # jobs=2: it would start worker processes if the refusal failed
def test_experiment_refuses_what_it_cannot_send_to_workers(registered, tmp_path):
    from posreal.experiment.grid import Grid
    from posreal.experiment.recipes import ADAM
    from posreal.experiment.runner import run_grid
    registered("local", psi=lambda n: rope8(n), kind="relative", width=8)
    with pytest.raises((pickle.PicklingError, AttributeError)):   # the control: it truly does not pickle
        pickle.dumps(parse_pe("local"))
    grid = Grid("tiny", ("local", "slope"), ("offset:1",), 1, ((8, 8),), (2,), (ADAM.with_changes(steps=5),))
    _refused(lambda: run_grid(grid, tmp_path / "run", jobs=2), "'local'", "jobs = 1")


@pytest.mark.subprocess
def test_experiment_workers_get_the_registered_function(registered, tmp_path, monkeypatch):
    from posreal.experiment.grid import Grid
    from posreal.experiment.recipes import ADAM
    from posreal.experiment.runner import run_grid
    monkeypatch.syspath_prepend(str(ROOT))
    from examples.pe_function import log_distance
    registered("logd", psi=log_distance, kind="relative", width=2)
    grid = Grid("tiny", ("logd", "slope"), ("offset:1", "position:0"), 1, ((8, 8),), (2,),
                (ADAM.with_changes(steps=20),))
    records = run_grid(grid, tmp_path / "run", jobs=2)
    assert sorted({r["pe"] for r in records}) == ["logd", "slope"] and len(records) == 4


# Exists because a mutant survived: a refusal of function_pe could lose the value it refuses.
def test_every_refusal_of_function_pe_names_its_field_and_value() -> None:
    from posreal.theory.function_pe import function_pe
    with pytest.raises(SpecError, match=r"^invalid psi 3; accepted: a function of integer arrays"):
        function_pe("f", 3, "relative", 1)
    with pytest.raises(SpecError, match=r"^invalid PE kind 'diagonal'; accepted: "):
        function_pe("f", lambda n: np.ones((n.size, 1)), "diagonal", 1)
    with pytest.raises(SpecError, match=r"^invalid PE width True; accepted: an integer p from 1 to "):
        function_pe("f", lambda n: np.ones((n.size, 1)), "relative", True)
