/* The call tables built from base/mpi_calls.def, and the digest of a message's data. */
#include <stdio.h>
#include <string.h>

#include "digest.h"
#include "unit.h"

static void test_names_roundtrip(void)
{
	unsigned c;

	for (c = 0; c < MPIV_CALL__COUNT; c++) {
		const char *name = mpiv_call_name(c);

		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		CU_ASSERT(strncmp(name, "MPI_", 4) == 0);
		CU_ASSERT_EQUAL(mpiv_call_from_name(name), (int)c);
		CU_ASSERT_EQUAL(mpiv_call_from_name(name + 4), (int)c);
	}
	CU_ASSERT_PTR_NULL(mpiv_call_name(MPIV_CALL__COUNT));
	CU_ASSERT_EQUAL(mpiv_call_from_name("MPI_Nonsense"), -1);
	CU_ASSERT_EQUAL(mpiv_call_from_name(NULL), -1);
}

static void test_kinds_and_flags(void)
{
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Send), MPIV_KIND_SEND);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Irecv), MPIV_KIND_IRECV);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Waitall), MPIV_KIND_WAIT);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Barrier), MPIV_KIND_COLL);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Send) & MPIV_F_STANDARD);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Ssend) & MPIV_F_SYNC);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Bcast) & MPIV_F_ROOT_SENDS);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Igatherv) & MPIV_F_ROOT_RECEIVES);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Iscatter) & MPIV_F_ROOTED);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Exscan) & MPIV_F_PREFIX);
	CU_ASSERT_FALSE(mpiv_call_flags(MPIV_CALL_Allreduce) & (MPIV_F_ROOTED | MPIV_F_PREFIX));
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL__COUNT), MPIV_KIND_UNSUPPORTED);
}

struct call_number {
	unsigned number;
	const char *name; /* "MPI_Send" */
};

/* The number of every call, as binary traces store it (16 + number, doc/trace-format.md). A
 * number never moves and is never reused, or old traces would name other calls: a call added
 * to base/mpi_calls.def takes the next free number and adds its line here. */
