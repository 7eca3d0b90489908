"""` #word` in an unquoted `contains:`/`not_contains:`/`matches:`/capture `regex:` is refused.

SGLang's scheduler logs `Decode batch. #running-req: 1, #token: 1045, ...`. In a plain YAML
value ' #' starts a comment (YAML 1.2.2, 6.6): `contains: Decode batch. #running-req` loaded
as "Decode batch." and the check passed on any decode line; `not_contains: #token` looked for
nothing at all. A comment written as a comment (`# the health check`, a space after the #)
stays the author's comment.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

LOG = "Decode batch. #running-req: 0, #token: 1045, token usage: 0.00, accept len: 2.35"


def playbook(check: str) -> str:
    return f"name: p\nsteps:\n  - id: decode\n    run: |\n      echo '{LOG}'\n{check}"


@pytest.mark.parametrize("check, written, cut", [
    ("    expect:\n      - contains: Decode batch. #running-req: 1\n", "Decode batch. #running-req: 1", "'Decode batch.'"),
    ("    expect:\n      - not_contains: #running-req: 0\n", "#running-req: 0", "be empty"),
    ("    expect:\n      - matches: Decode batch\\. #running-req\n", "Decode batch\\. #running-req", "'Decode batch\\\\.'"),
    ("    capture:\n      - regex: '#running-req: (\\d+)'\n        name: running\n"
     "      - regex: Decode batch. #token: (?P<tokens>\\d+)\n", "Decode batch. #token: (?P<tokens>\\d+)", "'Decode batch.'"),
])
def test_a_comment_cut_into_text_to_find_is_refused_with_the_quoted_value(write_playbook, check, written, cut):
    result = run_cli("playbooks", "validate", str(write_playbook(playbook(check))))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert "a comment to YAML" in said and cut in said, said
    quoted = "'" + written + "'"
    assert quoted in said, said
    # The hint's value, pasted in, loads and finds what the author meant.
    fixed = write_playbook(playbook(check.replace(written, quoted)), "fixed.yaml")
    assert run_cli("playbooks", "validate", str(fixed)).code == 0


def test_the_quoted_value_from_the_hint_finds_the_log_line(write_playbook, tmp_path):
    """What the check was meant to do: fail on a scheduler with no running request."""
    text = playbook("    expect:\n      - not_contains: '#running-req: 0'\n")
    result = run_cli("run", str(write_playbook(text)), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    assert json.loads(result.stdout)["steps"][0]["status"] == "failed"


@pytest.mark.parametrize("check", [
    "    expect:\n      - contains: Decode batch   # the scheduler's log line\n",
    "    expect:\n      - contains: Decode batch # the scheduler's log line\n",
    "    expect:\n      - contains: Decode batch  ## section\n",
])
def test_a_real_comment_is_still_a_comment(write_playbook, tmp_path, check):
    result = run_cli("run", str(write_playbook(playbook(check))), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["status"] == "passed"
