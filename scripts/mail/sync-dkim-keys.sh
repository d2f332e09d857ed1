#!/usr/bin/env bash
# Writes the verified domains' DKIM keys for OpenDKIM (KeyTable, SigningTable, 0600 key files in
# MAIL_DKIM_DIR) and tells a running OpenDKIM to reload. Needs the platform's environment:
# DATABASE_URL and JWT_SECRET (the secret that sealed the keys). The server does the same by itself
# after each verification when it runs with MAIL_DKIM_DIR (and MAIL_DKIM_PID_FILE) set.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
export MAIL_DKIM_DIR MAIL_DKIM_PID_FILE=${MAIL_DKIM_PID_FILE:-$RUN_DIR/opendkim/opendkim.pid}
root=$(cd "$here/../.." && pwd)
if [ -f "$root/dist/server/src/modules/mail/dkim-export.js" ]; then
  node "$root/dist/server/src/modules/mail/dkim-export.js"
else
  (cd "$root" && npx --no-install tsx server/src/modules/mail/dkim-export.ts)
fi
