#!/usr/bin/env bash
# The pull request of docs/reviewing-a-pull-request.md, built and reviewed for real: every
# output block of that page is what this script printed. Needs `git correx` on PATH.
#
#   bash examples/reviewing-a-pull-request.sh [WORKDIR]
#
# A team repository (a bare `origin`), a developer (and their agent) on a branch, CI, and a
# reviewer's clone. Dates and identities are fixed; the ledger's event times are real.
set -euo pipefail

WORK=${1:-$(mktemp -d)}
mkdir -p "$WORK" && cd "$WORK"
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_CONFIG_GLOBAL GIT_OBJECT_DIRECTORY EMAIL
export GIT_CONFIG_NOSYSTEM=1 HOME="$WORK/home" GIT_AUTHOR_DATE="2026-03-02T09:00:00Z"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
mkdir -p "$HOME"
git config --global init.defaultBranch main
as() {   # who acts from here on: git's identity, which the ledger records too
    export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_COMMITTER_NAME="$1" GIT_COMMITTER_EMAIL="$2"
}
show() { printf '\n$ %s\n' "$*"; "$@" || true; }   # a command and what it printed

as "Ada Developer" ada@example.test

git init -q --bare origin.git
git clone -q origin.git dev 2>/dev/null && cd dev
mkdir -p src tests
cat > .correx.toml <<'TOML'
version = 1

[commands]
test = "python3 tests/check.py"

[expectations]
test = ["test"]

[defaults]
expectation = "test"

[stages.implement]
writes = ["/src/**", "/tests/**"]
TOML
printf 'def greet(name):\n    return "Hello"\n' > src/app.py
cat > tests/check.py <<'PY'
import os, sys
sys.path.insert(0, "src")
from app import greet
assert greet("Ada").startswith("Hello"), greet("Ada")
if os.environ.get("SLOW_NETWORK"):  # a test that depends on the machine's luck
    sys.exit("test_fetch_greeting: timed out after 2.0 s")
PY
printf '__pycache__/\n' > .gitignore
git add -A && git commit -qm "Start the greeter" && git push -q origin main
git remote set-head origin main

git switch -q -c feature/greeting
printf 'def greet(name):\n    return f"Hello, {name}"\n' > src/app.py
git commit -qam "Greet by name"
git correx verify --quiet                                   # the developer's run: pass
printf 'def greet(name):\n    return f"Hello, {name or \x27stranger\x27}"\n' > src/app.py
git commit -qam "Greet strangers too"
SLOW_NETWORK=1 git correx verify --quiet || true            # a flaky failure...
git correx verify --quiet                                   # ...and a pass of the same tree
git correx assess write README.md --stage implement || true # the agent asks first: prevented
mkdir -p docs && printf '# Changes\n\n- greet by name\n' > docs/CHANGELOG.md
git add -A && git commit -qm "Note the change"
git correx verify --quiet
git correx verify --quiet --reuse                           # a second run on the same tree
git push -q origin feature/greeting && git correx sync origin >/dev/null

cd "$WORK" && git clone -q origin.git ci 2>/dev/null && cd ci     # CI, as the Action runs
git switch -q feature/greeting
git fetch -q --no-tags origin refs/notes/correx:refs/notes/correx
as "correx CI" ci@example.test
git correx check origin/main..HEAD --stage implement --record --format github >/dev/null || true
git correx verify --quiet --reuse                           # CI reuses the developer's pass
git correx sync origin >/dev/null

cd "$WORK" && git clone -q origin.git review 2>/dev/null && cd review   # the reviewer
as "Rui Reviewer" rui@example.test
git switch -q feature/greeting
git fetch -q --no-tags origin refs/notes/correx:refs/notes/correx
echo "=== outputs ==="
show git correx check origin/main..HEAD --stage implement --require-pass --format github
show git correx report
git correx check origin/main..HEAD --stage implement --require-pass --format sarif \
    > review.sarif || true
printf '\n$ git correx check origin/main..HEAD --stage implement --require-pass --format sarif > review.sarif\n'
show python3 -c 'import json; print(json.dumps(json.load(open("review.sarif"))["runs"][0]["results"], indent=2))'
show git ls-remote origin "refs/notes/*"
show git correx log
show git correx show HEAD
