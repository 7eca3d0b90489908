"""`spec-debug explain` with nothing after it: the error names what it takes.

explain takes a playbook, a step, a finding code or a concept (README: `explain SD201`,
`explain d2t`); its argument was shown as `playbook`, so `spec-debug explain` alone said
"Missing argument 'playbook'" to the newcomer who came to ask about a code or a word."""
from __future__ import annotations

from tests.conftest import run_cli


def test_missing_topic_is_named_topic() -> None:
    result = run_cli("explain")
    assert result.code == 2
    assert "Missing argument 'TOPIC'" in result.stderr, result.stderr
    assert "'playbook'" not in result.stderr


def test_help_usage_names_topic_and_the_argument_still_works() -> None:
    assert "explain [OPTIONS] {TOPIC}" in run_cli("explain", "--help").stdout
    result = run_cli("explain", "d2t")
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# vocab map")
