"""Puts the plugin component into the package: from the repository when building there (the
component that `cargo xtask build-guest` wrote), else the copy an sdist already holds."""

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGED = Path("src/interview/interview.wasm")


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        root = Path(self.root)
        built = root.parents[1] / "host" / "plugin" / "interview.wasm"
        if built.is_file():
            source = built
        elif (root / PACKAGED).is_file():
            source = root / PACKAGED
        else:
            raise FileNotFoundError(f"no plugin component: neither {built} nor {root / PACKAGED}")
        target = "interview/interview.wasm" if self.target_name == "wheel" else str(PACKAGED)
        build_data["force_include"][str(source)] = target
