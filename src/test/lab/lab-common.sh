# Shared by the lab's build scripts (sourced, not run). Debian packages only; no root needed here.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

LAB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# The Debian guests' packages (build-root-tree.sh installs them; prepare-as-root.sh keys its cache on them)
LAB_ROOT_PACKAGES="systemd systemd-sysv udev kmod openssh-server pciutils initramfs-tools zstd grub2-common grub-pc-bin iproute2 procps"

die() { echo "lab: $*" >&2; exit 1; }
need() { # command package
  command -v "$1" >/dev/null 2>&1 || die "$1 is missing: apt-get install $2 (see config/apt-packages-lab.txt)"
}

# The kernel image package linux-image-amd64 points at, and its candidate version.
kernel_package() {
  local name
  name="$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)"
  [ -n "$name" ] || die "apt-cache does not know linux-image-amd64: run apt-get update"
  echo "$name"
}
package_version() {
  apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | head -n1
}

# Cache key of an output: the scripts that make it plus the versions of the packages it is made from.
cache_key() { # files... -- packages...
  local files=() pkgs=() seen=0
  for a in "$@"; do
    if [ "$a" = "--" ]; then seen=1; continue; fi
    if [ "$seen" = 0 ]; then files+=("$a"); else pkgs+=("$a=$(package_version "$a")"); fi
  done
  { cat "${files[@]}"; printf '%s\n' "${pkgs[@]}"; } | sha256sum | cut -c1-16
}

# apt-get download into DIR (as any user; the _apt sandbox warning as root is harmless).
download() { # dir package
  (cd "$1" && apt-get download -q "$2" 2>&1 | grep -v "unsandboxed" >&2 || true)
  ls "$1"/"$2"_*.deb >/dev/null 2>&1 || die "apt-get download $2 failed"
}

# Unpacks the kernel image package into DIR (boot/, lib/modules/VERSION/) and runs depmod: the .deb ships
# no modules.dep. Prints the kernel version.
unpack_kernel() { # dir
  local dir="$1" pkg version
  pkg="$(kernel_package)"
  version="${pkg#linux-image-}"
  mkdir -p "$dir/debs"
  download "$dir/debs" "$pkg"
  dpkg-deb -x "$dir/debs/${pkg}_"*.deb "$dir/root"
  depmod -b "$dir/root" "$version"
  echo "$version"
}

# The uncompressed vmlinux from a bzImage (XZ payload): boots through the PVH entry, seconds faster under TCG.
extract_vmlinux() { # bzImage out
  local off
  off="$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | head -n1 | cut -d: -f1)"
  [ -n "$off" ] || die "no XZ payload in $1"
  tail -c +"$((off + 1))" "$1" | xz -dc > "$2" 2>/dev/null || true
  [ -s "$2" ] && file "$2" | grep -q ELF || die "could not extract vmlinux from $1"
}

# The lab's SSH client key (the product logs in with it; every guest authorises it).
ensure_key() { # lab-dir
  mkdir -p "$1/ssh"
  if [ ! -s "$1/ssh/id_ed25519" ]; then
    need ssh-keygen openssh-client
    ssh-keygen -q -t ed25519 -N "" -C gpuforge-lab -f "$1/ssh/id_ed25519"
  fi
}

# Copies a dynamically linked program and the libraries it needs into a root.
copy_with_libs() { # root program...
  local root="$1"; shift
  for p in "$@"; do
    install -D -m 0755 "$p" "$root$p"
    ldd "$p" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
      [ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
    done
  done
}
