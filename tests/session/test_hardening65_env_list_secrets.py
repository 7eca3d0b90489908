"""A secret in a container's environment list: `kubectl get deploy -o yaml` (or -o json, an ECS
task definition, `helm --set env[0].name=...,env[0].value=...`) writes the variable's name and its
value as two keys (`- name: HF_TOKEN` / `value: ...`), and the postmortem quoted the token as typed.
And a bare value inside braces lost its closing brace to the mask (`{hf_token: ***REDACTED***`)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.redact import MASK, redact_text
from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

_TOKEN = "hfx0Zq8LmT2vB7nR4kW9pY3sD6aF1gH"  # no hf_ prefix: only the name says it is a secret

_YAML = f"""spec:
  containers:
  - name: sglang
    env:
    - name: HF_TOKEN
      value: {_TOKEN}
    - name: MODEL_ID
      value: meta-llama/Llama-3.1-8B-Instruct
    - name: WANDB_API_KEY
      valueFrom:
        secretKeyRef: {{name: wandb, key: api-key}}
"""


def test_kubernetes_env_yaml_value_is_masked() -> None:
    out = redact_text(_YAML)
    assert _TOKEN not in out
    assert f"    - name: HF_TOKEN\n      value: {MASK}\n    - name: MODEL_ID\n" \
           "      value: meta-llama/Llama-3.1-8B-Instruct\n" in out
    assert "secretKeyRef: {name: wandb, key: api-key}" in out  # a reference, no value


def test_env_list_as_json_flow_yaml_and_helm() -> None:
    as_json = json.dumps({"env": [{"name": "HF_TOKEN", "value": _TOKEN}, {"name": "PORT", "value": "30000"}]}, indent=2)
    assert redact_text(as_json) == as_json.replace(_TOKEN, MASK)
    assert redact_text(f"env: [{{name: HF_TOKEN, value: {_TOKEN}}}]") == f"env: [{{name: HF_TOKEN, value: {MASK}}}]"
    assert redact_text(f"helm upgrade sg ./chart --set env[0].name=HF_TOKEN,env[0].value={_TOKEN}") == \
        f"helm upgrade sg ./chart --set env[0].name=HF_TOKEN,env[0].value={MASK}"


def test_names_that_are_no_secret_keep_their_value() -> None:
    for text in ("- name: HF_TOKEN_FILE\n  value: /var/run/secrets/hf", "- name: MAX_NUM_TOKENS\n  value: \"512\"",
                 "- name: pad_token\n  value: \"<pad>\"", "- name: HF_TOKEN\n  value: $(HF_TOKEN_FROM_SECRET)"):
        assert redact_text(text) == text


def test_bare_value_keeps_the_closing_brace() -> None:
    assert redact_text(f"{{hf_token: {_TOKEN}}}") == f"{{hf_token: {MASK}}}"
    assert redact_text(f"[HF_TOKEN={_TOKEN}]") == f"[HF_TOKEN={MASK}]"
    assert redact_text("password: ab}cd") == f"password: {MASK}"  # a brace inside the value is the value's


def test_postmortem_of_a_session_that_applied_the_deployment(tmp_path: Path) -> None:
    lines = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:01:00.000Z", "message": {"role": "user", "content": "EAGLE-3 pod is slow."}},
        {"type": "assistant", "uuid": "u2", "parentUuid": "u1", "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:02:00.000Z", "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Bash",
              "input": {"command": "kubectl apply -f - <<'EOF'\napiVersion: apps/v1\nkind: Deployment\n" + _YAML + "EOF"}}]}},
        {"type": "user", "uuid": "u3", "parentUuid": "u2", "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:03:00.000Z", "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "Error from server (Forbidden): deployments.apps "
              "\"sglang\" is forbidden", "is_error": True}]}},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    analysis = analyze_path(path)
    assert any(_TOKEN in c.command for c in analysis.commands)  # the session typed it
    for fmt in ("md", "html"):
        shown = render_postmortem(analysis, fmt)
        assert "kubectl apply -f -" in shown and _TOKEN not in shown
