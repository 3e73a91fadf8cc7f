"""Autodiff cookbook: `jax.grad` without `jit` runs the function on concrete values.

A Python `if` on the differentiated argument works here (the tracer carries its value).
"""
import jax


def relu_like(x):
    if x > 0:
        return x ** 2
    return 0.1 * x


d_relu_like = jax.grad(relu_like)

if __name__ == "__main__":
    print(d_relu_like(2.0), d_relu_like(-1.0))
