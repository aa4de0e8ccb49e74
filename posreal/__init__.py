"""The ``posreal`` command line: one console script over theory/, checks/ and counterexamples/."""
