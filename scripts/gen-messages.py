#!/usr/bin/env python3
"""Writes a buf module of N messages of mixed shapes (scalars, strings,
enums, nested and repeated messages, maps, optionals, oneofs): a schema set
of the size a real API has, for the speed and memory figures. Deterministic:
the same arguments write the same bytes.

  scripts/gen-messages.py N OUT [--files F] [--packages P] [--big-share S]
                                [--head DIR] [--changed NAME]

  N              messages (MessageNN…, numbered from 0)
  OUT            directory to write (buf.yaml and the .proto files)
  --files F      spread the messages over F files, in contiguous blocks
                 (default 1: everything in gen/v1/gen.proto, package gen.v1)
  --packages P   spread the files over P packages gen.pNN.v1 (default 1;
                 with F > 1 the shared enum lives in gen.common.v1)
  --big-share S  fraction of the messages (0 to 1, default 0) that also hold
                 three `repeated Chunk` fields of 20 sentence strings each:
                 their generated records reach the 8 KiB cap
                 (harness/program/record/limits.go, record.MaxRecordBytes); which
                 messages are big is drawn from a stream of its own, so
                 every other message is written the same at any share;
                 Chunk itself is one more top-level message. A message
                 holding a big one as `items` is big too: with S = 0.05,
                 156 of 1,301 messages average over 6,000 protobuf bytes
  --head DIR     also write DIR: a copy of OUT with exactly one leaf message
                 (one no other message holds) changed by one added field
                 (`int32 added_in_head = <next number>;`); its full name is
                 printed on stdout
  --changed NAME the message --head changes (default: the last leaf that is
                 not big, the shape of a usual pull request)
  --shared-metadata
                 every message also holds `Metadata metadata`, one more
                 top-level message (id, owner, created_at, labels) that all
                 of them embed, as real APIs embed their resource metadata;
                 with --head, --changed Metadata adds `string shard` to it,
                 which changes every message

With no options the output is the 60-message module of docs/figures.md,
byte for byte as before these options existed. Tests:
python3 scripts/gen_messages_test.py"""
import argparse
import os
import random
import shutil

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("n", type=int)
p.add_argument("out")
p.add_argument("--files", type=int, default=1)
p.add_argument("--packages", type=int, default=1)
p.add_argument("--big-share", type=float, default=0.0)
p.add_argument("--head")
p.add_argument("--changed")
p.add_argument("--shared-metadata", action="store_true")
a = p.parse_args()
if a.n < 1 or a.files < 1 or a.packages < 1 or a.files > a.n or a.packages > a.files or not 0 <= a.big_share <= 1:
    p.error("want N >= 1, 1 <= --packages <= --files <= N, 0 <= --big-share <= 1")

rng = random.Random(20261123)   # every message's shape, in the order written
big_rng = random.Random(20261124)  # which messages are big: its own stream
split = a.files > 1
width = 2 if not split else max(2, len(str(a.n - 1)))

scalars = ["int32", "int64", "uint32", "double", "float", "bool", "string", "bytes", "sint64", "fixed32"]
names = ["id", "name", "email", "region", "count", "amount", "price", "ratio", "enabled", "note", "label", "score",
         "latitude", "longitude", "temperature", "created_at", "updated_at", "version", "owner", "status_text"]
kind = ["// Kind is a shared enum.", "enum Kind {", "  KIND_UNSPECIFIED = 0;", "  KIND_A = 1;", "  KIND_B = 2;",
        "  KIND_C = 3;", "}", ""]
chunk = ["// Chunk is twenty sentences: three lists of them make a record near the 8 KiB cap.", "message Chunk {"]
chunk += [f"  string part_{k:02d} = {k + 1};" for k in range(20)] + ["}", ""]


def metadata(change):
    lines = ["// Metadata is held by every message.", "message Metadata {", "  string id = 1;", "  string owner = 2;",
             "  int64 created_at = 3;", "  map<string, string> labels = 4;"]
    if change:
        lines.append("  string shard = 5;")
    return lines + ["}", ""]


def file_of(i):
    return i * a.files // a.n


def package_of(f):
    return "gen.v1" if not split else f"gen.p{f * a.packages // a.files:02d}.v1"


def path_of(f):
    return "gen/v1/gen.proto" if not split else f"gen/p{f * a.packages // a.files:02d}/v1/m{f:03d}.proto"


