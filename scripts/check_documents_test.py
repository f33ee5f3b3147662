#!/usr/bin/env python3
"""Tests of scripts/check_documents.py: the repository passes, a new document() call in a layer
in scope fails naming the file, and a list that allows more than is used fails too (run by CTest
as documents.check)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(HERE, 'check_documents.py')

LIST = """
scope src/cluster
src/cluster/kubelet.cc 2  # not moved yet
"""
KUBELET = """
void Sync(const store::StoredObject& pod) {
  Read(pod.document());
  Read(pod.document());  // document() in a comment does not count
}
"""


def run(root, listed):
    done = subprocess.run([sys.executable, CHECK, '--root', root, '--list', listed],
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


class Tree:
    def __init__(self, files, listed=LIST):
        self.dir = tempfile.mkdtemp(prefix='check_documents_test.')
        self.list = os.path.join(self.dir, 'document_reads.txt')
        with open(self.list, 'w') as f:
            f.write(listed)
        for path, text in files.items():
            full = os.path.join(self.dir, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'w') as f:
                f.write(text)

    def run(self):
        return run(self.dir, self.list)

    def close(self):
        shutil.rmtree(self.dir)


class CheckDocumentsTest(unittest.TestCase):
    def check(self, files, listed=LIST):
        tree = Tree(files, listed)
        try:
            return tree.run()
        finally:
            tree.close()

    def test_repository_passes(self):
        code, out = run(ROOT, os.path.join(HERE, 'document_reads.txt'))
        self.assertEqual(code, 0, out)

    def test_listed_calls_pass(self):
        code, out = self.check({'src/cluster/kubelet.cc': KUBELET})
        self.assertEqual(code, 0, out)

    def test_a_new_call_fails_naming_the_file(self):
        code, out = self.check({'src/cluster/kubelet.cc': KUBELET,
                                'src/cluster/scheduler.cc': 'Json x = pod->document();\n'})
        self.assertEqual(code, 1, out)
        self.assertIn('src/cluster/scheduler.cc: 1 document() calls, 0 allowed', out)

    def test_more_calls_than_listed_fail(self):
        code, out = self.check({'src/cluster/kubelet.cc': KUBELET + 'X(a.document());\n'})
        self.assertEqual(code, 1, out)
        self.assertIn('src/cluster/kubelet.cc: 3 document() calls, 2 allowed', out)

    def test_fewer_calls_than_listed_fail_so_the_list_shrinks(self):
        code, out = self.check({'src/cluster/kubelet.cc': 'Read(pod.document());\n'})
        self.assertEqual(code, 1, out)
        self.assertIn('the list allows 2: lower it to 1', out)

    def test_lower_only_lowers(self):
        tree = Tree({'src/cluster/kubelet.cc': 'Read(pod.document());\n',
                     'src/cluster/scheduler.cc': 'a.document();\n'},
                    LIST + 'src/cluster/gone.cc 4\n')
        try:
            done = subprocess.run([sys.executable, CHECK, '--root', tree.dir, '--list', tree.list,
                                   '--lower'], capture_output=True, text=True)
            with open(tree.list) as f:
                listed = f.read()
        finally:
            tree.close()
        self.assertIn('src/cluster/kubelet.cc 1  # not moved yet', listed)
        self.assertNotIn('gone.cc', listed)
        self.assertNotIn('scheduler.cc', listed, 'a new call is not added')
        self.assertEqual(done.returncode, 1, 'the new call still fails the check')

    def test_tests_and_other_layers_are_out_of_scope(self):
        code, out = self.check({'src/cluster/kubelet.cc': KUBELET,
                                'src/cluster/kubelet_test.cc': 'a.document();\n',
                                'src/apiserver/patch.cc': 'a.document();\n'})
        self.assertEqual(code, 0, out)

    def test_a_malformed_list_names_the_line(self):
        code, out = self.check({}, 'scope src/cluster\nsrc/cluster/kubelet.cc many\n')
        self.assertNotEqual(code, 0)
        self.assertIn('document_reads.txt:2', out)


if __name__ == '__main__':
    unittest.main()
