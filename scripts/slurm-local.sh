#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's packages, for testing
# `damka plan --format slurm` for real:
#
#   bash scripts/slurm-local.sh start   # installs slurm-wlm and munge if missing, starts them
#   bash scripts/slurm-local.sh stop    # stops them
#
# Both are idempotent. Needs root (apt-get, daemons). The node has this machine's
# CPUs and its memory less 1 GiB; processes are tracked without cgroups
# (proctrack/linuxproc, task/none), which containers without cgroup access need.
set -euo pipefail
action="${1:?usage: slurm-local.sh start|stop}"
conf=/etc/slurm/slurm.conf
state=/var/lib/damka-slurm

stop() {
    if command -v scontrol > /dev/null && scontrol ping > /dev/null 2>&1; then
        scontrol shutdown > /dev/null 2>&1 || true
    fi
    pkill -x slurmctld 2> /dev/null || true
    pkill -x slurmd 2> /dev/null || true
    pkill -x munged 2> /dev/null || true
    for _ in $(seq 50); do
        pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null ||
            pgrep -x munged > /dev/null || break
        sleep 0.2
    done
    echo "slurm stopped"
}

install() {
    if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge > /dev/null
    fi
}

configure() {
    local host cpus mem
    host="$(hostname -s)"
    cpus="$(nproc)"
    mem=$(( $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) - 1024 ))
    mkdir -p /etc/slurm "$state/ctld" "$state/d" /var/log/slurm /run/munge
    cat > "$conf" <<CONF
# Written by damka's scripts/slurm-local.sh: one node, this machine.
ClusterName=damka-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SlurmdTimeout=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2> /dev/null
    fi
    chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2> /dev/null || true
    chmod 700 /etc/munge
    chmod 400 /etc/munge/munge.key
}

start() {
    install
    if pgrep -x slurmctld > /dev/null && pgrep -x slurmd > /dev/null && sinfo -h > /dev/null 2>&1; then
        echo "slurm already running"
        return
    fi
    stop > /dev/null
    configure
    runuser -u munge -- /usr/sbin/munged
    slurmctld
    slurmd
    for _ in $(seq 100); do
        if sinfo -h -o '%T' 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
            echo "slurm running: $(sinfo -h -o '%N %c CPUs %m MiB %T')"
            return
        fi
        sleep 0.3
    done
    echo "slurm did not come up; see /var/log/slurm/" >&2
    sinfo >&2 || true
    exit 1
}

case "$action" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: slurm-local.sh start|stop" >&2; exit 2 ;;
esac
