#!/usr/bin/env bash
# Builds the firmware for Cortex-M4F (thumbv7em-none-eabihf, QEMU mps2-an386) and Cortex-M0
# (thumbv6m-none-eabi, QEMU microbit: 16 KiB RAM), runs both under QEMU with a timeout, checks
# the printed `bestmove` line and the exit status, and prints flash/RAM sizes.
# Needs qemu-system-arm (Debian: apt-get install qemu-system-arm) and binutils' `size`.
set -euo pipefail
cd "$(dirname "$0")"

command -v qemu-system-arm >/dev/null || { echo "run.sh: qemu-system-arm not found" >&2; exit 1; }

run_one() {
  local target=$1 cpu=$2 machine=$3
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  cargo build --release --target "$target"
  local elf="target/$target/release/imcts-firmware" out
  if ! out=$(timeout 120 qemu-system-arm -cpu "$cpu" -machine "$machine" -nographic \
      -semihosting-config enable=on,target=native -kernel "$elf"); then
    printf '%s\n' "$out"
    echo "run.sh: $target on $machine failed (exit status or timeout)" >&2
    return 1
  fi
  printf '%s: %s\n' "$target" "$out"
  if ! grep -Eq '^bestmove [a-h][1-8][-x][a-h][1-8] .* sims 300 ' <<<"$out"; then
    echo "run.sh: $target printed no bestmove line" >&2
    return 1
  fi
  # Flash: what is loaded (vector table, code, constants, .data's image). RAM: static data.
  size -A "$elf" | awk -v t="$target" '
    $1 == ".vector_table" || $1 == ".text" || $1 == ".rodata" { flash += $2 }
    $1 == ".data" { flash += $2; ram += $2 }
    $1 == ".bss" || $1 == ".uninit" { ram += $2 }
    END { printf "%s: flash %d bytes, static RAM %d bytes\n", t, flash, ram
          # Issue 12: the Cortex-M4F image fits 64 KiB of flash (and both fit 16 KiB of RAM).
          if ((t == "thumbv7em-none-eabihf" && flash > 65536) || ram > 16384) {
            printf "run.sh: %s exceeds its flash or RAM budget\n", t > "/dev/stderr"; exit 1 } }'
}

run_one thumbv7em-none-eabihf cortex-m4 mps2-an386
run_one thumbv6m-none-eabi cortex-m0 microbit
echo "firmware: both targets passed"
