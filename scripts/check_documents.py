#!/usr/bin/env python3
"""Checks that the in-process readers read stored objects through typed views, not their JSON.

A store::StoredObject gives its JSON only through document(), meant for the generic pipeline
(patches, schema validation, webhooks, serialisation). The layers named by "scope" lines in the
list (scripts/document_reads.txt) read typed views (store::DecodedView) and the version's own
accessors (name(), uid(), labels(), deleting(), resource_version()) instead. Those not yet moved
are listed there as "FILE COUNT": the number of document() calls the file may make. The check
fails, naming the file, when a file in scope calls document() more often than listed (or is not
listed), and when a listed file calls it less often than listed: the list then says the new,
lower number, so it only ever shrinks. Tests (*_test.cc, *_testing.h) are out of scope.

  scripts/check_documents.py [--root DIR] [--list FILE]      (defaults: the checkout, its list)
  scripts/check_documents.py --lower      writes the lower counts into the list (never raises one)
"""
import argparse
import os
import re
import sys

CALL = re.compile(r'\bdocument\(\)')
SCOPE = re.compile(r'^scope\s+(\S+)\s*(?:#.*)?$')
ALLOWANCE = re.compile(r'^(\S+)\s+(\d+)\s*(?:#.*)?$')


def read_list(path):
    """({scope folder}, {file: count}), or exits naming the bad line."""
    scopes, allowed = [], {}
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            if m := SCOPE.match(line):
                scopes.append(m.group(1).rstrip('/'))
            elif m := ALLOWANCE.match(line):
                allowed[m.group(1)] = int(m.group(2))
            else:
                sys.exit(f'{path}:{number}: expected "scope FOLDER" or "FILE COUNT": {line}')
    return scopes, allowed


def is_test(name):
    return name.endswith('_test.cc') or name.endswith('_testing.h')


def count_calls(root, scopes):
    """{file relative to root: document() calls} for every source file in scope that makes any."""
    counts = {}
    for scope in scopes:
        for directory, _, files in sorted(os.walk(os.path.join(root, scope))):
            for name in sorted(files):
                if not name.endswith(('.cc', '.h')) or is_test(name):
                    continue
                full = os.path.join(directory, name)
                with open(full, encoding='utf-8', errors='replace') as f:
                    calls = sum(len(CALL.findall(line.split('//', 1)[0])) for line in f)
                if calls:
                    counts[os.path.relpath(full, root)] = calls
    return counts


def check(root, scopes, allowed):
    errors = []
    counts = count_calls(root, scopes)
    for path, calls in sorted(counts.items()):
        limit = allowed.get(path, 0)
        if calls > limit:
            errors.append(f'{path}: {calls} document() calls, {limit} allowed: read a typed view '
                          '(store::DecodedView) or the version\'s accessors instead')
    for path, limit in sorted(allowed.items()):
        calls = counts.get(path, 0)
        if calls < limit:
            errors.append(f'{path}: {calls} document() calls, the list allows {limit}: lower it '
                          'to ' + (str(calls) if calls else '0 by removing the line'))
    return errors, counts


def lower(path, counts):
    """Rewrites the list with each count lowered to the calls left; lines at 0 go."""
    out = []
    with open(path) as f:
        for raw in f:
            m = ALLOWANCE.match(raw.strip())
            if m and not raw.lstrip().startswith('#') and not SCOPE.match(raw.strip()):
                left = min(int(m.group(2)), counts.get(m.group(1), 0))
                if left == 0:
                    continue
                raw = raw.replace(f'{m.group(1)} {m.group(2)}', f'{m.group(1)} {left}', 1)
            out.append(raw)
    with open(path, 'w') as f:
        f.writelines(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.dirname(here))
    parser.add_argument('--list', default=os.path.join(here, 'document_reads.txt'))
    parser.add_argument('--lower', action='store_true', help='lower the counts to the calls left')
    args = parser.parse_args()
    scopes, allowed = read_list(args.list)
    if args.lower:
        lower(args.list, count_calls(args.root, scopes))
        scopes, allowed = read_list(args.list)
    errors, counts = check(args.root, scopes, allowed)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        return 1
    print(f'check_documents: {sum(counts.values())} document() calls left in '
          f'{len(counts)} files of {", ".join(scopes)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
