"""The Extension page's account of xPos under length extension, recomputed: ``xpos:16 · copy`` keeps α = 1
under position interpolation up to L = 128 and drops to 0 at 256 (row 128 loses its target, key 0, to key
1); the crossover length doubles for each factor of 4 in the decay scale γ; without the decay (γ = 10⁶)
PI keeps ``copy`` up to 1024, which is the control that the decay is the cause; NTK and YaRN lose it at
every length.  The page must also name ``xpos:16`` and no longer carry the old heading."""

from __future__ import annotations

from pathlib import Path

import pytest

from posreal.theory import compute_alpha

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "extension.md").read_text(encoding="utf-8")


def copy_alpha(pe: str, lengths: list[int], extension: str = "pi") -> dict[int, float | None]:
    result = compute_alpha(pe, "copy", 16, lengths, extension=extension)
    return {L: result.alpha(L) for L in lengths}


def test_xpos_copy_under_pi_drops_from_one_to_zero_at_256():
    assert copy_alpha("xpos:16", [32, 64, 128, 256]) == {32: 1.0, 64: 1.0, 128: 1.0, 256: 0.0}
    failing = compute_alpha("xpos:16", "copy", 16, [256], extension="pi").failing_rows(256, max_rows=1)[0]
    assert (failing.row, failing.target, failing.winner) == (128, 0, 1) and failing.margin < 0
    (f_a, share_a), (f_b, share_b) = failing.contributions[:2]       # "f = 0, 1 carrying the negative margin"
    assert {f_a, f_b} == {0, 1} and share_a < 0 and share_b < 0


@pytest.mark.parametrize(("scale", "survives", "fails"), [(2048, 256, 512), (8192, 512, 1024)])
def test_the_crossover_doubles_for_each_factor_of_four_in_the_decay_scale(scale, survives, fails):
    assert copy_alpha(f"xpos:16:10000:{scale}", [survives, fails]) == {survives: 1.0, fails: 0.0}


def test_without_the_decay_pi_keeps_copy():
    """Control: the same PE with the decay made negligible behaves as rope:16 (α = 1 up to 1024)."""
    assert copy_alpha("xpos:16:10000:1000000", [256, 512, 1024]) == {256: 1.0, 512: 1.0, 1024: 1.0}


@pytest.mark.parametrize("method", ["ntk", "yarn"])
def test_ntk_and_yarn_lose_copy_at_every_length(method):
    lengths = [32, 64, 128, 256, 512, 1024]
    assert copy_alpha("xpos:16", lengths, method) == {L: 0.0 for L in lengths}


def test_the_page_names_xpos_and_says_what_was_computed():
    assert "xpos:16" in PAGE and "<!-- posreal: alpha-extensions xpos:16 16 256" in PAGE
    assert "The example of the issue" not in PAGE
    for phrase in ("`xpos:16:10000:2048`", "survives PI at $L = 256$", "fails at 512", "fails only at 1024",
                   "row 128", "key 1"):
        assert phrase in PAGE, phrase



def test_the_methods_act_on_the_published_pes_the_page_names(capsys):
    """"the methods act on the rotary xpos:d; pi also on slope and alibi-fixed; t5, kerple-log and fire show
    n/a under every method" — read from what ``posreal table --extension all --json`` computes."""
    import json

    from posreal.cli import main
    pes = ["t5", "alibi-fixed", "kerple-log", "fire", "xpos:16", "slope"]
    assert main(["table", "--pes", ",".join(pes), "--tasks", "offset:1", "--lengths", "64", "--extension", "all",
                 "--json"]) == 0
    acts: dict[str, set[str]] = {pe: set() for pe in pes}
    for cell in json.loads(capsys.readouterr().out)["cells"]:
        if cell.get("applicable") is not False and cell["extension"] != "none":
            acts[cell["pe"]].add(cell["extension"])
    assert acts == {"t5": set(), "kerple-log": set(), "fire": set(), "xpos:16": {"pi", "ntk", "yarn"},
                    "slope": {"pi"}, "alibi-fixed": {"pi"}}
    assert "t5,alibi-fixed,kerple-log,fire,xpos:16 --extension all --long" in PAGE
