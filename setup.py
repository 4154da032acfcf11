"""Builds glade's compiled RL kernels (glade/rl/_kernels.pyx); everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("glade.rl._kernels", ["glade/rl/_kernels.pyx"])],
        language_level=3,
    )
)
