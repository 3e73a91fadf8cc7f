"""`vmap(f)(self.m_lumped, v)` where `m_lumped` is a property with a setter (flapjax's beam): reading the property
runs its getter right there, eagerly, and hands its value to vmap; the setter that stores on `self` is never
traced."""
import jax
import jax.numpy as jnp


def lumped_term(m, v):
    return m * v


class Beam:
    def __init__(self):
        self._m_lumped = None

    @property
    def m_lumped(self):
        return self._m_lumped

    @m_lumped.setter
    def m_lumped(self, value):
        self._m_lumped = value

    def gyroscopic(self, v):
        return jax.vmap(lumped_term)(self.m_lumped, v)


beam = Beam()
beam.m_lumped = jnp.ones(3)
print(beam.gyroscopic(jnp.arange(3.0)))
