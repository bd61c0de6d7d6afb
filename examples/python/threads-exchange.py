# mpiverify-test: np=2 record=ok verify=ok
# mpiverify-test: buffering=zero expect=ok
# mpiverify-test: buffering=infinite expect=ok
# Two Python threads per rank under MPI_THREAD_MULTIPLE, each exchanging 20 rounds with the
# peer's thread of the same number on its own tag (rank 0 sends, then receives). Correct; the
# recorder reads each thread's own frames (work, and threading's frames outside it) with the
# GIL taken, and the threads' calls never wait for each other's lookups. verify cannot steer
# threads yet, but these leave nothing to steer (each thread receives on a tag of its own):
# it answers "no deadlock" from the first run's model.
import threading

import mpi4py

mpi4py.rc.thread_level = "multiple"
from mpi4py import MPI  # noqa: E402 (after the thread level is chosen)

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
peer = 1 - rank


def work(tag):
    for i in range(20):
        if rank == 0:
            comm.send(i, dest=peer, tag=tag)
            comm.recv(source=peer, tag=tag)
        else:
            comm.send(comm.recv(source=peer, tag=tag), dest=peer, tag=tag)


threads = [threading.Thread(target=work, args=(t,)) for t in (1, 2)]
for th in threads:
    th.start()
for th in threads:
    th.join()
