"""`gcloud compute ssh HOST -- SSH_ARGS CMD`: ssh's options after `--` read as ssh_words reads them.
A cluster that ends with an option taking a value (`-vL 8080:localhost:8080`, getopt as ssh(1)
reads it) took only its own word, so the forward's spec was read as the remote command."""

from __future__ import annotations

import pytest

from spec_debug.session.shell import parse_target


@pytest.mark.parametrize("options", ["-vL 8080:localhost:8080", "-L 8080:localhost:8080", "-tL8080:localhost:8080",
                                     "-t -L 8080:localhost:8080"])
def test_ssh_options_after_the_double_dash_are_not_the_remote_command(options):
    target = parse_target(f"gcloud compute ssh ml@gpu01 --zone us-central1-a -- {options} nvidia-smi -L")
    assert (target.host, target.user, target.inner) == ("gpu01", "ml", "nvidia-smi -L")
