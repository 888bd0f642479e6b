// SPDX-License-Identifier: GPL-2.0
/* IEEE 802.1Qbb PFC frames; see pfc_frame.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pfc/pfc_frame.h"
#include "tagger_skb.h"

const uint8_t pfc_dst_mac[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

/*
 * Layout after the 14-byte Ethernet header: opcode 0x0101, a 16-bit
 * class-enable vector (high octet reserved, zero), eight 16-bit quanta
 * (time[0..7]), all big-endian, then zero padding to the minimum frame.
 */
int pfc_frame_build(uint8_t *buf, const uint8_t src[6], uint8_t vector,
		    const uint16_t quanta[8])
{
	uint8_t *p = buf + 14;
	int i;

	memset(buf, 0, PFC_FRAME_LEN);
	memcpy(buf, pfc_dst_mac, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = ETH_P_PFC >> 8;
	buf[13] = ETH_P_PFC & 0xff;
	p[0] = PFC_OPCODE >> 8;
	p[1] = PFC_OPCODE & 0xff;
	p[2] = 0;
	p[3] = vector;
	for (i = 0; i < 8; i++) {
		/* A disabled class's time field is zero on the wire. */
		uint16_t q = (vector >> i) & 1 ? quanta[i] : 0;

		p[4 + 2 * i] = q >> 8;
		p[5 + 2 * i] = q & 0xff;
	}
	return PFC_FRAME_LEN;
}

int pfc_frame_parse(const uint8_t *buf, size_t len, uint8_t *vector,
		    uint16_t quanta[8])
{
	const uint8_t *p = buf + 14;
	int i;

	if (len < 14 + 20)
		return -1;
	if (memcmp(buf, pfc_dst_mac, 6))
		return -1;
	if (((buf[12] << 8) | buf[13]) != ETH_P_PFC)
		return -1;
	if (((p[0] << 8) | p[1]) != PFC_OPCODE)
		return -1;
	*vector = p[3];
	for (i = 0; i < 8; i++)
		quanta[i] = (p[4 + 2 * i] << 8) | p[5 + 2 * i];
	return 0;
}

uint64_t pfc_quanta_ns(unsigned int quanta, uint64_t rate_bps)
{
	if (!rate_bps)
		return 0;
	/* quanta * 512 bits / rate, in ns; fits in 64 bits for any rate. */
	return ((uint64_t)quanta * PFC_QUANTUM_BITS * 1000000000ull + rate_bps -
		1) /
	       rate_bps;
}

unsigned int pfc_ns_quanta(uint64_t ns, uint64_t rate_bps)
{
	/* Round up: a pause must last at least ns. */
	unsigned __int128 bits = (unsigned __int128)ns * rate_bps;
	unsigned __int128 q = (bits + PFC_QUANTUM_BITS * 1000000000ull - 1) /
			      (PFC_QUANTUM_BITS * 1000000000ull);

	return q > PFC_QUANTA_MAX ? PFC_QUANTA_MAX : (unsigned int)q;
}

int pfc_sock_open(int ifindex, int bypass, uint32_t priority)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_protocol = 0, /* send only: receive nothing */
	};
	int one = 1, fd;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/*
	 * PAUSE frames must overtake the queue they pause (t_snd of the
	 * headroom formula), so they bypass the qdisc.
	 */
	if ((bypass && setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
				  sizeof(one)) < 0) ||
	    (priority && setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &priority,
				    sizeof(priority)) < 0) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/*
 * PFC frames go to 01:80:c2:00:00:01, a multicast address. A NIC without
 * DCB (whose MAC would consume them) filters multicast it was not asked
 * for: virtio-net in QEMU drops them before the guest sees them, so the
 * port's ingress program never learns of a PAUSE (veth filters nothing).
 * The membership holds while fd is open, i.e. while the agent runs.
 */
int pfc_sock_join(int fd, int ifindex)
{
	struct packet_mreq mr = {
		.mr_ifindex = ifindex,
		.mr_type = PACKET_MR_MULTICAST,
		.mr_alen = 6,
	};

	memcpy(mr.mr_address, pfc_dst_mac, 6);
	if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) <
	    0)
		return -errno;
	return 0;
}

int pfc_send(int fd, int ifindex, const uint8_t src[6], uint8_t vector,
	     const uint16_t quanta[8])
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_halen = 6,
	};
	uint8_t buf[PFC_FRAME_LEN];

	memcpy(sll.sll_addr, pfc_dst_mac, 6);
	pfc_frame_build(buf, src, vector, quanta);
	if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&sll,
		   sizeof(sll)) != sizeof(buf))
		return -errno;
	return 0;
}

int pfc_if_mac(int ifindex, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int fd, r = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		r = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return r;
}
