#!/usr/bin/env bash
# The mail container's one process: configure (scripts/mail/setup.sh, idempotent), start Postfix,
# Dovecot and OpenDKIM, export the verified domains' DKIM keys every DKIM_SYNC_SECONDS (the
# platform runs in other containers, so it can't signal OpenDKIM itself), and stop them all on
# SIGTERM. Needs DATABASE_URL, JWT_SECRET and MAIL_HOST.
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL must name the platform database}"
: "${JWT_SECRET:?JWT_SECRET must be the platform secret (it unseals the DKIM keys)}"
cd /app
scripts/mail/setup.sh
scripts/mail/start.sh
stopping=
trap 'stopping=1; scripts/mail/stop.sh; exit 0' TERM INT
while [ -z "$stopping" ]; do
  scripts/mail/sync-dkim-keys.sh || echo "DKIM key export failed; retrying in ${DKIM_SYNC_SECONDS:-60}s" >&2
  sleep "${DKIM_SYNC_SECONDS:-60}" & wait $!
done
