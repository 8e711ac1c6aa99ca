"""Builds quantcheck-client from the repository's folders (configuration in pyproject.toml).

Setuptools takes every module of a package's folder; ``quantcheck/`` and ``worker/`` also
hold the checker, the command line and the service, whose dependencies the client does not
install. Only the modules named here go into the client's wheel.
"""

from __future__ import annotations

from setuptools import setup
from setuptools.command.build_py import build_py

# The modules each shared package contributes; the other packages are the client's whole.
MODULES = {
    "quantcheck": {"__init__", "client"},
    "quantcheck.worker": {"__init__"},
}


class ClientModules(build_py):  # type: ignore[misc]
    """``build_py`` keeping, of the shared packages, only the modules in :data:`MODULES`."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules: list[tuple[str, str, str]] = super().find_package_modules(package, package_dir)
        keep = MODULES.get(package)
        return modules if keep is None else [m for m in modules if m[1] in keep]


setup(cmdclass={"build_py": ClientModules})
