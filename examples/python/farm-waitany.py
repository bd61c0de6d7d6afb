# mpiverify-test: np=3 record=ok verify=deadlock
# A farm in mpi4py's buffer interface that posts a receive for each worker's answer (Irecv)
# and acts on the one that completes first (MPI.Request.Waitany): when it is worker 2's, the
# manager waits for a second answer from worker 2 that never comes. Worker 2 answers late, so
# a plain run takes worker 1's answer first and ends; verify runs the program with worker 2's
# answer first and confirms the deadlock.
import time
from array import array

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()

if rank == 0:
    answers = [array("i", [0]) for _ in range(3)]
    reqs = [comm.Irecv([answers[w], MPI.INT], source=w, tag=2) for w in (1, 2)]
    first = MPI.Request.Waitany(reqs)
    MPI.Request.Waitall(reqs)
    if first == 1:
        comm.Recv([answers[2], MPI.INT], source=2, tag=2)  # never sent: the deadlock
else:
    if rank == 2:
        time.sleep(0.3)
    comm.Send([array("i", [rank * 10]), MPI.INT], dest=0, tag=2)
