"""posreal.theory.function_pe, the whole module's contract: every refusal's exact one-line message (the PE,
the inputs, what is accepted, per kind), the three kinds and their key index, exact versus float values, the
registration probe, descriptions, and loading ``py:MODULE:FUNCTION`` from modules written to tmp_path."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from posreal.theory.encodings import MAX_PROFILE_LENGTH, OFFSET, POSITION
from posreal.theory.errors import SpecError
from posreal.theory.function_pe import (MAX_WIDTH, PY_FORM, FunctionGeneral, FunctionProfile, function_pe,
                                        load_python_pe, parse_py_spec)

GENERAL_FORM = "a function psi(i, j) of int64 arrays of shape (m,) returning an (m, 2) array of finite numbers"
SINGLE_FORM = "a function psi(n) of int64 arrays of shape (m,) returning an (m, 2) array of finite numbers"


def refusal(call: Callable[[], Any]) -> str:
    with pytest.raises(SpecError) as err:
        call()
    assert err.value.__cause__ is None
    return str(err.value)


def ones2(*args: np.ndarray) -> np.ndarray:
    return np.ones((args[0].size, 2))


# --------------------------------------------------------------------------- refusals of the user's function
# Exists because a mutant survived: the accepted form of a general function (psi(i, j)) was never read.
@pytest.mark.parametrize("kind,inputs,form", [
    ("general", "pairs (i, j) [(0, 0), (1, 0), (1, 1)]…", GENERAL_FORM),
    ("relative", "offsets [0, 1, 2]…", SINGLE_FORM),
    ("column", "key positions [0, 1, 2]…", SINGLE_FORM),
], ids=["general", "relative", "column"])
def test_a_raising_function_names_its_error_inputs_and_form(kind: str, inputs: str, form: str) -> None:
    def psi(*args: np.ndarray) -> np.ndarray:
        raise KeyError("k")

    assert refusal(lambda: function_pe("mine", psi, kind, 2)) == (
        f"invalid PE 'mine': its function raised KeyError: \"'k'\" on {inputs}; accepted: {form}")


@pytest.mark.parametrize("kind,shown", [("general", "10 pairs (i, j) [(0, 0), (1, 0), (1, 1)]…"),
                                        ("relative", "4 offsets [0, 1, 2]…")], ids=["general", "relative"])
def test_a_wrong_shape_is_named_with_the_inputs(kind: str, shown: str) -> None:
    form = GENERAL_FORM if kind == "general" else SINGLE_FORM
    assert refusal(lambda: function_pe("w", lambda *a: np.ones((a[0].size, 3)), kind, 2)) == (
        f"invalid PE 'w': its function returned shape ({shown.split()[0]}, 3) on {shown}; accepted: {form}")
    assert refusal(lambda: function_pe("w", lambda *a: [[1, 2]] * (a[0].size + 1), kind, 2)).startswith(
        f"invalid PE 'w': its function returned shape ({int(shown.split()[0]) + 1}, 2) on {shown}")


def test_values_that_are_not_numbers_are_refused() -> None:
    assert refusal(lambda: function_pe("t", lambda n: [["a", "b"]] * n.size, "relative", 2)) == (
        "invalid PE 't': its function returned 'list' that is not an array of numbers (\"could not convert "
        f"string to float: 'a'\"); accepted: {SINGLE_FORM}")


@pytest.mark.parametrize("kind,where", [("general", "pair (i, j) = (2, 1)"), ("relative", "offset 2"),
                                        ("column", "key position 2")])
def test_a_value_that_is_not_finite_is_located(kind: str, where: str) -> None:
    """The probe's third input (pair (2, 1) of the 4-grid is the fifth) gets -inf in feature 1."""
    def psi(*args: np.ndarray) -> np.ndarray:
        out = np.zeros((args[0].size, 2))
        hit = (args[0] == 2) & (args[-1] == 1) if kind == "general" else args[0] == 2
        out[hit, 1] = -np.inf
        return out

    assert refusal(lambda: function_pe("nf", psi, kind, 2)) == (
        f"invalid PE 'nf': its function returned -inf (not finite) at {where}, feature 1; accepted: finite numbers")


