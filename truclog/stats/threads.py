"""How many threads polars starts in a worker process of statistics, and in an export.

polars reads ``POLARS_MAX_THREADS`` once, when it is imported, and otherwise starts a
thread per core. The worker processes of ``truclog stats -j N`` count files beside
this one, so each takes its share of the cores instead of all of them: a worker calls
:func:`share_cores` before it imports polars (this module imports nothing that does).
``truclog export`` runs polars on one thread (:func:`one_thread`). A value the user
set is kept.

>>> cores_each(2, cores=2), cores_each(2, cores=8), cores_each(3, cores=2)
(1, 4, 1)
"""

from __future__ import annotations

import os
import sys

THREADS = "POLARS_MAX_THREADS"


def cores_each(processes: int, cores: int | None = None) -> int:
    """The cores each of ``processes`` counting at once gets (at least one)."""
    return max(1, (cores or os.cpu_count() or 1) // processes)


def share_cores(processes: int) -> None:
    """Have polars start this process's share of the cores among ``processes`` as
    threads, unless the user set ``POLARS_MAX_THREADS`` or polars is imported already
    (it would not read it again)."""
    _start(cores_each(processes))


def one_thread() -> None:
    """Have polars start one thread in this process (but as :func:`share_cores` says):
    what ``truclog export`` asks before it imports polars. An export builds and writes
    its tables in batches of a few thousand rows, which more threads do not make
    faster, while each thread's allocator arena holds memory of its own (a tenth of an
    export's peak on two cores; more with more cores). ``--jobs`` runs processes."""
    _start(1)


def _start(threads: int) -> None:
    if THREADS not in os.environ and "polars" not in sys.modules:
        os.environ[THREADS] = str(threads)
