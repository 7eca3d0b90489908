"""A model symlink switched (`ln -sfn`), a config rewritten in place by `yq -i`, or written by jq
to a temporary file and moved over (`jq ... > /tmp/c.json && mv /tmp/c.json config.json`) is a
change of what is served. None was: the postmortem's Resolution credited the relaunch after it
alone ("rose ... after relaunching the server with ...")."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.postmortem import _other_change
from tests.session.test_hardening66_git_checkout import _resolution


def test_a_swapped_file_is_the_change_before_the_rise(tmp_path: Path) -> None:
    for change in ("sudo ln -sfn /models/eagle3-v2 /models/e3",
                   "yq -i '.speculative_num_steps = 5' /etc/sglang/spec.yaml",
                   "jq '.draft_vocab_size = 32000' /models/e3/config.json > /tmp/c.json && "
                   "mv /tmp/c.json /models/e3/config.json"):
        assert _resolution(tmp_path, f"ssh gpu01 \"{change}\"") == [
            f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] after `{change}` [msg 3], relaunching the "
            "server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3` [msg 5]."], change


def test_reads_and_copies_aside_are_no_change() -> None:
    for command in ("ln -s /models/eagle3 /tmp/e3",            # a new link, nothing replaced
                    "yq '.speculative_num_steps' /etc/sglang/spec.yaml",
                    "jq . /models/e3/config.json > /tmp/c.json",
                    "cp /etc/sglang/spec.yaml /tmp/spec.yaml",
                    "cp /models/e3/config.json /models/e3/config.json.bak",
                    "mv server.log server.log.1"):
        assert not _other_change(command), command
