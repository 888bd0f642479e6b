/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets for the BPF_PROG_TEST_RUN suites, and a harness around the port
 * and host programs: load them unpinned, give them rule tables, run one
 * packet through a program and read what came out.
 */
#ifndef __TAGGER_TESTS_DP_PKT_H
#define __TAGGER_TESTS_DP_PKT_H

#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>

struct pkt {
	uint8_t b[256];
	int len;
	int l3; /* offset of the IP header */
};

enum { PKT_V4, PKT_V6, PKT_ARP, PKT_PFC };

/* The traffic class byte of a DSCP and an ECN codepoint. */
#define TOS(dscp, ecn) ((uint8_t)((dscp) << 2 | (ecn)))

static inline uint16_t ip_csum(const uint8_t *h, int len)
{
	uint32_t s = 0;
	int i;

	for (i = 0; i < len; i += 2)
		s += (h[i] << 8) | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* An IPv4 header with options verifies when its sum folds to 0xffff. */
static inline int ip_csum_ok(const struct pkt *p)
{
	int ihl = (p->b[p->l3] & 15) * 4;

	return ip_csum(p->b + p->l3, ihl) == 0;
}

/*
 * kind PKT_V4/PKT_V6 with traffic class tos, an 802.1Q tag when vlan,
 * opt_words 32-bit words of IPv4 options; a UDP header to dport follows.
 */
static inline void pkt_build(struct pkt *p, int kind, int vlan, uint8_t tos,
			     int opt_words, uint16_t dport)
{
	uint8_t *b = p->b;
	int o = 12, ihl, plen = 8 + 16;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	if (vlan) {
		b[o] = 0x81;
		b[o + 1] = 0x00;
		b[o + 2] = 0x20;
		b[o + 3] = 0x05;
		o += 4;
	}
	if (kind == PKT_ARP) {
		b[o] = 0x08;
		b[o + 1] = 0x06;
		p->len = o + 2 + 28;
		return;
	}
	if (kind == PKT_PFC) {
		memcpy(b, "\x01\x80\xc2\x00\x00\x01", 6);
		b[o] = 0x88;
		b[o + 1] = 0x08;
		b[o + 2] = 0x01;
		b[o + 3] = 0x01;
		b[o + 5] = 0x08; /* class-enable vector: priority 3 */
		b[o + 10] = 0xff;
		b[o + 11] = 0xff;
		p->len = 60;
		return;
	}
	p->l3 = o + 2;
	if (kind == PKT_V4) {
		uint8_t *ip = b + p->l3;

		b[o] = 0x08;
		b[o + 1] = 0x00;
		ihl = 5 + opt_words;
		ip[0] = 0x40 | ihl;
		ip[1] = tos;
		ip[2] = (ihl * 4 + plen) >> 8;
		ip[3] = (ihl * 4 + plen) & 255;
		ip[8] = 64;
		ip[9] = 17;
		memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		for (int k = 0; k < opt_words * 4; k++)
			ip[20 + k] =
				k == opt_words * 4 - 1 ? 0 : 1; /* NOPs, EOL */
		ip[10] = ip_csum(ip, ihl * 4) >> 8;
		ip[11] = ip_csum(ip, ihl * 4) & 255;
		o = p->l3 + ihl * 4;
	} else {
		uint8_t *ip = b + p->l3;

		b[o] = 0x86;
		b[o + 1] = 0xdd;
		ip[0] = 0x60 | (tos >> 4);
		ip[1] = (tos << 4) | 0x0a; /* flow label 0xabcde */
		ip[2] = 0xbc;
		ip[3] = 0xde;
		ip[5] = plen;
		ip[6] = 17;
		ip[7] = 64;
		ip[8] = 0xfd;
		ip[23] = 1;
		ip[24] = 0xfd;
		ip[39] = 2;
		o = p->l3 + 40;
	}
	b[o] = 0x30;
	b[o + 1] = 0x39;
	b[o + 2] = dport >> 8;
	b[o + 3] = dport & 255;
	b[o + 5] = plen;
	p->len = o + plen;
}

/* The BTH of a pkt_build() packet: the first bytes of its 16-byte payload. */
#define BTH(p) ((p)->b + (p)->len - 16)

/* A RoCEv2 datagram to 4791 with BTH opcode op (0x81: a CNP). */
static inline void pkt_roce(struct pkt *p, int kind, uint8_t tos, uint8_t op)
{
	pkt_build(p, kind, 0, tos, 0, 4791);
	BTH(p)[0] = op;
}

/* A PFC frame whose class-enable vector is vector, every quanta 0. */
static inline void pkt_pfc(struct pkt *p, uint8_t vector)
{
	pkt_build(p, PKT_PFC, 0, 0, 0, 0);
	memset(p->b + 16, 0, 18);
	p->b[17] = vector;
}

/* Insert len bytes at off (headers go in front of what is there). */
static inline uint8_t *pkt_insert(struct pkt *p, int off, int len)
{
	memmove(p->b + off + len, p->b + off, p->len - off);
	memset(p->b + off, 0, len);
	p->len += len;
	if (p->l3 >= off)
		p->l3 += len;
	return p->b + off;
}

/* Push a VLAN tag with TPID tpid in front of the ones there (QinQ). */
static inline void pkt_push_vlan(struct pkt *p, uint16_t tpid)
{
	uint8_t *t = pkt_insert(p, 12, 4);

	t[0] = tpid >> 8;
	t[1] = tpid & 255;
	t[2] = 0x30;
	t[3] = 0x07;
}

/* IPv4: set MF and the fragment offset (8-byte units); DF is kept. */
static inline void pkt_frag4(struct pkt *p, int mf, uint16_t off)
{
	uint8_t *ip = p->b + p->l3;
	int ihl = (ip[0] & 15) * 4;
	uint16_t v = (ip[6] & 0x40) << 8 | (mf ? 0x2000 : 0) | (off & 0x1fff);

	ip[6] = v >> 8;
	ip[7] = v & 255;
	ip[10] = ip[11] = 0;
	ip[10] = ip_csum(ip, ihl) >> 8;
	ip[11] = ip_csum(ip, ihl) & 255;
}

/*
 * IPv6: an 8-byte extension header of type nh (0 hop-by-hop, 43 routing,
 * 60 destination options, 44 fragment with offset off and M flag mf)
 * right after the fixed header, in front of the ones there.
 */
static inline void pkt_ext6(struct pkt *p, uint8_t nh, int mf, uint16_t off)
{
	uint8_t *ip = p->b + p->l3, *e;
	uint16_t plen = (ip[4] << 8 | ip[5]) + 8, v = (off << 3) | (mf ? 1 : 0);

	e = pkt_insert(p, p->l3 + 40, 8);
	e[0] = ip[6];
	ip[6] = nh;
	ip[4] = plen >> 8;
	ip[5] = plen & 255;
	if (nh == 44) {
		e[2] = v >> 8;
		e[3] = v & 255;
		e[7] = 0x2a; /* identification */
	} else if (nh == 0 || nh == 60) {
		e[2] = 1;
		e[3] = 4; /* PadN over the 6 option bytes */
	}
}

/*
 * Group-addressed destinations: the Ethernet destination mac (6 bytes),
 * then an IPv4 one (4 bytes, checksum redone) or IPv6 one (16 bytes).
 */
static inline void pkt_dmac(struct pkt *p, const char *mac)
{
	memcpy(p->b, mac, 6);
}

static inline void pkt_dst4(struct pkt *p, const char *addr)
{
	uint8_t *ip = p->b + p->l3;
	int ihl = (ip[0] & 15) * 4;

	memcpy(ip + 16, addr, 4);
	ip[10] = ip[11] = 0;
	ip[10] = ip_csum(ip, ihl) >> 8;
	ip[11] = ip_csum(ip, ihl) & 255;
}

static inline void pkt_dst6(struct pkt *p, const char *addr)
{
	memcpy(p->b + p->l3 + 24, addr, 16);
}

static inline uint8_t pkt_tos(const struct pkt *p)
{
	const uint8_t *ip = p->b + p->l3;

	if ((ip[0] >> 4) == 4)
		return ip[1];
	return (ip[0] << 4) | (ip[1] >> 4);
}

#endif /* __TAGGER_TESTS_DP_PKT_H */
