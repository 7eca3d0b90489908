"""postmortem: a password in a netrc listing and a key set with `aws configure set` are secrets.

A drafter trainer's agent on gpu01 checked why the training run logged nothing to W&B: `cat
~/.netrc` (where `wandb login` writes its API key: `machine api.wandb.ai login user password KEY`),
then set the S3 credentials of the checkpoint bucket with `aws configure set aws_secret_access_key
...` and listed the bucket. The postmortem printed both secrets as they were (redact.py read a
secret only after "=" or ":", a flag or a header).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.redact import redact_text
from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

WANDB_KEY = "0123456789abcdef0123456789abcdef01234567"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
NETRC = f"machine api.wandb.ai\n  login alice\n  password {WANDB_KEY}"


def _session(tmp_path: Path) -> Path:
    m = _Writer("5e5e0000-0000-4000-8000-000000006307", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The EAGLE-3 drafter training on gpu01 logs nothing to W&B and the checkpoints never reach the bucket.")
    m.bash("ssh gpu01 'cat ~/.netrc'", NETRC, text="Is the W&B key there?")
    m.bash(f"ssh gpu01 'aws configure set aws_secret_access_key {AWS_SECRET} && aws s3 ls s3://ckpts/eagle3/'",
           "An error occurred (InvalidAccessKeyId) when calling the ListObjectsV2 operation: The AWS Access Key Id "
           "you provided does not exist in our records.", exit_code=254, text="Set the bucket's key and list it.")
    m.bash("ssh gpu01 'nvidia-smi -L'", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1c2d)", text="Is the GPU there at all?")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def test_the_postmortem_masks_a_netrc_password_and_an_aws_key(tmp_path):
    a = analyze_path(_session(tmp_path))
    for fmt in ("md", "html"):
        text = render_postmortem(a, fmt)
        assert WANDB_KEY not in text and AWS_SECRET not in text, fmt
    md = render_postmortem(a, "md")
    assert "aws configure set aws_secret_access_key \\*\\*\\*REDACTED\\*\\*\\* && aws s3 ls" in md, md


def test_only_the_password_of_a_netrc_entry():
    assert redact_text(NETRC) == "machine api.wandb.ai\n  login alice\n  password ***REDACTED***"
    assert redact_text("machine hf.co login bob password s3cret machine x.org password t0p") == \
        "machine hf.co login bob password ***REDACTED*** machine x.org password ***REDACTED***"
    assert redact_text("aws configure set --profile ckpt default.aws_session_token T0K3N; aws s3 ls") == \
        "aws configure set --profile ckpt default.aws_session_token ***REDACTED***; aws s3 ls"
    # the words alone are no entry
    assert redact_text("the machine has no password set") == "the machine has no password set"
    assert redact_text("aws configure set region us-east-1") == "aws configure set region us-east-1"
