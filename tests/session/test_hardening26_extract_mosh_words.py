"""mosh shell-quotes the command's words before ssh carries them to mosh-server, which execs
them as argv (mobile-shell/mosh scripts/mosh.pl: ``shell_quote( @server )``): unlike ssh,
``mosh gpu01 -- python3 -c 'import torch; print(1)'`` runs that one Python line. The analyzer
joined the words with spaces ("python3 -c import torch; print(1)"), and missed a container
the command entered."""

import shlex

from spec_debug.session.shell import parse_target


def test_the_words_stay_one_argv():
    words = ["python3", "-c", "import torch; print(torch.cuda.device_count())"]
    target = parse_target("mosh ubuntu@gpu01 -- " + shlex.join(words))
    assert (target.host, target.user) == ("gpu01", "ubuntu")
    assert shlex.split(target.inner) == words  # before: "python3 -c import torch; print(...)"


def test_a_container_behind_mosh():
    target = parse_target("mosh gpu01 -- docker exec -it sglang bash -c 'nvidia-smi && tail -n 50 /tmp/s.log'")
    assert (target.host, target.container, target.inner) == ("gpu01", "docker:sglang",
                                                             "nvidia-smi && tail -n 50 /tmp/s.log")


def test_an_interactive_mosh_has_no_command():
    assert (parse_target("mosh --ssh='ssh -p 2222' gpu01").inner, parse_target("mosh gpu01 -- tmux attach").inner) == \
        ("", "tmux attach")
