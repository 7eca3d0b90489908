"""distill: an in-place edit written with bundled short options is a change, not a step.

`sed -ri 's/(speculative_num_steps) 1/\\1 3/' /etc/sglang/launch.sh` and `perl -pi -e 's/…/…/'
config.json` are how an engineer patches a launch script or a draft's config.json by hand. Only a
word that began with `-i` was read as in-place editing, so `-ri`, `-Ei` (GNU sed bundles short
options as getopt does) and perl's `-pi`, `-0777 -pi`, `-lpi.bak` (perlrun(1): -i[extension]
bundles with -p/-n/-l/-0) read as reads, and the distilled "diagnostic" playbook replayed the
edit on every host it ran on. An `i` after an option that takes the rest of the cluster as its
value (`sed -f ins`, `perl -Mstrict`, `perl -e`) is that value's.
"""

from __future__ import annotations

import pytest

from spec_debug.session.host_changes import changes_host
from tests.session.test_hardening38_distill import HEALTH, _session


@pytest.mark.parametrize("command, why", [
    ("sed -ri 's/(speculative_num_steps) 1/\\1 3/' /etc/sglang/launch.sh", "sed -i"),
    ("sed -Ei 's/num_steps=1/num_steps=3/' launch.sh", "sed -i"),
    ("sed -ni '/eagle/p' launch.sh", "sed -i"),
    ("perl -pi -e 's/\"num_hidden_layers\": 2/\"num_hidden_layers\": 1/' /models/eagle3/config.json", "perl -i"),
    ("perl -0777 -pi -e 's/a/b/' config.json", "perl -i"),
    ("perl -lpi.bak -e 's/a/b/' config.json", "perl -i"),
    ("perl -0pi -e 's/a/b/' config.json", "perl -i"),
    ("sed -i.bak 's/a/b/' launch.sh", "sed -i"),
    ("sed --in-place=.orig 's/a/b/' launch.sh", "sed -i"),
])
def test_a_bundled_in_place_option_changes_the_host(command, why):
    assert changes_host(command) == why


@pytest.mark.parametrize("command", [
    "sed -n '/speculative/p' /etc/sglang/launch.sh",
    "sed -E 's/i/x/' launch.sh",
    "sed -f ins launch.sh",
    "perl -ne 'print if /accept len/i' server.log",
    "perl -Mstrict -e 'print 1'",
    "perl -e 'print 1'",
])
def test_a_cluster_without_in_place_reads(command):
    assert changes_host(command) is None


def test_a_bundled_sed_edit_after_a_failure_is_no_playbook_step(tmp_path):
    """Before: the playbook's second step was `sed -ri 's/(speculative_num_steps) 1/\\1 3/'
    {{ launch_sh }}`, which patches the launch script of whatever host the playbook runs on."""
    doc, _ = _session(tmp_path, HEALTH,
                      ("ssh root@gpu01 \"sed -ri 's/(speculative_num_steps) 1/\\\\1 3/' /etc/sglang/launch.sh\"", "", 0))
    assert [s["run"] for s in doc["steps"]] == ["curl -sf http://localhost:30000/health"], doc["steps"]
