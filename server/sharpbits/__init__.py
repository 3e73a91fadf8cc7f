"""sharpbits: find JAX's sharp bits in Python source, fix them, and show what JAX builds."""

__version__ = "0.1.0"
