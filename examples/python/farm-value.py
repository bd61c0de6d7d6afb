# mpiverify-test: np=4 record=ok verify=ok
# A task farm in mpi4py stopped by a value, the way most farms are written: the manager deals
# out TASKS tasks one at a time to whichever worker answers (MPI.ANY_SOURCE), then sends each
# worker None, on which it stops. Correct in every order of the answers: verify answers "no
# deadlock" after runs that grow with the decisions, not with the orders.
import sys

from mpi4py import MPI

TASKS = int(sys.argv[1]) if len(sys.argv) > 1 else 6  # bench/: more tasks, more decisions
comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()

if rank == 0:
    sent = done = 0
    for worker in range(1, size):
        comm.send(sent if sent < TASKS else None, dest=worker)
        sent += 1
    while done < TASKS:
        status = MPI.Status()
        comm.recv(source=MPI.ANY_SOURCE, status=status)
        done += 1
        worker = status.Get_source()
        comm.send(sent if sent < TASKS else None, dest=worker)
        sent += 1
else:
    while True:
        task = comm.recv(source=0)
        if task is None:
            break
        comm.send(task * task, dest=0)
