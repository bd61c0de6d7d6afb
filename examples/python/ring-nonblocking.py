# mpiverify-test: np=3 record=ok verify=ok
# mpiverify-test: buffering=zero expect=ok
# mpiverify-test: buffering=infinite expect=ok
# A ring in mpi4py's buffer interface: each rank posts its receive from the left (Irecv) and
# its send to the right (Isend) and waits for both (Waitall), then all reduce a sum. Correct
# whatever the buffering.
from array import array

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
out = array("i", [rank]) * 4
got = array("i", [0]) * 4
reqs = [
    comm.Irecv([got, MPI.INT], source=(rank - 1) % size, tag=7),
    comm.Isend([out, MPI.INT], dest=(rank + 1) % size, tag=7),
]
MPI.Request.Waitall(reqs)
total = comm.allreduce(got[0], op=MPI.SUM)
assert total == sum(range(size))
