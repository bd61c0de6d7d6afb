/* ---- the part every standalone model of mpiverify has (models/standalone.pml) ---- */

/* The MPI rules, as this model encodes them (doc/promela.md; doc/semantics.md has the
 * sections of the MPI standard they follow):
 * - Each rank (each thread of a rank that calls MPI) is a process that makes its calls in
 *   the recorded order. A blocking call is a post and a wait; rq[] holds every request:
 *   FREE, PENDING (a send not complete, a receive not matched) or DONE.
 * - A message travels on a channel of its own per (sender, receiver, communicator), in
 *   send order, until a receive takes it.
 * - Each rank's library process matches messages to its posted receives whatever the
 *   rank is doing (MPI's progress rule). A receive takes the first message of a sender
 *   that it matches (messages do not overtake), and not one that an earlier posted receive
 *   of its thread, still open, also matches (receives do not overtake). A receive from
 *   MPI_ANY_SOURCE may take any sender's first matching message: each is a behaviour of
 *   its own, and SPIN explores them all, in every interleaving of the ranks.
 * - A standard send (MPI_Send, MPI_Isend) completes at once or when its receive takes it,
 *   as BUFFERING says; MPI_Ssend always waits for its receive; MPI_Bsend never does, but
 *   needs room in the buffer MPI_Buffer_attach gave, at its call and until the library
 *   transmits it;
 *   MPI_Rsend is erroneous if no matching receive is posted when it starts.
 * - The n-th collective of a rank on a communicator meets the n-th of the others. Without
 *   buffering every collective waits for every member; with it, a member waits only for
 *   those whose data it needs (a broadcast's root for no one, the others for the root,
 *   a neighbourhood collective for its in-neighbours).
 * - One-sided: MPI_Win_start waits for its targets' MPI_Win_post, MPI_Win_wait for its
 *   origins' MPI_Win_complete, MPI_Win_lock while another rank holds a lock that conflicts.
 */

/* The buffering modes BUFFERING (above) names */
#define ZERO 0
#define INFINITE 1
#define EAGER 2
/* A standard send of `bytes` bytes completes at once. */
#define BUFFERED(bytes) (BUFFERING == INFINITE || (BUFFERING == EAGER && (bytes) <= EAGER_LIMIT))
/* Every collective waits for every member of its communicator: without buffering, or
 * with ALL_COLLECTIVES_SYNCHRONISE 1, as MPI lets every collective do whatever the
 * buffering (check searches both ways). */
#define ALL_COLLECTIVES_SYNCHRONISE 0
#define SYNC_COLLECTIVES (BUFFERING == ZERO || ALL_COLLECTIVES_SYNCHRONISE)

/* A request's state */
#define FREE 0
#define PENDING 1
#define DONE 2

/* Rank r enters its n-th collective on a communicator (counts: the communicator's array). */
#define ENTER(counts, r, n) counts[r] = (counts[r] < n -> n : counts[r])

