// SPDX-License-Identifier: GPL-2.0
/* PAUSEs refreshed while the loop is stuck in netlink; see pfc_keeper.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_pause_tx.h"

#define KEEPER_MIN_PERIOD_NS 1000000ull
#define KEEPER_LINGER_NS 1000000000ull
/*
 * The agent locks its memory (pfc_rt.c: mlockall MCL_FUTURE), so a thread's
 * whole stack is resident from its creation: glibc's default of 8 MiB made
 * every agent 8 MiB larger (1.7 GiB for a k = 8 fat-tree lab). The keeper
 * sends frames and logs; 256 KiB is many times what it uses.
 */
#define KEEPER_STACK_BYTES (256u << 10)

/*
 * Priorities of a port the BPF side holds above XOFF: its XOFF PAUSE went
 * out from BPF, and the loop may not have read that event yet. Not those
 * whose ingress the watchdog drops: no PAUSE goes to a storming peer.
 */
static uint8_t bpf_xoff(struct pfc_agent *a, int port)
{
	uint8_t vec = 0;
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		if (((a->cfg->lossless_mask >> p) & 1) &&
		    __atomic_load_n(&pp_of(a, port, p)->xoff,
				    __ATOMIC_ACQUIRE) &&
		    !__atomic_load_n(&pp_of(a, port, p)->drop_in,
				     __ATOMIC_ACQUIRE))
			vec |= 1u << p;
	return vec;
}

/*
 * Under the mutex, the loop inside a netlink request for a while: the
 * PAUSEs the loop knows of when due, and those only the BPF side knows
 * of (sent from BPF during the request) every time. A refresh too many
 * is harmless; the loop's resume, if one is due, comes after the request.
 */
static void refresh_due(struct pfc_agent *a, uint64_t now)
{
	struct pfc_keeper *k = &a->keeper;
	int port, p;

	for (port = 0; port < a->cfg->nports; port++) {
		uint8_t vec = 0, fresh = bpf_xoff(a, port);

		for (p = 0; p < PFC_PRIOS; p++)
			vec |= a->sent[port][p] << p;
		fresh &= ~vec;
		if (!fresh && (!a->refresh_at[port] ||
			       a->refresh_at[port] > now + k->period_ns))
			continue;
		vec |= fresh;
		if (!vec || pfc_send_pause(a, port, vec, false))
			continue;
		a->refresh_at[port] = now + pfc_refresh_ns(a, port);
		if (!k->refreshes++)
			pr_warn("%s: the pause agent is blocked in a netlink "
				"request for %" PRIu64 " ms; its keeper "
				"refreshes the PAUSEs in force\n",
				a->cfg->node, (now - k->since) / 1000000);
		a->st->keeper_refreshes++;
	}
}

/* No PAUSE of ours for a while, and the loop is not stuck (it would not
 * have said so while stuck). */
static bool idle_for_long(struct pfc_keeper *k)
{
	return !__atomic_load_n(&k->since, __ATOMIC_ACQUIRE) &&
	       now_ns() - __atomic_load_n(&k->in_force_at, __ATOMIC_SEQ_CST) >
		       KEEPER_LINGER_NS;
}

static void *keeper_main(void *arg)
{
	struct pfc_agent *a = arg;
	struct pfc_keeper *k = &a->keeper;
	struct timespec ts;
	uint64_t since;

	pthread_mutex_lock(&k->mu);
	while (!k->stop) {
		if (!__atomic_load_n(&k->active, __ATOMIC_RELAXED)) {
			pthread_cond_wait(&k->cv, &k->mu);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += k->period_ns % 1000000000ull;
		ts.tv_sec +=
			k->period_ns / 1000000000ull + ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&k->cv, &k->mu, &ts);
		if (idle_for_long(k)) {
			/*
			 * The loop signals when a PAUSE comes. Both sides
			 * store, then load the other's (sequentially
			 * consistent): either the loop sees active false and
			 * signals (we hold the mutex until we wait), or we
			 * see its fresh in_force_at here.
			 */
			__atomic_store_n(&k->active, false, __ATOMIC_SEQ_CST);
			if (idle_for_long(k))
				continue;
			__atomic_store_n(&k->active, true, __ATOMIC_SEQ_CST);
		}
		since = __atomic_load_n(&k->since, __ATOMIC_ACQUIRE);
		if (!k->stop && since && now_ns() - since >= k->period_ns)
			refresh_due(a, now_ns());
	}
	pthread_mutex_unlock(&k->mu);
	return NULL;
}

