#!/usr/bin/env python3
"""Tests of scripts/check_layers.py: the repository passes, and each kind of wrong include fails
with the file, the line and the edge named (run by CTest as layers.check)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(HERE, 'check_layers.py')

EDGES = """
layer base
layer store
layer sim
layer cli
store -> base
store -> sim (tests)
cli -> store
sim -> base
"""


def run(root, edges=None):
    args = [sys.executable, CHECK, '--root', root]
    if edges:
        args += ['--edges', edges]
    done = subprocess.run(args, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


class Tree:
    """A scratch checkout: src/ files and a list of edges."""

    def __init__(self, files, edges=EDGES):
        self.dir = tempfile.mkdtemp(prefix='check_layers_test.')
        self.edges = os.path.join(self.dir, 'layers.txt')
        with open(self.edges, 'w') as f:
            f.write(edges)
        for path, text in files.items():
            self.write(path, text)

    def write(self, path, text):
        full = os.path.join(self.dir, 'src', path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w') as f:
            f.write(text)

    def check(self):
        return run(self.dir, self.edges)

    def close(self):
        shutil.rmtree(self.dir)


# Every edge of EDGES in use, nothing else.
GOOD = {
    'base/status.h': '#pragma once\n',
    'sim/loop.h': '#include "base/status.h"\n',
    'store/store.h': '#include "base/status.h"\n',
    'store/store_test.cc': '#include "store/store.h"\n#include "sim/loop.h"\n',
    'cli/up.cc': '#include <vector>\n#include "store/store.h"\n',
}


class CheckLayersTest(unittest.TestCase):
    def scratch(self, extra=None, edges=EDGES):
        tree = Tree({**GOOD, **(extra or {})}, edges)
        self.addCleanup(tree.close)
        return tree

    def test_the_repository_passes(self):
        code, out = run(ROOT)
        self.assertEqual(code, 0, out)

    def test_a_deliberately_wrong_include_in_the_repository_fails(self):
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copytree(os.path.join(ROOT, 'src'), os.path.join(scratch, 'src'))
            store_h = os.path.join(scratch, 'src', 'store', 'store.h')
            with open(store_h) as f:
                lines = f.readlines()
            at = next(i for i, line in enumerate(lines) if line.startswith('#include "'))
            lines.insert(at, '#include "cli/up.h"\n')
            with open(store_h, 'w') as f:
                f.writelines(lines)
            code, out = run(scratch, os.path.join(HERE, 'layers.txt'))
        self.assertEqual(code, 1, out)
        self.assertIn(f'src/store/store.h:{at + 1}: #include "cli/up.h": store -> cli is not an '
                      'allowed layer edge', out)

    def test_a_consistent_tree_passes(self):
        code, out = self.scratch().check()
        self.assertEqual(code, 0, out)
        self.assertIn('4 layers, 4 edges', out)

    def test_an_upward_include_fails(self):
        code, out = self.scratch({'base/clock.cc': '\n#include "cli/up.h"\n'}).check()
        self.assertEqual(code, 1, out)
        self.assertIn('src/base/clock.cc:2: #include "cli/up.h": base -> cli is not an allowed '
                      'layer edge', out)

    def test_a_tests_only_edge_refuses_library_code(self):
        code, out = self.scratch({'store/watch.cc': '#include "sim/loop.h"\n'}).check()
        self.assertEqual(code, 1, out)
        self.assertIn('src/store/watch.cc:1: #include "sim/loop.h": store -> sim only tests may '
                      'cross', out)

    def test_a_listed_edge_nothing_uses_fails(self):
        tree = self.scratch(edges=EDGES + 'cli -> base\n')
        code, out = tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn('cli -> base is listed but no include uses it any more', out)

    def test_an_edge_only_tests_use_must_say_so(self):
        tree = self.scratch(edges=EDGES.replace('store -> sim (tests)', 'store -> sim'))
        code, out = tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn('store -> sim is used by tests only: mark it "(tests)"', out)

    def test_a_folder_that_is_no_layer_fails(self):
        code, out = self.scratch({'net/http.h': '#pragma once\n'}).check()
        self.assertEqual(code, 1, out)
        self.assertIn('src/net: not a layer', out)

    def test_a_malformed_list_names_its_line(self):
        tree = self.scratch(edges=EDGES + 'cli => base\n')
        code, out = tree.check()
        self.assertEqual(code, 1, out)
        self.assertIn('layers.txt:10: expected', out)


if __name__ == '__main__':
    unittest.main(verbosity=2)
