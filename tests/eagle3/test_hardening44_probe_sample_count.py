"""`python -m spec_debug.eagle3 eval|layout --max-samples 0` (the probe entry for GPU hosts)
read no file and answered "DIR: no samples", blaming a dump that holds samples; the CLI's
`drafter eval/layout` and the playbooks' max_samples var refuse a count below 1. Now the
probe entry refuses it too, as its one JSON document, before anything is loaded."""

from __future__ import annotations

import json

import pytest

from spec_debug.eagle3.__main__ import main


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("count", ["0", "-3"])
def test_a_sample_count_below_one_is_a_usage_error(command, count, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--model", str(tmp_path / "draft"), "--data", str(tmp_path / "data"),
              "--max-samples", count])
    assert exit_info.value.code == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"] == (f"python -m spec_debug.eagle3 {command}: argument --max-samples: "
                            f"{count}: give at least 1 sample")
