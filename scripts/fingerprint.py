#!/usr/bin/env python3
"""An independent implementation of binform's fingerprint (docs/format.md §14).

It shares no code with the Rust crate: it reads the specification's rules
and computes the 64-bit values that tests/tests/integration/encoding.rs pins.
Run it to print those values: python3 scripts/fingerprint.py
"""

LEVELS = 16


def fnv(text: str) -> int:
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def hx(v: int) -> str:
    return f"{v:016x}"


# A node is ("b", name, [args]) for a built-in encoding or ("d", name) for
# a derived type defined in TYPES as (kind, mode, body, reserved), where a
# struct body is [(tag, field name, node)] and an enum body is
# [(tag, variant name, other?, [(tag, field name, node)])].
TYPES = {}


def value(node, level):
    if node[0] == "b":
        _, name, args = node
        if not args:
            return fnv(name)
        return fnv(name + "<" + ",".join(hx(value(a, level)) for a in args) + ">")
    name = node[1]
    if level == 0:
        return fnv("ref " + name)
    kind, mode, body, reserved = TYPES[name]

    def fields(list_):
        return "".join(
            f"{tag} {fname} {hx(value(t, level - 1))};"
            for tag, fname, t in sorted(list_, key=lambda f: f[0])
        )

    text = f"{kind} {name} {mode} {{"
    if kind == "struct":
        text += fields(body)
    else:
        for tag, vname, other, vfields in sorted(body, key=lambda v: v[0]):
            text += f"{tag} {vname}{' other' if other else ''} {{" + fields(vfields) + "};"
    text += "}"
    if reserved:
        text += " reserved " + ",".join(str(t) for t in sorted(set(reserved)))
    return fnv(text)


def b(name, *args):
    return ("b", name, list(args))


def d(name):
    return ("d", name)


def fingerprint(node):
    return value(node, LEVELS)


U8, I32, U32, STRING = b("u8"), b("i32"), b("u32"), b("string")
TYPES["Point"] = ("struct", "compact", [(0, "x", I32), (1, "y", I32)], [])
TYPES["Chain"] = ("struct", "compact", [(0, "value", U8), (1, "next", b("option", d("Chain")))], [])
TYPES["A"] = ("struct", "compact", [(0, "name", STRING), (1, "b", b("option", d("B")))], [])
TYPES["B"] = ("struct", "compact", [(0, "items", b("seq", d("A")))], [])
TYPES["Shape"] = (
    "enum",
    "tolerant",
    [
        (0, "Circle", False, [(0, "r", b("f64"))]),
        (2, "Square", False, [(0, "side", b("f64")), (5, "label", b("option", STRING))]),
        (9, "Unknown", True, []),
    ],
    [1, 7],
)

if __name__ == "__main__":
    for label, node in [
        ("u32", U32),
        ("Vec<String>", b("seq", STRING)),
        ("[u8; 4]", b("array", U8, b("4"))),
        ("Point", d("Point")),
        ("Chain", d("Chain")),
        ("A", d("A")),
        ("B", d("B")),
        ("Shape", d("Shape")),
    ]:
        print(f"{label:>12}  {fingerprint(node):#018x}")
