#!/bin/sh
# The temporary folder `make test` and `make check` give the tests and the pipeline cases
# (TMPDIR): a private folder on /dev/shm when that is a tmpfs this user can write, run
# programs from and that has room, else nothing (the tests keep the caller's TMPDIR).
# Prints the folder's path.
#
# Why: the tests create and remove tens of thousands of files (a git repository each, run
# folders, 10,000 folders for a walk limit). On a disk mounted with online `discard`, as on
# the 2-core CI host, removing them waits on the device: qa-intent, qa-diff, qa-manifest and
# qa-fetch's 683 tests took 107 s with 61 s of CPU on /tmp, 59 s with 37 s on /dev/shm
# (bench/README.md, issue 28, ninth pass). The files are the same; only their medium changes.
#
# Environment: SHM (default /dev/shm), MIN_FREE_KB (default 2 GiB: the suite keeps a few
# hundred MB there at a time, the packaging tests' unpacked archives the largest).
set -eu
shm=${SHM:-/dev/shm}
min_free_kb=${MIN_FREE_KB:-2097152}
uid=$(id -u)
dir=$shm/qapipe-tests-$uid

[ -d "$shm" ] && [ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] || exit 0
free_kb=$(df -Pk "$shm" | awk 'NR == 2 { print $4 }')
[ "${free_kb:-0}" -ge "$min_free_kb" ] || exit 0
# A folder another user made in the shared /dev/shm, or a link, is not ours to use.
if [ -e "$dir" ] || [ -L "$dir" ]; then
  [ -d "$dir" ] && [ ! -L "$dir" ] && [ "$(stat -c %u "$dir")" = "$uid" ] || exit 0
else
  mkdir -m 700 "$dir" 2>/dev/null || exit 0
fi
chmod 700 "$dir"
# Tests run scripts they write (fake runners, counting wrappers): a noexec mount will not do.
probe=$(mktemp "$dir/probe.XXXXXX") || exit 0
printf '#!/bin/sh\nexit 0\n' > "$probe"
chmod 700 "$probe"
if "$probe" 2>/dev/null; then
  rm -f "$probe"
  echo "$dir"
else
  rm -f "$probe"
fi
