#!/usr/bin/env bash
# lanes.sh DEADLINE "G ...": one campaign lane (camp.sh lane G) per GPU named, at once.
cd "$(dirname "$0")"
for g in $2; do ./camp.sh "$1" lane "$g" & done
wait