def test_exact_mode_refuses_a_float_with_its_input() -> None:
    pe = function_pe("half", lambda n: [[int(k)] if k < 5 else [0.5] for k in n], "relative", 1)
    assert pe.rational
    assert refusal(lambda: pe.exact_features([3, 6], 8)) == (
        "invalid PE 'half' in exact mode: its function returned 0.5 (float) on offsets [6]; accepted: ints or "
        "fractions.Fraction entries (or float or certified mode)")
    general = function_pe("g", lambda i, j: [[int(a)] if a < 4 else [True] for a in i], "general", 1)
    assert general.rational
    assert refusal(lambda: general.exact_index_features([4], [1], 8)).startswith(
        "invalid PE 'g' in exact mode: its function returned True (bool) on pairs (i, j) [(4, 1)];")


def test_exact_mode_refuses_a_shape_it_cannot_read() -> None:
    pe = function_pe("short", lambda n: [[1, 2]] * min(n.size, 4), "relative", 2)
    assert refusal(lambda: pe.exact_features(range(5), 8)).startswith(
        "invalid PE 'short': its function returned shape (4, 2) on 5 offsets [0, 1, 2]…; accepted: a function psi(n)")


# --------------------------------------------------------------------------- arguments of function_pe
@pytest.mark.parametrize("args,message", [
    ((None, "relative", 1), "invalid psi None; accepted: a function of integer arrays returning an (m, p) array"),
    ((ones2, "bilinear", 1), "invalid PE kind 'bilinear'; accepted: relative, column, general"),
    ((ones2, "relative", 0), f"invalid PE width 0; accepted: an integer p from 1 to {MAX_WIDTH}"),
    ((ones2, "relative", MAX_WIDTH + 1), f"invalid PE width {MAX_WIDTH + 1}; accepted: an integer p from 1 to "
                                         f"{MAX_WIDTH}"),
    ((ones2, "relative", 2.0), f"invalid PE width 2.0; accepted: an integer p from 1 to {MAX_WIDTH}"),
    ((ones2, "relative", np.bool_(True)), f"invalid PE width {np.bool_(True)!r}; accepted: an integer p from 1 to "
                                          f"{MAX_WIDTH}"),
], ids=["psi", "kind", "width-0", "width-big", "width-float", "width-numpy-bool"])
def test_function_pe_argument_refusals_are_exact(args: tuple, message: str) -> None:
    assert refusal(lambda: function_pe("f", *args)) == message


# --------------------------------------------------------------------------- kinds, values, descriptions
def test_kinds_and_their_key_index() -> None:
    rel = function_pe("r", ones2, "relative", 2)
    col = function_pe("c", ones2, "column", 2)
    gen = function_pe("g", ones2, np.str_("general"), np.int64(2))
    assert type(rel) is FunctionProfile and type(col) is FunctionProfile and type(gen) is FunctionGeneral
    assert (rel.kind, col.kind, gen.kind) == ("relative", "column", "general")
    assert (rel.index, col.index, gen.index) == (OFFSET, POSITION, POSITION)
    assert rel.dim(8) == col.dim(8) == gen.dim(8) == 2 and type(gen.source.width) is int
    assert rel.max_length(8) == MAX_PROFILE_LENGTH


def test_descriptions_equality_and_hash() -> None:
    a = function_pe("mine", ones2, "relative", 2)
    assert str(a) == "mine" and repr(a) == "FunctionProfile('mine', kind='relative', width=2)"
    assert repr(function_pe("g", ones2, "general", 2)) == "FunctionGeneral('g', kind='general', width=2)"
    b = function_pe("mine", lambda n: np.zeros((n.size, 1)), "column", 1)
    assert a == b and hash(a) == hash(b) == hash(("function", "mine"))
    assert a != function_pe("other", ones2, "relative", 2) and a != "mine"


def test_the_probe_decides_exact_values_and_sees_the_documented_inputs() -> None:
    """Relative and column probes get offsets 0..3; the general probe gets the 10 pairs j <= i of a 4-grid."""
    seen: list[list[list[int]]] = []

    def record(*args: np.ndarray) -> list:
        assert all(a.dtype == np.int64 for a in args)
        seen.append([a.tolist() for a in args])
        return [[Fraction(1, 3), np.int64(2)]] * args[0].size

    assert function_pe("p", record, "general", 2).rational
    assert seen[0] == [[0, 1, 1, 2, 2, 2, 3, 3, 3, 3], [0, 0, 1, 0, 1, 2, 0, 1, 2, 3]]
    seen.clear()
    assert function_pe("p", record, "relative", 2).rational and seen[0] == [[0, 1, 2, 3]]
    assert not function_pe("f", ones2, "relative", 2).rational                  # floats: not exact
    assert not function_pe("b", lambda n: [[True, 1]] * n.size, "relative", 2).rational
    assert not function_pe("nb", lambda n: [[np.bool_(True), 1]] * n.size, "relative", 2).rational


