"""Builds glade's compiled RL kernels (glade/rl/_kernels.pyx); everything else is in pyproject.toml.

The kernels are optional: where no C compiler works (or the Python headers are missing), the build
warns and the package installs without them, and glade.rl runs the same code paths in pure Python
(glade/rl/kernels.py).
"""

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

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

setup(ext_modules=kernels)
