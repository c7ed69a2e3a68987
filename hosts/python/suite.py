"""The tally both check scripts print: one line per case, then a closing line CI can read."""


def report(label, outcomes):
    """Prints each ``(name, problems)`` outcome and ``label: N passed, M failed``; returns the
    exit code (1 when anything failed or nothing ran)."""
    passed = failed = 0
    for name, problems in outcomes:
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   {name}")
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0
