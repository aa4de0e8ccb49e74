"""Behaviours the fresh mutation sample of seed 16 found untested (benchmarks/mutation/mutation-summary.md): the
parameter counts and bounds of the published PEs' specs, the old names printed as given, the rank of no rows, the
shear partner of a task, and the depth bound's JSON fields.  Each test names the behaviour, not the mutant."""

from __future__ import annotations

import pytest

from posreal.theory import parse_pe
from posreal.theory.errors import SpecError


@pytest.mark.parametrize("spec", ["t5:32:128:1", "alibi-fixed:8:1:1", "fire:8:5:3", "clipped:3:4", "colbias:3:4",
                                  "kerple-log:1:2"])
def test_a_spec_with_one_parameter_too_many_is_refused_naming_it(spec):
    with pytest.raises(SpecError) as error:
        parse_pe(spec)
    assert f"'{spec}'" in str(error.value) or spec in str(error.value)


@pytest.mark.parametrize("spec", ["t5:32:128", "alibi-fixed:8:1", "fire:8:5", "clipped:3", "colbias:3"])
def test_control_the_full_parameter_count_is_accepted_and_round_trips(spec):
    assert str(parse_pe(spec)) == spec


def test_fire_reads_its_threshold_and_refuses_zero():
    assert parse_pe("fire:8:5").threshold == 5
    assert parse_pe("fire:8").threshold is None
    with pytest.raises(SpecError, match="fire:8:0"):
        parse_pe("fire:8:0")


@pytest.mark.parametrize("given,printed", [("relbias", "relbias"), ("clipped", "clipped"), ("alibi", "alibi"),
                                           ("slope", "slope")])
def test_an_older_name_is_printed_as_given_and_only_then(given, printed):
    assert str(parse_pe(given)) == printed


def test_the_rank_of_no_rows_is_zero():
    from fractions import Fraction

    from posreal.theory.rational import rank
    assert rank([]) == 0
    assert rank([[Fraction(1), Fraction(2)]]) == 1          # the control: one non-zero row


@pytest.mark.parametrize("task,partner", [("copy", "middle"), ("middle", "copy"), ("offset:2", "position:2"),
                                          ("position:0", "offset:0"), ("reverse", None)])
def test_the_shear_partner_of_a_task(task, partner):
    from posreal.theory.taxonomy_report import _task_partner
    assert _task_partner(task) == partner


def test_the_depth_bound_keeps_its_vocabulary_and_names_its_fields():
    from posreal.theory.depth import depth_bound
    bound = depth_bound("sort", 5, 3, 1)
    assert bound.vocab == 3
    doc = bound.to_json()
    assert doc["vocab"] == 3 and doc["depth"] == 1 and doc["length"] == 5
    assert set(doc) == {"task", "length", "vocab", "depth", "method", "rows", "beta", "argmax", "seed", "samples",
                        "stderr"}


def test_an_induction_result_names_a_per_length_mode_only_when_one_differs():
    from posreal.theory.induction import induction_alpha
    same = induction_alpha("relbias", 16, [33, 65], mode="exact").to_json()
    assert same["mode"] == "exact" and "decided_in" not in same
    assert "decided_in" not in induction_alpha("relbias", 16, [33]).to_json()


def test_the_config_table_says_question_mark_for_an_unknown_version(tmp_path):
    import json
    from pathlib import Path

    from posreal.theory import config_table
    source = Path(__file__).resolve().parents[1] / "docs" / "data" / "configs" / "alpha-table.json"
    doc = json.loads(source.read_text(encoding="utf-8"))
    version = doc["versions"].pop("positional-realizability")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "(posreal ?; " in config_table.render(path)
    assert f"(posreal {version}; " in config_table.render(source)   # the control: the version when it is given