/* clang-format off: packed by hand, many numbers to a line */
static const struct call_number pinned[] = {
	{0, "MPI_Init"},
	{1, "MPI_Init_thread"},
	{2, "MPI_Finalize"},
	{3, "MPI_Abort"},
	{4, "MPI_Send"},
	{5, "MPI_Ssend"},
	{6, "MPI_Recv"},
	{7, "MPI_Isend"},
	{8, "MPI_Irecv"},
	{9, "MPI_Wait"},
	{10, "MPI_Waitall"},
	{11, "MPI_Barrier"},
	{12, "MPI_Bsend"},
	{13, "MPI_Rsend"},
	{14, "MPI_Ibsend"},
	{15, "MPI_Issend"},
	{16, "MPI_Irsend"},
	{17, "MPI_Sendrecv"},
	{18, "MPI_Sendrecv_replace"},
	{19, "MPI_Probe"},
	{20, "MPI_Iprobe"},
	{21, "MPI_Mprobe"},
	{22, "MPI_Improbe"},
	{23, "MPI_Mrecv"},
	{24, "MPI_Imrecv"},
	{25, "MPI_Waitany"},
	{26, "MPI_Waitsome"},
	{27, "MPI_Test"},
	{28, "MPI_Testall"},
	{29, "MPI_Testany"},
	{30, "MPI_Testsome"},
	{31, "MPI_Request_free"},
	{32, "MPI_Cancel"},
	{33, "MPI_Send_init"},
	{34, "MPI_Bsend_init"},
	{35, "MPI_Ssend_init"},
	{36, "MPI_Rsend_init"},
	{37, "MPI_Recv_init"},
	{38, "MPI_Start"},
	{39, "MPI_Startall"},
	{40, "MPI_Bcast"},
	{41, "MPI_Reduce"},
	{42, "MPI_Allreduce"},
	{43, "MPI_Gather"},
	{44, "MPI_Gatherv"},
	{45, "MPI_Scatter"},
	{46, "MPI_Scatterv"},
	{47, "MPI_Allgather"},
	{48, "MPI_Allgatherv"},
	{49, "MPI_Alltoall"},
	{50, "MPI_Alltoallv"},
	{51, "MPI_Alltoallw"},
	{52, "MPI_Reduce_scatter"},
	{53, "MPI_Reduce_scatter_block"},
	{54, "MPI_Scan"},
	{55, "MPI_Exscan"},
	{56, "MPI_Ibarrier"},
	{57, "MPI_Ibcast"},
	{58, "MPI_Ireduce"},
	{59, "MPI_Iallreduce"},
	{60, "MPI_Igather"},
	{61, "MPI_Igatherv"},
	{62, "MPI_Iscatter"},
	{63, "MPI_Iscatterv"},
	{64, "MPI_Iallgather"},
	{65, "MPI_Iallgatherv"},
	{66, "MPI_Ialltoall"},
	{67, "MPI_Ialltoallv"},
	{68, "MPI_Ialltoallw"},
	{69, "MPI_Ireduce_scatter"},
	{70, "MPI_Ireduce_scatter_block"},
	{71, "MPI_Iscan"},
	{72, "MPI_Iexscan"},
	{73, "MPI_Comm_dup"},
	{74, "MPI_Comm_idup"},
	{75, "MPI_Comm_split"},
	{76, "MPI_Comm_split_type"},
	{77, "MPI_Comm_create"},
	{78, "MPI_Comm_create_group"},
	{79, "MPI_Cart_create"},
	{80, "MPI_Cart_sub"},
	{81, "MPI_Dist_graph_create_adjacent"},
	{82, "MPI_Intercomm_create"},
	{83, "MPI_Comm_free"},
	{84, "MPI_Win_create"},
	{85, "MPI_Win_allocate"},
	{86, "MPI_Win_free"},
	{87, "MPI_Win_fence"},
	{88, "MPI_Win_post"},
	{89, "MPI_Win_start"},
	{90, "MPI_Win_complete"},
	{91, "MPI_Win_wait"},
	{92, "MPI_Win_test"},
	{93, "MPI_Win_lock"},
	{94, "MPI_Win_unlock"},
	{95, "MPI_Win_lock_all"},
	{96, "MPI_Win_unlock_all"},
	{97, "MPI_Win_flush"},
	{98, "MPI_Win_flush_all"},
	{99, "MPI_Win_flush_local"},
	{100, "MPI_Win_flush_local_all"},
	{101, "MPI_Put"},
	{102, "MPI_Get"},
	{103, "MPI_Accumulate"},
	{104, "MPI_Comm_dup_with_info"},
	{105, "MPI_Graph_create"},
	{106, "MPI_Dist_graph_create"},
	{107, "MPI_Win_allocate_shared"},
	{108, "MPI_Win_create_dynamic"},
	{109, "MPI_Neighbor_allgather"},
	{110, "MPI_Neighbor_allgatherv"},
	{111, "MPI_Neighbor_alltoall"},
	{112, "MPI_Neighbor_alltoallv"},
	{113, "MPI_Neighbor_alltoallw"},
	{114, "MPI_Ineighbor_allgather"},
	{115, "MPI_Ineighbor_allgatherv"},
	{116, "MPI_Ineighbor_alltoall"},
	{117, "MPI_Ineighbor_alltoallv"},
	{118, "MPI_Ineighbor_alltoallw"},
	{119, "MPI_Rput"},
	{120, "MPI_Rget"},
	{121, "MPI_Raccumulate"},
	{122, "MPI_Rget_accumulate"},
	{123, "MPI_Intercomm_merge"},
	{124, "MPI_Comm_spawn"},
	{125, "MPI_Comm_spawn_multiple"},
	{126, "MPI_Comm_accept"},
	{127, "MPI_Comm_connect"},
	{128, "MPI_Comm_join"},
	{129, "MPI_Barrier_init"},
	{130, "MPI_Bcast_init"},
	{131, "MPI_Reduce_init"},
	{132, "MPI_Allreduce_init"},
	{133, "MPI_Gather_init"},
	{134, "MPI_Scatter_init"},
	{135, "MPI_Allgather_init"},
	{136, "MPI_Alltoall_init"},
	{137, "MPI_Scan_init"},
	{138, "MPI_Exscan_init"},
	{139, "MPI_Reduce_scatter_block_init"},
	{140, "MPI_Gatherv_init"},
	{141, "MPI_Scatterv_init"},
	{142, "MPI_Allgatherv_init"},
	{143, "MPI_Alltoallv_init"},
	{144, "MPI_Alltoallw_init"},
	{145, "MPI_Reduce_scatter_init"},
	{146, "MPI_Neighbor_allgather_init"},
	{147, "MPI_Neighbor_allgatherv_init"},
	{148, "MPI_Neighbor_alltoall_init"},
	{149, "MPI_Neighbor_alltoallv_init"},
	{150, "MPI_Neighbor_alltoallw_init"},
	{151, "MPI_Psend_init"},
	{152, "MPI_Precv_init"},
	{153, "MPI_Isendrecv"},
	{154, "MPI_Isendrecv_replace"},
	{155, "MPI_Comm_idup_with_info"},
	{156, "MPI_Comm_create_from_group"},
	{157, "MPI_Intercomm_create_from_groups"},
	{158, "MPI_Buffer_attach"},
	{159, "MPI_Buffer_detach"},
	{160, "MPI_Reduce_local"},
	{161, "MPI_Op_create"},
	{162, "MPI_Grequest_start"},
	{163, "MPI_Grequest_complete"},
	{164, "MPI_Allgather_c"},
	{165, "MPI_Allgather_init_c"},
	{166, "MPI_Allgatherv_c"},
	{167, "MPI_Allgatherv_init_c"},
	{168, "MPI_Allreduce_c"},
	{169, "MPI_Allreduce_init_c"},
	{170, "MPI_Alltoall_c"},
	{171, "MPI_Alltoall_init_c"},
	{172, "MPI_Alltoallv_c"},
	{173, "MPI_Alltoallv_init_c"},
	{174, "MPI_Alltoallw_c"},
	{175, "MPI_Alltoallw_init_c"},
	{176, "MPI_Bcast_c"},
	{177, "MPI_Bcast_init_c"},
	{178, "MPI_Exscan_c"},
	{179, "MPI_Exscan_init_c"},
	{180, "MPI_Gather_c"},
	{181, "MPI_Gather_init_c"},
	{182, "MPI_Gatherv_c"},
	{183, "MPI_Gatherv_init_c"},
	{184, "MPI_Iallgather_c"},
	{185, "MPI_Iallgatherv_c"},
	{186, "MPI_Iallreduce_c"},
	{187, "MPI_Ialltoall_c"},
	{188, "MPI_Ialltoallv_c"},
	{189, "MPI_Ialltoallw_c"},
	{190, "MPI_Ibcast_c"},
	{191, "MPI_Iexscan_c"},
	{192, "MPI_Igather_c"},
	{193, "MPI_Igatherv_c"},
	{194, "MPI_Ineighbor_allgather_c"},
	{195, "MPI_Ineighbor_allgatherv_c"},
	{196, "MPI_Ineighbor_alltoall_c"},
	{197, "MPI_Ineighbor_alltoallv_c"},
	{198, "MPI_Ineighbor_alltoallw_c"},
	{199, "MPI_Ireduce_c"},
	{200, "MPI_Ireduce_scatter_c"},
	{201, "MPI_Ireduce_scatter_block_c"},
	{202, "MPI_Iscan_c"},
	{203, "MPI_Iscatter_c"},
	{204, "MPI_Iscatterv_c"},
	{205, "MPI_Neighbor_allgather_c"},
	{206, "MPI_Neighbor_allgather_init_c"},
	{207, "MPI_Neighbor_allgatherv_c"},
	{208, "MPI_Neighbor_allgatherv_init_c"},
	{209, "MPI_Neighbor_alltoall_c"},
	{210, "MPI_Neighbor_alltoall_init_c"},
	{211, "MPI_Neighbor_alltoallv_c"},
	{212, "MPI_Neighbor_alltoallv_init_c"},
	{213, "MPI_Neighbor_alltoallw_c"},
	{214, "MPI_Neighbor_alltoallw_init_c"},
	{215, "MPI_Reduce_c"},
	{216, "MPI_Reduce_init_c"},
	{217, "MPI_Reduce_local_c"},
	{218, "MPI_Reduce_scatter_c"},
	{219, "MPI_Reduce_scatter_block_c"},
	{220, "MPI_Reduce_scatter_block_init_c"},
	{221, "MPI_Reduce_scatter_init_c"},
	{222, "MPI_Scan_c"},
	{223, "MPI_Scan_init_c"},
	{224, "MPI_Scatter_c"},
	{225, "MPI_Scatter_init_c"},
	{226, "MPI_Scatterv_c"},
	{227, "MPI_Scatterv_init_c"},
	{228, "MPI_Bsend_c"},
	{229, "MPI_Bsend_init_c"},
	{230, "MPI_Buffer_attach_c"},
	{231, "MPI_Buffer_detach_c"},
	{232, "MPI_Ibsend_c"},
	{233, "MPI_Imrecv_c"},
	{234, "MPI_Irecv_c"},
	{235, "MPI_Irsend_c"},
	{236, "MPI_Isend_c"},
	{237, "MPI_Isendrecv_c"},
	{238, "MPI_Isendrecv_replace_c"},
	{239, "MPI_Issend_c"},
	{240, "MPI_Mrecv_c"},
	{241, "MPI_Recv_c"},
	{242, "MPI_Recv_init_c"},
	{243, "MPI_Rsend_c"},
	{244, "MPI_Rsend_init_c"},
	{245, "MPI_Send_c"},
	{246, "MPI_Send_init_c"},
	{247, "MPI_Sendrecv_c"},
	{248, "MPI_Sendrecv_replace_c"},
	{249, "MPI_Ssend_c"},
	{250, "MPI_Ssend_init_c"},
	{251, "MPI_Accumulate_c"},
	{252, "MPI_Get_c"},
	{253, "MPI_Get_accumulate_c"},
	{254, "MPI_Put_c"},
	{255, "MPI_Raccumulate_c"},
	{256, "MPI_Rget_c"},
	{257, "MPI_Rget_accumulate_c"},
	{258, "MPI_Rput_c"},
	{259, "MPI_Win_allocate_c"},
	{260, "MPI_Win_allocate_shared_c"},
	{261, "MPI_Win_create_c"},
	{262, "MPI_Win_shared_query_c"},
	{263, "MPI_Get_accumulate"},
	{264, "MPI_Fetch_and_op"},
	{265, "MPI_Compare_and_swap"},
	{266, "MPI_Comm_disconnect"},
	{267, "MPI_Session_finalize"},
	{268, "MPI_Request_get_status"},
	{269, "MPI_Pready"},
	{270, "MPI_Pready_range"},
	{271, "MPI_Pready_list"},
	{272, "MPI_Parrived"},
	{273, "MPI_Session_init"},
};
/* clang-format on */

