"""One document whose functions each fault in a different way: shared by tests/trace/test_faults.py and
bench/trace_faults.py."""

FAULTS = '''
import ctypes
import os
import sys
import time
import time

import jax.numpy as jnp
import numpy as np


def ok(x):
    return jnp.sin(x)


def hang(x):
    while True:
        pass


def sleeps(x):
    time.sleep(1000)


def hard_exit(x):
    os._exit(7)


def segfault(x):
    ctypes.string_at(0)


def calls_exit(x):
    sys.exit(3)


def hog(x):
    big = np.ones((1 << 30,), dtype=np.float64)
    return x + big.sum()


def bad_if(x):
    if x.sum() > 0:
        return x
    return -x
'''
