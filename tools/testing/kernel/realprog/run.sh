#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh PROGRAM: one program of realprog.sh, run in the Debian rootfs
# (chroot) inside the memory-limited cgroup; "run.sh setup PROGRAMS" does
# once per boot, outside the timed runs, what they need first.
# ZBW_RP_SCALE scales the programs' sizes (percent; 100 = the sizes
# tools/testing/kernel/README.md was measured with).
set -eu
S=${ZBW_RP_SCALE:-100}
PG=/usr/lib/postgresql/15/bin
PGDATA=/var/lib/postgresql/15/main
# PostgreSQL refuses to run as root.
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
cd /tmp
case $1 in
setup)
	case ,$2, in *,jvm-hashmap,*)
		# The JRE's module image has javac (jdk.compiler); no JDK needed.
		java -m jdk.compiler/com.sun.tools.javac.Main -d /tmp/java /realprog/HeapMap.java ;;
	esac
	case ,$2, in *,postgres-pgbench,*)
		chown postgres:postgres /run/postgresql
		[ -f $PGDATA/PG_VERSION ] || { echo "run.sh: no cluster in $PGDATA" >&2; exit 1; } ;;
	esac ;;
python-heap) exec python3 /realprog/python-heap.py $((800 * S)) ;;
numpy-solver) exec python3 /realprog/numpy-solver.py 200 $((80 * S / 100)) ;;
jvm-hashmap)
	exec java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp /tmp/java HeapMap $((1000 * S)) ;;
gcc-build)
	# gcc -O2 -g compiling zbewalgo's library, its own source (make -j2):
	# the first 6 files by name of what user space builds, core/ and
	# classic/ (ZBW_RP_SCALE scales that too).
	rm -rf /tmp/gcc && mkdir /tmp/gcc && cd /tmp/gcc
	tar -xf /realprog/zbewalgo-src.tar
	objs=$(ls lib/zbewalgo/core/*.c lib/zbewalgo/classic/*.c | sort -t/ -k4 |
		head -n $((6 * S / 100)) | sed 's|^|build/|; s|\.c$|.o|')
	make -s -j2 $objs
	ls $objs | wc -l
	rm -rf /tmp/gcc ;;
postgres-pgbench)
	# The server and pgbench both in the limit: shared_buffers and the
	# backends' memory are what swaps; the tables are on the (snapshot) disk.
	as_pg $PG/pg_ctl -D $PGDATA -w -l /tmp/pg.log -o "-c config_file=/etc/postgresql/15/main/postgresql.conf \
		-c listen_addresses= -c shared_buffers=128MB -c fsync=off -c synchronous_commit=off" start
	trap 'as_pg $PG/pg_ctl -D $PGDATA -m fast -w stop' EXIT
	as_pg pgbench -q -i -s $((4 * S / 100)) postgres
	as_pg pgbench -n -c 2 -j 2 -t $((2 * S)) postgres | grep -E '^(number of transactions actually|tps)' ;;
redis-store)
	# The server in the limit, as PostgreSQL's: the data set is in its
	# memory (no persistence); the loader, a Python client, beside it.
	redis-server --port 0 --unixsocket /tmp/redis.sock --save '' --appendonly no \
		--daemonize yes --pidfile /tmp/redis.pid --logfile /tmp/redis.log
	trap 'kill $(cat /tmp/redis.pid) 2>/dev/null' EXIT
	i=0
	until [ -S /tmp/redis.sock ]; do
		i=$((i + 1)); [ $i -lt 100 ] || { cat /tmp/redis.log >&2; exit 1; }; sleep 0.2
	done
	python3 /realprog/redis-store.py /tmp/redis.sock $((500 * S)) ;;
r-glm) exec Rscript /realprog/r-glm.R $((200 * S)) 3 ;;
sklearn-train) exec python3 /realprog/sklearn-train.py $((10 * S / 100)) 2 40 ;;
# Not in realprog.sh's list: Debian's torch takes minutes under TCG.
torch-train) exec python3 /realprog/torch-train.py $((10 * S / 100)) 1 ;;
*) echo "run.sh: unknown program $1" >&2; exit 2 ;;
esac
