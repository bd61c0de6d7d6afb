# mpiverify-test: np=4 record=ok verify=ok
# A task farm in mpi4py stopped by a tag: the manager deals out TASKS tasks on tag 1 to
# whichever worker answers (MPI.ANY_SOURCE), and stops each worker with an empty message on
# tag 0; a worker takes any tag (MPI.ANY_TAG) and stops on 0. Correct in every order of the
# answers.
from mpi4py import MPI

TASKS = 5
WORK, STOP = 1, 0
comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()

if rank == 0:
    sent = 0
    for worker in range(1, size):
        if sent < TASKS:
            comm.send(sent, dest=worker, tag=WORK)
            sent += 1
        else:
            comm.send(None, dest=worker, tag=STOP)
    for _ in range(TASKS):
        status = MPI.Status()
        comm.recv(source=MPI.ANY_SOURCE, tag=2, status=status)
        worker = status.Get_source()
        if sent < TASKS:
            comm.send(sent, dest=worker, tag=WORK)
            sent += 1
        else:
            comm.send(None, dest=worker, tag=STOP)
else:
    while True:
        status = MPI.Status()
        task = comm.recv(source=0, tag=MPI.ANY_TAG, status=status)
        if status.Get_tag() == STOP:
            break
        comm.send(task + 1, dest=0, tag=2)
