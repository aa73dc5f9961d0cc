#!/bin/sh
# tests/fresh/run.sh - the README's quick start on a fresh Debian 12.
#
#   sh tests/fresh/run.sh [--keep] [SCENARIO...]
#
# Makes a new Debian 12 (bookworm) root with debootstrap (--variant=minbase:
# no compiler, no sudo), adds git and make only, clones this repository at
# its current commit (HEAD: commit first) into it, and runs the README's two
# commands there, `make demo` then `make check`, then installs carc as the
# README says and runs its examples that type carc by name
# (tests/fresh/examples.sh), in each SCENARIO (default "root user"):
#   root  as root (no sudo, as on a machine whose installer set a root password)
#   user  as a user in group sudo with a password (as Debian's installer sets
#         up a machine without a root password): first without a terminal,
#         where tests/deps.sh must stop with the exact sudo command to copy;
#         then on a terminal, where sudo asks and the password is typed once
#         (tests/fresh/typist.py, a pty: sudo reads only from a terminal, and
#         a password on standard input with sudo -S is not what a person does;
#         su --pty, as su -c alone starts a session with no terminal)
#   ci    as root, CI=true bash .ci/run (installs Chromium, Node, clang: big),
#         but for its own tests/fresh step (no root within a root)
# Each scenario gets its own root from the same bootstrap, which is cached as
# a tarball in $FRESH_CACHE (default build-fresh, git-ignored and kept by
# make clean) so that a rerun skips debootstrap; delete it to bootstrap
# anew. The logs go there too. The roots themselves, with /proc, /sys and
# /dev mounted in them, are made outside the repository (in $FRESH_ROOTS,
# default /var/tmp), so that nothing walking tests/ wanders into them. Needs root (chroot,
# mounts) and the network to Debian's mirror ($FRESH_MIRROR); installs
# debootstrap when missing. Prints the time each step took and ends with
# "N passed, N failed". --keep leaves the roots (unmounted) in place.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
keep=0
[ "${1:-}" = --keep ] && keep=1 && shift
scenarios=${*:-root user}
MIRROR=${FRESH_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
cache=${FRESH_CACHE:-$top/build-fresh}
roots_dir=${FRESH_ROOTS:-/var/tmp}
tarball=$cache/$SUITE-minbase-git-make.tar.gz
user=alice
password=carc-fresh-test
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
now() { date +%s; }

if [ "$(id -u)" != 0 ]; then
	echo "skip: tests/fresh needs root (debootstrap, chroot and mounts)"
	echo "0 passed, 0 failed"
	exit 0
fi
commit=$(git -C "$top" rev-parse HEAD) || exit 2
if [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
	echo "note: uncommitted changes are not tested: the root gets commit $commit"
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null || {
		echo "FAIL cannot install debootstrap"; echo "0 passed, 1 failed"; exit 1; }
fi
command -v python3 >/dev/null 2>&1 || {
	apt-get install -y -qq python3 >/dev/null || { echo "FAIL cannot install python3"; echo "0 passed, 1 failed"; exit 1; }; }
mkdir -p "$cache"

# mounted ROOT: is anything mounted under ROOT?
mounted() { grep -q " $1/" /proc/mounts; }
# release ROOT: unmount what enter mounted; remove ROOT unless --keep.
release() {
	for m in dev/pts dev proc sys; do
		mountpoint -q "$1/$m" 2>/dev/null && umount -R "$1/$m" 2>/dev/null
	done
	if mounted "$1"; then
		for m in dev/pts dev proc sys; do umount -R -l "$1/$m" 2>/dev/null; done
	fi
	if mounted "$1"; then
		echo "note: $1 still has mounts: not removed"
		return
	fi
	[ $keep -eq 1 ] || rm -rf "$1"
}
roots=""
trap 'for r in $roots; do release "$r"; done' EXIT
trap 'exit 130' INT TERM

# The bootstrap, once: minbase (Debian's essential and required packages,
# apt) plus git and make; apt sources as an installed Debian 12 has them.
if ! [ -s "$tarball" ]; then
	base=$cache/bootstrap
	rm -rf "$base"
	t0=$(now)
	echo "bootstrapping $SUITE from $MIRROR into $base"
	if ! debootstrap --variant=minbase --include=git,make,ca-certificates "$SUITE" "$base" "$MIRROR" \
		>"$cache/debootstrap.log" 2>&1; then
		tail -n 20 "$cache/debootstrap.log"
		bad "debootstrap (see $cache/debootstrap.log)"
		echo "$passed passed, $failed failed"
		exit 1
	fi
	cat >"$base/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main
EOF
	rm -f "$base"/var/cache/apt/archives/*.deb
	rm -rf "$base"/var/lib/apt/lists/*
	tar -C "$base" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	rm -rf "$base"
	echo "bootstrap: $(($(now) - t0)) s, $(du -h "$tarball" | cut -f1) cached in $tarball"
fi

# enter NAME: a new root from the tarball, mounted, in $r.
enter() {
	r=$(mktemp -d "$roots_dir/carc-fresh-$1.XXXXXX") || return 1
	chmod 755 "$r"
	echo "     $1: a new root in $r"
	tar -C "$r" -xzf "$tarball" || return 1
	roots="$roots $r"
	mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" && mount --make-rslave "$r/sys" &&
		mount --rbind /dev "$r/dev" && mount --make-rslave "$r/dev" || return 1
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null
	# This sandbox's own setup, not a fresh machine's: its network intercepts
	# TLS with authorities of its own, which the host trusts (in
	# /usr/local/share/ca-certificates, and Node through NODE_EXTRA_CA_CERTS)
	# and a new root does not, so that npm fails there with
	# SELF_SIGNED_CERT_IN_CHAIN. The host's local authorities are copied in
	# and added to the root's bundle, and in_root hands Node that bundle when
	# the host's Node is given one. A real fresh machine needs neither; the
	# project's own scripts (tests/deps.sh, .ci/run) do nothing of the kind.
	if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
		mkdir -p "$r/usr/local/share/ca-certificates" &&
			cp /usr/local/share/ca-certificates/*.crt "$r/usr/local/share/ca-certificates/" &&
			chroot "$r" update-ca-certificates >/dev/null 2>&1 ||
			echo "note: the host's certificate authorities could not be added to $r"
	fi
	echo "$1-fresh" >"$r/etc/hostname"
	# the chroot shares the host's name: sudo looks it up
	printf '127.0.0.1 localhost\n127.0.1.1 %s\n' "$(hostname)" >"$r/etc/hosts"
}
# clone ROOT HOME OWNER: this repository at $commit into ROOT/HOME/carc.
clone() {
	git clone -q --no-hardlinks "$top" "$1$2/carc" && git -C "$1$2/carc" checkout -q "$commit" &&
		chroot "$1" chown -R "$3" "$2/carc" # (the owner as the root names it)
}
# in ROOT CMD...: CMD in ROOT with a clean environment, as a login would have it.
in_root() {
	r=$1
	shift
	chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt} "$@"
}
# timed NAME LOG CMD...: runs CMD, its output in LOG; one line with the time and verdict.
timed() {
	name=$1 log=$2
	shift 2
	t0=$(now)
	"$@" >"$log" 2>&1
	st=$?
	echo "     $name: $(($(now) - t0)) s, exit $st; $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
	return $st
}

for s in $scenarios; do
	case $s in
	root)
		enter root || { bad "root: cannot make the root"; continue; }
		clone "$r" /root root:root || { bad "root: clone"; continue; }
		log=$cache/root.log
		if timed "root: make demo && make check" "$log" in_root "$r" sh -c 'cd /root/carc && make demo && make check && make install && sh tests/fresh/examples.sh' </dev/null; then
			ok "root: make demo, make check, make install and the README's carc examples in a fresh $SUITE root (log $log)"
		else
			tail -n 30 "$log"
			bad "root: make demo && make check (log $log)"
		fi
		grep -q '^carc: the build needs these' "$log" && grep -q 'build-essential' "$log" &&
			ok "root: deps.sh named and installed the compiler" ||
			bad "root: deps.sh did not say it installs build-essential"
		grep -q '^make: .*No such file or directory' "$log" && bad "root: a missing program in $log"
		release "$r"
		;;
	user)
		enter user || { bad "user: cannot make the root"; continue; }
		# as Debian's installer leaves a machine with no root password: sudo, and the first user in group sudo
		if ! in_root "$r" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sudo >/dev/null &&
			useradd -m -s /bin/bash -G sudo $user && echo '$user:$password' | chpasswd" >"$cache/user-setup.log" 2>&1; then
			cat "$cache/user-setup.log"
			bad "user: cannot install sudo or add $user"
			continue
		fi
		clone "$r" "/home/$user" "$user:$user" || { bad "user: clone"; continue; }
		log=$cache/user-notty.log
		timed "user, no terminal: make demo" "$log" in_root "$r" su - "$user" -c 'cd carc && make demo' </dev/null
		st=$?
		if [ $st -ne 0 ] && grep -q '^    sudo apt-get update && sudo apt-get install -y build-essential' "$log"; then
			ok "user, no terminal: make demo stops with the sudo command to copy"
		else
			cat "$log"
			bad "user, no terminal: make demo exit $st without the sudo command to copy (log $log)"
		fi
		log=$cache/user.log
		printf '%s\n' "$password" >"$cache/password"
		if timed "user, on a terminal: make demo && make check" "$log" \
			python3 "$top/tests/fresh/typist.py" "$cache/password" \
			chroot "$r" /usr/bin/env -i PATH=/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
			su --pty - "$user" -c 'cd carc && make demo && make check' </dev/null; then
			ok "user: make demo and make check with a password sudo (log $log)"
		else
			tail -n 30 "$log"
			bad "user: make demo && make check with a password sudo (log $log)"
		fi
		typed=$(grep -o 'typed [0-9]* time' "$log" | grep -o '[0-9]*')
		[ "${typed:-0}" = 1 ] && ok "user: the password was typed once" ||
			bad "user: the password was typed ${typed:-0} times, not once"
		# then, on a new terminal (sudo asks again there), the README's install and examples
		log=$cache/user-install.log
		if timed "user: sudo make install && the README's carc examples" "$log" \
			python3 "$top/tests/fresh/typist.py" "$cache/password" \
			chroot "$r" /usr/bin/env -i PATH=/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
			su --pty - "$user" -c 'cd carc && sudo make install && sh tests/fresh/examples.sh' </dev/null; then
			ok "user: sudo make install and the README's carc examples (log $log)"
		else
			tail -n 30 "$log"
			bad "user: sudo make install and the README's carc examples (log $log)"
		fi
		release "$r"
		;;
	ci)
		enter ci || { bad "ci: cannot make the root"; continue; }
		clone "$r" /root root:root || { bad "ci: clone"; continue; }
		[ -d "$top/../shared" ] && cp -r "$top/../shared" "$r/root/shared"
		log=$cache/ci.log
		if timed "ci: .ci/run" "$log" in_root "$r" sh -c 'cd /root/carc && CI=true FRESH_BUDGET=999999 bash .ci/run' </dev/null; then
			ok "ci: .ci/run in a fresh $SUITE root (log $log)"
		else
			tail -n 30 "$log"
			bad "ci: .ci/run (log $log)"
		fi
		release "$r"
		;;
	*) bad "unknown scenario '$s' (root, user, ci)" ;;
	esac
done
rm -f "$cache/password"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
