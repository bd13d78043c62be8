#!/usr/bin/env python3
"""Refuses a test suite that runs on the main actor under a time limit of its own.

Every `@MainActor` test of a run shares the main thread: one may wait behind
all the others (under ThreadSanitizer on two cores, a minute and more), so a
suite with such a test takes `.queuedOnTheMainActor` (or is `.realTime`, run
alone). A suite found breaking the rule is named with its file and line.

Usage: check-test-time-limits.py [TESTS_DIR]   (default: Tests)
       check-test-time-limits.py --self-test
"""

import os
import re
import sys

SUITE = re.compile(r"^@Suite\b(.*)$")
TYPE = re.compile(r"^(?:public |package |private |fileprivate )?(?:final )?(?:struct|class|enum|extension) (\w+)")
SHORT_LIMIT = re.compile(r"\.timeLimit\(\.(?:minutes\(([1-4])\)|seconds\()")


def violations(text, path):
    """Suites in `text` that have a main-actor test and a one-minute limit."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        match = SUITE.match(lines[i])
        if not match:
            i += 1
            continue
        suite_line = i + 1
        traits = match.group(1)
        attributes = []
        j = i + 1
        # The attribute block up to the type's declaration.
        while j < len(lines) and not TYPE.match(lines[j]):
            attributes.append(lines[j])
            j += 1
        if j == len(lines):
            break
        name = TYPE.match(lines[j]).group(1)
        # The type's body: up to the closing brace at the start of a line.
        body = []
        k = j + 1
        while k < len(lines) and not lines[k].startswith("}"):
            body.append(lines[k])
            k += 1
        on_main = any("@MainActor" in line for line in attributes) or any(
            "@MainActor" in line and ("func " in line or "@Test" in line or
                                     (n + 1 < len(body) and ("func " in body[n + 1] or "@Test" in body[n + 1])))
            for n, line in enumerate(body))
        if on_main and SHORT_LIMIT.search(traits) and ".realTime" not in traits:
            # Of two time limits the shorter holds, so `.queuedOnTheMainActor`
            # beside a `.timeLimit` does not lengthen it.
            found.append(f"{path}:{suite_line}: {name} runs on the main actor under a time limit shorter than the main actor's; "
                         "give it .queuedOnTheMainActor alone")
        i = k
    return found


def self_test():
    bad = "@Suite(.timeLimit(.minutes(1)))\nstruct A {\n    @Test @MainActor func f() async {}\n}\n"
    bad_block = "@Suite(.timeLimit(.minutes(1)))\n@MainActor\nstruct B {\n    @Test func f() {}\n}\n"
    bad_split = "@Suite(.timeLimit(.minutes(1)))\nstruct C {\n    @Test\n    @MainActor\n    func f() {}\n}\n"
    good = "@Suite(.queuedOnTheMainActor)\n@MainActor\nstruct D {\n    @Test func f() {}\n}\n"
    both = "@Suite(.queuedOnTheMainActor, .timeLimit(.minutes(2)))\n@MainActor\nstruct H {\n    @Test func f() {}\n}\n"
    assert len(violations(both, "h")) == 1
    five = "@Suite(.timeLimit(.minutes(5)))\n@MainActor\nstruct I {\n    @Test func f() {}\n}\n"
    assert violations(five, "i") == []
    off_main = "@Suite(.timeLimit(.minutes(1)))\nstruct E {\n    @Test func f() {}\n}\n"
    real_time = "@Suite(.realTime, .timeLimit(.minutes(1)))\nstruct F {\n    @MainActor\n    @Test func f() {}\n}\n"
    assert len(violations(bad, "a")) == 1
    assert len(violations(bad_block, "b")) == 1
    assert len(violations(bad_split, "c")) == 1
    assert violations(good, "d") == []
    assert violations(off_main, "e") == []
    assert violations(real_time, "f") == []
    assert len(violations(good + bad + off_main, "g")) == 1
    print("check-test-time-limits: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = sys.argv[1] if len(sys.argv) > 1 else "Tests"
    if not os.path.isdir(root):
        print(f"check-test-time-limits: no directory {root}", file=sys.stderr)
        return 2
    found = []
    for directory, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as file:
                    found += violations(file.read(), path)
    for line in found:
        print(line, file=sys.stderr)
    if found:
        return 1
    print("check-test-time-limits: every suite with a main-actor test has the main actor's time limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