/* Each call of the list, with the number the list gives it. */
static const struct call_number listed[] = {
#define MPIV_CALL(name, number, kind, flags, params, args) {MPIV_CALL_##name, "MPI_" #name},
#include "mpi_calls.def"
#undef MPIV_CALL
};

#define NPINNED (sizeof(pinned) / sizeof(pinned[0]))
#define NLISTED (sizeof(listed) / sizeof(listed[0]))

static void test_numbers_pinned(void)
{
	size_t i, j;

	/* every number of old traces still names its call ... */
	for (i = 0; i < NPINNED; i++) {
		CU_ASSERT_EQUAL(mpiv_call_from_name(pinned[i].name), (int)pinned[i].number);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mpiv_call_name(pinned[i].number));
		CU_ASSERT_STRING_EQUAL(mpiv_call_name(pinned[i].number), pinned[i].name);
	}
	/* ... every call of the list is pinned here ... */
	for (i = 0; i < NLISTED; i++) {
		for (j = 0; j < NPINNED && strcmp(pinned[j].name, listed[i].name); j++)
			;
		CU_ASSERT(j < NPINNED);
		if (j < NPINNED)
			CU_ASSERT_EQUAL(listed[i].number, pinned[j].number);
	}
	/* ... and no two calls share a number */
	for (i = 0; i < NLISTED; i++)
		for (j = i + 1; j < NLISTED; j++)
			CU_ASSERT_NOT_EQUAL(listed[i].number, listed[j].number);
	CU_ASSERT_EQUAL(NLISTED, MPIV_CALL__COUNT);
}

