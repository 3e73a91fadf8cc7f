#!/usr/bin/env bash
# For the launch-prefix tests (tests/ssh/): OpenSSH's server and client, which the tests start on 127.0.0.1 with
# throwaway keys. Installs them from the distribution when missing and this runs as root (CI: a fresh clone, as
# root); otherwise says what is missing, and those tests are skipped with that reason. Never starts a server.
set -uo pipefail
missing=()
[[ -x /usr/sbin/sshd ]] || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
if (( ${#missing[@]} )); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]} for the SSH launch-prefix tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    # the package's own service must not start (containers have no init; the tests start their own server)
    policy=/usr/sbin/policy-rc.d; made_policy=0
    if [[ ! -e $policy ]]; then printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && made_policy=1; fi
    { apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; }; } ||
      echo "setup: could not install ${missing[*]}: the SSH launch-prefix tests will be skipped" >&2
    (( made_policy )) && rm -f "$policy"
  else
    echo "setup: ${missing[*]} missing (not root, or no apt-get): the SSH launch-prefix tests will be skipped" >&2
  fi
fi
# sshd started by root wants its privilege-separation folder
if [[ $(id -u) -eq 0 && -x /usr/sbin/sshd ]]; then mkdir -p /run/sshd && chmod 0755 /run/sshd; fi
exit 0
