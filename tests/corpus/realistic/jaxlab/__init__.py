"""jaxlab: a small research code base in pure JAX (models, optimisers, data, training, evaluation)."""

__version__ = "0.3.1"
