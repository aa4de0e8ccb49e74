"""Length extensions as transfer operators (theory/extension.py, Encoding.extended, compute_alpha(extension=...)):
reference values, an independent hand-rescaled evaluation on hidden cells, YaRN's temperature, the factors
file, the shear, exactness and the identity at s ≤ 1."""

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cases import EXTENSION_CELL, EXTENSION_TASKS, REFERENCE_EXTENSION, quoted_decimals
from posreal.theory.alpha import compute_alpha, row_outcomes
from posreal.theory.attention import transferred_attention
from posreal.theory.errors import SpecError
from posreal.theory.extension import (EXTENSIONS, Extension, ExtensionMethod, FrequencyRescaling, parse_extension,
                                      read_factors, yarn_temperature)
from posreal.theory.pe_specs import parse_pe
from posreal.theory.realization import DEFAULT_TOL
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.transfer_operator import REEVALUATION


@pytest.mark.parametrize("method", list(REFERENCE_EXTENSION))
def test_reference_values(method):
    pe, L0, L = EXTENSION_CELL
    for task, quoted in zip(EXTENSION_TASKS, REFERENCE_EXTENSION[method]):
        alpha = compute_alpha(pe, task, L0, [L], extension=method).alpha(L)
        assert round(alpha, quoted_decimals(quoted)) == pytest.approx(float(quoted), abs=1e-12), (method, task, alpha)


