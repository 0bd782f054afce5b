#!/usr/bin/env bash
# Records Apache Avro Java's compatibility verdicts on wiregate's corpus of
# reader/writer pairs, for the agreement test in harness/parent/avrocompat
# (TestJavaAgreement). Run by hand when the corpus or the Avro version
# changes, not by CI:
#
#   bash scripts/avro-java.sh
#
# It fetches org.apache.avro:avro (version in scripts/avro-java/pom.xml) from
# Maven Central into .avro-java/libs (skipped when present), runs
# scripts/avro-java/Verdicts.java on harness/parent/avrocompat/testdata/java/corpus.json
# and writes verdicts.json beside it. Needs Java 17+ and Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
libs=$root/.avro-java/libs
data=$root/harness/parent/avrocompat/testdata/java

die() { echo "avro-java.sh: $*" >&2; exit 2; }
command -v java >/dev/null 2>&1 || die "java not found: install a JDK 17+ (apt-get install openjdk-17-jdk-headless)"

if [ ! -f "$libs/.complete" ]; then
  command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven (apt-get install maven)"
  rm -rf "$libs"
  mkdir -p "$libs"
  if ! mvn -q -B -Dstyle.color=never -f "$root/scripts/avro-java/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$libs" >&2; then
    rm -rf "$libs"
    die "mvn could not fetch Apache Avro's jars (is Maven Central reachable? see the output above)"
  fi
  touch "$libs/.complete"
fi

java -cp "$libs/*" "$root/scripts/avro-java/Verdicts.java" "$data/corpus.json" "$data/verdicts.json"
echo "avro-java.sh: wrote $data/verdicts.json ($(grep -c '"verdict"' "$data/verdicts.json") verdicts, $(ls "$libs" | grep '^avro-') )"