/* A large-count call (MPI_Send_c, MPI_Gatherv_c, ...) that is modelled has its int-count
 * twin's kind and flags, and mpiv_call_twin() names the twin (base/large_twins.gen.h); one
 * that is refused is its own. */
static void test_large_twins(void)
{
	unsigned modelled = 0;
	size_t i, len;
	char twin[64];
	int t;

	for (i = 0; i < NLISTED; i++) {
		unsigned call = listed[i].number;

		len = strlen(listed[i].name);
		if (len < 3 || strcmp(listed[i].name + len - 2, "_c"))
			continue;
		snprintf(twin, sizeof(twin), "%.*s", (int)(len - 2), listed[i].name);
		t = mpiv_call_from_name(twin);
		if (t < 0 || mpiv_call_kind(call) == MPIV_KIND_UNSUPPORTED) {
			CU_ASSERT_EQUAL(mpiv_call_twin(call), call);
			continue;
		}
		modelled++;
		CU_ASSERT_EQUAL(mpiv_call_twin(call), (unsigned)t);
		CU_ASSERT_EQUAL(mpiv_call_kind(call), mpiv_call_kind((unsigned)t));
		CU_ASSERT_EQUAL(mpiv_call_flags(call), mpiv_call_flags((unsigned)t));
	}
	CU_ASSERT_EQUAL(modelled, 98); /* doc/mpi-calls.md */
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Send_c), MPIV_CALL_Send);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Gatherv_c), MPIV_CALL_Gatherv);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Ireduce_scatter_c), MPIV_CALL_Ireduce_scatter);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Neighbor_alltoallw_init_c),
			MPIV_CALL_Neighbor_alltoallw_init);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Win_create_c), MPIV_CALL_Win_create);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Buffer_detach_c), MPIV_CALL_Buffer_detach);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Rput_c), MPIV_CALL_Rput);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Win_shared_query_c), MPIV_CALL_Win_shared_query_c);
	CU_ASSERT_EQUAL(mpiv_call_twin(MPIV_CALL_Send), MPIV_CALL_Send);
}

