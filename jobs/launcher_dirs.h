/* What a launcher leaves on this host when it is killed rather than ended: Open MPI's mpirun
 * keeps a session directory in its temporary directory while it runs, and removes it only on
 * its way out. */
#ifndef MPIV_LAUNCHER_DIRS_H
#define MPIV_LAUNCHER_DIRS_H

#include <sys/types.h>

/* Remove the session directory of the launcher whose process was pid (Open MPI's
 * ompi.HOST.UID/pid.PID), if there is one and it is ours: call once pid is gone. */
void launcher_dirs_remove(pid_t pid);

#endif
