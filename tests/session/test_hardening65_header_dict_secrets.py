"""Secrets an agent types into the Python it writes to call the server: the Authorization header as
a dict key (`headers={"Authorization": "Bearer <the --api-key value>"}`; the key `vllm serve
--api-key` or SGLang's takes is any string, so no token shape finds it), and an NVIDIA API key
(`nvapi-...`, what NIM containers and `docker login nvcr.io` take). Both stood in the postmortem."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.redact import MASK, redact_text
from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

_KEY = "team-serving-7f3a9c2e41d8"
_NVAPI = "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"


def test_authorization_as_a_dict_or_json_key() -> None:
    assert redact_text(f'headers = {{"Authorization": "Bearer {_KEY}"}}') == f'headers = {{"Authorization": "Bearer {MASK}"}}'
    assert redact_text(f"headers={{'Authorization': 'Bearer {_KEY}'}}") == f"headers={{'Authorization': 'Bearer {MASK}'}}"
    assert redact_text('{"authorization": "Basic dXNlcjpwYXNzd29yZA=="}') == f'{{"authorization": "Basic {MASK}"}}'
    # as HTTP writes it, as before; a reference stays
    assert redact_text(f'curl -H "Authorization: Bearer {_KEY}"') == f'curl -H "Authorization: Bearer {MASK}"'
    assert redact_text('headers={"Authorization": "Bearer $VLLM_API_KEY"}') == \
        'headers={"Authorization": "Bearer $VLLM_API_KEY"}'


def test_nvidia_api_key_anywhere() -> None:
    assert redact_text(f"export NGC_CLI_ORG=acme; ngc config set  # pasted key {_NVAPI}") == \
        f"export NGC_CLI_ORG=acme; ngc config set  # pasted key {MASK}"
    assert redact_text(f"docker run -e NGC={_NVAPI} nvcr.io/nim/meta/llama") == \
        f"docker run -e NGC={MASK} nvcr.io/nim/meta/llama"
    assert redact_text("nvapi-short and nvapi-") == "nvapi-short and nvapi-"  # too short for a key


def test_postmortem_of_a_script_with_the_key(tmp_path: Path) -> None:
    script = ("cat > /tmp/probe.py <<'EOF'\nimport requests\n"
              f"r = requests.post('http://gpu01:30000/v1/completions', headers={{\"Authorization\": \"Bearer {_KEY}\"}},\n"
              "                  json={'model': 'x', 'prompt': 'hi', 'max_tokens': 8})\nprint(r.status_code, r.text)\nEOF\n"
              "python /tmp/probe.py")
    lines = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:01:00.000Z", "message": {"role": "user", "content": "The EAGLE-3 server returns 500."}},
        {"type": "assistant", "uuid": "u2", "parentUuid": "u1", "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:02:00.000Z", "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": script}}]}},
        {"type": "user", "uuid": "u3", "parentUuid": "u2", "isSidechain": False, "sessionId": "s",
         "timestamp": "2026-11-20T10:03:00.000Z", "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "Traceback (most recent call last):\n  File "
              "\"/tmp/probe.py\", line 2, in <module>\nConnectionError: Connection refused", "is_error": True}]}},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    analysis = analyze_path(path)
    assert any(_KEY in c.command for c in analysis.commands)
    for fmt in ("md", "html"):
        shown = render_postmortem(analysis, fmt)
        assert "probe.py" in shown and _KEY not in shown
