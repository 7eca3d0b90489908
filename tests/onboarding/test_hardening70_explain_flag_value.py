"""`spec-debug explain --speculative-num-steps 1`: the incident's flag copied with its value off
a launch line (docs/findings.md's SD101 example, a server's ps line) was "error: explain takes
one playbook, code or concept; got also: 1" and a hint to quote a concept of several words;
`--speculative-num-steps=1` was "no such option: --speculative-num-steps=1". The flag of a
concept followed by one value is that concept; anything else is refused as before."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("args, concept", [
    (("--speculative-num-steps", "1"), "num steps"),
    (("--speculative-num-steps=1",), "num steps"),
    (("--speculative-eagle-topk", "1"), "topk"),
    (("--speculative-num-draft-tokens=2",), "num draft tokens"),
    (("--speculative-config", '{"method": "eagle3", "num_speculative_tokens": 3}'), "num speculative tokens"),
])
def test_a_flag_with_its_value_is_its_concept(tmp_path, args, concept):
    result = run_cli("explain", *args, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"# {concept}\n")
    assert json.loads(run_cli("explain", *args, "--json", cwd=tmp_path).stdout)["name"] == concept


@pytest.mark.parametrize("args, first_line", [
    (("--speculative-num-steps", "1", "2"), "error: explain takes one playbook, code or concept; got also: 1 2"),
    (("--speculative-num-steps", "--fromat"), "error: no such option: --fromat"),
    (("perf_regression", "1"), "error: explain takes one playbook, code or concept; got also: 1"),
    (("d2t", "1"), "error: explain takes one playbook, code or concept; got also: 1"),
    (("--fromat=json",), "error: no such option: --fromat=json"),
])
def test_anything_else_is_still_refused(tmp_path, args, first_line):
    result = run_cli("explain", *args, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[0] == first_line
