/* Packed copies of send buffers (rec_pack.h). */
#include <stdlib.h>

#include "rec_pack.h"

void *rec_pack(const void *buf, int count, MPI_Datatype type, MPI_Comm comm, int *len, int *rc)
{
	int size = 0;
	void *copy;

	*len = 0;
	*rc = PMPI_Pack_size(count, type, comm, &size);
	if (*rc != MPI_SUCCESS)
		return NULL;
	copy = malloc(size > 0 ? (size_t)size : 1);
	if (!copy) {
		*rc = MPI_ERR_NO_MEM;
		return NULL;
	}
	*rc = PMPI_Pack(buf, count, type, copy, size, len, comm);
	if (*rc != MPI_SUCCESS) {
		free(copy);
		return NULL;
	}
	return copy;
}
