#!/usr/bin/env bash
# What a user's pre-commit does with a release tag, before the tag is pushed anywhere:
#
#   bash bench/release_tag_check.sh        # PYTHON=venv/bin/python (with pre-commit) WHEELHOUSE=dir
#
# 1. A scratch repository holds this worktree's HEAD commit (uncommitted changes are not in it)
#    tagged v<drafterlint.__version__>, as a release tags it.
# 2. A small rules repository with one broken link.
# 3. `pre-commit try-repo <scratch> drafterlint --ref v<version>` installs the hook from the tag
#    and runs it: it must fail with DL201 on the broken link.
# 4. A .pre-commit-config.yaml naming the scratch repository with `rev: v<version>` and the
#    `drafterlint-fix` hook: `pre-commit run --all-files` must mend the link (exit 1, the file
#    modified), and the run after it must pass.
#
# pre-commit pip-installs the hook repository into its own virtualenv. Steps 3 and 4 run with
# PIP_NO_INDEX=1 from a wheelhouse: WHEELHOUSE names one (wheels of drafterlint's dependencies and
# of setuptools>=77, the build backend), else step 0 makes it with `pip wheel`, which needs the
# package index once. Everything else is local: the hook repository is a path, PRE_COMMIT_HOME a
# temporary folder. Prints each step and ends with "release tag check: passed"; exits non-zero
# at the first step that does not do what it should.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
version="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/src/drafterlint/__init__.py")"
tag="v${version}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git_() {
  git -c user.name=release-check -c user.email=release-check@example.invalid \
      -c init.defaultBranch=main -c commit.gpgsign=false -c tag.gpgsign=false "$@"
}

echo "== 1. the scratch hook repository: $(git -C "$ROOT" rev-parse --short HEAD) tagged ${tag}"
hookrepo="$work/drafterlint"
git_ init -q "$hookrepo"
git_ -C "$hookrepo" fetch -q "$ROOT" HEAD
git_ -C "$hookrepo" checkout -q FETCH_HEAD
git_ -C "$hookrepo" tag -a "$tag" -m "drafterlint ${version}"

if [ -z "${WHEELHOUSE:-}" ]; then
  echo "== 0. a wheelhouse for pre-commit's install (pip wheel: needs the package index)"
  WHEELHOUSE="$work/wheelhouse"
  "$PYTHON" -m pip wheel --quiet --wheel-dir "$WHEELHOUSE" "$hookrepo" "setuptools>=77"
fi

echo "== 2. a rules repository with one broken link"
rules="$work/rules"
mkdir -p "$rules"
cat >"$rules/endpoints_rules.md" <<'EOF'
# Endpoints Rules

## 1. Basics

See [§2.9](#28-model-equivalence-rules).

## 2. Models

### 2.9 Model Equivalence Rules

Drafters must be approved.
EOF
printf 'select: [DL2]\n' >"$rules/.drafterlint.yaml"
git_ -C "$rules" init -q
git_ -C "$rules" add .
git_ -C "$rules" commit -qm rules

export PRE_COMMIT_HOME="$work/pre-commit-home" PRE_COMMIT_COLOR=never
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$WHEELHOUSE" XDG_CACHE_HOME="$work/xdg"
unset VIRTUAL_ENV DRAFTERLINT_CACHE GITHUB_STEP_SUMMARY || true
pre_commit() { (cd "$rules" && "$PYTHON" -m pre_commit "$@"); }

expect() {  # expect STATUS PATTERN LOG: the step exited STATUS and its output matches PATTERN
  if [ "$1" != "$3" ] || ! grep -Eq "$2" "$4"; then
    cat "$4" >&2
    echo "release tag check: expected exit $1 and /$2/, got exit $3" >&2
    exit 1
  fi
}

echo "== 3. pre-commit try-repo at ${tag}"
status=0
pre_commit try-repo "$hookrepo" drafterlint --ref "$tag" --all-files --verbose >"$work/try.log" 2>&1 || status=$?
expect 1 'endpoints_rules\.md:5:[0-9]+: DL201 broken-fragment' "$status" "$work/try.log"
grep -E 'DL201' "$work/try.log"

echo "== 4. .pre-commit-config.yaml with rev: ${tag}"
cat >"$rules/.pre-commit-config.yaml" <<EOF
repos:
  - repo: ${hookrepo}
    rev: ${tag}
    hooks:
      - id: drafterlint-fix
EOF
git_ -C "$rules" add .pre-commit-config.yaml
git_ -C "$rules" commit -qm "pre-commit"
status=0
pre_commit run --all-files >"$work/run.log" 2>&1 || status=$?
expect 1 'files were modified by this hook' "$status" "$work/run.log"
grep -q '#29-model-equivalence-rules' "$rules/endpoints_rules.md" || { echo "the link was not mended" >&2; exit 1; }
git -C "$rules" diff --stat
status=0
pre_commit run --all-files >"$work/run2.log" 2>&1 || status=$?
expect 0 'Passed' "$status" "$work/run2.log"
grep -E 'Passed' "$work/run2.log"

echo "release tag check: passed (${tag}, hook installed offline from ${WHEELHOUSE})"
