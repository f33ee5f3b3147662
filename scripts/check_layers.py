#!/usr/bin/env python3
"""Checks every #include in src/ against the layer edges allowed in scripts/layers.txt.

A layer is a folder of src/ (the longest listed prefix wins: api/protobuf before api). A file may
include its own layer and the layers its layer's edges name; tests (*_test.cc and *_testing.h)
may also use the edges marked "(tests)", and testdata/ always. Fails, naming the file and line,
on an include that crosses an edge not in the list, on a folder of src/ that is not a layer, and
on a listed edge nothing uses any more and on an edge open to all code that only tests use (so
that removing a wrong edge also removes it from the list, and it cannot come back unnoticed).

  scripts/check_layers.py [--root DIR] [--edges FILE]      (defaults: the checkout, its list)
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')
EDGE = re.compile(r'^(\S+)\s*->\s*(\S+)(\s+\(tests\))?\s*(?:#.*)?$')
LAYER = re.compile(r'^layer\s+(\S+)\s*(?:#.*)?$')


def read_edges(path):
    """The layers and edges of the list: ({layer}, {(from, to): tests_only}), or exits."""
    layers, edges = set(), {}
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            if m := LAYER.match(line):
                layers.add(m.group(1))
            elif m := EDGE.match(line):
                edges[(m.group(1), m.group(2))] = bool(m.group(3))
            else:
                sys.exit(f'{path}:{number}: expected "layer NAME" or "FROM -> TO [(tests)]": {line}')
    for (src, dst) in edges:
        for name in (src, dst):
            if name not in layers:
                sys.exit(f'{path}: edge {src} -> {dst} names {name}, which is not a layer')
    return layers, edges


def layer_of(path, layers):
    best = None
    for layer in layers:
        if (path == layer or path.startswith(layer + '/')) and (best is None or len(layer) > len(best)):
            best = layer
    return best


def is_test(name):
    return name.endswith('_test.cc') or name.endswith('_testing.h')


def check(root, layers, edges):
    """Returns (errors, used edges, edges used by library code)."""
    errors, used, used_by_library = [], set(), set()
    src_root = os.path.join(root, 'src')
    for directory, _, files in sorted(os.walk(src_root)):
        rel_dir = os.path.relpath(directory, src_root)
        sources = [f for f in sorted(files) if f.endswith(('.h', '.cc'))]
        if not sources:
            continue
        layer = layer_of(rel_dir, layers)
        if layer is None:
            errors.append(f'src/{rel_dir}: not a layer (add "layer {rel_dir}" and its edges to the list)')
            continue
        for name in sources:
            path = os.path.join(directory, name)
            with open(path, errors='replace') as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = layer_of(os.path.dirname(m.group(1)), layers)
                    if target is None or target == layer or (target == 'testdata' and is_test(name)):
                        continue
                    edge = (layer, target)
                    if edge in edges and (not edges[edge] or is_test(name)):
                        used.add(edge)
                        if not is_test(name):
                            used_by_library.add(edge)
                        continue
                    what = 'only tests may cross' if edge in edges else 'is not an allowed layer edge'
                    errors.append(f'{os.path.relpath(path, root)}:{number}: #include "{m.group(1)}": '
                                  f'{layer} -> {target} {what}')
    return errors, used, used_by_library


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.dirname(here))
    parser.add_argument('--edges', default=os.path.join(here, 'layers.txt'))
    args = parser.parse_args()
    layers, edges = read_edges(args.edges)
    errors, used, used_by_library = check(args.root, layers, edges)
    for edge in sorted(set(edges) - used):
        errors.append(f'{args.edges}: {edge[0]} -> {edge[1]} is listed but no include uses it any '
                      'more: remove it from the list')
    for edge in sorted(e for e in used - used_by_library if not edges[e]):
        errors.append(f'{args.edges}: {edge[0]} -> {edge[1]} is used by tests only: mark it '
                      '"(tests)"')
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f'check_layers: {len(errors)} error(s); the layers and their edges: {args.edges}',
              file=sys.stderr)
        return 1
    print(f'check_layers: {len(layers)} layers, {len(used)} edges, every include allowed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
