"""A training command (`vision.train`) re-runs itself under a caching allocator only when there is one
to take."""

from __future__ import annotations

import sys

import pytest

from vision import allocator
from vision.allocator import LIBRARIES, OFF_ENV, caching_allocator, rerun_with_allocator


def _libs(root, *names):
    root.mkdir(parents=True, exist_ok=True)
    for n in names:
        (root / n).write_bytes(b"")
    return root


@pytest.mark.parametrize(
    ("installed", "expect"),
    [
        ((), None),
        (("libjemalloc.so.2",), "libjemalloc.so.2"),
        (("libjemalloc.so.2", "libtcmalloc_minimal.so.4"), "libtcmalloc_minimal.so.4"),
        (("libc.so.6",), None),
    ],
)
def test_the_first_installed_allocator_is_taken(tmp_path, installed, expect):
    found = caching_allocator([tmp_path / "none", _libs(tmp_path / "lib", *installed)])
    assert (found.name if found else None) == expect


@pytest.fixture
def execs(monkeypatch):
    calls = []
    monkeypatch.setattr(allocator.os, "execve", lambda exe, args, env: calls.append((exe, args, env)))
    monkeypatch.setattr(allocator.sys, "platform", "linux")
    monkeypatch.delenv(OFF_ENV, raising=False)
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    return calls


def test_reruns_the_command_with_the_allocator_preloaded(tmp_path, execs, monkeypatch):
    monkeypatch.setenv("LD_PRELOAD", "/opt/other.so")
    lib_dir = _libs(tmp_path, LIBRARIES[0])
    rerun_with_allocator("vision.train", ["--data", "d.yaml"], [lib_dir])
    (exe, args, env), = execs
    assert exe == sys.executable
    assert args == [sys.executable, "-m", "vision.train", "--data", "d.yaml"]
    assert env["LD_PRELOAD"] == f"{lib_dir / LIBRARIES[0]}:/opt/other.so"
    assert env[OFF_ENV] == "1"  # the re-run command does not re-run itself again


@pytest.mark.parametrize(
    ("env", "installed"),
    [
        ({OFF_ENV: "1"}, True),  # asked not to, or already re-run
        ({"LD_PRELOAD": "/usr/lib/libjemalloc.so.2"}, True),  # one is preloaded already
        ({}, False),  # none installed
    ],
)
def test_runs_as_it_is_otherwise(tmp_path, execs, monkeypatch, env, installed):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    lib_dir = _libs(tmp_path, *(LIBRARIES[:1] if installed else ()))
    rerun_with_allocator("vision.train", [], [lib_dir])
    assert execs == []
