"""distill: a command that stores credentials on the host changes it, and is no playbook step.

The trainer's agent on gpu01 set the checkpoint bucket's key with `aws configure set
aws_secret_access_key ... && aws s3 ls s3://ckpts/eagle3/` (its failure turned the session to the
GPUs), and the on-call's agent logged gpu01 in to the Hub with `hf auth login --token ... && hf auth
whoami` (the token was refused, and the session turned to the draft's config). Both were kept as
diagnostic steps: every run of the playbook wrote ~/.aws/credentials or ~/.cache/huggingface/token
on the host it ran on (host_changes read `aws configure` as a read, and `hf auth login` as the
verb "auth").
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.host_changes import changes_host
from tests.session.incident_story import _Writer
from tests.session.test_hardening63_postmortem_netrc_secrets import _session as _bucket_session

GATED = ("Traceback (most recent call last):\n  File \"/opt/sglang/python/sglang/srt/hf_transformers_utils.py\", "
         "line 88, in get_config\nhuggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo "
         "for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.")


def _login_session(tmp_path: Path) -> Path:
    m = _Writer("5e5e0000-0000-4000-8000-000000006308", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The SGLang server on gpu01 dies at startup since the token rotation.")
    m.bash("ssh gpu01 'hf auth login --token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 && hf auth whoami'",
           "Traceback (most recent call last):\nhuggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized "
           "for url: https://huggingface.co/api/whoami-v2 (Request ID: Root=1-6930) Invalid user token.", exit_code=1,
           text="The target is gated: log the host in with the team token.")
    m.bash("ssh gpu01 'cat /models/llama31-eagle3/config.json'", '{"architectures": ["LlamaForCausalLMEagle3"]}',
           text="The token is refused. Does the draft name the gated target at all?")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def _runs(session: Path) -> list[str]:
    return [s["run"] for s in distill_playbook(analyze_path(session))["steps"] if "run" in s]


def test_setting_the_buckets_key_is_no_step(tmp_path):
    runs = _runs(_bucket_session(tmp_path))
    assert runs == ["nvidia-smi -L"], runs


def test_logging_the_host_in_to_the_hub_is_no_step(tmp_path):
    runs = _runs(_login_session(tmp_path))
    assert runs == ["cat {{ config_json }}"], runs


@pytest.mark.parametrize(("command", "why"), [
    ("hf auth login --token $HF_TOKEN", "hf login"),
    ("hf auth logout", "hf logout"),
    ("hf auth switch --token-name ci", "hf switch"),
    ("hf cache rm model/meta-llama/Llama-3.1-8B-Instruct -y", "hf rm"),
    ("wandb login 0123456789abcdef0123456789abcdef01234567", "wandb login"),
    ("aws --profile ckpt configure set aws_secret_access_key X", "aws set"),
    ("hf auth whoami", None), ("hf cache ls", None), ("hf auth list", None), ("wandb status", None),
    ("aws configure list", None), ("aws s3 ls s3://ckpts/eagle3/", None), ("aws sts get-caller-identity", None),
])
def test_which_credential_commands_change_the_host(command, why):
    assert changes_host(command) == why
