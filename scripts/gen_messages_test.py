#!/usr/bin/env python3
"""Tests of scripts/gen-messages.py: python3 scripts/gen_messages_test.py"""
import difflib
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-messages.py")


def gen(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)


def tree(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p) as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


class GenMessages(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_deterministic(self):
        args = [300, None, "--files", 12, "--packages", 4, "--big-share", 0.1]
        for name in ("a", "b"):
            args[1] = self.path(name)
            self.assertEqual(gen(*args).returncode, 0)
        self.assertEqual(tree(self.path("a")), tree(self.path("b")))

    # With no options the output is the 60-message module of docs/figures.md, byte for
    # byte what the script wrote before it had options (golden digest).
    def test_default_is_the_sixty_message_module(self):
        self.assertEqual(gen(60, self.path("g")).returncode, 0)
        t = tree(self.path("g"))
        lines = "".join(f"{hashlib.sha256(t[p].encode()).hexdigest()}  ./{p}\n" for p in sorted(t))
        self.assertEqual(hashlib.sha256(lines.encode()).hexdigest(),
                         "334246ab6b3bd50be7a4758a50341a121dcd383ccbabf3c9938b8d1ddce3a7b8")

    # --shared-metadata adds one Metadata field to every message and leaves every
    # other field as it was; --changed Metadata changes only Metadata.
    def test_shared_metadata_changes_every_holder_through_one_message(self):
        self.assertEqual(gen(40, self.path("plain"), "--files", 4, "--packages", 2).returncode, 0)
        r = gen(40, self.path("m"), "--files", 4, "--packages", 2, "--shared-metadata",
                "--head", self.path("h"), "--changed", "Metadata")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "gen.common.v1.Metadata")
        plain, base, head = tree(self.path("plain")), tree(self.path("m")), tree(self.path("h"))
        for p, text in base.items():
            if not p.startswith("gen/p"):
                continue
            self.assertEqual(text.count("gen.common.v1.Metadata metadata = "), text.count("message Message"))
            without = re.sub(r"\n  gen\.common\.v1\.Metadata metadata = \d+;", "", text)
            self.assertEqual(without, plain[p])
        changed = [p for p in base if base[p] != head[p]]
        self.assertEqual(changed, ["gen/common/v1/common.proto"])
        self.assertIn("string shard = 5;", head["gen/common/v1/common.proto"])
        self.assertNotEqual(gen(40, self.path("x"), "--head", self.path("y"), "--changed", "Metadata").returncode, 0)

    def test_spread_over_files_and_packages_with_big_messages(self):
        r = gen(300, self.path("m"), "--files", 12, "--packages", 4, "--big-share", 0.1)
        self.assertEqual(r.returncode, 0, r.stderr)
        t = tree(self.path("m"))
        protos = {p: s for p, s in t.items() if p.endswith(".proto")}
        self.assertEqual(len(protos), 12 + 1)  # and the common file: the enum, Chunk
        self.assertEqual(len({re.search(r"^package (\S+);", s, re.M).group(1) for s in protos.values()}), 4 + 1)
        messages = sum(len(re.findall(r"^message Message\d+ ", s, re.M)) for s in protos.values())
        big = sum(len(re.findall(r"repeated gen.common.v1.Chunk chapters", s)) for s in protos.values())
        self.assertEqual(messages, 300)
        self.assertTrue(10 <= big <= 50, big)

    # A big share changes which messages hold Chunk lists, nothing else.
    def test_big_share_leaves_other_messages_alone(self):
        gen(100, self.path("small"), "--files", 4)
        gen(100, self.path("big"), "--files", 4, "--big-share", 0.2)
        a, b = tree(self.path("small")), tree(self.path("big"))
        for p in a:
            if p.endswith(".proto") and "common" not in p:
                changed = [l for l in difflib.ndiff(a[p].splitlines(), b[p].splitlines()) if l[:2] in ("- ", "+ ")]
                self.assertTrue(all(l.startswith("+ ") and "Chunk" in l for l in changed), changed[:3])

    def test_head_changes_one_leaf_by_one_field(self):
        r = gen(200, self.path("base"), "--files", 8, "--packages", 2, "--big-share", 0.1, "--head", self.path("head"))
        self.assertEqual(r.returncode, 0, r.stderr)
        changed = r.stdout.strip()
        base, head = tree(self.path("base")), tree(self.path("head"))
        self.assertEqual(base.keys(), head.keys())
        diffs = [(p, l) for p in base for l in difflib.ndiff(base[p].splitlines(), head[p].splitlines()) if l[:2] in ("- ", "+ ")]
        self.assertEqual(len(diffs), 1, diffs)
        path, line = diffs[0]
        self.assertRegex(line, r"^\+   int32 added_in_head = \d+;$")
        short = changed.rsplit(".", 1)[1]
        before = head[path].split("\n" + line[2:] + "\n")[0]
        self.assertEqual(before.rsplit("message ", 1)[1].split(" ")[0], short, "the field went into another message")
        holders = [p for p, s in base.items() if re.search(r"repeated (\S+\.)?%s items" % short, s)]
        self.assertEqual(holders, [], "the changed message is held by another: not a leaf")

    def test_bad_arguments_exit_2(self):
        for args in ([0, self.path("x")], [10, self.path("x"), "--files", 20], [10, self.path("x"), "--big-share", 2],
                     [10, self.path("x"), "--head", self.path("h"), "--changed", "NoSuch"]):
            r = gen(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("error:", r.stderr)


if __name__ == "__main__":
    unittest.main()
