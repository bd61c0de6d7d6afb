# mpiverify-test: np=2 record=hang verify=deadlock
# mpiverify-test: buffering=zero expect=deadlock
# mpiverify-test: buffering=infinite expect=inconclusive
# Both ranks send first with mpi4py's buffer interface (MPI_Send of 100,000 integers), then
# receive: the sends wait for receives no rank posts unless the library buffers the messages,
# which no library does at this size. The hang is reported at this file's line of the send.
# The trace ends inside the sends: what a run that buffered them would do next was not
# recorded (inconclusive under infinite buffering); verify confirms the deadlock.
from array import array

from mpi4py import MPI

N = 100000
comm = MPI.COMM_WORLD
rank = comm.Get_rank()
peer = 1 - rank
out = array("i", [rank]) * N
got = array("i", [0]) * N
comm.Send([out, MPI.INT], dest=peer, tag=0)
comm.Recv([got, MPI.INT], source=peer, tag=0)
