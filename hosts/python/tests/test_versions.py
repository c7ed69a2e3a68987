"""One version everywhere: the WIT package, the Rust crates, the Python and npm packages, and the
interface names each host calls the plugin by. A release that bumps one and not another fails
here."""

import json
import re
from importlib import metadata

import interview

from conftest import ROOT


def found(path, pattern):
    """Every version `pattern` (one group) finds in the file at `path`, under the repository."""
    versions = re.findall(pattern, (ROOT / path).read_text(), re.M)
    assert versions, f"no version in {path}"
    return {(path, v) for v in versions}


def every_version():
    versions = set()
    for wit in sorted((ROOT / "wit").glob("*.wit")):
        versions |= found(wit.relative_to(ROOT), r"^package interview:plugin@(\S+);")
    versions |= found("Cargo.toml", r'^\[workspace\.package\]\nversion = "([^"]+)"')
    versions |= found("host/src/choice_imports.rs", r'"interview:plugin/ui@([^"]+)"')
    versions |= found("hosts/python/pyproject.toml", r'^version = "([^"]+)"')
    versions |= found("hosts/python/src/interview/__init__.py", r'^__version__ = "([^"]+)"')
    versions |= found("hosts/python/src/interview/plugin.py", r'^WIT_VERSION = "([^"]+)"')
    versions |= found("hosts/js/api.js", r"^export const WIT_VERSION = '([^']+)'")
    versions |= found("hosts/js/sandbox.js", r"'interview:plugin/tool@([^']+)'")
    package = json.loads((ROOT / "hosts/js/package.json").read_text())
    lock = json.loads((ROOT / "hosts/js/package-lock.json").read_text())
    versions |= {("hosts/js/package.json", package["version"]),
                 ("hosts/js/package-lock.json", lock["version"]),
                 ("hosts/js/package-lock.json packages['']", lock["packages"][""]["version"])}
    for member in ("host", "guest", "xtask"):
        manifest = (ROOT / member / "Cargo.toml").read_text()
        assert "version.workspace = true" in manifest, f"{member}/Cargo.toml has a version of its own"
    versions |= {("the installed package", interview.__version__),
                 ("the installed distribution", metadata.version("interview-plugin")),
                 ("the installed package's WIT", interview.WIT_VERSION)}
    return versions


def test_the_wit_crates_and_packages_all_say_one_version():
    versions = every_version()
    assert len({v for _, v in versions}) == 1, sorted(versions)

