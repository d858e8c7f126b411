#!/usr/bin/env bash
# Register NVIDIA's OpenCL driver with the ICD loader for one shell, without
# changing the system: the driver installs libnvidia-opencl.so.1, but a
# machine whose /etc/OpenCL/vendors/ has no nvidia.icd shows only the other
# platforms (PoCL), and `gpubench list --impl opencl` finds no OpenCL GPU.
#
#   eval "$(scripts/opencl-icd.sh)"     # then: gpubench list --impl opencl
#
# Makes a directory holding the system's .icd files and one naming the NVIDIA
# library, and prints `export OCL_ICD_VENDORS=DIR` (the ICD loader reads
# the .icd files of that directory instead of /etc/OpenCL/vendors). Prints
# nothing and exits 0 when the system already registers it; exits 1, saying
# why on stderr, when no libnvidia-opencl.so.1 is found.
set -euo pipefail

usage() {
	sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	echo "options: --dir DIR (default \${TMPDIR:-/tmp}/gpubench-opencl-vendors-$(id -u)), -h/--help"
}

dir="${TMPDIR:-/tmp}/gpubench-opencl-vendors-$(id -u)"
while (($#)); do
	case $1 in
	--dir) [[ $# -ge 2 ]] || { echo "opencl-icd.sh: --dir needs a value" >&2; exit 2; }; dir=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "opencl-icd.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

system=${OPENCL_VENDOR_PATH:-/etc/OpenCL/vendors}
if grep -qs 'libnvidia-opencl' "$system"/*.icd; then
	exit 0 # already registered
fi

# The library where the dynamic loader finds it, else in the usual driver folders.
lib=""
if ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1 '; then
	lib=libnvidia-opencl.so.1
else
	for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib/aarch64-linux-gnu /usr/lib; do
		if [[ -e $d/libnvidia-opencl.so.1 ]]; then
			lib=$d/libnvidia-opencl.so.1
			break
		fi
	done
fi
if [[ -z $lib ]]; then
	echo "opencl-icd.sh: no libnvidia-opencl.so.1 found (ldconfig -p, /usr/local/nvidia/lib64, /usr/lib*):" \
		"NVIDIA's OpenCL comes with the driver's OpenCL package" >&2
	exit 1
fi

mkdir -p "$dir"
rm -f "$dir"/*.icd
for f in "$system"/*.icd; do
	[[ -e $f ]] && cp "$f" "$dir/"
done
printf '%s\n' "$lib" >"$dir/nvidia.icd"
printf 'export OCL_ICD_VENDORS=%q\n' "$dir"
