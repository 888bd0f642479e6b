/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IEEE 802.1Qbb priority flow control frames: build, parse, send, and the
 * quanta <-> time conversion (one quantum = 512 bit times at the link rate).
 *
 * API:
 *   pfc_frame_build(buf, src, vector, quanta)  60-byte frame, returns 60
 *   pfc_frame_parse(buf, len, &vector, quanta) 0, or -1 if not a PFC frame
 *   pfc_quanta_ns(q, rate)                     pause time of q quanta
 *   pfc_ns_quanta(ns, rate)                    quanta covering ns (<= 65535)
 *   pfc_sock_open(ifindex, bypass, prio)       AF_PACKET socket to send on
 *   pfc_sock_join(fd, ifindex)                 the port accepts PFC frames
 *   pfc_send(fd, ifindex, src, vector, quanta) one frame
 *   pfc_if_mac(ifindex, mac)                   the port's own address
 */
#ifndef __TAGGER_PFC_FRAME_H
#define __TAGGER_PFC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PFC_FRAME_LEN 60 /* minimum Ethernet frame without FCS */
#define PFC_WIRE_BYTES 64 /* with FCS: s_PFC of the headroom formula */
#define PFC_QUANTUM_BITS 512
#define PFC_QUANTA_MAX 0xffff

extern const uint8_t pfc_dst_mac[6];

int pfc_frame_build(uint8_t *buf, const uint8_t src[6], uint8_t vector,
		    const uint16_t quanta[8]);
int pfc_frame_parse(const uint8_t *buf, size_t len, uint8_t *vector,
		    uint16_t quanta[8]);
uint64_t pfc_quanta_ns(unsigned int quanta, uint64_t rate_bps);
unsigned int pfc_ns_quanta(uint64_t ns, uint64_t rate_bps);

int pfc_sock_open(int ifindex, int bypass, uint32_t priority);
int pfc_sock_join(int fd, int ifindex);
int pfc_send(int fd, int ifindex, const uint8_t src[6], uint8_t vector,
	     const uint16_t quanta[8]);
int pfc_if_mac(int ifindex, uint8_t mac[6]);

#endif /* __TAGGER_PFC_FRAME_H */
