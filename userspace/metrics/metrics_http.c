// SPDX-License-Identifier: GPL-2.0
/* The address metrics serve listens on; see metrics_http.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#include "metrics/metrics_http.h"
#include "lib/util.h"

int metrics_http_addr(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 1];
	const char *port = NULL, *end;
	unsigned long v = METRICS_HTTP_PORT;
	size_t n;

	if (s[0] == '[') {
		end = strchr(s, ']');
		if (!end || (end[1] && end[1] != ':'))
			return -EINVAL;
		n = end - s - 1;
		port = end[1] ? end + 2 : NULL;
		s++;
	} else {
		end = strchr(s, ':');
		if (end && strchr(end + 1, ':'))
			return -EINVAL; /* IPv6 needs its brackets */
		n = end ? (size_t)(end - s) : strlen(s);
		port = end ? end + 1 : NULL;
	}
	if (!n || n >= sizeof(host) || (port && !parse_uint(port, 65535, &v)))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(v);
		*len = sizeof(*in);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(v);
		*len = sizeof(*in6);
	} else {
		return -EINVAL;
	}
	return 0;
}

static void addr_str(const struct sockaddr_storage *ss, char *out, size_t n)
{
	const struct sockaddr_in *in = (const void *)ss;
	const struct sockaddr_in6 *in6 = (const void *)ss;
	char host[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, n, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, n, "%s:%u", host, ntohs(in->sin_port));
	}
}

int metrics_http_listen(const struct sockaddr_storage *ss, socklen_t len,
			char *bound, size_t n)
{
	struct sockaddr_storage got;
	socklen_t glen = sizeof(got);
	int fd, one = 1, err;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	/* A restarted server must not wait for the old one's TIME_WAITs. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* A burst of connections waits in the backlog, not in SYN retries. */
	if (bind(fd, (const struct sockaddr *)ss, len) ||
	    listen(fd, SOMAXCONN) ||
	    getsockname(fd, (struct sockaddr *)&got, &glen)) {
		err = -errno;
		close(fd);
		return err;
	}
	addr_str(&got, bound, n);
	return fd;
}