def test_features_floats_and_fractions() -> None:
    """ψ(n) = (n, n/2): floats as floats, rows in ℚ as tuples of Fractions; the function gets copies."""
    def psi(n: np.ndarray) -> list:
        out = [[int(k), Fraction(int(k), 2)] for k in n]
        n[:] = -1                                         # scribbling on its argument changes nothing of ours
        return out

    pe = function_pe("half", psi, "relative", 2)
    keys = np.array([1, 3])
    assert pe.features(keys, 8).tolist() == [[1.0, 0.5], [3.0, 1.5]] and keys.tolist() == [1, 3]
    assert pe.exact_features([1, 3], 8) == [(Fraction(1), Fraction(1, 2)), (Fraction(3), Fraction(3, 2))]
    gen = function_pe("diff", lambda i, j: [[int(a) - int(b)] for a, b in zip(i, j)], "general", 1)
    assert gen.index_features([3, 5], [1, 0], 8).tolist() == [[2.0], [5.0]]
    assert gen.exact_index_features([3, 5], [1, 0], 8) == [(Fraction(2),), (Fraction(5),)]


# Exists because a mutant survived: the int64 inputs the user's function is promised were only ever made by callers.
def test_the_function_gets_int64_copies_whatever_integer_arrays_it_is_called_on() -> None:
    """definitions.md: f takes int64 arrays.  The features object that calls f (``pe.source``) casts every input
    itself, so int32 or uint8 arrays handed to its floats/fractions reach f as int64 copies with the same values."""
    seen: list[tuple[str, list[int]]] = []

    def psi(n: np.ndarray) -> list:
        seen.append((str(n.dtype), n.tolist()))
        out = [[int(k), Fraction(int(k), 3)] for k in n.tolist()]
        n[:] = 0                                          # scribbling on its copy changes nothing of the caller's
        return out

    pe = function_pe("third", psi, "relative", 2)
    assert isinstance(pe, FunctionProfile)
    seen.clear()
    small, tiny = np.array([2, 5], dtype=np.int32), np.array([3], dtype=np.uint8)
    assert pe.source.floats(small).tolist() == [[2.0, 2 / 3], [5.0, 5 / 3]]
    assert pe.source.fractions(tiny) == [(Fraction(3), Fraction(1))]
    assert seen == [("int64", [2, 5]), ("int64", [3])]
    assert (small.dtype, small.tolist(), tiny.dtype, tiny.tolist()) == (np.int32, [2, 5], np.uint8, [3])


def test_feature_ids_of_float_and_empty_profiles() -> None:
    """A float PE keeps the float ids (equal floats share one); an empty grid has no ids."""
    pe = function_pe("mod", lambda n: (n % 2)[:, None].astype(float), "relative", 1)
    assert not pe.rational and pe.feature_ids(5, 4).tolist() == [0, 1, 0, 1, 0]
    exact = function_pe("mod2", lambda n: (n % 2)[:, None], "relative", 1)
    assert exact.rational and exact.feature_ids(5, 4).tolist() == [0, 1, 0, 1, 0]
    assert exact.feature_ids(0, 4).tolist() == []


# --------------------------------------------------------------------------- py:MODULE:FUNCTION
@pytest.mark.parametrize("spec", ["py:mod:f", "py:pkg.sub_1:f_2"])
def test_py_spec_forms(spec: str) -> None:
    module, function = parse_py_spec(spec)
    assert f"py:{module}:{function}" == spec


@pytest.mark.parametrize("spec", ["py:mod", "py:1mod:f", "py:mod:f:g", "py:m\u00f3d:f", "mod:f", 3],
                         ids=["no-function", "digit", "three-parts", "non-ascii", "no-prefix", "not-text"])
def test_py_spec_refusals_are_exact(spec: Any) -> None:
    assert refusal(lambda: parse_py_spec(spec)) == f"invalid PE {spec!r}; accepted: {PY_FORM}"


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, str], str]]:
    """Write a module to tmp_path (importable: tmp_path is on sys.path); it is forgotten afterwards."""
    names: list[str] = []
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name: str, text: str) -> str:
        (tmp_path / f"{name}.py").write_text(text)
        names.append(name)
        return name

    yield write
    for name in names:
        sys.modules.pop(name, None)


def test_load_python_pe_from_a_module(modules: Callable[[str, str], str]) -> None:
    modules("kexec_pe_good", "import numpy as np\ndef recency(i, j):\n    return (j - i)[:, None]\n")
    pe = load_python_pe("py:kexec_pe_good:recency", "general", 1)
    assert type(pe) is FunctionGeneral and pe.rational and str(pe) == "py:kexec_pe_good:recency"
    assert pe.exact_index_features([4], [1], 8) == [(Fraction(-3),)]


