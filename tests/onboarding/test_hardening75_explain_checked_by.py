"""`spec-debug explain SD201` (the code a report names) said what the code detects, why it hurts
and how to fix it, but not which check reports it: a newcomer had no word that perf_regression's
launch_flags, configs and hidden_layout steps find it, nor the command that walks through each.
Every entry now ends with "Checked by": the shipped steps that report the code, each with its
`spec-debug explain` command (`explain PLAYBOOK STEP` where `explain STEP` is another
playbook's), or that the runner reports it on any step. `findings CODE --json` gives the same
steps under a new key, "checked_by"; docs/findings.md carries the section too."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.diagnose.catalog import CATALOG, render_catalog_markdown, render_entry_markdown
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]


def _section(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("### Checked by") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("### ")), len(lines))
    return [line for line in lines[start:end] if line]


def test_explain_a_code_names_the_steps_that_find_it() -> None:
    result = run_cli("explain", "SD201")
    assert result.code == 0, result.stderr
    assert _section(result.stdout) == [
        "- perf_regression, step `launch_flags` (`spec-debug explain launch_flags`)",
        "- perf_regression, step `configs` (`spec-debug explain configs`)",
        "- perf_regression, step `hidden_layout` (`spec-debug explain hidden_layout`)",
        "- hidden_state_format, step `configs` (`spec-debug explain hidden_state_format configs`)",
        "- hidden_state_format, step `hidden_layout` (`spec-debug explain hidden_state_format hidden_layout`)",
    ]


def test_findings_names_the_one_step_of_a_vocab_code_and_the_runner_for_a_runner_code() -> None:
    vocab = run_cli("findings", "SD303")
    assert _section(vocab.stdout) == ["- perf_regression, step `vocab` (`spec-debug explain vocab`)"]
    runner = run_cli("findings", "SD002")
    assert _section(runner.stdout) == ["Any step of any playbook: the runner reports it from how the step went."]


def test_every_catalog_code_says_which_step_finds_it() -> None:
    for doc in CATALOG.values():
        assert _section(render_entry_markdown(doc)), doc.code
    markdown = render_catalog_markdown()
    assert markdown.count("### Checked by\n") == len(CATALOG)
    assert "No shipped playbook step" not in markdown  # each catalog code has a shipped check or is the runner's


def test_the_step_named_walks_through_that_step() -> None:
    shown = run_cli("explain", "hidden_state_format", "configs")
    assert shown.code == 0
    assert shown.stdout.splitlines()[0] == "# Walkthrough: `hidden_state_format`, step `configs`"


def test_json_gives_the_steps_under_checked_by() -> None:
    result = run_cli("findings", "SD601", "--json")
    assert result.code == 0
    assert json.loads(result.stdout)["checked_by"] == [{"playbook": "perf_regression", "step": "reference_forward"}]


def test_the_generated_docs_carry_the_section() -> None:
    docs = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert "### Checked by\n- perf_regression, step `throughput` (`spec-debug explain throughput`)\n" in docs
