#!/usr/bin/env bash
# Install what building and testing gpubench needs on Debian or Ubuntu (make deps, .ci/run).
# Says what it installs; uses sudo when not run as root. --list prints the packages and
# whether each is installed, and installs nothing.
set -euo pipefail

# build-essential: gcc and make; pkg-config and libcjson-dev: the JSON reports; python3: the
# figure scripts and tests; gnuplot-nox: the plots; OpenCL: the list --impl opencl build and PoCL
# to run it on the CPU.
packages=(build-essential pkg-config libcjson-dev python3 gnuplot-nox ocl-icd-opencl-dev
	opencl-c-headers pocl-opencl-icd)

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if [[ ${1:-} == --list ]]; then
	for p in "${packages[@]}"; do
		if installed "$p"; then echo "$p installed"; else echo "$p missing"; fi
	done
	exit 0
elif [[ $# -gt 0 ]]; then
	echo "usage: scripts/deps.sh [--list]" >&2
	exit 2
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
	echo "deps: this is not a Debian or Ubuntu machine; install the equivalents of: ${packages[*]}" >&2
	exit 1
fi
missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "deps: everything is installed (${packages[*]})"
	exit 0
fi
echo "deps: installing ${missing[*]}"
sudo=()
[[ $(id -u) == 0 ]] || sudo=(sudo)
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
echo "deps: installed ${missing[*]}; the CUDA toolkit (nvcc) is optional and not installed by this script"
