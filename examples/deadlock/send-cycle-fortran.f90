! mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
! mpiverify-test: buffering=zero expect=deadlock
! mpiverify-test: buffering=infinite expect=ok
! Fortran with the mpi module: both ranks MPI_Send to each other before receiving, as
! send-send-cycle.c does in C; safe only if the MPI library buffers standard sends. The report
! must name this file's lines, not the library's Fortran binding.
program send_cycle_fortran
  use mpi
  implicit none
  integer :: ierr, rank, peer, sendbuf, recvbuf
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  sendbuf = rank
  ! one integer: small enough to be sent eagerly, so the recorded run completes
  call MPI_Send(sendbuf, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, ierr)
  call MPI_Recv(recvbuf, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, status, ierr)
  call MPI_Finalize(ierr)
end program send_cycle_fortran
