"""The computer's Go kernel (``go_kernel``) compiled by numba, when numba imports.

``KERNEL`` is a module with the kernel's functions compiled (``cache=True``: compiled once, then
read from the on-disk cache), or None when numba is missing or cannot compile, and the search
falls back to the pure path.
(``go_search.warm()`` compiles or loads it ahead of the first search.)
"""

from __future__ import annotations

import importlib.util
import sys
import types

from games.bots import go_kernel

try:  # numba (and numpy, which it brings) are optional: the pure path runs without them
    import numba
    import numpy
except ImportError:  # pragma: no cover - numba is a dependency
    numba = numpy = None

__all__ = ["KERNEL", "array", "zeros"]

#: The kernel's functions, in the order they are compiled (callees first).
_FUNCTIONS = (
    "rand chance clear new_stamp _mark_libs count_libs lone_lib is_legal is_eye _new_chain captures after_libs "
    "after_size self_atari _remove _merge play _lone_lib_keep _push_rescues _two_libs _kills tactical _around shape local_move "
    "random_move area playout new_node expand select simulate run sample"
).split()


def _compiled() -> types.ModuleType | None:
    if numba is None:  # pragma: no cover - numba is a dependency
        return None
    spec = importlib.util.spec_from_file_location("games.bots._go_kernel_jit", go_kernel.__file__)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba's cache finds the functions' module by its name
    spec.loader.exec_module(module)
    for name in _FUNCTIONS:
        setattr(module, name, numba.njit(cache=True, nogil=True)(getattr(module, name)))
    return module


KERNEL = _compiled()


def array(values: list, *, floats: bool = False):
    """``values`` as the compiled kernel wants them (a numpy array)."""
    return numpy.array(values, dtype=numpy.float64 if floats else numpy.int64)


def zeros(length: int, *, floats: bool = False):
    """A numpy array of ``length`` zeros for the compiled kernel."""
    return numpy.zeros(length, dtype=numpy.float64 if floats else numpy.int64)
