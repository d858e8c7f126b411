/*
 * The KMA-style allocator (structures/kma.h): size classes, reuse after free,
 * exhaustion returning KMA_NULL, the heap check catching a double free, and
 * many more threads than cores allocating and freeing at once with every
 * block owned by one thread at a time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "structures/kma_host.h"
#include "tests/unit/test.h"

TEST(kma_size_classes_and_reuse)
{
	kma_heap h = kma_host_create(8, 4096);
	kma_usage u;
	char err[256];
	uint32_t a, b, c;

	CHECK_EQ(kma_class_of_size(1), 0u);
	CHECK_EQ(kma_class_of_size(8), 0u);
	CHECK_EQ(kma_class_of_size(9), 1u);
	CHECK_EQ(kma_class_of_size(256), KMA_NCLASS - 1);
	CHECK_EQ(kma_class_of_size(257), KMA_NCLASS);
	CHECK_EQ(h.sb_first, 1u);
	a = kma_malloc(h, 16);
	b = kma_malloc(h, 16);
	c = kma_malloc(h, 100);
	REQUIRE(a && b && c);
	CHECK(a / 4096 == b / 4096 && a % 16 == 0 && b % 16 == 0 && a != b);
	CHECK(c / 4096 != a / 4096 && c % 128 == 0); /* another class, another superblock */
	CHECK_EQ(kma_malloc(h, 300), KMA_NULL);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.live_blocks, 3u);
	CHECK_EQ(u.live_by_class[1], 2u);
	CHECK_EQ(u.live_bytes, 16u + 16u + 128u);
	CHECK_EQ(u.superblocks_used, 2u);
	CHECK_EQ(u.superblocks_free, 5u);
	CHECK_EQ(u.failed_allocs, 1u);
	CHECK_EQ(u.bookkeeping_bytes, 4096u);
	kma_free(h, b);
	CHECK_EQ(kma_malloc(h, 16), b); /* the freed block comes back first */
	kma_free(h, a);
	kma_free(h, b);
	kma_free(h, c);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.live_blocks, 0u);
	kma_host_destroy(h);
}

TEST(kma_exhaustion_returns_null_and_leaves_a_sound_heap)
{
	kma_heap h = kma_host_create(4, 256); /* 3 data superblocks of 16 blocks of 16 bytes */
	kma_usage u;
	char err[256];
	uint32_t i, got = 0;

	for (i = 0; i < 60; i++)
		got += kma_malloc(h, 16) != KMA_NULL;
	CHECK_EQ(got, 48u);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.failed_allocs, 12u);
	CHECK_EQ(u.live_blocks, 48u);
	CHECK_EQ(u.superblocks_free, 0u);
	kma_host_destroy(h);
}

TEST(kma_check_catches_a_double_free_and_a_bad_link)
{
	kma_heap h = kma_host_create(4, 1024);
	kma_usage u;
	char err[256];
	uint32_t a = kma_malloc(h, 16);

	kma_free(h, a);
	kma_free(h, a);
	CHECK(kma_check(h, &u, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "twice");
	kma_host_reset(h);
	a = kma_malloc(h, 16);
	kma_free(h, kma_malloc(h, 16));
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	*kma_word(h, a + 16) = a + 8; /* the freed block links into the middle of a block */
	CHECK(kma_check(h, &u, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "not a 16-byte block");
	CHECK(kma_layout_check(2, 4096, err, sizeof(err)) == 0);
	CHECK(kma_layout_check(1, 4096, err, sizeof(err)) != 0);
	CHECK(kma_layout_check(8, 1000, err, sizeof(err)) != 0);
	CHECK(kma_layout_check(1u << 24, 1u << 12, err, sizeof(err)) != 0);
	CHECK(kma_superblocks_for(1000, 4096) - kma_bookkeeping_sbs(kma_superblocks_for(1000, 4096), 4096) >= 1000);
	kma_host_destroy(h);
}

typedef struct churn_arg {
	kma_heap h;
	uint32_t id, rounds, failures, nulls;
} churn_arg;

/* Allocate a handful of blocks, stamp them, check the stamps survive, free them. */
static void *churn(void *p)
{
	churn_arg *a = p;
	uint32_t r, k, blocks[24];
	for (r = 0; r < a->rounds; r++) {
		uint32_t n = 1 + (r * 7 + a->id) % 24, b, got;
		if (r % 3 == 0) { /* a run, as a warp allocates */
			got = kma_malloc_run(a->h, 16, n, &b);
			for (k = 0; k < n; k++) {
				blocks[k] = k < got ? b : KMA_NULL;
				if (k < got && k + 1 < got)
					b = *kma_word(a->h, b);
			}
			a->nulls += n - got;
		}
		for (k = 0; k < n && r % 3; k++) {
			blocks[k] = kma_malloc(a->h, 16 + 16 * ((r + k) % 2));
			if (blocks[k] == KMA_NULL)
				a->nulls++;
		}
		for (k = 0; k < n; k++) {
			if (blocks[k] == KMA_NULL)
				continue;
			__atomic_store_n(kma_word(a->h, blocks[k] + 4), a->id * 100000 + r, __ATOMIC_RELAXED);
		}
		for (k = 0; k < n; k++) {
			if (blocks[k] == KMA_NULL)
				continue;
			if (__atomic_load_n(kma_word(a->h, blocks[k] + 4), __ATOMIC_RELAXED) != a->id * 100000 + r)
				a->failures++; /* someone else was handed the same block */
			kma_free(a->h, blocks[k]);
		}
	}
	return NULL;
}

TEST(kma_concurrent_malloc_free_many_threads)
{
	enum { THREADS = 24 };
	kma_heap h = kma_host_create(64, 512);
	pthread_t th[THREADS];
	churn_arg a[THREADS];
	kma_usage u;
	char err[256];
	uint32_t i, failures = 0;

	for (i = 0; i < THREADS; i++) {
		a[i].h = h;
		a[i].id = i + 1;
		a[i].rounds = 3000;
		a[i].failures = a[i].nulls = 0;
		REQUIRE(pthread_create(&th[i], NULL, churn, &a[i]) == 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		failures += a[i].failures;
	}
	CHECK_EQ(failures, 0u);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.live_blocks, 0u);
	kma_host_destroy(h);
}

TEST(kma_malloc_run_pops_runs_and_carves_across_superblocks)
{
	kma_heap h = kma_host_create(4, 256); /* 3 data superblocks of 16 blocks of 16 bytes */
	kma_usage u;
	char err[256];
	uint32_t first, b, k, got, seen = 0;

	got = kma_malloc_run(h, 16, 20, &first); /* one superblock and 4 of the next */
	CHECK_EQ(got, 20u);
	for (b = first, k = 0; k < got; k++) {
		CHECK(b % 16 == 0 && b / 256 >= 1 && b / 256 <= 2);
		seen |= 1u << ((b / 16) % 16) << (b / 256 == 2 ? 16 : 0);
		if (k + 1 < got)
			b = *kma_word(h, b);
	}
	CHECK_EQ(__builtin_popcount(seen), 20);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.live_blocks, 20u);
	CHECK_EQ(kma_malloc_run(h, 16, 40, &first), 28u); /* what is left */
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.failed_allocs, 12u);
	CHECK_EQ(u.live_blocks, 48u);
	CHECK_EQ(kma_malloc_run(h, 16, 3, &first), 0u);
	CHECK_EQ(kma_malloc_run(h, 512, 2, &first), 0u);
	REQUIRE(kma_check(h, &u, err, sizeof(err)) == 0);
	CHECK_EQ(u.failed_allocs, 17u);
	kma_host_destroy(h);
}
