! mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
! mpiverify-test: buffering=zero expect=deadlock
! mpiverify-test: buffering=infinite expect=ok
! Fortran 2008 with the mpi_f08 module: both ranks MPI_Send to each other before receiving,
! safe only if the MPI library buffers standard sends. Its calls reach the C library by other
! entry points than the mpi module's (README.md, "Fortran"): they must be recorded all the same,
! at this file's lines.
program send_cycle_fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, peer, sendbuf, recvbuf
  type(MPI_Status) :: status

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  peer = 1 - rank
  sendbuf = rank
  ! one integer: small enough to be sent eagerly, so the recorded run completes
  call MPI_Send(sendbuf, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD)
  call MPI_Recv(recvbuf, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, status)
  call MPI_Finalize()
end program send_cycle_fortran_f08
