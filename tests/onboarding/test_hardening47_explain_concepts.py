"""`spec-debug explain TOPIC`: the concepts a newcomer meets in the incident.

A new engineer who read INCIDENT.md typed `explain accept length`, `explain d2t` or `explain
--speculative-num-steps` and got "no playbook file" and the list of playbooks (or click's "No
such option"). explain now answers with what the thing is, what each engine calls it, what goes
wrong, and the codes and steps that check it (spec_debug/glossary.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug import glossary
from spec_debug.diagnose.catalog import CATALOG
from spec_debug.playbook.loader import _shipped_steps, shipped_playbook_names
from tests.conftest import run_cli

TYPED = {
    "accept length": "accept length",
    "acceptance_length": "accept length",
    "--speculative-num-steps": "num steps",
    "speculative_num_steps": "num steps",
    "--speculative-eagle-topk": "topk",
    "--speculative-num-draft-tokens": "num draft tokens",
    "num_speculative_tokens": "num speculative tokens",
    "eagle_aux_hidden_state_layer_ids": "aux hidden state layers",
    "d2t": "vocab map",
    "t2d": "vocab map",
    "EAGLE-3": "eagle3",
    "norm_before_residual": "norm before residual",
    "norm_before_fc": "fc",
    "tree attention": "tree",
    "concat order": "concat order",
    "full_acc_0": "validation accuracy",
    "baseline_tok_s": "baseline",
}


@pytest.mark.parametrize("typed", TYPED)
def test_what_a_newcomer_types_is_explained(tmp_path: Path, typed: str) -> None:
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"# {TYPED[typed]}\n")
    concept = glossary.find_concept(typed)
    for code in concept.codes:
        assert f"- {code}: {CATALOG[code].title} (`spec-debug explain {code}`)" in result.stdout


def test_a_concept_of_several_words_needs_no_quotes(tmp_path: Path) -> None:
    result = run_cli("explain", "accept", "length", cwd=tmp_path)
    assert result.code == 0 and result.stdout.startswith("# accept length\n")


def test_the_cap_the_incident_hit_is_said_the_way_the_audit_finds_it(tmp_path: Path) -> None:
    text = run_cli("explain", "--speculative-num-steps", cwd=tmp_path).stdout
    assert "the accept length is at most steps + 1" in text
    assert "`--speculative-num-steps 1` drafts one token per round: accept length at most 2" in text


def test_a_misspelt_concept_is_suggested(tmp_path: Path) -> None:
    result = run_cli("explain", "accept lenght", cwd=tmp_path)
    assert result.code == 2
    assert "hint: the concept 'accept length'? `spec-debug explain 'accept length'`" in result.stderr


def test_an_unknown_option_is_still_refused_as_one(tmp_path: Path) -> None:
    for args in (("--fromat",), ("perf_regression", "--fromat", "json")):
        result = run_cli("explain", *args, cwd=tmp_path)
        assert result.code == 2
        assert result.stderr.splitlines()[0] == "error: no such option: --fromat"


def test_a_stray_second_word_is_refused(tmp_path: Path) -> None:
    result = run_cli("explain", "perf_regression", "extra", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[0] == "error: explain takes one playbook, code or concept; got also: extra"


def test_a_playbook_file_of_that_name_wins(tmp_path: Path) -> None:
    (tmp_path / "d2t").write_text("name: d2t\ndescription: my own check\nsteps:\n  - id: look\n    run: echo hi\n",
                                  encoding="utf-8")
    result = run_cli("explain", "d2t", cwd=tmp_path)
    assert result.code == 0 and result.stdout.startswith("# Walkthrough: `d2t`")


def test_the_list_and_json(tmp_path: Path) -> None:
    listing = run_cli("explain", "concepts", cwd=tmp_path).stdout
    for concept in glossary.CONCEPTS:
        assert f"| {concept.name} |" in listing
    data = json.loads(run_cli("explain", "d2t", "--json", cwd=tmp_path).stdout)
    assert data["name"] == "vocab map" and data["codes"] == ["SD301", "SD302", "SD303"]


def test_every_code_a_concept_names_is_one_a_shipped_step_can_raise() -> None:
    """A concept sends the newcomer to the steps that check it: each of its codes is raised by a
    step of the shipped playbooks (as `explain PLAYBOOK` lists them)."""
    raised = set()
    for playbook in shipped_playbook_names():
        data = json.loads(run_cli("explain", playbook, "--json").stdout)
        raised |= {c["code"] for step in data["steps"] for c in step.get("codes", [])}
    for concept in glossary.CONCEPTS:
        assert set(concept.codes) <= raised, (concept.name, set(concept.codes) - raised)


def test_no_concept_shadows_a_playbook_a_step_or_a_probe() -> None:
    """`explain throughput` names the step of perf_regression, `explain drafter` the playbook
    drafter_accuracy: a concept spelled so would hide them."""
    names = set(shipped_playbook_names())
    steps = {str(v).lower() for _, step, _ in _shipped_steps() for v in (step.get("id"), step.get("probe")) if v}
    for concept in glossary.CONCEPTS:
        for word in (concept.name, *concept.aliases):
            key = glossary.normalise(word)
            assert key not in {glossary.normalise(s) for s in steps | names}, word
            assert not any(name.startswith(key.replace(" ", "_")) for name in names), word
