"""Runs playbook steps on hosts through transports."""
