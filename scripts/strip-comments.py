#!/usr/bin/env python3
"""Prints C or C++ source with its comments, string literals and character literals blanked,
line for line (every newline kept, so a gate's line numbers are the file's). What is left is the
code the compiler reads, for the gates that look for tokens in it (scripts/gate-no-float.sh,
scripts/gate-standard-cpp.sh): a comment that mentions `double` is not code, and a product on a
line that starts with `*` is.

    scripts/strip-comments.py FILE...      each file's stripped text, prefixed "FILE:LINE:" per line

A string literal becomes "" and a character literal '' (raw strings R"d(...)d" included; their
newlines kept); a comment becomes spaces. Line splices (backslash-newline) are kept as they are.
"""
import sys


def digit_separator(text: str, i: int) -> bool:
    """Whether the ' at text[i] separates digits: inside a number (the token before it starts
    with a digit: 1'000, 0x1'f), not after a character literal's prefix (u'k', U'k', L'k', u8'k')."""
    j = i - 1
    while j >= 0 and (text[j].isalnum() or text[j] in "'._"):
        j -= 1
    token = text[j + 1:i]
    return bool(token) and token[0].isdigit() and i + 1 < len(text) and text[i + 1].isalnum()


def strip(text: str) -> str:
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":  # line comment (a backslash-newline continues it)
            j = i + 2
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == "/" and nxt == "*":  # block comment
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == "R" and nxt == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) \
                or (c in "uUL" and text[i + 1:i + 3] == 'R"') or (text[i:i + 4] == 'u8R"'):
            # raw string literal: [prefix]R"delim( ... )delim"
            q = text.index('"', i)
            p = text.find("(", q)
            delim = text[q + 1:p] if p >= 0 else ""
            end = text.find(")" + delim + '"', p + 1) if p >= 0 else -1
            j = n if end < 0 else end + len(delim) + 2
            out.append(text[i:q] + '""' + "".join("\n" for ch in text[q:j] if ch == "\n"))
            i = j
        elif c == '"' or (c == "'" and not digit_separator(text, i)):
            # string or character literal (a ' inside a number is a digit separator)
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1 if j < n and text[j] == c else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main() -> int:
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for k, line in enumerate(strip(text).split("\n"), 1):
            if line.strip():
                print(f"{path}:{k}:{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
