#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two runs of the kernel's run_kselftest.sh (make check-selftests).

usage: kselftest-compare.py PATCHED_TAP PRISTINE_TAP

Each run's TAP has one line per script ("ok 3 selftests: livepatch:
test-state.sh", "not ok ...", "# SKIP") and, prefixed "# ", what the
script printed: livepatch's "TEST: <what> ... ok" and kmod.sh's
"kmod_test_0005: OK! - ..." (counted under the kmod test then running)
are its own tests. Prints both runs side by side, script by script, and
exits 1 unless they agree on every script's result and on every inner
test's count of passes and failures, or if a run did not reach its end
or passed no inner test at all.
"""
import collections
import re
import sys

TOP = re.compile(r'^(not ok|ok) \d+ selftests: (\S+): (\S+)(.*)$')
LIVEPATCH = re.compile(r'^# TEST: (.*?) \.\.\. (ok|not ok)')
KMOD = re.compile(r'^# (kmod_\w+): (OK!|FAIL)')
KMOD_TEST = re.compile(r'^# Running test: (kmod_test_\d+) ')


def read(path):
    """{script: result}, {(script, inner test, result): count}."""
    scripts, inner, plan, ended = {}, collections.Counter(), None, False
    current = test = None
    try:
        lines = open(path, encoding='utf-8', errors='replace').read()
    except OSError as e:
        sys.exit(f'kselftest-compare: {path}: {e.strerror}')
    for line in lines.splitlines():
        if line.startswith('1..'):
            # one plan a collection (kmod, livepatch)
            plan = (plan or 0) + int(line[3:])
        elif m := re.match(r'^# selftests: (\S+): (\S+)$', line):
            current = f'{m[1]}:{m[2]}'
        elif m := TOP.match(line):
            result = m[1]
            if 'SKIP' in m[4]:
                result = 'skip'
            elif 'TIMEOUT' in m[4]:
                result = 'timeout'
            scripts[f'{m[2]}:{m[3]}'] = result
            current = None
        elif line == '# end-of-run':
            ended = True
        elif m := KMOD_TEST.match(line):
            # kmod.sh's checks print their own names (kmod_test_0001_driver,
            # kmod_check_visibility): count them under the test running
            test = m[1]
        elif current and (m := LIVEPATCH.match(line) or KMOD.match(line)):
            ok = m[2] in ('ok', 'OK!')
            name = test if m.re is KMOD and test else m[1]
            inner[(current, name, 'pass' if ok else 'fail')] += 1
    if not ended:
        sys.exit(f'kselftest-compare: {path}: the run did not reach its end')
    if not scripts or plan != len(scripts):
        sys.exit(f'kselftest-compare: {path}: plan {plan}, '
                 f'{len(scripts)} scripts reported')
    return scripts, inner


def tally(inner, script):
    passed = sum(n for (s, _, r), n in inner.items()
                 if s == script and r == 'pass')
    failed = sum(n for (s, _, r), n in inner.items()
                 if s == script and r == 'fail')
    return f'{passed} passed, {failed} failed'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    (ps, pi), (qs, qi) = read(sys.argv[1]), read(sys.argv[2])
    width = max(len(s) for s in ps.keys() | qs.keys())
    print(f'{"script":<{width}}  {"patched":<28}  pristine')
    for s in sorted(ps.keys() | qs.keys()):
        a = f'{ps.get(s, "missing")}: {tally(pi, s)}'
        b = f'{qs.get(s, "missing")}: {tally(qi, s)}'
        print(f'{s:<{width}}  {a:<28}  {b}')
    diff = [k for k in pi.keys() | qi.keys() if pi[k] != qi[k]]
    for s, t, r in sorted(diff):
        print(f'differs: {s}: {t}: {r} {pi[(s, t, r)]} times patched, '
              f'{qi[(s, t, r)]} pristine')
    for name, inner in (('patched', pi), ('pristine', qi)):
        if not any(r == 'pass' for (_, _, r) in inner):
            print(f'kselftest-compare: the {name} run passed no inner test: '
                  'the tests did not run')
            return 1
    if ps != qs or diff:
        print('kselftest-compare: the patched and pristine runs differ')
        return 1
    inner = sum(pi.values())
    print(f'kselftest-compare: the same results: {len(ps)} scripts, '
          f'{inner} inner tests')
    return 0


if __name__ == '__main__':
    sys.exit(main())
