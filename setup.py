"""Builds glade's compiled RL kernels (glade/rl/_kernels.pyx); everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        # optional: an install without a C compiler still works, on the pure-Python path
        [Extension("glade.rl._kernels", ["glade/rl/_kernels.pyx"], optional=True)],
        language_level=3,
    )
)
