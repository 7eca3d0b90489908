"""A Kubernetes env value that refers to an entry above it (session 12).

The kubelet expands `$(VAR)` in an env value from the variables defined before it (k8s API
reference, EnvVar.value), so `MODEL_DIR=/models` then `DRAFT=$(MODEL_DIR)/llama3-eagle3` gives the
server `--speculative-draft-model-path /models/llama3-eagle3`. The audit expanded `$(DRAFT)` in args
to the raw `$(MODEL_DIR)/llama3-eagle3`: a draft path no host has, so no draft config was read.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command

MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: sglang-eagle3
spec:
  template:
    spec:
      containers:
      - name: server
        image: lmsysorg/sglang:v0.5.4-cu129
        env:
        - name: MODEL_DIR
          value: /models
        - name: DRAFT
          value: $(MODEL_DIR)/llama3-eagle3
        - name: LATER
          value: $(NOT_YET)-x
        - name: NOT_YET
          value: "1"
        - name: ESCAPED
          value: $$(MODEL_DIR)
        command: ["python3", "-m", "sglang.launch_server"]
        args:
        - --model-path=$(MODEL_DIR)/Llama-3.1-8B-Instruct
        - --speculative-algorithm=EAGLE3
        - --speculative-draft-model-path=$(DRAFT)
        - --speculative-num-steps=3
        - --speculative-eagle-topk=1
        - --speculative-num-draft-tokens=4
        - --served-model-name=$(LATER)
        - --api-key=$(ESCAPED)
"""


def _value(argv, flag):
    return next(tok.split("=", 1)[1] for tok in argv if tok.startswith(flag + "="))


def test_an_env_value_expands_the_entries_above_it():
    argv = split_command(MANIFEST)
    assert _value(argv, "--speculative-draft-model-path") == "/models/llama3-eagle3"
    assert _value(argv, "--model-path") == "/models/Llama-3.1-8B-Instruct"


def test_a_reference_to_a_later_entry_or_an_escape_stays_as_written():
    argv = split_command(MANIFEST)
    assert _value(argv, "--served-model-name") == "$(NOT_YET)-x"
    assert _value(argv, "--api-key") == "$(MODEL_DIR)"
