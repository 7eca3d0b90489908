"""A YAML list of a container's arguments pasted alone (session 13).

A public Qwen3.8 SGLang compose README on GitHub ("MTP / Speculative Decoding") says "add to
the compose command:" and gives the items alone, `- "--speculative-algorithm"` / `- "EAGLE"` /
... one word per item, as the runtime passes them. The audit read the item dashes as words
(argv '-', '--speculative-algorithm', '-', 'EAGLE', ...): not a server command.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

README_ITEMS = '''```yaml
- "--speculative-algorithm"
- "EAGLE"
- "--speculative-num-steps"
- "3"
- "--speculative-eagle-topk"
- "1"
- "--speculative-num-draft-tokens"
- "4"
- "--enable-linear-replayssm-spec"
```
'''


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_the_readme_items_are_sglang_flags():
    launch, findings = _findings(README_ITEMS)
    assert launch["found"] and launch["engine"] == "sglang"
    assert (launch["algorithm"], launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == ("EAGLE", 3, 1, 4)
    assert findings == []


def test_one_step_in_indented_items_is_sd101():
    items = README_ITEMS.replace('"3"', '"1"').replace('"4"', '"2"')
    indented = "\n".join("      " + line for line in items.splitlines())
    _, findings = _findings(indented)
    assert [f.code for f in findings] == ["SD101"]


def test_items_that_are_not_flags_stay_shell_words():
    # a list of shell lines (a CI `script:`) is not an argv
    assert split_command("- cd /srv\n- python3 -m sglang.launch_server --model-path m")[-3:] == [
        "sglang.launch_server", "--model-path", "m"]
