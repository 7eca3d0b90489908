"""The few-scored-rows note looked at step 0 only. TTT step k scores row t at position t + k,
so each deeper step drops a position of every sample: a dump of many short samples gave step
0 120 rows and step 2 40, and the per-step table (no row counts) read step 2's accuracy as
sure as step 0's. `drafter eval` now names the deeper steps resting on fewer than
MIN_SCORED_ROWS rows, with their counts and the binomial uncertainty of the fewest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from spec_debug.eagle3.evaluate import MIN_SCORED_ROWS, _few_deep_rows_note
from tests.eagle3._world import drafter_app, informative_world, runner

world = informative_world("h71_few_deep_rows", seed=71)


def _short_samples(world: Path, out: Path, count: int, length: int) -> Path:
    """count samples of the first `length` tokens of the world's samples (in turn)."""
    out.mkdir()
    sources = [load_file(str(world / "data" / f"hs_{i}.safetensors")) for i in range(3)]
    for n in range(count):
        tensors = {key: value[:length].contiguous() for key, value in sources[n % 3].items()}
        save_file(tensors, str(out / f"hs_{n}.safetensors"))
    return out


def _eval(world: Path, data: Path, steps: int) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", str(steps), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _deep(out: dict) -> list[str]:
    return [n for n in out["notes"] if "scored rows (step 0 on" in n]


def test_deeper_steps_on_few_rows_are_said(world, tmp_path):
    out = _eval(world, _short_samples(world, tmp_path / "short", 40, 4), steps=3)
    totals = [int(t) for t in out["counts"]["full_total"]]
    assert totals[0] >= MIN_SCORED_ROWS > totals[1] > totals[2] > 0, totals
    half = round(100 * 1.96 * 0.5 / totals[2] ** 0.5)
    assert _deep(out) == [
        f"steps 1, 2 rest on {totals[1]}, {totals[2]} scored rows (step 0 on {totals[0]} "
        f"of {out['tokens']} rows (40 samples of {out['tokens'] + 40} tokens: a sample of T "
        "tokens has T - 1 rows)): each step drops a row of every sample; an accuracy over "
        f"so few rows is uncertain by up to +-{half} points (95% binomial interval; under 100 "
        "rows it passes +-10); evaluate on more or longer samples before comparing drafts or "
        "layouts at that depth"], out["notes"]
    # step 0's own note stays out: it rests on enough rows
    assert not [n for n in out["notes"] if "scored at step 0" in n], out["notes"]


def test_no_note_when_every_step_rests_on_enough_rows(world, tmp_path):
    out = _eval(world, _short_samples(world, tmp_path / "long", 60, 6), steps=2)
    totals = [int(t) for t in out["counts"]["full_total"]]
    assert min(totals) >= MIN_SCORED_ROWS, totals
    assert _deep(out) == [], out["notes"]


def test_the_note_bounds():
    assert _few_deep_rows_note([MIN_SCORED_ROWS, MIN_SCORED_ROWS - 1], 500)
    assert _few_deep_rows_note([MIN_SCORED_ROWS, MIN_SCORED_ROWS], 500) == []
    # step 0 under the threshold: its own note, or a small dump where every step is few
    assert _few_deep_rows_note([MIN_SCORED_ROWS - 1, 10], 500) == []
    # a step no row reached has the unscored-steps note
    assert _few_deep_rows_note([MIN_SCORED_ROWS, 0], 500) == []
    [one] = _few_deep_rows_note([150, 120, 49], 200)
    assert one.startswith("step 2 rests on 49 scored rows (step 0 on 150 of 200 rows)"), one
    assert "+-14 points" in one, one
