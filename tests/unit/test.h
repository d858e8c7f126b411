/*
 * A tiny assertion framework for gpubench's unit tests.
 *
 *   TEST(name) { CHECK_EQ(f(2), 4); ... }
 *
 * Tests register themselves (a constructor per TEST), main.c runs them in
 * registration order. A failed CHECK prints one line and marks the test case
 * failed but lets it go on; REQUIRE also returns from the test case. The
 * runner ends with "unit: N passed, N failed" (test cases) and exits 1 when
 * any failed.
 */
#ifndef GB_TEST_H
#define GB_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void (*tu_fn)(void);

void tu_register(const char *name, const char *file, tu_fn fn);
__attribute__((format(printf, 3, 4)))
void tu_fail(const char *file, int line, const char *fmt, ...);

/*
 * Run fn(arg) in a forked child with its stderr captured into err (NUL
 * terminated). Returns the child's exit status, 128 + signal when it was
 * killed, or -1 when it could not be started. If fn returns, the child exits 0.
 */
int tu_run_child(void (*fn)(void *), void *arg, char *err, size_t errlen);

/* Silence stderr around calls that print expected warnings. */
void tu_stderr_off(void);
void tu_stderr_on(void);

/* A fresh temporary directory (mkdtemp) under $TMPDIR or /tmp; removed at exit. */
const char *tu_tmpdir(void);

#define TEST(name)                                                                 \
	static void test_##name(void);                                             \
	__attribute__((constructor)) static void tu_reg_##name(void)              \
	{                                                                          \
		tu_register(#name, __FILE__, test_##name);                         \
	}                                                                          \
	static void test_##name(void)

#define CHECK(c)                                                                   \
	do {                                                                       \
		if (!(c))                                                          \
			tu_fail(__FILE__, __LINE__, "CHECK(%s)", #c);              \
	} while (0)

#define REQUIRE(c)                                                                 \
	do {                                                                       \
		if (!(c)) {                                                        \
			tu_fail(__FILE__, __LINE__, "REQUIRE(%s)", #c);            \
			return;                                                    \
		}                                                                  \
	} while (0)

/* Unsigned integer equality (values up to 64 bits). */
#define CHECK_EQ(a, b)                                                             \
	do {                                                                       \
		unsigned long long tu_a = (unsigned long long)(a);                 \
		unsigned long long tu_b = (unsigned long long)(b);                 \
		if (tu_a != tu_b)                                                  \
			tu_fail(__FILE__, __LINE__,                                \
				"CHECK_EQ(%s, %s): %llu (0x%llx) != %llu (0x%llx)", #a, #b, \
				tu_a, tu_a, tu_b, tu_b);                            \
	} while (0)

/* Signed integer equality. */
#define CHECK_EQ_I(a, b)                                                           \
	do {                                                                       \
		long long tu_a = (long long)(a), tu_b = (long long)(b);            \
		if (tu_a != tu_b)                                                  \
			tu_fail(__FILE__, __LINE__, "CHECK_EQ_I(%s, %s): %lld != %lld", \
				#a, #b, tu_a, tu_b);                                \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                      \
	do {                                                                       \
		double tu_a = (double)(a), tu_b = (double)(b), tu_e = (double)(eps); \
		if (!(tu_a - tu_b <= tu_e && tu_b - tu_a <= tu_e))                 \
			tu_fail(__FILE__, __LINE__,                                \
				"CHECK_NEAR(%s, %s, %s): %.17g vs %.17g", #a, #b, #eps, \
				tu_a, tu_b);                                        \
	} while (0)

#define CHECK_STR_EQ(a, b)                                                         \
	do {                                                                       \
		const char *tu_a = (a), *tu_b = (b);                               \
		if (!tu_a || !tu_b || strcmp(tu_a, tu_b) != 0)                     \
			tu_fail(__FILE__, __LINE__, "CHECK_STR_EQ(%s, %s): \"%s\" != \"%s\"", \
				#a, #b, tu_a ? tu_a : "(null)", tu_b ? tu_b : "(null)"); \
	} while (0)

#define CHECK_CONTAINS(hay, needle)                                                \
	do {                                                                       \
		const char *tu_h = (hay), *tu_n = (needle);                        \
		if (!tu_h || !strstr(tu_h, tu_n))                                  \
			tu_fail(__FILE__, __LINE__, "CHECK_CONTAINS(%s, \"%s\"): got \"%s\"", \
				#hay, tu_n, tu_h ? tu_h : "(null)");                \
	} while (0)

#endif
