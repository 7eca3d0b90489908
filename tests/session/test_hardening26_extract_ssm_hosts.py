"""`aws ssm start-session --target i-...` opens a shell on the managed instance through AWS
Session Manager (AWS CLI reference, ssm start-session): no sshd, no ssh. The analyzer saw a
local command, so a session on an EC2 GPU box reached through SSM had no host at all; the
command AWS-StartInteractiveCommand / AWS-StartNonInteractiveCommand run there (their
"command" parameter, in the CLI's shorthand or JSON) was read as run locally."""

import pytest

from spec_debug.session.shell import parse_target


@pytest.mark.parametrize("command, host, container, inner", [
    ("aws ssm start-session --target i-0123456789abcdef0 --region us-east-1", "i-0123456789abcdef0", None, ""),
    ('aws --profile prod ssm start-session --target i-0abc --document-name AWS-StartInteractiveCommand '
     '--parameters command="nvidia-smi"', "i-0abc", None, "nvidia-smi"),
    ("aws ssm start-session --target i-0abc --document-name AWS-StartInteractiveCommand "
     "--parameters 'command=[\"sudo su - ubuntu\"]'", "i-0abc", None, "sudo su - ubuntu"),
    ("aws ssm start-session --target i-0abc --document-name AWS-StartNonInteractiveCommand "
     "--parameters '{\"command\":[\"docker exec sglang nvidia-smi\"]}'", "i-0abc", "docker:sglang", "nvidia-smi"),
    # port forwarding to the server: the instance is reached, nothing runs there
    ("aws ssm start-session --target=mi-0abc --document-name AWS-StartPortForwardingSession "
     "--parameters '{\"portNumber\":[\"30000\"],\"localPortNumber\":[\"30000\"]}'", "mi-0abc", None, ""),
])
def test_the_instance_is_the_host(command, host, container, inner):
    target = parse_target(command)
    # before: host None, the whole aws command as run locally
    assert (target.host, target.container, target.inner) == (host, container, inner)


@pytest.mark.parametrize("command", [
    "aws ssm describe-instance-information",
    "aws ssm start-session",
    "echo aws ssm start-session --target i-0abc",
])
def test_no_session_no_host(command):
    assert parse_target(command).host is None


def test_bad_parameters_still_name_the_instance():
    target = parse_target("aws ssm start-session --target i-0abc --parameters '{bad'")
    assert (target.host, target.inner) == ("i-0abc", "")
