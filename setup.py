"""Builds glade's compiled modules; everything else is in pyproject.toml.

* The engines' hot modules (``MODULES`` of glade/core/compiled.py: the rules of both games, the
  bots' search, the benchmark loop) are compiled from their Python source by mypyc, all together
  or not at all; the build records each source's digest in ``glade/core/compiled.json`` so that
  an edited source runs as plain source instead of its stale extension.
* The RL kernels (glade/rl/_kernels.pyx) are compiled by Cython.

Both are optional: where no C compiler works (or the Python headers are missing), the build warns
and the package installs without them, and the same source runs as plain Python.
"""

import json
import os
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# glade/core/compiled.py lists the modules; read here without importing glade
_path = ROOT / "glade" / "core" / "compiled.py"
_info: dict = {"__file__": str(_path), "__name__": "glade_compiled_info"}
exec(_path.read_text("utf-8"), _info)  # noqa: S102
MODULES = _info["MODULES"]
MANIFEST = _info["MANIFEST"]
GROUP = "glade.engines"  # the mypyc runtime of the group: the module glade.engines__mypyc

kernels = cythonize(
    [
        Extension(
            "glade.rl._kernels",
            ["glade/rl/_kernels.pyx"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        )
    ],
    language_level=3,
)
for extension in kernels:
    # after cythonize, which builds new Extension objects without the `optional` flag
    extension.optional = True
    # Cython lists numpy's headers by absolute path, which an sdist cannot carry; they only
    # decide when to rebuild, and a new numpy means a new build environment anyway
    extension.depends = [path for path in extension.depends if not os.path.isabs(path)]


def sources() -> list[str]:
    return [str(Path(*m.split(".")).with_suffix(".py")) for m in MODULES]


def engine_extensions() -> list[Extension]:
    """mypyc's extensions of MODULES (it type-checks them and writes their C into build/)."""
    from mypyc.build import mypycify

    found = mypycify(sources(), opt_level="3", group_name=GROUP)
    for extension in found:
        extension.optional = True
    return found


class BuildExt(build_ext):
    """build_ext, then the engines' extensions all or none, and their sources' digests."""

    def run(self) -> None:
        super().run()
        engines = [e for e in self.extensions if e.name == f"{GROUP}__mypyc" or e.name in MODULES]
        if not engines:
            return
        built = [Path(self.get_ext_fullpath(e.name)) for e in engines]
        package = Path(self.get_ext_fullpath("glade.core.game")).parents[1]
        manifest = package / "core" / MANIFEST
        if all(path.exists() for path in built):
            digests = {
                m: _info["digest"](ROOT / p) for m, p in zip(MODULES, sources(), strict=True)
            }
            manifest.parent.mkdir(parents=True, exist_ok=True)
            manifest.write_text(json.dumps(digests, indent=1) + "\n", encoding="utf-8")
            return
        # a part failed (its warning is above): the plain source runs, none of the engines' parts
        print("warning: the engines were not compiled; glade runs their plain source", flush=True)
        for path in [*built, manifest]:
            path.unlink(missing_ok=True)


# compile the engines only when extensions are built (not for an sdist or the metadata)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
engines: list[Extension] = []
if BUILDS & set(sys.argv[1:]):
    try:
        engines = engine_extensions()
    except (Exception, SystemExit) as exc:  # mypy missing, or it found the source wrong
        print(f"warning: the engines were not compiled ({exc!r}); glade runs their plain source")

setup(ext_modules=[*engines, *kernels], cmdclass={"build_ext": BuildExt})
