/* The recorder's MPI_* entry points, expanded from base/mpi_calls.def (`make show-wrappers`
 * prints the expansion). Each wrapper is thin: guard and numbering in rec_call_enter(), the
 * envelope from the extractor env_<name>() the replayer checks with too (preload/env.h), the
 * call itself and what it returned in the typed handler rec_<name>(), the write in
 * rec_call_leave(). Init, Init_thread and Finalize are in wrappers_special.c. A call the
 * model does not know yet (MPIV_OTHER) is recorded with its call and site only. */
#include "recorder.h"

/* The entry point MPI_<name>: the common way's, unless rec_quick.c has one (REC_IS_QUICK). */
#define REC_CAT_(a, b) a##b
#define REC_CAT(a, b) REC_CAT_(a, b)
#define REC_ENTRY_0(name, params, args)                                                   \
	MPIV_EXPORT int MPI_##name params                                                 \
	{                                                                                 \
		return rec_common_##name(MPIV_UNPAREN args, __builtin_return_address(0)); \
	}
#define REC_ENTRY_1(name, params, args)

#define MPIV_SPECIAL(name, number, kind, flags, params, args)
#define MPIV_CALL(name, number, kind, flags, params, args)          \
	int rec_common_##name(MPIV_UNPAREN params, const void *ret) \
	{                                                           \
		struct rec_call c;                                  \
		int rc;                                             \
                                                                    \
		if (!rec_call_enter(&c, MPIV_CALL_##name, ret))     \
			return PMPI_##name args;                    \
		if (env_##name) {                                   \
			struct mpiv_env e = MPIV_ENV_NONE;          \
                                                                    \
			env_##name(&e, MPIV_UNPAREN args);          \
			rec_call_envelope(&c, &e);                  \
		}                                                   \
		rc = rec_##name(&c, MPIV_UNPAREN args);             \
		rec_call_leave(&c);                                 \
		return rc;                                          \
	}                                                           \
	REC_CAT(REC_ENTRY_, REC_IS_QUICK(name))(name, params, args)
#define MPIV_OTHER(name, number, params, args)                                          \
	MPIV_EXPORT int MPI_##name params                                               \
	{                                                                               \
		struct rec_call c;                                                      \
		int rc;                                                                 \
                                                                                        \
		if (!rec_call_enter(&c, MPIV_CALL_##name, __builtin_return_address(0))) \
			return PMPI_##name args;                                        \
		rec_call_posted(&c);                                                    \
		rc = PMPI_##name args;                                                  \
		rec_call_returned(&c);                                                  \
		rec_call_leave(&c);                                                     \
		return rc;                                                              \
	}
#include "mpi_calls.def"
#undef MPIV_OTHER
#undef MPIV_CALL
#undef MPIV_SPECIAL
