"""Tests that drive an outside program (Spin, Chromium) need it on PATH.

`.ci/system-packages` installs both, and `.ci/run` sets
``CHAINPROOF_REQUIRE_TOOLS=1`` so that a missing program fails the run there
instead of skipping in silence; elsewhere such a test is skipped, saying
which program is missing and how to install it.
"""

from __future__ import annotations

import os
import shutil

import pytest


def require_program(name: str) -> str:
    """The path of program ``name``; skip the test (fail under CI) where it is absent."""
    path = shutil.which(name)
    if path is not None:
        return path
    message = f"{name!r} is not on PATH: `bash .ci/system-packages` installs it"
    if os.environ.get("CHAINPROOF_REQUIRE_TOOLS") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