int pfc_keeper_start(struct pfc_agent *a)
{
	struct pfc_keeper *k = &a->keeper;
	pthread_condattr_t ca;
	pthread_attr_t ta;
	uint64_t min = UINT64_MAX;
	int port, r;

	/* Fresh, also in a standby that took over (forked with a copy). */
	memset(k, 0, sizeof(*k));
	for (port = 0; port < a->cfg->nports; port++)
		if (pfc_refresh_ns(a, port) < min)
			min = pfc_refresh_ns(a, port);
	k->period_ns =
		min / 2 < KEEPER_MIN_PERIOD_NS ? KEEPER_MIN_PERIOD_NS : min / 2;
	pthread_mutex_init(&k->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&k->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (getenv("TAGGER_PFC_TEST_NETLINK_DELAY_MS"))
		k->test_delay_ns =
			strtoull(getenv("TAGGER_PFC_TEST_NETLINK_DELAY_MS"),
				 NULL, 10) *
			1000000ull;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, KEEPER_STACK_BYTES);
	r = pthread_create(&k->th, &ta, keeper_main, a);
	pthread_attr_destroy(&ta);
	if (r) {
		pr_warn("%s: no keeper thread (%s): PAUSEs go unrefreshed "
			"while the agent waits in netlink\n",
			a->cfg->node, strerror(r));
		return -r;
	}
	k->running = true;
	return 0;
}

void pfc_keeper_stop(struct pfc_agent *a)
{
	struct pfc_keeper *k = &a->keeper;

	if (!k->running)
		return;
	pthread_mutex_lock(&k->mu);
	k->stop = true;
	pthread_cond_signal(&k->cv);
	pthread_mutex_unlock(&k->mu);
	pthread_join(k->th, NULL);
	k->running = false;
}

/*
 * Only the start of a pause period signals the keeper: it stays awake
 * until no PAUSE of ours was in force for KEEPER_LINGER_NS, so that a
 * queue pausing hundreds of times a second costs no signal per pause.
 */
void pfc_keeper_update(struct pfc_agent *a)
{
	struct pfc_keeper *k = &a->keeper;
	bool in_force = false;
	int port;

	for (port = 0; port < a->cfg->nports && !in_force; port++)
		in_force = a->refresh_at[port] != 0 || bpf_xoff(a, port);
	if (!k->running || !in_force)
		return;
	__atomic_store_n(&k->in_force_at, now_ns(), __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&k->active, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&k->mu);
	k->active = true;
	pthread_cond_signal(&k->cv);
	pthread_mutex_unlock(&k->mu);
}

void pfc_nl_enter(struct pfc_agent *a, bool stats)
{
	struct pfc_keeper *k = &a->keeper;

	/*
	 * The loop's update of the state pauses here, so that `show` reads
	 * it (what the last tick left) while the kernel keeps the loop.
	 */
	pfc_state_end(a->st);
	pfc_keeper_update(a); /* a PAUSE may have come into force this pass */
	k->refreshes = 0;
	__atomic_store_n(&k->since, now_ns(), __ATOMIC_RELEASE);
	/* Waiting on the kernel, not hung (pfc_standby.h) */
	__atomic_store_n(&a->st->nl_since, k->since, __ATOMIC_RELEASE);
	if (stats && k->test_delay_ns) {
		struct timespec ts = { k->test_delay_ns / 1000000000ull,
				       k->test_delay_ns % 1000000000ull };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

void pfc_nl_exit(struct pfc_agent *a, const char *what)
{
	struct pfc_keeper *k = &a->keeper;
	uint64_t took, refreshed;

	if (k->running)
		pthread_mutex_lock(&k->mu);
	took = now_ns() - k->since;
	__atomic_store_n(&k->since, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&a->st->nl_since, 0, __ATOMIC_RELEASE);
	/* A request done is progress: a pass of many is no stall. */
	__atomic_store_n(&a->st->beat, now_ns(), __ATOMIC_RELEASE);
	refreshed = k->refreshes;
	if (k->running)
		pthread_mutex_unlock(&k->mu);
	pfc_state_begin(a->st);
	if (took < PFC_NL_SLOW_NS)
		return;
	a->st->nl_slow++;
	if (took > a->st->nl_max_ns)
		a->st->nl_max_ns = took;
	if (took >= PFC_NL_LOG_NS)
		pr_warn("%s: netlink request (%s) took %.1f s: the kernel's "
			"rtnl lock was held by another process (a namespace "
			"being deleted?); %" PRIu64
			" PAUSE refresh(es) sent meanwhile by the keeper\n",
			a->cfg->node, what, took / 1e9, refreshed);
}
