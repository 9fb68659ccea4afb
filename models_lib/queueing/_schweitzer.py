"""Schweitzer-Bard approximate MVA with Seidmann's multi-server transformation.

Seidmann replaces a c-server station of demand D by a single server of demand D/c followed by a
pure delay of D (c-1)/c.  Schweitzer's estimate Q_k(N-1) ~ (N-1)/N Q_k(N) then closes the MVA
equations at population N alone: R_k = d_k (1 + (N-1)/N X R_k) for the single-server parts,
i.e. R_k = d_k / (1 - (N-1)/N X d_k), and N = X (Z' + sum_k R_k).  Instead of the usual
successive substitution (slow near the knee), that equation in the single unknown X, increasing
from 0 to infinity on [0, N / ((N-1) max d_k)), is solved with Brent's method.

References
----------
.. [1] P. Schweitzer, "Approximate analysis of multiclass closed networks of queues", Proc. Int.
   Conf. on Stochastic Control and Optimization, Amsterdam, 1979.
.. [2] Y. Bard, "Some extensions to multiclass queueing network analysis", in Performance of
   Computer Systems, North-Holland, 1979.
.. [3] A. Seidmann, P. J. Schweitzer, S. Shalev-Oren, "Computerized closed queueing network
   models of flexible manufacturing systems", Large Scale Systems 12, 1987.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq

RELATIVE_TOLERANCE = 1e-13
MAX_ITERATIONS = 200


def schweitzer(
    demands: NDArray[np.float64], servers: NDArray[np.int64], delay: float, clients: int
) -> tuple[float, NDArray[np.float64]]:
    """Approximate throughput (jobs/s) and residence time per queue station (s) at ``clients``.

    ``delay`` is the think time plus the demands of infinite-server stations, s.  Requires
    ``clients >= 1`` and ``delay + demands.sum() > 0``.
    """
    queue_part = demands / servers
    delay_total = delay + float(np.sum(demands - queue_part))
    beta = (clients - 1) / clients

    def excess(x: float) -> float:
        residence = queue_part / (1.0 - beta * x * queue_part)
        return float(x * (delay_total + residence.sum()) - clients)

    upper = clients / (delay_total + float(queue_part.sum()))  # R_k >= d_k
    largest = float(queue_part.max(initial=0.0))
    if beta * largest * upper >= 1.0:
        upper = (1.0 - 1e-12) / (beta * largest)
    if excess(upper) <= 0.0:  # only when X = upper solves it exactly (e.g. N = 1)
        x = upper
    else:
        x = float(brentq(excess, 0.0, upper, xtol=upper * 1e-16, rtol=RELATIVE_TOLERANCE, maxiter=MAX_ITERATIONS))
    residence: NDArray[np.float64] = queue_part / (1.0 - beta * x * queue_part) + (demands - queue_part)
    return x, residence
