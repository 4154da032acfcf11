"""Builds glade's compiled RL kernels (glade/rl/_kernels.pyx); everything else is in pyproject.toml."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        # optional: an install without a C compiler still works, on the pure-Python path
        [
            Extension(
                "glade.rl._kernels",
                ["glade/rl/_kernels.pyx"],
                include_dirs=[numpy.get_include()],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
                optional=True,
            )
        ],
        language_level=3,
    )
)
