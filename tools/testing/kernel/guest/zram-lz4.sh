# Guest side of smoke.sh (run by busybox sh as /guest.sh): zram0 with lz4 holds data
# that reads back identical, then serves as swap; a second zram carries ext2.
# Prints "ZBW-RESULT: ok" only if every step passed.
set -eu
z=/sys/block/zram0
echo lz4 >$z/comp_algorithm
grep -q '\[lz4\]' $z/comp_algorithm || { echo "lz4 not selected: $(cat $z/comp_algorithm)"; exit 1; }
echo 64M >$z/disksize

# 4 MiB of text (compresses) then 4 MiB of random (stored as huge pages).
yes 'zbewalgo smoke: the quick brown fox jumps over the lazy dog' | head -c 4194304 >/tmp/data
head -c 4194304 /dev/urandom >>/tmp/data
dd if=/tmp/data of=/dev/zram0 bs=1M conv=fsync 2>/dev/null
blockdev --flushbufs /dev/zram0   # drop the page cache so the read hits zram
want=$(sha256sum </tmp/data)
got=$(head -c 8388608 /dev/zram0 | sha256sum)
[ "$want" = "$got" ] || { echo "read-back mismatch: $got != $want"; exit 1; }
echo "zram0 read-back ok: ${got%% *}"
echo "mm_stat: $(cat $z/mm_stat)"
read -r orig compr _ <$z/mm_stat
[ "$compr" -lt "$orig" ] || { echo "lz4 did not compress: compr $compr >= orig $orig"; exit 1; }

mkswap /dev/zram0 >/dev/null
swapon /dev/zram0
grep zram0 /proc/swaps
swapoff /dev/zram0

n=$(cat /sys/class/zram-control/hot_add)
d=zram$n
echo lz4 >"/sys/block/$d/comp_algorithm"
echo 16M >"/sys/block/$d/disksize"
mke2fs -q -b 4096 "/dev/$d"   # 1 KiB blocks do not mount on 4 KiB sectors
mkdir -p /mnt
mount -t ext2 "/dev/$d" /mnt
cp /tmp/data /mnt/data
umount /mnt
mount -t ext2 -o ro "/dev/$d" /mnt
[ "$(sha256sum </mnt/data)" = "$want" ] || { echo "ext2 on $d: mismatch"; exit 1; }
umount /mnt
echo "ext2 on $d ok, mm_stat: $(cat "/sys/block/$d/mm_stat")"

echo "ZBW-RESULT: ok"
