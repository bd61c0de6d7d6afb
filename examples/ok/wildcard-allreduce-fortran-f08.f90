! mpiverify-test: np=3 record=ok verify=ok verify-runs=2
! mpiverify-test: buffering=zero expect=ok
! mpiverify-test: buffering=infinite expect=ok
! Fortran 2008 with the mpi_f08 module: rank 0 takes one message from each other rank with
! MPI_ANY_SOURCE receives (whichever sender the first matches, the second matches the other),
! then every rank waits on a nonblocking receive from its left neighbour and joins an
! MPI_Allreduce: deadlock-free in every match order and buffering.
program wildcard_allreduce_fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, nranks, val, i, total, left, right, fromleft
  type(MPI_Status) :: status
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  if (rank == 0) then
    do i = 1, nranks - 1
      call MPI_Recv(val, 1, MPI_INTEGER, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, status)
    end do
  else
    val = rank
    call MPI_Send(val, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD)
  end if
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  call MPI_Irecv(fromleft, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, req)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Allreduce(fromleft, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= nranks * (nranks - 1) / 2) call MPI_Abort(MPI_COMM_WORLD, 1)
  call MPI_Finalize()
end program wildcard_allreduce_fortran_f08
