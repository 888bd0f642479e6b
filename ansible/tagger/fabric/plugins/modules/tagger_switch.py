# SPDX-License-Identifier: GPL-2.0
# A switch's Tagger rules through "tagger -j switch show/update/attach/detach"
# on the target host.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: tagger_switch
short_description: Run a switch's Tagger rules (tagger switch attach, update, detach)
description:
  - Makes the switch run the rules of a file (attach if nothing is attached,
    else C(tagger switch update), which refuses rules whose union with the
    attached ones has a cyclic buffer dependency), or detaches it.
  - Idempotent by digest, the SHA-256 of the packed rules
    (C(tagger -j switch show) prints the attached ones' as C(rules_digest));
    the switch is changed only when the digests differ.
  - Runs tagger on the target host; with I(netns), inside that network
    namespace of it (C(nsenter --net=/run/netns/NETNS), root).
  - A refusal of tagger fails the task with tagger's own message.
version_added: "1.0.0"
options:
  switch:
    description: The switch's name in the rules (C(tagger_switch) in the inventory).
    type: str
    required: true
  rules:
    description:
      - The rules file on the target host, JSON or packed (C(tagger switch pack)).
      - Required with I(state=present).
    type: path
  state:
    description: C(present) runs I(rules); C(absent) detaches the switch.
    type: str
    choices: [present, absent]
    default: present
  netns:
    description: Network namespace of the switch on the target host (labs).
    type: str
  bpf_root:
    description: The switch's C(--bpf-root).
    type: path
  tagger_path:
    description: The tagger binary on the target host.
    type: str
    default: tagger
  backup_dir:
    description:
      - Before changing the switch, write the rules it runs, packed, to
        I(backup_dir)/HEX.trb (HEX the digest; C(tagger -j switch show --packed)),
        the file a rollback gives back as I(rules). Returned as C(backup),
        also when the change fails. Not in check mode.
    type: path
  timeout:
    description: Seconds each tagger command may take.
    type: int
    default: 60
author: Tagger Developers
notes:
  - Check mode reports what would change without changing anything; C(--diff)
    shows the digests and generations before and after. It compares digests
    only; whether tagger would accept the rules (the union check, the ports)
    shows when they are applied.
'''

EXAMPLES = r'''
- name: every switch of the batch to v2
  tagger.fabric.tagger_switch:
    switch: "{{ tagger_switch | default(inventory_hostname) }}"
    rules: /etc/tagger/v2.json
    backup_dir: /var/lib/tagger/rollback
'''

RETURN = r'''
digest:
  description: The digest of the rules attached after the task (null when detached).
  type: str
  returned: always
  sample: "sha256:2a713cc268eb125fe7a715e21e9cd2beeb12b4512934bec320ddf22af386ba61"
generation:
  description: The generation of the attached rules after the task (null when detached).
  type: int
  returned: always
before_digest:
  description: The digest before the task (null when nothing was attached).
  type: str
  returned: always
before_generation:
  description: The generation before the task.
  type: int
  returned: always
backup:
  description: The packed rules the switch ran before (with I(backup_dir), when attached).
  type: str
  returned: when backup_dir is given and the switch was attached
'''

import base64
import hashlib
import json
import os
import tempfile

from ansible.module_utils.basic import AnsibleModule

PACKED_MAGIC = b'tagger-b'


class TaggerError(Exception):
    pass


def tagger(module, args, check_rc=True):
    """Run tagger -j ARGS (in the namespace); return (rc, document)."""
    p = module.params
    argv = []
    if p['netns']:
        argv += ['nsenter', '--net=/run/netns/' + p['netns']]
    argv += ['timeout', str(p['timeout']), p['tagger_path'], '-j'] + args
    if p['bpf_root']:
        argv += ['--bpf-root', p['bpf_root']]
    rc, out, err = module.run_command(argv)
    doc = None
    try:
        doc = json.loads(out) if out.strip() else None
    except ValueError:
        pass
    if rc != 0 and check_rc:
        raise TaggerError(error_of(rc, doc, err, argv))
    return rc, doc, err


def error_of(rc, doc, err, argv):
    if isinstance(doc, dict) and doc.get('error'):
        return doc['error']
    msg = err.strip() or 'exit %d' % rc
    if rc == 124:
        msg = 'timed out: ' + msg
    return '%s: %s' % (' '.join(argv), msg)


def show(module, packed=False):
    """The switch's state, or None when it is not attached."""
    args = ['switch', 'show', module.params['switch']]
    if packed:
        args.append('--packed')
    rc, doc, err = tagger(module, args, check_rc=False)
    if rc == 0 and isinstance(doc, dict):
        return doc
    msg = error_of(rc, doc, err, args)
    if rc == 2 and ' is not attached (' in msg:
        return None
    raise TaggerError(msg)


def rules_digest(module, path):
    """The digest tagger gives these rules when attached: SHA-256 of the packed form."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except (IOError, OSError) as e:
        raise TaggerError('%s: cannot open: %s' % (path, e.strerror))
    if data[:len(PACKED_MAGIC)] != PACKED_MAGIC:
        fd, tmp = tempfile.mkstemp(prefix='tagger-pack.', suffix='.trb', dir=module.tmpdir)
        os.close(fd)
        try:
            # No namespace and no bpf root: packing touches no switch.
            rc, out, err = module.run_command([module.params['tagger_path'], '-j', 'switch',
                                               'pack', path, '-o', tmp])
            if rc != 0:
                doc = None
                try:
                    doc = json.loads(out)
                except ValueError:
                    pass
                raise TaggerError(error_of(rc, doc, err, ['tagger', 'switch', 'pack', path]))
            with open(tmp, 'rb') as f:
                data = f.read()
        finally:
            os.unlink(tmp)
    return 'sha256:' + hashlib.sha256(data).hexdigest()


def backup(module, digest):
    """Write the attached rules to backup_dir/HEX.trb; return its path."""
    d = module.params['backup_dir']
    path = os.path.join(d, digest.split(':', 1)[-1] + '.trb')
    if os.path.exists(path):
        with open(path, 'rb') as f:
            if 'sha256:' + hashlib.sha256(f.read()).hexdigest() == digest:
                return path
    doc = show(module, packed=True)
    if doc is None or 'packed' not in doc:
        raise TaggerError('switch %s: no packed rules to back up' % module.params['switch'])
    data = base64.b64decode(doc['packed'])
    got = 'sha256:' + hashlib.sha256(data).hexdigest()
    if got != doc.get('rules_digest') or got != digest:
        raise TaggerError('switch %s changed while backing up its rules (%s, then %s)'
                          % (module.params['switch'], digest, got))
    if not os.path.isdir(d):
        os.makedirs(d, 0o700)
    fd, tmp = tempfile.mkstemp(prefix='.tagger-backup.', dir=d)
    with os.fdopen(fd, 'wb') as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.rename(tmp, path)
    return path


def state_text(doc):
    if doc is None:
        return 'attached: no\n'
    return 'attached: yes\nrules_digest: %s\ngeneration: %s\n' % (
        doc.get('rules_digest'), doc.get('generation'))


def run(module, result):
    """Fills result as it goes: a failure returns what is known (before_digest, backup)."""
    p = module.params
    name = p['switch']
    before = show(module)
    result.update(before_digest=before and before.get('rules_digest'),
                  before_generation=before and before.get('generation'),
                  digest=before and before.get('rules_digest'),
                  generation=before and before.get('generation'))
    if p['state'] == 'present':
        want = rules_digest(module, p['rules'])
        if before is not None and before.get('rules_digest') == want:
            return result
        if before is not None and p['backup_dir'] and not module.check_mode:
            result['backup'] = backup(module, before['rules_digest'])
        if module.check_mode:
            result.update(changed=True, digest=want, generation=None)
        else:
            verb = 'update' if before is not None else 'attach'
            tagger(module, ['switch', verb, name, p['rules']])
            result['changed'] = True
            after = show(module)
            if after is None:
                raise TaggerError('switch %s: not attached after %s' % (name, verb))
            result['digest'] = after.get('rules_digest')
            result['generation'] = after.get('generation')
            if result['digest'] != want:
                raise TaggerError('switch %s runs %s after %s, not %s (changed meanwhile?)'
                                  % (name, result['digest'], verb, want))
    else:
        if before is None:
            return result
        if p['backup_dir'] and not module.check_mode:
            result['backup'] = backup(module, before['rules_digest'])
        if not module.check_mode:
            tagger(module, ['switch', 'detach', name])
        result.update(changed=True, digest=None, generation=None)
    if module._diff:
        after_doc = None if result['digest'] is None else dict(
            rules_digest=result['digest'], generation=result['generation'])
        result['diff'] = dict(before_header='switch %s' % name, after_header='switch %s' % name,
                              before=state_text(before), after=state_text(after_doc))
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            switch=dict(type='str', required=True),
            rules=dict(type='path'),
            state=dict(type='str', choices=['present', 'absent'], default='present'),
            netns=dict(type='str'),
            bpf_root=dict(type='path'),
            tagger_path=dict(type='str', default='tagger'),
            backup_dir=dict(type='path'),
            timeout=dict(type='int', default=60),
        ),
        required_if=[('state', 'present', ['rules'])],
        supports_check_mode=True,
    )
    p = module.params
    for k in ('switch', 'netns'):
        v = p[k]
        if v is not None and (not v or v.startswith('-') or '/' in v or v in ('.', '..')):
            module.fail_json(msg='%s: not a name: %r' % (k, v))
    if p['rules'] is not None:
        p['rules'] = os.path.abspath(p['rules'])
    if not 1 <= p['timeout'] <= 3600:
        module.fail_json(msg='timeout: 1 to 3600 seconds, not %d' % p['timeout'])
    result = dict(changed=False, switch=p['switch'])
    try:
        module.exit_json(**run(module, result))
    except TaggerError as e:
        result['msg'] = str(e)
        module.fail_json(**result)


if __name__ == '__main__':
    main()
