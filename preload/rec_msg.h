/* Messages of the preload libraries (recorder and replayer) to the user: one line on stderr,
 * "mpiverify[recorder rank N]: ...", written with one write(2) so that ranks do not mix
 * their lines. The libraries never exit the user's program over them. */
#ifndef MPIV_REC_MSG_H
#define MPIV_REC_MSG_H

/* Which library speaks ("recorder", "replayer"; a static string) and the world rank messages
 * name; -1 (printed as "?") until MPI_Init returned. */
void rec_msg_set_rank(const char *tool, int rank);

/* "mpiverify[TOOL rank N]: <text>" on stderr, as one write. */
void rec_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
