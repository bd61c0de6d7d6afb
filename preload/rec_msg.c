/* Messages of the preload libraries to the user (rec_msg.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rec_hot.h"
#include "rec_msg.h"

static const char *msg_tool = "recorder"; /* which library speaks */
static int msg_rank = -1;		  /* world rank, -1 before MPI_Init */

void rec_msg_set_rank(const char *tool, int rank)
{
	msg_tool = tool;
	msg_rank = rank;
}

REC_COLD void rec_msg(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;
	ssize_t w;

	if (msg_rank >= 0)
		n = snprintf(line, sizeof(line), "mpiverify[%s rank %d]: ", msg_tool, msg_rank);
	else
		n = snprintf(line, sizeof(line), "mpiverify[%s rank ?]: ", msg_tool);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	/* One write, so that lines of different ranks do not mix. */
	w = write(STDERR_FILENO, line, n);
	(void)w;
}
