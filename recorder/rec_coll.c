/* Collective handlers of the recorder: the communicator (and, for rooted collectives, the
 * root as a world rank) is what the model needs to match them across ranks. */
#include "recorder.h"
#include "rec_comm.h"

int rec_Barrier(struct rec_call *c, MPI_Comm comm)
{
	int rc;

	c->ev.comm = rec_comm_id(comm);
	rec_call_posted(c);
	rc = PMPI_Barrier(comm);
	rec_call_returned(c);
	return rc;
}
