#!/usr/bin/env python3
"""collate_gen.py - generate core/collate_tables.c, the inline sort codes of
Access's "General" text sort orders, from the published resource files of
Jackcess (Apache License 2.0; src/main/resources/com/healthmarketscience/
jackcess/ in https://github.com/jahlborn/jackcess):

  index_codes_gen_97.txt, index_mappings_ext_gen_97.txt
      General sort order of Jet3 (Access 97) files, version -1
  index_codes_genleg.txt, index_codes_ext_genleg.txt
      "General - Legacy" (Jet4, ACE 2007), sort order version 0
  index_codes_gen.txt, index_codes_ext_gen.txt
      "General" (ACE 2010 and later), sort order version 1

Each line of a codes file describes one UTF-16 code unit (0x0000-0x00FF in
the first file, 0x0100-0xFFFF without surrogates in the ext file): a type
letter and hex byte strings. Types S (simple), I (international), Z
(international ext) and G (significant) write their first byte string
"inline" into the index key, in character order; U, P (unprintable) and X
(ignored) write nothing inline. Everything a character adds after the
inline codes (accents, case, unprintables) sorts after the whole inline
part, so the inline part alone orders keys first, and a string's inline
part starts with the inline part of any of its prefixes. The gen_97
mapping file maps some code points above 0xFF onto Latin-1 ones; the
others are ignored.

Taken for each code point: its inline bytes, and for the types that add
more after the inline part its "handler record": the type letter, then
I: the extra (accent) bytes; U: the unprintable bytes; P: the one modifier
byte added to the previous extra byte; Z: the crazy flag (2 when the third
field is "1", else 3) and the extra bytes (possibly none); G: nothing more.
S (simple) and X (ignored: no inline bytes either) have no record. core/collate.c writes whole index keys from
these records the way Jet does (facts learned from Jackcess's
GeneralLegacyIndexCodes.writeNonNullIndexTextValue and
General97IndexCodes). Coverage is U+0000-U+33FF and U+F900-U+FFFF (Latin,
Greek, Cyrillic, other alphabets, symbols, kana, compatibility forms);
the index code treats anything else as not covered (CJK ideographs,
Hangul syllables and private use would triple the tables): the seek
encoder seeks no further than the characters before it, the sort key
uses a documented fallback.

Usage: collate_gen.py JACKCESS_RESOURCE_DIR > core/collate_tables.c
"""
import os
import sys

COVER = [(0x0000, 0x3400), (0xF900, 0x10000)]
BLOCK = 64


def hexbytes(h):
    if len(h) % 2:
        h = "0" + h             # a leading 0 was dropped
    return bytes.fromhex(h)


def parse(line):
    """(inline bytes, handler record) of one code line."""
    kind, f = line[:1], line[1:].split(",")
    if kind == "S":
        return hexbytes(f[0]), b""
    if kind == "G":
        return hexbytes(f[0]), b"G"
    if kind == "I":
        return hexbytes(f[0]), b"I" + hexbytes(f[1])
    if kind == "Z":
        flag = b"\x02" if f[2] == "1" else b"\x03"
        return hexbytes(f[0]), b"Z" + flag + hexbytes(f[1])
    if kind == "U":
        return b"", b"U" + hexbytes(f[0])
    if kind == "P":
        mod = hexbytes(f[0])
        assert len(mod) == 1
        return b"", b"P" + mod
    if kind == "X":
        return b"", b""         # ignored: no inline bytes, no record
    raise SystemExit("unknown code line %r" % line)


def load(res, base, ext):
    lines = open(os.path.join(res, base), encoding="ascii").read().split("\n")
    codes = {c: parse(lines[c]) for c in range(256)}
    if ext:
        el = open(os.path.join(res, ext), encoding="ascii").read().split("\n")
        i = 0
        for c in range(256, 0x10000):
            if 0xD800 <= c <= 0xDFFF:
                continue
            codes[c] = parse(el[i])
            i += 1
    return codes


def load97(res):
    codes = load(res, "index_codes_gen_97.txt", None)
    maps = {}
    for line in open(os.path.join(res, "index_mappings_ext_gen_97.txt")):
        line = line.strip()
        if line:
            a, b = line.split(",")
            maps[int(a)] = int(b)
    for c in range(256, 0x10000):
        codes[c] = codes[maps.get(c, 0)] if 338 <= c <= 8482 else (b"", b"")
    return codes


def emit_array(out, ctype, name, vals, per, fmt):
    out.write("static const %s %s[%d] = {\n" % (ctype, name, len(vals)))
    for i in range(0, len(vals), per):
        out.write("    " + ",".join(fmt % x for x in vals[i:i + per]) + ",\n")
    out.write("};\n")


def emit(name, codes, out):
    cps = [c for lo, hi in COVER for c in range(lo, hi)]
    for part, suffix in ((0, ""), (1, "_x")):
        offs, pool = [], bytearray()
        for c in cps:
            offs.append(len(pool))
            pool += codes[c][part]
        offs.append(len(pool))
        assert len(pool) < 65536
        emit_array(out, "uint16_t", "%s%s_off" % (name, suffix), offs, 12,
                   "%d")
        emit_array(out, "uint8_t", "%s%s_pool" % (name, suffix), pool, 18,
                   "0x%02x")
    out.write("\n")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    res = sys.argv[1]
    out = sys.stdout
    out.write("/*\n * collate_tables.c - GENERATED by core/collate_gen.py "
              "from the Jackcess\n * resource files index_codes_*.txt "
              "(Apache License 2.0); see that\n * script for what the "
              "tables hold. Do not edit.\n */\n")
    out.write('#include "collate.h"\n\n')
    emit("gen97", load97(res), out)
    emit("genleg", load(res, "index_codes_genleg.txt",
                        "index_codes_ext_genleg.txt"), out)
    emit("gen", load(res, "index_codes_gen.txt", "index_codes_ext_gen.txt"),
         out)
    out.write("const jet_collate_table jet_collate_tables[3] = {\n")
    for n in ("gen97", "genleg", "gen"):
        out.write("    { %s_off, %s_pool, %s_x_off, %s_x_pool },\n"
                  % (n, n, n, n))
    out.write("};\n")


if __name__ == "__main__":
    main()
