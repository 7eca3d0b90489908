"""Round 30: a `--config` YAML flag file between 256 KiB and 2 MB (`vllm serve --config
serve.yaml`) was sent whole in launch_flags' JSON. A run keeps 256 KiB of a step's output, so
the JSON was cut and the launch step failed with "output is not JSON: it is longer than the
capture limit": for a 430 kB file (its flags, then 10,000 comment lines) 440 kB of JSON, the
whole launch audit lost. Now a flag file's comment and blank lines are dropped when it is past
100,000 bytes as JSON (554 bytes of probe JSON here, the flags read), and one still past it is
named in config_file.error, which the launch step says in one line."""

from __future__ import annotations

import json

import yaml

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext
from spec_debug.runner.capture import parse_json_output
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT, StreamCapture

FLAGS = """model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 3
"""


def _probe_output(tmp_path, text: str) -> dict:
    flags = tmp_path / "serve.yaml"
    flags.write_text(text)
    out = launch_flags.run({"server_cmdline": f"vllm serve meta-llama/Llama-3.1-8B-Instruct --config {flags}"})
    stdout = StreamCapture(name="stdout")  # what a run keeps of the probe's output
    stdout.write(json.dumps(out).encode())
    stdout.close()
    return parse_json_output(stdout.text())


def test_a_420_kb_flag_file_of_comments_is_read(tmp_path):
    text = FLAGS + "# tuned for the 8 x H100 pool, see runbook\n" * 10_000
    assert 256 * 1024 < len(text) < 2_000_000
    out = _probe_output(tmp_path, text)  # was CaptureError: output is not JSON
    sent = out["config_file"]
    assert yaml.safe_load(sent["text"]) == yaml.safe_load(text) and sent["dropped_comment_lines"] == 10_000
    launch = launch_step.parse(out)["launch"]
    assert launch["found"] and launch["algorithm"] == "EAGLE3" and launch["num_steps"] == 3


def test_a_block_scalars_comment_lines_are_its_text(tmp_path):
    template = "chat-template: |\n" + "  # a line of the template\n  {{ message }}\n" * 1_500
    out = _probe_output(tmp_path, FLAGS + "# padding\n" * 20_000 + template)
    assert yaml.safe_load(out["config_file"]["text"])["chat-template"] == yaml.safe_load(template)["chat-template"]


def test_a_flag_file_too_large_without_its_comments_is_named(tmp_path):
    text = FLAGS + "chat-template: |\n" + "  {{ message['content'] }} and more of the template\n" * 6_000
    out = _probe_output(tmp_path, text)
    assert out["config_file"]["text"] is None and out["config_file"]["error"].endswith(
        "as JSON once its comment and blank lines are dropped, more than a probe sends of a flag file (100,000)")
    facts = launch_step.parse(out)
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    said = [" ".join([f.title, *f.evidence]) for f in launch_step.check(ctx)]
    assert any("could not be read on the host" in line and "more than a probe sends of a flag file" in line
               for line in said)
    assert len(json.dumps(out)) < DEFAULT_CAPTURE_LIMIT
