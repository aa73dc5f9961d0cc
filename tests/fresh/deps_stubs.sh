#!/bin/sh
# tests/fresh/deps_stubs.sh - tests/deps.sh's choices, with stand-ins for
# apt-get, sudo, id and dpkg-query on a PATH of their own (nothing is
# installed): a missing compiler is named as such; a user whose sudo needs
# a password gets the exact command when there is no terminal, and sudo
# asks when there is one; apt-get's own errors are shown; one install at
# most, then one probe more, never a loop. (tests/fresh/run.sh does the
# real thing in a fresh Debian root.) Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# the tools deps.sh uses, and nothing else (no compiler, no real sudo or apt)
mkdir -p "$tmp/bin"
for t in sh mktemp rm mkdir dirname basename head tail tr cut cat env grep sleep; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
# apt-get: logs its arguments; STUB_APT=fail: fails as apt does on a bad package name
cat >"$tmp/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$STUB_LOG"
if [ "${STUB_APT:-}" = fail ] && [ "$1" = install ]; then
	echo "E: Unable to locate package build-essential" >&2
	exit 100
fi
echo "(apt-get $1 done)"
EOF
# sudo: needs a password (sudo -n fails); with one, runs the command
cat >"$tmp/bin/sudo" <<'EOF'
#!/bin/sh
[ "$1" = -n ] && { echo "sudo: a password is required" >&2; exit 1; }
echo "sudo $*" >>"$STUB_LOG"
exec "$@"
EOF
printf '#!/bin/sh\necho "${STUB_UID:-1000}"\n' >"$tmp/bin/id"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/sudo" "$tmp/bin/id" "$tmp/bin/dpkg-query"
mkdir -p "$tmp/nosudo"
for f in "$tmp"/bin/*; do [ "$(basename "$f")" = sudo ] || ln -s "$f" "$tmp/nosudo/"; done

# deps BIN [VAR=VALUE...]: tests/deps.sh with no compiler (CC is no program),
# PATH=BIN, standard input not a terminal; its output in $tmp/out, the
# stand-ins' log in $tmp/log.
deps() {
	bin=$1
	shift
	: >"$tmp/log"
	env -i PATH="$bin" CC=carc-no-such-cc DEPS_LOG="$tmp/deps.log" STUB_LOG="$tmp/log" "$@" \
		"$tmp/bin/sh" "$top/tests/deps.sh" </dev/null >"$tmp/out" 2>&1
}
has() { grep -q -F -- "$1" "$2"; }
installs() { grep -c 'apt-get install' "$tmp/log"; }

# a user, sudo with a password, no terminal: the command to copy, nothing run
deps "$tmp/bin"
st=$?
[ $st -eq 1 ] && ok || bad "no terminal: exit $st, not 1"
has "no C compiler: 'carc-no-such-cc' is not installed" "$tmp/out" && ok ||
	bad "no terminal: the missing compiler is not named: $(cat "$tmp/out")"
has "    sudo apt-get update && sudo apt-get install -y build-essential" "$tmp/out" && ok ||
	bad "no terminal: no sudo command to copy: $(cat "$tmp/out")"
[ -s "$tmp/log" ] && bad "no terminal: sudo or apt-get was run: $(cat "$tmp/log")" || ok

# a user without sudo: the command to run as root
deps "$tmp/nosudo"
has "    apt-get update && apt-get install -y build-essential" "$tmp/out" && ok ||
	bad "no sudo: no command to run as root: $(cat "$tmp/out")"

# root, apt-get fails: its error is shown, one install tried
deps "$tmp/bin" STUB_UID=0 STUB_APT=fail
st=$?
[ $st -eq 1 ] && ok || bad "apt fails: exit $st, not 1"
has "E: Unable to locate package build-essential" "$tmp/out" && ok ||
	bad "apt fails: apt-get's error is not shown: $(cat "$tmp/out")"
[ "$(installs)" = 1 ] && ok || bad "apt fails: $(installs) installs, not 1"

# root, apt-get succeeds but the compiler is still not there: said, no loop
deps "$tmp/bin" STUB_UID=0
st=$?
[ $st -eq 1 ] && ok || bad "still missing: exit $st, not 1"
has "still missing after the install: build-essential" "$tmp/out" && ok ||
	bad "still missing: not said: $(cat "$tmp/out")"
# (the main install, and the optional GNU parallel's)
[ "$(installs)" -le 2 ] && ok || bad "still missing: $(installs) installs: a loop"

# a user on a terminal: sudo is run (it asks for the password itself)
if command -v script >/dev/null 2>&1; then
	: >"$tmp/log"
	script -qec "env -i PATH='$tmp/bin' CC=carc-no-such-cc DEPS_LOG='$tmp/deps.log' STUB_LOG='$tmp/log' \
		'$tmp/bin/sh' '$top/tests/deps.sh'" /dev/null </dev/null >"$tmp/out" 2>&1
	has "sudo apt-get update" "$tmp/log" && has "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y build-essential" "$tmp/log" &&
		ok || bad "terminal: sudo apt-get not run: $(cat "$tmp/out" "$tmp/log")"
	has "it may ask for your password" "$tmp/out" && ok || bad "terminal: the password question is not announced: $(cat "$tmp/out")"
else
	echo "skip: no script(1) to give deps.sh a terminal"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