# Exists because a mutant survived: the refusal of a module that raises on import did not have to name the spec.
def test_load_python_pe_refusals_are_exact(modules: Callable[[str, str], str]) -> None:
    modules("kexec_pe_raises", "raise RuntimeError('not today')\n")
    modules("kexec_pe_attrs", "value = 3\n")
    tail = f"; accepted: {PY_FORM}"
    assert refusal(lambda: load_python_pe("py:kexec_pe_raises:f", "relative", 1)) == (
        "invalid PE 'py:kexec_pe_raises:f': importing module 'kexec_pe_raises' raised RuntimeError: 'not today'"
        + tail)
    assert refusal(lambda: load_python_pe("py:kexec_pe_absent:f", "relative", 1)) == (
        "invalid PE 'py:kexec_pe_absent:f': module 'kexec_pe_absent' cannot be imported "
        "(\"No module named 'kexec_pe_absent'\")" + tail)
    for function in ("missing", "value"):
        spec = f"py:kexec_pe_attrs:{function}"
        assert refusal(lambda: load_python_pe(spec, "relative", 1)) == (  # noqa: B023 (called at once)
            f"invalid PE 'py:kexec_pe_attrs:{function}': module 'kexec_pe_attrs' has no function {function!r}" + tail)
    assert refusal(lambda: load_python_pe("py:kexec_pe_attrs", "relative", 1)) == (
        f"invalid PE 'py:kexec_pe_attrs'; accepted: {PY_FORM}")


def test_load_python_pe_imports_from_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``python -m`` does: the current directory goes first on sys.path when it is not there."""
    (tmp_path / "kexec_pe_cwd.py").write_text("def flat(n):\n    return [[0.5]] * len(n)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    try:
        pe = load_python_pe("py:kexec_pe_cwd:flat", "column", 1)
    finally:
        sys.modules.pop("kexec_pe_cwd", None)
    assert sys.path[0] == str(tmp_path) and sys.path.count(str(tmp_path)) == 1
    assert type(pe) is FunctionProfile and pe.kind == "column" and not pe.rational


def test_three_inputs_are_shown_whole_and_more_are_cut() -> None:
    """A function that fails beyond offset 4: after the probe, three offsets are listed without '…', four with."""
    def psi(n: np.ndarray) -> np.ndarray:
        if n.max(initial=0) > 4:
            raise ValueError("far")
        return np.ones((n.size, 2))

    pe = function_pe("far", psi, "relative", 2)
    assert refusal(lambda: pe.features(np.array([5, 6, 7]), 8)) == (
        f"invalid PE 'far': its function raised ValueError: 'far' on offsets [5, 6, 7]; accepted: {SINGLE_FORM}")
    assert "on offsets [5, 6, 7]…;" in refusal(lambda: pe.features(np.array([5, 6, 7, 8]), 8))


# Exists because a mutant survived: two different rationals split from one float tie could share one new id.
def test_each_distinct_rational_of_a_float_tie_gets_its_own_new_id() -> None:
    """f(n) = 1 + t [n = 1] + 2t [n = 2], t = 10^-20: offsets 0-3 share the float 1.0; offsets 0 and 3 are equal
    in Q, offsets 1 and 2 differ from them and from each other: new ids 1 and 2, in order."""
    tiny = Fraction(1, 10 ** 20)
    pe = function_pe("tie", lambda n: [[1 + tiny * (int(k) if int(k) < 3 else 0)] for k in n], "relative", 1)
    assert pe.rational and float(1 + 2 * tiny) == 1.0
    assert pe.feature_ids(4, 4).tolist() == [0, 1, 2, 0]


# Exists because a mutant survived: the largest accepted width was never registered.
def test_the_largest_width_is_accepted() -> None:
    """Width MAX_WIDTH: the probe's float call gets (4, MAX_WIDTH) zeros; its exact call raises, so the PE is
    registered as a float PE (one large array is built, not two)."""
    calls: list[int] = []

    def wide(n: np.ndarray) -> np.ndarray:
        calls.append(n.size)
        if len(calls) > 1:
            raise MemoryError("once is enough")
        return np.zeros((n.size, MAX_WIDTH))

    pe = function_pe("wide", wide, "relative", MAX_WIDTH)
    assert pe.dim(8) == MAX_WIDTH and not pe.rational and calls == [4, 4]
