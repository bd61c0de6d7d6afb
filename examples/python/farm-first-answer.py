# mpiverify-test: np=3 record=ok verify=deadlock
# A task farm in mpi4py that acts on which worker answered first. The manager hands each
# worker a task and takes the answers as they come (MPI.ANY_SOURCE); when worker 1's answer
# is the first, it waits for a report on tag 3 that no worker sends. Worker 1 answers late, so
# a plain run takes the other branch and ends; verify runs the program with worker 1's answer
# first and confirms the deadlock, at this file's line of that receive, in manager().
import time

from mpi4py import MPI


def manager(comm):
    size = comm.Get_size()
    for worker in range(1, size):
        comm.send(worker, dest=worker, tag=1)
    status = MPI.Status()
    comm.recv(source=MPI.ANY_SOURCE, tag=2, status=status)
    first = status.Get_source()
    for _ in range(2, size):
        comm.recv(source=MPI.ANY_SOURCE, tag=2)
    if first == 1:
        comm.recv(source=MPI.ANY_SOURCE, tag=3)  # no worker sends it: the deadlock
    for worker in range(1, size):
        comm.send(None, dest=worker, tag=1)


def worker(comm):
    task = comm.recv(source=0, tag=1)
    if comm.Get_rank() == 1:
        time.sleep(0.3)
    comm.send(task * task, dest=0, tag=2)
    comm.recv(source=0, tag=1)


if MPI.COMM_WORLD.Get_rank() == 0:
    manager(MPI.COMM_WORLD)
else:
    worker(MPI.COMM_WORLD)
