"""Small pure pieces of the core: templates, redaction, run ids, captures, schema."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest

from spec_debug.errors import TemplateError
from spec_debug.playbook.models import Capture
from spec_debug.playbook.templating import TemplateSite, render, shell_quote
from spec_debug.redact import MASK, redact_text
from spec_debug.runner.capture import apply_captures, json_lookup
from spec_debug.store import RunStore
from tests.conftest import run_cli

SITE = TemplateSite("s", "run")


def test_shell_quote_keeps_home_expansion_but_nothing_else():
    assert shell_quote("~/ml-env/bin/python") == "~/ml-env/bin/python"
    assert shell_quote("~/my env/python") == "~/'my env/python'"
    assert shell_quote("a b") == "'a b'"
    out = subprocess.run(["bash", "-c", "echo " + shell_quote("~/x; echo pwned")], capture_output=True, text=True).stdout
    assert "pwned" in out and out.count("\n") == 1  # printed, not run


def test_templates_are_sandboxed_and_strict():
    with pytest.raises(TemplateError, match="undefined"):
        render("echo {{ nope }}", {}, SITE, shell=True)
    with pytest.raises(TemplateError):
        render("{{ ''.__class__.__mro__ }}", {}, SITE)
    assert render("echo {{ x }}", {"x": "a'b"}, SITE, shell=True) == "echo 'a'\"'\"'b'"


@pytest.mark.parametrize(
    "text",
    [
        "HF_TOKEN=hf_0123456789abcdefghijklmnop",
        "export OPENAI_API_KEY='sk-proj-0123456789abcdefghij'",
        "--api-key supersecret123",
        "--hf-token=hf_0123456789abcdefghijklmnop",
        "Authorization: Bearer abc.def.ghi",
        "password: hunter2",
    ],
)
def test_redaction(text):
    redacted = redact_text(text)
    assert MASK in redacted
    for secret in ("hf_0123456789", "sk-proj-0123", "supersecret123", "abc.def.ghi", "hunter2"):
        assert secret not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "python -m sglang.launch_server --speculative-num-steps 1 --speculative-num-draft-tokens 2 --tp 8",
        "effective: steps=1, topk=1, draft tokens=2; max_tokens: 512; num_draft_tokens=4",
        "gen throughput (token/s): 54.8",
    ],
)
def test_redaction_leaves_ordinary_text_alone(text):
    assert redact_text(text) == text


def test_redaction_of_values_keeps_counts():
    from spec_debug.redact import redact_value

    assert redact_value({"num_draft_tokens": 4, "hf_token": "abc", "draft_tokens": "2"}) == {
        "num_draft_tokens": 4, "hf_token": MASK, "draft_tokens": "2"}


def test_run_ids_are_sortable_and_unique_under_concurrency(tmp_path):
    created: list[Path] = []
    lock = threading.Lock()

    def make() -> None:
        store = RunStore.create(tmp_path, "perf_regression")
        with lock:
            created.append(store.run_dir)

    threads = [threading.Thread(target=make) for _ in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({p.name for p in created}) == 32
    first = RunStore.create(tmp_path, "a").run_dir.name
    later = RunStore.create(tmp_path, "a").run_dir.name
    assert first[:18] <= later[:18]


def test_captures_types_and_json_paths():
    stdout = 'banner\n{"engine": {"name": "sglang", "version": "0.5.2"}, "layers": [2, 30, 58]}\n'
    facts = apply_captures(
        [
            Capture.model_validate({"json": "engine.version", "name": "engine_version", "type": "str"}),
            Capture.model_validate({"json": "layers[2]", "name": "last_layer"}),
            Capture.model_validate({"json": "missing.key", "name": "absent", "default": "n/a"}),
            Capture.model_validate({"regex": r"(?P<word>[a-z]+)", "all": True, "from": "stdout"}),
        ],
        stdout,
        "",
    )
    assert facts["engine_version"] == "0.5.2" and facts["last_layer"] == 58 and facts["absent"] == "n/a"
    assert facts["word"][:2] == ["banner", "engine"]
    assert json_lookup({"a": [{"b": 1}]}, "$.a[0].b") == 1


def test_schema_command_is_valid_json_schema(tmp_path):
    result = run_cli("schema")
    schema = json.loads(result.stdout)
    assert schema["title"] == "spec-debug playbook"
    assert "steps" in schema["properties"] and "name" in schema["required"]
    step_props = schema["$defs"]["Step"]["properties"]
    for key in ("run", "probe", "fetch", "with", "when", "capture", "expect", "findings", "on_failure", "why"):
        assert key in step_props


def test_var_file_and_var_precedence(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nvars:\n  a: one\n  b: two\nsteps:\n  - id: s\n    run: echo {{ a }}-{{ b }}\n")
    var_file = tmp_path / "vars.yaml"
    var_file.write_text("a: from-file\nb: from-file\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var-file", str(var_file), "--var", "b=from-cli", "--json")
    record = json.loads(result.stdout)
    assert record["steps"][0]["stdout"] == "from-file-from-cli\n"
    assert record["vars"] == {"a": "from-file", "b": "from-cli"}
