"""The package under test is the installed one, with the component inside it."""

from importlib import resources
from pathlib import Path

import interview


def test_the_package_is_imported_from_site_packages_not_the_source_tree():
    location = Path(interview.__file__).resolve()
    assert "site-packages" in location.parts, location


def test_the_wheel_holds_the_component_of_this_wit_version():
    component = resources.files("interview").joinpath("interview.wasm").read_bytes()
    assert component[:4] == b"\0asm"
    assert f"interview:plugin/ui@{interview.WIT_VERSION}".encode() in component
