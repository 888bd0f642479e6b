#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The DCB requests in an nlmon capture (tcpdump -i nlmon0 -w FILE), for
tests/shell/dcb_vm_guest.sh: each request decoded into its header, dcbmsg
and attribute tree (nests opened, the rest in hex), sequence number and
port id left out; requests grouped by step: the guest sends a GET of
device "mk.LABEL" before each.

  dcb_nlmon.py compare FILE LABEL...

LABEL names the steps expected. A pair "dcb-X" and "our-X" must be
equal request for request: prints "SAME X N" (N requests) or "DIFF X"
with both. Other labels are checked against the kernel's uapi layout:
  our-rewr      GET, then SET of DCB_ATTR_DCB_REWR_TABLE (12) { APP
                {selector 5 (DSCP), priority 3, protocol 26} }
  our-rewr-old  GET only: the library sends no SET a 6.1 kernel would
                ignore
  our-restore   GET, SET app {DSCP 26 -> 3}, DEL app {DSCP 26 -> 0},
                SET PFC (pfc_en 0x08, delay 4096), in that order
  our-show      GET only
and print "UAPI LABEL" when they hold, "BAD LABEL: why" when not.
"""
import json
import struct
import sys

RTM_GETDCB, RTM_SETDCB = 78, 79
IEEE_SET, IEEE_GET, IEEE_DEL = 20, 21, 27  # enum dcbnl_commands
NLA_F_NESTED = 0x8000
NESTS = {(): {13}, (13,): {3, 12}}  # DCB_ATTR_IEEE; its app and rewr tables


def pcap_packets(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic = data[:4]
    e = '<' if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(e + 'I', data[off + 8:off + 12])[0]
        off += 16
        yield data[off:off + incl]
        off += incl


def netlink(pkt):
    """The netlink message after nlmon's cooked header (16 or 20 bytes)."""
    for hl in (16, 20, 0):
        m = pkt[hl:]
        if len(m) >= 16 and struct.unpack('<I', m[:4])[0] == len(m):
            return m
    return None


def attrs(b, path=()):
    out, off = [], 0
    while off + 4 <= len(b):
        ln, typ = struct.unpack('<HH', b[off:off + 4])
        if ln < 4 or off + ln > len(b):
            out.append(['TRUNCATED', b[off:].hex()])
            break
        body = b[off + 4:off + ln]
        t = typ & ~NLA_F_NESTED
        if t in NESTS.get(path, ()):
            out.append([typ, attrs(body, path + (t,))])
        else:
            out.append([typ, body.hex()])
        off += (ln + 3) & ~3
    return out


def requests(path):
    """Every DCB request, decoded, in order."""
    out = []
    for pkt in pcap_packets(path):
        m = netlink(pkt)
        if m is None:
            continue
        ln, typ, flags = struct.unpack('<IHH', m[:8])
        if typ not in (RTM_GETDCB, RTM_SETDCB) or not flags & 1:
            continue
        fam, cmd = m[16], m[17]
        out.append({'type': typ, 'flags': flags, 'family': fam,
                    'cmd': cmd, 'attrs': attrs(m[20:ln])})
    return out


def ifname(req):
    for t, v in req['attrs']:
        if t == 1:
            return bytes.fromhex(v).rstrip(b'\0').decode(errors='replace')
    return None


def groups(reqs):
    """{label: requests} between the markers: a GET of device "mk.LABEL"
    sent before each step (requests carry no sender: their port id is 0,
    and nlmon does not record the socket's)."""
    g, cur = {}, None
    for r in reqs:
        name = ifname(r) or ''
        if name.startswith('mk.'):
            cur = name[3:]
            g[cur] = []
        elif cur is not None:
            g[cur].append(r)
    return g


def app(sel, prio, proto):
    return [1, struct.pack('<BBH', sel, prio, proto).hex()]


def ieee(req):
    """The DCB_ATTR_IEEE nest of a request, or None."""
    for t, v in req['attrs']:
        if t & ~NLA_F_NESTED == 13:
            return v
    return None


def is_get(r):
    return r['type'] == RTM_GETDCB and r['cmd'] == IEEE_GET and ieee(r) is None


def table_set(r, cmd, table, entries):
    return (r['type'] == RTM_SETDCB and r['cmd'] == cmd and
            ieee(r) == [[table | NLA_F_NESTED, entries]])


def pfc_set(r, en, delay):
    v = ieee(r)
    if r['type'] != RTM_SETDCB or r['cmd'] != IEEE_SET or not v or len(v) != 1:
        return False
    t, h = v[0]
    b = bytes.fromhex(h)
    return t == 2 and len(b) == 136 and b[1] == en and \
        struct.unpack('<H', b[4:6])[0] == delay


def uapi(label, g):
    """Why g is not what the uapi says label sends, or None."""
    if not g or not is_get(g[0]):
        return 'does not start with an IEEE GET'
    if label == 'our-rewr':
        if len(g) != 2 or not table_set(g[1], IEEE_SET, 12, [app(5, 3, 26)]):
            return 'no SET of table 12 with {5, 3, 26}: %s' % json.dumps(g)
    elif label == 'our-restore':
        want = len(g) == 4 and \
            table_set(g[1], IEEE_SET, 3, [app(5, 3, 26)]) and \
            table_set(g[2], IEEE_DEL, 3, [app(5, 0, 26)]) and \
            pfc_set(g[3], 0x08, 4096)
        if not want:
            return 'not GET, SET app, DEL app, SET PFC: %s' % json.dumps(g)
    elif len(g) != 1:
        return 'more than the GET: %s' % json.dumps(g)
    return None


def compare(path, labels):
    by = groups(requests(path))
    by.pop('end', None)  # the marker the capture was stopped at
    if sorted(by) != sorted(labels):
        print('BAD capture: steps %s, expected %s' %
              (' '.join(by), ' '.join(labels)))
        return 1
    rc = 0
    for label in labels:
        if label.startswith('dcb-'):
            name = label[4:]
            ours = by.get('our-' + name)
            if ours == by[label]:
                print('SAME %s %d' % (name, len(ours)))
            else:
                rc = 1
                print('DIFF %s' % name)
                print('  dcb: ' + json.dumps(by[label]))
                print('  our: ' + json.dumps(ours))
        elif 'dcb-' + label[4:] not in by:
            why = uapi(label, by[label])
            print('BAD %s: %s' % (label, why) if why else 'UAPI ' + label)
            rc |= why is not None
    return rc


def main():
    if len(sys.argv) < 4 or sys.argv[1] != 'compare':
        print(__doc__, file=sys.stderr)
        return 2
    return compare(sys.argv[2], sys.argv[3:])


if __name__ == '__main__':
    sys.exit(main())