# --------------------------------------------------------------------------- independent evaluation by hand
def _hand_omega(method, d, base, L, L0, factors=None):
    """ω'_f from the published formulas, written here without the project's code."""
    omega = np.array([base ** (-2.0 * f / d) for f in range(d // 2)])
    s = L / L0
    if s <= 1:
        return omega
    if method == "pi":
        return omega / s
    if method == "ntk":
        return (base * s ** (d / (d - 2))) ** (-2.0 * np.arange(d // 2) / d)
    if method == "yarn":
        r = L0 * omega / (2 * math.pi)
        gamma = np.clip((r - 1.0) / (32.0 - 1.0), 0.0, 1.0)
        return (1 - gamma) * omega / s + gamma * omega
    return omega / np.asarray(factors, dtype=float)


def _hand_status(name, d, base, task, theta, L, L0, method, factors=None):
    """Row outcomes by brute force: the kernel of every row from the rescaled sinusoids, margins, tolerance rule."""
    w = _hand_omega(method, d, base, L, L0, factors)
    task = parse_task(task)
    rows, targets = task.rows_and_targets(L)
    th = np.asarray(theta, dtype=float)
    out = []
    for i, t in zip(rows.tolist(), targets.tolist()):
        j = np.arange(i + 1)
        if name == "rope":
            x = (i - j)[:, None] * w[None, :]
            kappa = np.cos(x) @ th[: d // 2] + np.sin(x) @ th[d // 2:]
        elif name == "abscol":
            x = j[:, None] * w[None, :]
            kappa = np.sin(x) @ th[: d // 2] + np.cos(x) @ th[d // 2:]
        else:   # abssin: φ(i)ᵀ W φ(j), φ = [sin] ++ [cos]
            phi = lambda p: np.concatenate([np.sin(p * w), np.cos(p * w)])
            W = th.reshape(d, d)
            kappa = np.array([phi(i) @ W @ phi(jj) for jj in j])
        if i == 0:
            out.append(1)
            continue
        gamma = kappa[t] - np.delete(kappa, t).max()
        scale = DEFAULT_TOL * max(1.0, abs(kappa[t]))
        out.append(1 if gamma > scale else (-1 if gamma < -scale else 0))
    return np.array(out)


HIDDEN = [("rope", 8, 500.0, "offset:3", 12, (40, 97, 300)), ("rope", 6, 30.0, "copy", 10, (20, 31, 64)),
          ("abscol", 12, 1000.0, "position:2", 20, (45, 160)), ("rope", 10, 10000.0, "position:0", 14, (29, 100)),
          ("abssin", 4, 50.0, "offset:1", 8, (17, 40))]


@pytest.mark.parametrize("cell", HIDDEN, ids=lambda c: f"{c[0]}:{c[1]}:{c[2]:g}-{c[3]}")
@pytest.mark.parametrize("method", ["pi", "ntk", "yarn"])
def test_hand_rescaled_frequencies_reproduce_alpha(cell, method):
    name, d, base, task, L0, lengths = cell
    pe = f"{name}:{d}:{base!r}"
    sel = select(pe, task, L0)
    assert sel.realizable
    result = compute_alpha(pe, task, L0, list(lengths), extension=method)
    for L in lengths:
        hand = _hand_status(name, d, base, task, sel.theta, L, L0, method)
        assert np.array_equal(result.outcomes[L].status, hand), (method, L)
        assert result.alpha(L) == pytest.approx(np.mean(hand == 1))


def test_factors_equal_to_s_are_position_interpolation(tmp_path):
    pe, task, L0, L = "rope:8:300.0", "offset:2", 12, 48
    path = tmp_path / "f.json"
    path.write_text("[4, 4, \"8/2\", 4.0]")
    by_file = compute_alpha(pe, task, L0, [L], extension=f"factors:{path}")
    by_pi = compute_alpha(pe, task, L0, [L], extension="pi")
    assert by_file.outcomes[L].status.tolist() == by_pi.outcomes[L].status.tolist()
    path.write_text("[1, 2, 3, 5]")
    sel = select(pe, task, L0)
    hand = _hand_status("rope", 8, 300.0, task, sel.theta, L, L0, "factors", [1, 2, 3, 5])
    assert np.array_equal(compute_alpha(pe, task, L0, [L], extension=f"factors:{path}").outcomes[L].status, hand)


# --------------------------------------------------------------------------- YaRN's temperature
def test_yarn_temperature_keeps_alpha_and_sharpens_attention():
    pe, task, L0, L = parse_pe("rope:16"), parse_task("position:0"), 16, 128
    sel = select(pe, task, L0)
    op = parse_extension("yarn")
    s = L / L0
    assert op.logit_scale(L, L0) == pytest.approx((0.1 * math.log(s) + 1) ** 2) == yarn_temperature(s)
    assert op.logit_scale(L0, L0) == 1.0 and REEVALUATION.logit_scale(L, L0) == 1.0
    rows, targets = task.rows_and_targets(L)
    hot = transferred_attention(pe, sel.theta, L, L0, rows, op)                              # with 1/t
    cold = transferred_attention(op.at_length(pe, L, L0), sel.theta, L, L0, rows)             # same features, no 1/t
    assert np.array_equal(hot.argmax(axis=1), cold.argmax(axis=1))
    on_hot, on_cold = hot[np.arange(rows.size), targets], cold[np.arange(rows.size), targets]
    realized = hot.argmax(axis=1) == targets
    several = realized & (rows > 0)                                  # row 0 has one key: weight 1 either way
    assert several.sum() > 0 and np.all(on_hot[several] > on_cold[several])     # sharper where the target wins
    alpha = compute_alpha(pe, task, L0, [L], extension="yarn").alpha(L)
    assert alpha == pytest.approx(realized.mean())


# --------------------------------------------------------------------------- shear, exact mode, identity
@pytest.mark.parametrize("method", ["pi", "ntk", "yarn"])
def test_extension_commutes_with_the_shear(method):
    for pe, task in (("rope:16", "offset:2"), ("rope:16", "copy"), ("abscol:16", "position:0")):
        a = compute_alpha(pe, task, 16, [48, 128], extension=method)
        b = compute_alpha(f"dual:{pe}", f"dual:{task}", 16, [48, 128], extension=method)
        for L in (48, 128):
            assert np.array_equal(a.outcomes[L].status, b.outcomes[L].status)


def test_alibi_interpolation_is_a_positive_rescaling_in_exact_mode():
    plain = compute_alpha("alibi", "position:0", 16, [32, 100], mode="exact")
    pi = compute_alpha("alibi", "position:0", 16, [32, 100], mode="exact", extension="pi")
    for L in (32, 100):
        assert pi.outcomes[L].exact_alpha == plain.outcomes[L].exact_alpha
        pairs = [(m, p) for m, p in zip(pi.outcomes[L].margins, plain.outcomes[L].margins) if p is not None and p != 0]
        assert pairs and {m / p for m, p in pairs} == {Fraction(16, L)}    # every margin scaled by 1/s exactly


@pytest.mark.parametrize("method", EXTENSIONS)
def test_every_method_is_the_identity_at_the_train_length(method):
    sel = select("rope:16", "offset:1", 16)
    a = row_outcomes("rope:16", "offset:1", sel.theta, 16, 16, extension=method)
    b = row_outcomes("rope:16", "offset:1", sel.theta, 16, 16)
    assert np.array_equal(a.margins, b.margins)


# Exists because a mutant survived: NTK at head dimension d = 2 (one frequency, 2f/(d - 2) undefined) was never run.
def test_ntk_keeps_the_one_frequency_of_a_two_dimensional_head():
    """d = 2 has the one frequency ω_0 = base^0 = 1, which NTK (ω_f / s^(2f/(d-2))) leaves unchanged at f = 0:
    the rows are those of plain re-evaluation, margin for margin, at every length."""
    a = compute_alpha("rope:2", "offset:1", 8, [32, 64], extension="ntk")
    b = compute_alpha("rope:2", "offset:1", 8, [32, 64])
    assert a.realizable and b.realizable
    for L in (32, 64):
        assert np.all(np.isfinite(a.outcomes[L].margins))
        assert np.array_equal(a.outcomes[L].margins, b.outcomes[L].margins)
        assert np.array_equal(a.outcomes[L].status, b.outcomes[L].status)


def test_certified_mode_decides_interpolated_copy():
    """The copy target of rope:32 at L0 = 32 sits at x = 16 for every even L (part (b)): certified α = 1."""
    result = compute_alpha("rope:32", "copy", 32, [1024], mode="certified", extension="pi")
    assert result.alpha(1024) == 1.0 and result.outcomes[1024].counts()["undecided"] == 0


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("pe", ["relbias", "colbias", "nope", "dual:relbias"])
def test_bucketed_pes_refuse_every_method(pe):
    for method in ("pi", "ntk", "yarn"):
        with pytest.raises(SpecError, match="bucketed, kerple, fire, table and function PEs"):
            compute_alpha(pe, "offset:1", 16, [32], extension=method)


def test_alibi_takes_pi_only():
    with pytest.raises(SpecError, match="alibi"):
        compute_alpha("alibi", "position:0", 16, [32], extension="ntk")


def test_limit_with_an_extension_is_refused():
    with pytest.raises(SpecError, match="extension with limit"):
        compute_alpha("rope:16", "offset:1", 16, [32], limit=True, extension="pi")


@pytest.mark.parametrize("content, needle", [
    ("", "not JSON"), ("[]", "list of 0 entries"), ("{\"a\": 1}", "JSON dict"), ("[[1]]", "entry [0]"),
    ("[NaN]", "malformed"), ("[1e400]", "malformed"), ("[0]", "entry [0]"), ("[-2]", "entry [0]"),
    ("[\"1/0\"]", "entry [0]"), ("[\"1e999999999\"]", "entry [0]"), ("[true]", "entry [0]"),
    ("[1e-12]", "entry [0]"), ("[1e13]", "entry [0]"), ("[" + ",".join(["1"] * 5000) + "]", "5000 entries"),
    ("[" * 200 + "]" * 200, "nested"),
])
def test_hostile_factors_files_are_one_line_errors(tmp_path, content, needle):
    path = tmp_path / "f.json"
    path.write_text(content)
    with pytest.raises(SpecError) as err:
        read_factors(str(path))
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_non_utf8_factors_file(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b"[1, \xff]")
    with pytest.raises(SpecError, match="not UTF-8"):
        read_factors(str(path))


def test_wrong_number_of_factors(tmp_path):
    path = tmp_path / "f.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(SpecError, match="8 frequencies: the file gives 3"):
        compute_alpha("rope:16", "offset:1", 16, [32], extension=f"factors:{path}")


# --------------------------------------------------------------------------- the rescaling, formula by formula
# Each method's ω' is derived here by hand from the formulas of the module docstring (definitions.md), on
# frequencies chosen so the numbers are easy: s = L / L0 = 4, and for YaRN r_f = L0 ω_f / 2π = 1/2, 33/2, 40
# (γ = 0, 1/2, 1 on the ramp from α = 1 to β = 32).
L0_HAND, L_HAND = 64, 256
OMEGA_HAND = np.array([1.0, 0.1, 0.01, 0.001])
YARN_R = [0.5, 16.5, 40.0]
YARN_OMEGA = np.array([2 * math.pi * r / L0_HAND for r in YARN_R])


def _rescaling(method: str, length: int = L_HAND, factors: tuple = ()) -> FrequencyRescaling:
    return FrequencyRescaling(ExtensionMethod(method), length, L0_HAND, factors)


def _expected(method: str, omega: np.ndarray) -> np.ndarray:
    """ω' at s = 4 by hand: PI ω/4; NTK (base · 4^(d/(d-2)))^(-2f/d) with base^(-2f/d) = ω_f; YaRN's ramp."""
    d = 2 * omega.size
    if method == "pi":
        return omega / 4
    if method == "ntk":
        return np.array([w * 4.0 ** (-(d / (d - 2)) * 2 * f / d) for f, w in enumerate(omega)])
    gamma = {0.5: 0.0, 16.5: 0.5, 40.0: 1.0}
    return np.array([(1 - gamma[r]) * w / 4 + gamma[r] * w for r, w in zip(YARN_R, omega)])


@pytest.mark.parametrize("method,omega", [("pi", OMEGA_HAND), ("ntk", OMEGA_HAND), ("yarn", YARN_OMEGA)],
                         ids=["pi", "ntk", "yarn"])
def test_rescaled_frequencies_follow_the_published_formulas(method: str, omega: np.ndarray) -> None:
    rescaling = _rescaling(method)
    assert rescaling.scale == Fraction(4)
    assert rescaling.floats(omega) == pytest.approx(_expected(method, omega), rel=1e-12)


# Exists because a mutant survived: YaRN's (and every method's) interval enclosures were never computed.
@pytest.mark.parametrize("method,omega", [("pi", OMEGA_HAND), ("ntk", OMEGA_HAND), ("yarn", YARN_OMEGA)],
                         ids=["pi", "ntk", "yarn"])
def test_interval_enclosures_contain_the_hand_values_tightly(method: str, omega: np.ndarray) -> None:
    from mpmath import iv
    boxes = _rescaling(method).intervals(iv, [iv.mpf(float(w)) for w in omega])
    assert len(boxes) == omega.size
    for box, hand in zip(boxes, _expected(method, omega)):       # the hand value is itself rounded: 1e-15
        assert float(box.a) * (1 - 1e-15) <= hand <= float(box.b) * (1 + 1e-15)
        assert float(box.b - box.a) <= 1e-12 * hand


def test_ntk_keeps_the_one_frequency_of_a_two_dimensional_head_in_both_arithmetics() -> None:
    from mpmath import iv
    assert _rescaling("ntk").floats(np.array([1.0])).tolist() == [1.0]
    (box,) = _rescaling("ntk").intervals(iv, [iv.mpf(1)])
    assert float(box.a) == float(box.b) == 1.0


def test_factors_divide_each_frequency_in_both_arithmetics() -> None:
    from mpmath import iv
    factors = (Fraction(2), Fraction(1, 3), Fraction(5, 4), Fraction(7))
    rescaling = _rescaling("factors", factors=factors)
    expected = [1.0 / 2, 0.1 * 3, 0.01 * 4 / 5, 0.001 / 7]
    assert rescaling.floats(OMEGA_HAND) == pytest.approx(expected, rel=1e-15)
    boxes = rescaling.intervals(iv, [iv.mpf(float(w)) for w in OMEGA_HAND])
    for box, hand in zip(boxes, expected):                       # the hand value is itself rounded: 1e-15
        assert float(box.a) * (1 - 1e-15) <= hand <= float(box.b) * (1 + 1e-15)
        assert float(box.b - box.a) <= 1e-14 * hand


def test_a_factors_count_other_than_the_frequencies_is_refused_exactly() -> None:
    from mpmath import iv
    rescaling = _rescaling("factors", factors=(Fraction(2),) * 3)
    message = ("invalid factors for a PE with 4 frequencies: the file gives 3; accepted: a JSON list of 4 positive "
               "factors")
    for call in (lambda: rescaling.floats(OMEGA_HAND), lambda: rescaling.intervals(iv, [iv.mpf(1)] * 4)):
        with pytest.raises(SpecError) as err:
            call()
        assert str(err.value) == message
    _rescaling("pi").check_width(7)                     # only a factors file has a count to check


@pytest.mark.parametrize("method", ["pi", "ntk", "yarn"])
def test_rescaling_is_the_identity_at_scale_one_and_shrinks_with_the_scale(method: str) -> None:
    """s = 1 leaves every ω; a larger s never raises a frequency and never lowers it below ω / s."""
    omega = YARN_OMEGA if method == "yarn" else OMEGA_HAND
    assert _rescaling(method, L0_HAND).floats(omega) == pytest.approx(omega, rel=1e-15)
    previous = omega
    for length in (2 * L0_HAND, 4 * L0_HAND, 16 * L0_HAND):
        now = _rescaling(method, length).floats(omega)
        assert np.all(now <= previous) and np.all(now >= omega * L0_HAND / length * (1 - 1e-15))
        previous = now


def test_yarn_temperature_values() -> None:
    assert yarn_temperature(0.5) == yarn_temperature(1) == 1.0
    assert yarn_temperature(math.exp(10)) == pytest.approx(4.0, rel=1e-15)
    assert yarn_temperature(math.e) == pytest.approx(1.21, rel=1e-15)


class _Recorder:
    """A PE stand-in that records the rescaling it is asked to extend by."""

    def __init__(self) -> None:
        self.calls: list[tuple[FrequencyRescaling, int]] = []

    def extended(self, rescaling: FrequencyRescaling, train_length: int) -> str:
        self.calls.append((rescaling, train_length))
        return "extended"


def test_extension_acts_only_beyond_the_train_length() -> None:
    op = parse_extension("ntk")
    assert isinstance(op, Extension) and op.name == "ntk" and op.method is ExtensionMethod.NTK
    pe = _Recorder()
    assert op.at_length(pe, 16, 16) is pe and op.at_length(pe, 8, 16) is pe and pe.calls == []
    assert op.at_length(pe, 17, 16) == "extended"
    op.accept(pe, 16)
    assert pe.calls == [(FrequencyRescaling(ExtensionMethod.NTK, 17, 16), 16),
                        (FrequencyRescaling(ExtensionMethod.NTK, 32, 16), 16)]
    yarn = parse_extension("yarn")
    assert yarn.logit_scale(16, 16) == 1.0 and yarn.logit_scale(48, 16) == yarn_temperature(3)
    assert op.logit_scale(48, 16) == 1.0


def test_parse_extension_forms_and_refusals(tmp_path) -> None:
    assert parse_extension("none") is REEVALUATION and parse_extension(REEVALUATION) is REEVALUATION
    path = tmp_path / "f.json"
    path.write_text("[2, \" 3/2 \", 0.5]")
    op = parse_extension(f"factors:{path}")
    assert (op.name, op.method, op.factors) == (f"factors:{path}", ExtensionMethod.FACTORS,
                                                (Fraction(2), Fraction(3, 2), Fraction(1, 2)))
    from posreal.theory.extension import EXTENSION_FORMS
    accepted = f"accepted: {EXTENSION_FORMS}"
    assert all(form in EXTENSION_FORMS for form in ("pi", "linear:S", "ntk:S", "yarn:S", "factors:FILE", "hf:PATH"))
    assert parse_extension("linear:8").fixed == Fraction(8) and parse_extension("yarn:5/2").fixed == Fraction(5, 2)
    for bad, shown in (("PI", "'PI'"), ("factors:", "'factors:'"), (3, "3"), (None, "None")):
        with pytest.raises(SpecError) as err:
            parse_extension(bad)
        assert str(err.value) == f"invalid extension {shown}; {accepted}"


@pytest.mark.parametrize("entry,value", [("9.99e-10", None), ("\"1/1000000000\"", Fraction(1, 10 ** 9)),
                                         ("1000000000000", Fraction(10 ** 12)), ("1000000000001", None),
                                         ("\"1/3\"", Fraction(1, 3)), ("\"7\"", Fraction(7)), ("\"1.5\"", None),
                                         ("\"-1\"", None), ("0.25", Fraction(1, 4)), ("false", None)],
                         ids=["float-floor", "string-floor", "ceiling", "above", "ratio", "integer-text",
                              "decimal-text", "negative-text", "float", "bool"])
def test_factor_entries_and_their_bounds(tmp_path, monkeypatch, entry: str, value: Fraction | None) -> None:
    """Factors lie in [1e-9, 1e12], both ends included; entries out of range are named exactly."""
    monkeypatch.chdir(tmp_path)              # a short relative name: messages shorten paths past 80 characters
    path = Path("f.json")
    path.write_text(f"[1, {entry}]")
    if value is not None:
        assert read_factors(str(path)) == (Fraction(1), value)
        return
    with pytest.raises(SpecError) as err:
        read_factors(str(path))
    assert str(err.value).startswith(f"invalid factors file {str(path)!r}: entry [1] is ")
    assert str(err.value).endswith("accepted: a JSON list of 1 to 4096 factors, one per frequency, each a number "
                                   "or a rational string such as \"3/2\" between 1e-9 and 1e12")


def test_spec_and_factor_count_bounds_are_inclusive(tmp_path, monkeypatch) -> None:
    """A spec of 4096 characters is read (its file is then looked for), 4097 are refused unread; a file of
    4096 factors is accepted, 4097 are refused with their count."""
    monkeypatch.chdir(tmp_path)              # a short relative name: messages shorten paths past 80 characters
    with pytest.raises(SpecError, match=r"^unreadable factors file "):
        parse_extension("factors:" + "a" * (4096 - len("factors:")))
    with pytest.raises(SpecError, match=r"^invalid extension 'factors:a+'… \(4097 characters\)"):
        parse_extension("factors:" + "a" * (4097 - len("factors:")))
    path = Path("f.json")
    path.write_text("[" + ",".join(["2"] * 4096) + "]")
    assert read_factors(str(path)) == (Fraction(2),) * 4096
    path.write_text("[" + ",".join(["2"] * 4097) + "]")
    shown = re.escape(repr(str(path)))
    with pytest.raises(SpecError, match=rf"^invalid factors file {shown}: a list of 4097 entries;"):
        read_factors(str(path))


# Exists because a mutant survived: the refusals of compute_alpha's fine_tune_length were never read in-process.
@pytest.mark.parametrize("kwargs, message", [
    ({"fine_tune_length": 16}, "invalid fine-tune length 16; accepted: an integer > the train length 16"),
    ({"fine_tune_length": 32, "lengths": [20, 64]},
     "invalid length 20; accepted: lengths >= the fine-tune length 32"),
    ({"fine_tune_length": 32, "extension": "none"}, "invalid fine-tune length with extension 'none'; accepted: a "
                                                    "length extension (not none)"),
])
def test_a_bad_fine_tune_request_names_what_was_wrong(kwargs, message):
    args = {"lengths": [64], "extension": "pi", **kwargs}
    with pytest.raises(SpecError) as err:
        compute_alpha("rope:8", "offset:1", 16, **args)
    assert str(err.value).startswith(message)


def test_control_a_fine_tune_length_between_l0_and_the_lengths_runs():
    result = compute_alpha("rope:8", "offset:1", 16, [32, 64], extension="pi", fine_tune_length=32)
    assert result.lengths == (32, 64) and result.fine_tune_length == 32
