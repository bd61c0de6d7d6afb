/* The digests of messages' data in the recorder (base/digest.h, doc/trace-format.md "Data
 * digests"): where a message's bytes lie, and how many a receive took. Sends are hashed where
 * they are made (rec_data_sent()), receives once they completed, by their status. */
#include "recorder.h"
#include "rec_comm.h"

struct rec_data rec_data_at(const void *buf, int count, MPI_Datatype type, int peer)
{
	unsigned how;
	uint64_t bytes = rec_comm_type(count, type, &how);

	return rec_data_make(buf, bytes, !!(how & REC_TYPE_CONTIG), peer);
}

/* The bytes a receive took, as its status st says (what MPI_Get_count gives in MPI_BYTE); -1
 * if it cannot say. MPICH and Open MPI keep that count in the status (MPICH where its Fortran
 * bindings have it too; Open MPI in a member it calls its own), where it is read: the call
 * would cost a short receive as much as the rest of its recording. The digests of
 * tests/e2e/record-calls.sh, received as sent on both libraries, hold it to MPI's count. */
static MPI_Count status_bytes(const MPI_Status *st)
{
#if defined(MPICH_VERSION)
	return (MPI_Count)((uint64_t)((unsigned)st->count_hi_and_cancelled >> 1) << 32 |
			   (unsigned)st->count_lo);
#elif defined(OPEN_MPI) && OMPI_MAJOR_VERSION >= 2
	return (MPI_Count)st->_ucount;
#else
	MPI_Count got;
	int n;

	/* past INT_MAX, in a count that holds them */
	if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS)
		return -1;
	if (n != MPI_UNDEFINED)
		return n;
	if (PMPI_Get_elements_x(st, MPI_BYTE, &got) != MPI_SUCCESS || got == MPI_UNDEFINED)
		return -1;
	return got;
#endif
}

uint32_t rec_data_received(const struct rec_data *d, const MPI_Status *st)
{
	MPI_Count got;

	if (d->bytes == REC_DATA_UNKNOWN || !st || st->MPI_SOURCE == MPI_PROC_NULL)
		return 0;
	got = status_bytes(st);
	if (got < 0)
		return 0;
	return mpiv_digest(d->buf, (uint64_t)got < d->bytes ? (uint64_t)got : d->bytes);
}
