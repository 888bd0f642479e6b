// SPDX-License-Identifier: GPL-2.0
/* Scheduling and CPU latency for the pause agent; see pfc_rt.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/log.h"
#include "pfc/pfc_rt.h"

#define PM_QOS_DEV "/dev/cpu_dma_latency"

static int rt_sched(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		pr_info("SCHED_FIFO %d: %s; running unprioritised\n", prio,
			strerror(errno));
		return 0;
	}
	/* A page fault in the loop would cost more than the wake-up. */
	mlockall(MCL_CURRENT | MCL_FUTURE);
	return prio;
}

/*
 * The kernel keeps a PM QoS request for as long as the file stays open
 * and takes the lowest of all requests (another agent's, tuned's), so
 * several agents on one machine do not fight over it.
 */
static int qos_open(int us)
{
	int32_t v = us;
	int fd;

	fd = open(PM_QOS_DEV, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_info("%s: %s; CPU latency not limited\n", PM_QOS_DEV,
			strerror(errno));
		return -1;
	}
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		pr_info("%s: %s; CPU latency not limited\n", PM_QOS_DEV,
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void pfc_rt_enter(struct pfc_rt *rt, int rt_prio, int cpu_latency_us)
{
	rt->rt_prio = rt_prio ? rt_sched(rt_prio) : 0;
	rt->qos_fd = -1;
	rt->cpu_latency_us = PFC_CPU_LATENCY_NONE;
	if (cpu_latency_us == PFC_CPU_LATENCY_NONE)
		return;
	rt->qos_fd = qos_open(cpu_latency_us);
	if (rt->qos_fd >= 0)
		rt->cpu_latency_us = cpu_latency_us;
}

void pfc_rt_leave(struct pfc_rt *rt)
{
	if (rt->qos_fd >= 0)
		close(rt->qos_fd);
	rt->qos_fd = -1;
	rt->cpu_latency_us = PFC_CPU_LATENCY_NONE;
}
