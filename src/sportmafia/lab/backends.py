"""Where a run's batches are played: the machine's processes (``concurrent.futures``, started by "spawn", so
the same on every platform), or a Dask cluster (an optional dependency: ``pip install sportmafia[lab]``), a
local one of ``workers`` processes or an existing one at its scheduler's address.

Both are used the same way: :meth:`Backend.submit` a batch, :meth:`Backend.wait` for at least one to finish."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Any, Protocol

from ..i18n import msg
from .batches import Task, play_batch
from .variants import LabError


class Backend(Protocol):
    workers: int
    name: str

    def submit(self, task: Task) -> Any: ...

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]: ...

    def result(self, future: Any) -> dict[str, Any]: ...

    def close(self) -> None: ...


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Processes:
    """The machine's processes."""

    name = "processes"

    def __init__(self, workers: int, play: Callable[[Task], dict[str, Any]] = play_batch) -> None:
        self.workers = workers
        self.play = play
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def submit(self, task: Task) -> Future[dict[str, Any]]:
        return self.pool.submit(self.play, task)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = wait_futures(pending, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def result(self, future: Any) -> dict[str, Any]:
        out: dict[str, Any] = future.result()
        return out

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


def dask_available() -> str | None:
    """None when Dask's distributed scheduler can be imported, else why not."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        return f"dask.distributed is not installed ({exc}): pip install sportmafia[lab]"
    return None


class Dask:
    """A Dask cluster: ``address`` "local" starts a LocalCluster of ``workers`` processes (one thread each),
    else ``address`` is an existing scheduler's (``tcp://host:8786``) and its workers are counted."""

    name = "dask"

    def __init__(self, address: str, workers: int) -> None:
        reason = dask_available()
        if reason:
            raise LabError(msg("The cluster needs Dask: %(reason)s", reason=reason))
        import distributed

        dist: Any = distributed  # untyped
        self.dist = dist
        self.cluster: Any = None
        if address == "local":
            self.cluster = dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=40)
            self.client: Any = dist.Client(self.cluster)
        else:
            self.client = dist.Client(address)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def submit(self, task: Task) -> Any:
        return self.client.submit(play_batch, task, pure=False)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = self.dist.wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def result(self, future: Any) -> dict[str, Any]:
        out: dict[str, Any] = future.result()
        return out

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def backend(workers: int, cluster: str = "") -> Backend:
    """Processes (``cluster`` empty) or Dask (``cluster`` "local" or a scheduler's address)."""
    if cluster:
        return Dask(cluster, workers)
    return Processes(workers)
