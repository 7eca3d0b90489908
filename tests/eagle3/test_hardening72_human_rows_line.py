"""`drafter eval`'s human summary line said "samples 3   tokens 42   329 tok/s" of 3 samples a
user counted 45 tokens in (len(token_ids) of each file): the figure is the rows after
speculators' shift_batch, one fewer per sample, as the notes already say. The line now says
"rows 42 (of 45 tokens)" and rows/s; the JSON keeps its field names (tokens, tokens_per_s)."""

from __future__ import annotations

import json
import re

from safetensors.torch import load_file

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world, runner

world = informative_world("h72_human_rows_line", seed=72)


def _eval(world, *extra):
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(world / "target"),
                                         "--steps", "2", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_summary_line_says_rows_and_the_tokens_a_user_counts(world):
    files = sorted((world / "data").glob("hs_*.safetensors"))
    counted = sum(len(load_file(str(f))["token_ids"]) for f in files)
    text = " ".join(_eval(world).split())
    found = re.search(r"samples (\d+) rows (\d+) \(of (\d+) tokens\) (\d+) rows/s on cpu", text)
    assert found, text
    samples, rows, tokens = (int(found.group(i)) for i in (1, 2, 3))
    assert (samples, rows, tokens) == (len(files), counted - len(files), counted)
    assert not re.search(r"\btokens \d", text) and "tok/s" not in text, text
    out = json.loads(_eval(world, "--json"))
    assert out["tokens"] == rows and out["tokens_per_s"] > 0
