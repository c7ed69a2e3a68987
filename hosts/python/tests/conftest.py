"""Where the repository keeps what the package is tested against: the conformance suite, the
examples, and the Rust command whose behaviour the Python command must match."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def plugin():
    import interview

    return interview.Plugin()


@pytest.fixture(scope="session")
def rust_command():
    """The Rust command, or INTERVIEW_RUST: `cargo build --features compile` (or `cargo test`)
    puts it in target/debug, able to run another component, which the fault tests give it."""
    path = Path(os.environ.get("INTERVIEW_RUST", ROOT / "target" / "debug" / "interview"))
    assert path.is_file(), f"the Rust command is not built at {path}: run cargo build --features compile first"
    return path
