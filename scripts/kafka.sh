#!/usr/bin/env bash
# A real Apache Kafka broker (KRaft, single node) on 127.0.0.1 without Docker,
# for the pipeline tests against a real broker.
#
#   bash scripts/kafka.sh fetch   jars from Maven Central into .kafka/libs (skipped when present)
#   bash scripts/kafka.sh start   format storage, start the broker, wait until it serves metadata
#   bash scripts/kafka.sh addr    print host:port of the running broker
#   bash scripts/kafka.sh stop    SIGTERM, wait, SIGKILL if needed; remove its data
#
# State lives in .kafka/ (gitignored): libs/, server.properties, server.log,
# addr, pid, and the data directory data.*/ of the running broker.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
state=$root/.kafka
libs=$state/libs
kafka_version=4.1.0
heap=${WIREGATE_KAFKA_HEAP:-512m}
start_timeout_s=${WIREGATE_KAFKA_START_TIMEOUT:-60}
stop_timeout_s=20

die() { echo "kafka.sh: $*" >&2; exit 2; }
log() { echo "kafka.sh: $*" >&2; }

need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found: $2"; }

have_libs() { [ -f "$libs/kafka_2.13-$kafka_version.jar" ] && [ -f "$libs/.complete" ]; }

fetch() {
  if have_libs; then
    return 0
  fi
  need mvn "install Maven (apt-get install maven) to fetch Kafka's jars"
  need java "install a JDK 17+ (apt-get install openjdk-17-jdk-headless)"
  rm -rf "$libs"
  mkdir -p "$libs"
  log "fetching org.apache.kafka:kafka_2.13:$kafka_version and its dependencies into .kafka/libs"
  if ! mvn -q -B -Dstyle.color=never -f "$root/scripts/kafka/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$libs" >&2; then
    rm -rf "$libs"
    die "mvn could not fetch the Kafka jars (is Maven Central reachable? see the output above)"
  fi
  local count
  count=$(ls "$libs" | wc -l)
  [ -f "$libs/kafka_2.13-$kafka_version.jar" ] || die "mvn ran but kafka_2.13-$kafka_version.jar is missing from .kafka/libs"
  touch "$libs/.complete"
  log "fetched $count jars"
}

running_pid() {
  # Prints the pid of the broker this script started, if it is still alive.
  [ -f "$state/pid" ] || return 1
  local pid
  pid=$(cat "$state/pid")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against pid reuse: the process must be our java kafka.Kafka.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka' || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  # A port nothing answers on and that ss does not list as bound. Racy by
  # nature; start retries with fresh ports if the broker cannot bind.
  local p i
  for i in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    port_open "$p" && continue
    if command -v ss >/dev/null 2>&1 && ss -ltnH "sport = :$p" 2>/dev/null | grep -q .; then
      continue
    fi
    echo "$p"
    return 0
  done
  die "no free port found on 127.0.0.1"
}

probe() {
  # A metadata request through Kafka's own admin client.
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$libs/*" \
    "$root/scripts/kafka/Probe.java" "$1" >/dev/null 2>>"$state/probe.log"
}

write_properties() {
  local port=$1 cport=$2 data=$3
  cat >"$state/server.properties" <<EOF
# Written by scripts/kafka.sh start: a single-node KRaft broker for tests.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
# The pipeline stage fetches up to 50 MiB at once.
message.max.bytes=10485760
EOF
}

# try_start port cport: 0 when the broker serves metadata, 1 when it died
# (e.g. a port was taken: the caller retries), exits on timeout.
try_start() {
  local port=$1 cport=$2 data pid id deadline
  data=$(mktemp -d "$state/data.XXXXXX")
  write_properties "$port" "$cport" "$data"
  id=$(java -cp "$libs/*" kafka.tools.StorageTool random-uuid 2>>"$state/server.log" | tail -n1)
  [ -n "$id" ] || die "kafka.tools.StorageTool random-uuid printed nothing; see .kafka/server.log"
  if ! java -cp "$libs/*" kafka.tools.StorageTool format -t "$id" \
      -c "$state/server.properties" --standalone >>"$state/server.log" 2>&1; then
    rm -rf "$data"
    die "formatting the storage failed; see .kafka/server.log"
  fi
  echo "$data" >"$state/datadir"
  nohup java -Xmx"$heap" -Xms128m -cp "$libs/*" kafka.Kafka "$state/server.properties" \
    >>"$state/server.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$state/pid"
  deadline=$((SECONDS + start_timeout_s))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "the broker exited during startup (last lines of .kafka/server.log below)"
      tail -n 5 "$state/server.log" >&2 || true
      rm -f "$state/pid"
      rm -rf "$data"
      return 1
    fi
    if port_open "$port" && probe "127.0.0.1:$port"; then
      echo "127.0.0.1:$port" >"$state/addr"
      return 0
    fi
    sleep 0.5
  done
  log "the broker did not serve metadata within ${start_timeout_s}s; stopping it"
  stop
  die "Kafka did not start within ${start_timeout_s}s on 127.0.0.1:$port; see .kafka/server.log"
}

start() {
  local pid attempt port cport
  if pid=$(running_pid) && [ -f "$state/addr" ]; then
    log "already running (pid $pid) at $(cat "$state/addr")"
    return 0
  fi
  need java "install a JDK 17+ (apt-get install openjdk-17-jdk-headless)"
  have_libs || fetch
  stop_quietly
  mkdir -p "$state"
  rm -rf "$state"/data.* # left by a broker that was killed without stop
  : >"$state/server.log"
  : >"$state/probe.log"
  for attempt in 1 2 3; do
    port=$(free_port)
    cport=$(free_port)
    [ "$port" != "$cport" ] || continue
    if try_start "$port" "$cport"; then
      log "Kafka $kafka_version running (pid $(cat "$state/pid")) at $(cat "$state/addr")"
      return 0
    fi
    log "start attempt $attempt failed; retrying with other ports"
  done
  die "Kafka would not start after 3 attempts; see .kafka/server.log"
}

stop_quietly() {
  local pid i
  if pid=$(running_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 $((stop_timeout_s * 4))); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.25
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "broker (pid $pid) ignored SIGTERM for ${stop_timeout_s}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
    fi
  fi
  if [ -f "$state/datadir" ]; then
    rm -rf "$(cat "$state/datadir")"
  fi
  rm -f "$state/pid" "$state/addr" "$state/datadir"
}

stop() {
  if running_pid >/dev/null; then
    stop_quietly
    log "stopped"
  else
    stop_quietly
    log "not running"
  fi
}

addr() {
  running_pid >/dev/null && [ -f "$state/addr" ] || die "no broker running: run 'bash scripts/kafka.sh start' first"
  cat "$state/addr"
}

case "${1:-}" in
  fetch) fetch ;;
  start) start ;;
  addr) addr ;;
  stop) stop ;;
  *) die "usage: bash scripts/kafka.sh fetch|start|addr|stop" ;;
esac
