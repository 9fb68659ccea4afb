"""Pure numerics for zsizer: regression, queueing, capacity projection, sizing (no Django)."""

#: Version of the numerical core, stored with every estimate and job so an answer can be
#: explained later.  Bump it when a model changes the numbers it produces.
__version__ = "1.0.0"