common_pkg, common_path = "gen.common.v1", "gen/common/v1/common.proto"
big = [big_rng.random() < a.big_share for _ in range(a.n)]
bodies, holds = [], [None] * a.n  # holds[i]: the earlier message i holds, if any
for i in range(a.n):
    body = []
    num = 1
    for fname in rng.sample(names, rng.randint(4, 12)):
        t = rng.choice(scalars)
        prefix = rng.choice(["", "", "", "repeated ", "optional "])
        if t == "bytes" and prefix == "repeated ":
            prefix = ""
        body.append(f"  {prefix}{t} {fname} = {num};")
        num += 1
    body.append(("  Kind" if not split else f"  {common_pkg}.Kind") + f" kind = {num};"); num += 1
    if i > 0 and rng.random() < 0.4:
        holds[i] = rng.randrange(i)
        body.append(num)  # the items field's number: its type name depends on where the message lives
        num += 1
    if rng.random() < 0.3:
        body.append(f"  map<string, string> attributes = {num};"); num += 1
    if rng.random() < 0.3:
        body.append("  oneof choice {")
        body.append(f"    string text = {num};"); num += 1
        body.append(f"    int64 value = {num};"); num += 1
        body.append("  }")
    if big[i]:
        for k in ("chapters", "sections", "appendices"):
            body.append(("  repeated Chunk" if not split else f"  repeated {common_pkg}.Chunk") + f" {k} = {num};"); num += 1
    bodies.append((body, num))
if a.shared_metadata:  # after every shape is drawn: the other messages stay as they were
    for i, (body, num) in enumerate(bodies):
        body.append(("  Metadata" if not split else f"  {common_pkg}.Metadata") + f" metadata = {num};")
        bodies[i] = (body, num + 1)


def name(i):
    return f"Message{i:0{width}d}"


def type_ref(i, j):
    """How message i's file names message j."""
    if package_of(file_of(i)) == package_of(file_of(j)):
        return name(j)
    return f"{package_of(file_of(j))}.{name(j)}"


leaves = [i for i in range(a.n) if i not in set(h for h in holds if h is not None)]
changed = None
metadata_changed = a.head and a.changed in ("Metadata", "gen.v1.Metadata", f"{common_pkg}.Metadata")
if metadata_changed and not a.shared_metadata:
    p.error("--changed Metadata needs --shared-metadata")
if a.head and not metadata_changed:
    if a.changed:
        matches = [i for i in range(a.n) if a.changed in (name(i), f"{package_of(file_of(i))}.{name(i)}")]
        if not matches or matches[0] not in leaves:
            p.error(f"--changed {a.changed}: not a leaf message of this module")
        changed = matches[0]
    else:
        changed = [i for i in leaves if not big[i]][-1]


def write(out, change):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "buf.yaml"), "w") as f:
        f.write("version: v2\nlint:\n  use: [STANDARD]\n")
    if split:
        os.makedirs(os.path.join(out, os.path.dirname(common_path)), exist_ok=True)
        with open(os.path.join(out, common_path), "w") as f:
            f.write("\n".join(['syntax = "proto3";', "", f"package {common_pkg};", ""] + kind
                              + (chunk if any(big) else [])
                              + (metadata(change == "Metadata") if a.shared_metadata else [])))
    for fi in range(a.files):
        members = [i for i in range(a.n) if file_of(i) == fi]
        lines = ['syntax = "proto3";', "", f"package {package_of(fi)};", ""]
        if split:
            imports = {common_path} | {path_of(file_of(holds[i])) for i in members if holds[i] is not None}
            imports.discard(path_of(fi))
            lines += [f'import "{x}";' for x in sorted(imports)] + [""]
        else:
            lines += kind + (chunk if any(big) else []) + (metadata(change == "Metadata") if a.shared_metadata else [])
        for i in members:
            body, num = bodies[i]
            lines.append(f"// {name(i)} is generated.")
            lines.append(f"message {name(i)} {{")
            for line in body:
                if isinstance(line, int):
                    line = f"  repeated {type_ref(i, holds[i])} items = {line};"
                lines.append(line)
            if i == change:
                lines.append(f"  int32 added_in_head = {num};")
            lines.append("}")
            lines.append("")
        path = os.path.join(out, path_of(fi))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines))


write(a.out, None)
if a.head:
    if os.path.exists(a.head):
        shutil.rmtree(a.head)
    if metadata_changed:
        write(a.head, "Metadata")
        print(f"{common_pkg if split else 'gen.v1'}.Metadata")
    else:
        write(a.head, changed)
        print(f"{package_of(file_of(changed))}.{name(changed)}")
