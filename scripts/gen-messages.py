#!/usr/bin/env python3
"""Writes a buf module of N messages of mixed shapes (scalars, strings,
enums, nested and repeated messages, maps, optionals, oneofs) for the speed
figures: a schema set of the size a real API has. Deterministic."""
import os
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261123)
os.makedirs(os.path.join(out, "gen", "v1"), exist_ok=True)
with open(os.path.join(out, "buf.yaml"), "w") as f:
    f.write("version: v2\nlint:\n  use: [STANDARD]\n")
scalars = ["int32", "int64", "uint32", "double", "float", "bool", "string", "bytes", "sint64", "fixed32"]
names = ["id", "name", "email", "region", "count", "amount", "price", "ratio", "enabled", "note", "label", "score",
         "latitude", "longitude", "temperature", "created_at", "updated_at", "version", "owner", "status_text"]
lines = ['syntax = "proto3";', "", "package gen.v1;", "", "// Kind is a shared enum.", "enum Kind {",
         "  KIND_UNSPECIFIED = 0;", "  KIND_A = 1;", "  KIND_B = 2;", "  KIND_C = 3;", "}", ""]
for i in range(n):
    lines.append(f"// Message{i:02d} is generated.")
    lines.append(f"message Message{i:02d} {{")
    num = 1
    for fname in rng.sample(names, rng.randint(4, 12)):
        t = rng.choice(scalars)
        prefix = rng.choice(["", "", "", "repeated ", "optional "])
        if t == "bytes" and prefix == "repeated ":
            prefix = ""
        lines.append(f"  {prefix}{t} {fname} = {num};")
        num += 1
    lines.append(f"  Kind kind = {num};"); num += 1
    if i > 0 and rng.random() < 0.4:
        lines.append(f"  repeated Message{rng.randrange(i):02d} items = {num};"); num += 1
    if rng.random() < 0.3:
        lines.append(f"  map<string, string> attributes = {num};"); num += 1
    if rng.random() < 0.3:
        lines.append("  oneof choice {")
        lines.append(f"    string text = {num};"); num += 1
        lines.append(f"    int64 value = {num};"); num += 1
        lines.append("  }")
    lines.append("}")
    lines.append("")
with open(os.path.join(out, "gen", "v1", "gen.proto"), "w") as f:
    f.write("\n".join(lines))