static void test_site_packing(void)
{
	uint64_t s = MPIV_SITE(3, 0x401234);

	CU_ASSERT_EQUAL(MPIV_SITE_MODULE(s), 3);
	CU_ASSERT_EQUAL(MPIV_SITE_ADDR(s), 0x401234);
}

/* The digest of messages (base/digest.h): equal data, equal digests; a bit changed anywhere
 * in the first MPIV_DATA_BYTES bytes, or another size, another digest; bytes beyond those not
 * read; never 0. Its values are pinned: traces keep them, and another producer must make the
 * same. */
static void test_digest(void)
{
	unsigned char a[MPIV_DATA_BYTES + 16], b[sizeof(a)];
	uint32_t d, seen[8 * MPIV_DATA_BYTES + 1];
	size_t n, i, j, bit, nseen;

	for (i = 0; i < sizeof(a); i++)
		a[i] = (unsigned char)(i * 37 + 11);
	CU_ASSERT_EQUAL(mpiv_digest(NULL, 0), mpiv_digest(a, 0));
	CU_ASSERT_NOT_EQUAL(mpiv_digest(NULL, 0), 0);
	for (n = 0; n <= MPIV_DATA_BYTES + 8; n++) {
		memcpy(b, a, sizeof(b));
		d = mpiv_digest(a, n);
		CU_ASSERT_NOT_EQUAL(d, 0);
		CU_ASSERT_EQUAL(mpiv_digest(b, n), d);
		/* sizes differ: digests differ, whatever the bytes */
		CU_ASSERT_NOT_EQUAL(mpiv_digest(a, n + 1), d);
		/* beyond what is read, nothing counts */
		b[n < MPIV_DATA_BYTES ? n : MPIV_DATA_BYTES] ^= 0xff;
		CU_ASSERT_EQUAL(mpiv_digest(b, n), d);
		/* every bit that is read counts, each to a digest of its own */
		nseen = 0;
		seen[nseen++] = d;
		for (bit = 0; bit < 8 * (n < MPIV_DATA_BYTES ? n : MPIV_DATA_BYTES); bit++) {
			memcpy(b, a, sizeof(b));
			b[bit / 8] ^= (unsigned char)(1u << bit % 8);
			seen[nseen] = mpiv_digest(b, n);
			for (j = 0; j < nseen; j++)
				CU_ASSERT_NOT_EQUAL(seen[j], seen[nseen]);
			nseen++;
		}
	}
	/* unaligned data: the same bytes, the same digest */
	memcpy(b + 3, a, MPIV_DATA_BYTES);
	CU_ASSERT_EQUAL(mpiv_digest(b + 3, 40), mpiv_digest(a, 40));
	/* pinned */
	CU_ASSERT_EQUAL(mpiv_digest(NULL, 0), 0x47848a75u);
	CU_ASSERT_EQUAL(mpiv_digest("x", 1), 0x6db3284eu);
	CU_ASSERT_EQUAL(mpiv_digest("abcdefgh", 8), 0x8ce4a04du);
	CU_ASSERT_EQUAL(mpiv_digest(a, 1000), 0x80e06ccdu);
}

static CU_TestInfo event_tests[] = {
	{"names round trip", test_names_roundtrip},
	{"kinds and flags", test_kinds_and_flags},
	{"call numbers pinned", test_numbers_pinned},
	{"large-count twins", test_large_twins},
	{"site packing", test_site_packing},
	{"digest", test_digest},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo event_suite = {"event", NULL, NULL, NULL, NULL, event_tests};
