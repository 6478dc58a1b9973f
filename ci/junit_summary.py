#!/usr/bin/env python3
"""Markdown summary of JUnit XML files: one row per file, then every failed test case."""
import sys
import xml.etree.ElementTree as ET


def main(paths):
    rows, failures = [], []
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            rows.append((path, "-", "-", "-", f"unreadable: {e}"))
            continue
        suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
        total = failed = skipped = 0
        for s in suites:
            for case in s.iter("testcase"):
                total += 1
                if case.find("failure") is not None or case.find("error") is not None:
                    failed += 1
                    failures.append((path, case.get("classname", ""), case.get("name", "")))
                elif case.find("skipped") is not None:
                    skipped += 1
        rows.append((path, total, failed, skipped, "ok" if failed == 0 else "FAILED"))
    print("| report | tests | failed | skipped | result |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    if failures:
        print("\n### Failed\n")
        for path, cls, name in failures:
            print(f"- `{cls}.{name}` ({path})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
