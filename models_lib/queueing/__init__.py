"""Queueing models for capacity planning: the open M/M/c queue and closed-network MVA.

Public API (all times in seconds, rates in jobs/s):

* :func:`erlang_c`, :func:`mmc`, :class:`MMcResult`, :func:`mmc_response_times`: open M/M/c.
* :class:`Station`, :func:`mva`, :class:`MVAResult`, :class:`MVABounds`: closed single-class
  networks with single- and multi-server queues, delay stations and a think time; exact
  (normalising-constant convolution, every population 1..N) or Schweitzer-Bard approximate MVA.

References
----------
.. [1] A. K. Erlang, Elektroteknikeren 13, 1917 (Erlang C).
.. [2] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980.
.. [3] J. P. Buzen, "Computational algorithms for closed queueing networks with exponential
   servers", Comm. ACM 16(9), 1973; S. S. Lavenberg (ed.), *Computer Performance Modeling
   Handbook*, 1983 (load-dependent convolution).
.. [4] P. Schweitzer, "Approximate analysis of multiclass closed networks of queues", 1979.
.. [5] E. D. Lazowska et al., *Quantitative System Performance*, Prentice-Hall, 1984.
"""

from .closed import MVABounds, MVAResult, Station, mva
from .erlang import MMcResult, erlang_c, mmc, mmc_response_times

__all__ = [
    "MMcResult",
    "MVABounds",
    "MVAResult",
    "Station",
    "erlang_c",
    "mmc",
    "mmc_response_times",
    "mva",
]
