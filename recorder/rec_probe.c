/* Probe handlers of the recorder: the envelope asked for (the wrapper's, env_p2p.c) and, when
 * a message was found, the world rank and tag it came with (an MPI_Iprobe or MPI_Improbe that
 * found nothing records no source, which check reads as "no effect"). Matched probes also
 * make the message's receive, MPI_Mrecv or MPI_Imrecv, whose request the trace follows like
 * any other. */
#include "recorder.h"
#include "calm.h"
#include "rec_comm.h"

static void probe_found(struct rec_call *c, MPI_Comm comm, const MPI_Status *status)
{
	c->ev.src = rec_comm_to_world(comm, status->MPI_SOURCE);
	c->ev.mtag = rec_comm_tag(status->MPI_TAG);
}

int rec_Probe(struct rec_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rec_call_posted(c);
	rc = calm_Probe(rec_steer_source(c, source, comm), tag, comm, status);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		probe_found(c, comm, status);
	return rc;
}

int rec_Iprobe(struct rec_call *c, int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rc = PMPI_Iprobe(rec_steer_source(c, source, comm), tag, comm, flag, status);
	if (rc == MPI_SUCCESS && *flag)
		probe_found(c, comm, status);
	rec_call_polled(c, rc);
	return rc;
}

int rec_Mprobe(struct rec_call *c, int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status)
{
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rec_call_posted(c);
	rc = calm_Mprobe(rec_steer_source(c, source, comm), tag, comm, message, status);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		probe_found(c, comm, status);
	return rc;
}

int rec_Improbe(struct rec_call *c, int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status)
{
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rc = PMPI_Improbe(rec_steer_source(c, source, comm), tag, comm, flag, message, status);
	if (rc == MPI_SUCCESS && *flag)
		probe_found(c, comm, status);
	rec_call_polled(c, rc);
	return rc;
}

/* A matched receive: the digest of what it took (its status substituted, for the count). */
int rec_Mrecv(struct rec_call *c, void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
	      MPI_Status *status)
{
	struct rec_data d = rec_data_at(buf, count, datatype, 0);
	MPI_Status local;
	int rc;

	if (status == MPI_STATUS_IGNORE)
		status = &local;
	rc = calm_Mrecv(buf, count, datatype, message, status);
	if (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE)
		c->ev.rdata = rec_data_received(&d, status);
	return rc;
}

int rec_Imrecv(struct rec_call *c, void *buf, int count, MPI_Datatype datatype,
	       MPI_Message *message, MPI_Request *request)
{
	struct rec_data d = rec_data_at(buf, count, datatype, 0);
	int rc = PMPI_Imrecv(buf, count, datatype, message, request);

	/* the message was matched by the probe: this request only moves its data, whose digest
	 * its completion has */
	if (rc == MPI_SUCCESS)
		rec_call_add_req(c,
				 rec_request_add_data(request, 0, MPI_COMM_WORLD, REC_DIGEST_DONE,
						      d),
				 MPIV_NONE, MPIV_NONE);
	return rc;
}
