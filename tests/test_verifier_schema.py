"""Contract of the certificate verifier (counterexamples/verifier):
schema typing: typed per JSON kind, keys (missing before unknown), canonical rationals unq/unqvec.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction as F
from typing import Any

import pytest

from posreal.counterexamples.verifier import schema
from posreal.counterexamples.verifier.certificate import unq, unqvec
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    VERIFIED,
)
from verifier_cases import (OPEN, RATIONAL_FORMS, _Dict, _Str, _one, _shipped)


@pytest.mark.parametrize("value, kind", [
    (3, int), (0, int), (-7, int), (True, bool), (False, bool), ("1/2", str), (_Str("x"), str), ([], list),
    ([1, "a"], list), ({}, dict), (OrderedDict(a=1), dict), (_Dict(a=1), dict), (3, (int, str)), ("3", (int, str)),
    (False, (bool, dict)),
])
def test_typed_accepts_the_json_kind_and_returns_the_value(value: Any, kind: Any) -> None:
    assert schema.typed(value, kind, "w") is value


@pytest.mark.parametrize("value, kind, accepted", [
    (True, int, "an integer"), (False, int, "an integer"), (3.0, int, "an integer"), ("3", int, "an integer"),
    (F(3), int, "an integer"), (1, bool, "true or false"), (None, bool, "true or false"), (3, str, "a string"),
    (b"3", str, "a string"), ((1,), list, "a list"), ({}, list, "a list"), ([], dict, "an object"),
    (None, (int, str), "an integer or a string"), (True, (int, list), "an integer or a list"), (1, float, "float"),
    (1, F, "Fraction"),
])
def test_typed_refuses_other_json_kinds_naming_what_is_accepted(value: Any, kind: Any, accepted: str) -> None:
    with pytest.raises(CertificateError) as err:
        schema.typed(value, kind, "a.b[0]")
    assert str(err.value) == f"malformed certificate: a.b[0] = {value!r}; accepted: {accepted}"


def test_keys_returns_the_object_and_reports_missing_before_unknown_fields() -> None:
    obj = {"a": 1, "b": 2}
    assert schema.keys(obj, {"a"}, {"b", "c"}, "w") is obj
    ordered = OrderedDict(a=1)
    assert schema.keys(ordered, {"a"}, set(), "w") is ordered
    cases = [
        (({}, {"b", "a"}, set()), "malformed certificate: w lacks a, b"),
        (({"z": 1}, {"a"}, set()), "malformed certificate: w lacks a"),
        (({"a": 1, "y": 1, "x": 1}, {"a"}, {"b"}), "malformed certificate: unknown field 'x' in w; accepted: a, b"),
        (({"a": 1, 7: 1}, {"a"}, set()), "malformed certificate: unknown field '7' in w; accepted: a"),
        ((["a"], {"a"}, set()), "malformed certificate: w = ['a']; accepted: an object"),
    ]
    for (value, required, optional), message in cases:
        with pytest.raises(CertificateError) as err:
            schema.keys(value, required, optional, "w")
        assert str(err.value) == message


def test_a_certificate_read_into_dict_subclasses_verifies() -> None:
    def convert(node: Any) -> Any:
        if isinstance(node, dict):
            return _Dict({k: convert(v) for k, v in node.items()})
        if isinstance(node, list):
            return [convert(v) for v in node]
        return _Str(node) if isinstance(node, str) else node

    assert _one(convert(_shipped(OPEN))).verdict == VERIFIED


@pytest.mark.parametrize("text, value", [
    ("0/1", F(0)), ("-3/4", F(-3, 4)), ("7/1", F(7)), ("1/" + "9" * 200, F(1, 10 ** 200 - 1)),
    ("-" + "9" * 200 + "/1", F(1 - 10 ** 200)), (_Str("1/2"), F(1, 2)),
    # exists because a mutant survived: the longest canonical spelling (402 characters: sign, 200 + 200 digits)
    ("-" + "9" * 200 + "/" + "9" * 199 + "8", F(1 - 10 ** 200, 10 ** 200 - 2)),
])
def test_unq_accepts_the_canonical_spelling(text: str, value: F) -> None:
    assert unq(text, "w") == value


@pytest.mark.parametrize("text", ["2/4", "0/2", "1/0", "1/-2", "+1/2", "1", "1.5/1", " 1/2", "01/2", "1/02",
                                  "١/2", "", 1, None, F(1, 2), ["1/2"], "1/" + "1" * 202, "1" * 202 + "/1",
                                  # the limit is exact (201 digits passed before), and zero has one spelling
                                  "1/" + "1" * 201, "1" * 201 + "/1", "-" + "1" * 201 + "/1", "-0/1", "-0/3"])
def test_unq_refuses_every_other_spelling(text: Any) -> None:
    with pytest.raises(CertificateError) as err:
        unq(text, "x.y[2]")
    assert str(err.value).endswith(f" at x.y[2]; {RATIONAL_FORMS}")
    assert str(err.value).startswith("invalid rational ")


def test_unqvec_parses_a_list_and_names_the_bad_index() -> None:
    assert unqvec(["1/2", "0/1"], "w") == (F(1, 2), F(0))
    assert unqvec([], "w") == ()
    with pytest.raises(CertificateError) as err:
        unqvec(["1/2", "2/4"], "w")
    assert str(err.value) == f"invalid rational '2/4' at w[1]; {RATIONAL_FORMS}"
    with pytest.raises(CertificateError) as err:
        unqvec(("1/2",), "w")
    assert str(err.value) == "invalid vector ('1/2',) at w; accepted: a list of 'p/q' strings"
