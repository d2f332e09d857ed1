#!/usr/bin/env bash
# Starts the configured mail servers (setup.sh first): OpenDKIM, Dovecot, then Postfix, and waits
# until their ports answer. Safe to run again: a server already running is left as it is.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
pidfile=$RUN_DIR/opendkim/opendkim.pid
if ! { [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }; then opendkim -x "$OPENDKIM_CONF" </dev/null >/dev/null 2>&1; fi
# The daemons must not keep the caller's stdout and stderr open (a caller waiting for them to close
# would wait until they stop); they log to files in MAIL_STATE_DIR.
if ! doveadm -c "$DOVECOT_CONF" process status >/dev/null 2>&1; then dovecot -c "$DOVECOT_CONF" </dev/null >/dev/null 2>&1; fi
postfix -c "$POSTFIX_DIR" status >/dev/null 2>&1 || postfix -c "$POSTFIX_DIR" start </dev/null >/dev/null 2>&1
host=127.0.0.1; [ "$MAIL_LISTEN" = all ] || host=$MAIL_LISTEN
for port in "$MAIL_SMTP_PORT" "$MAIL_SUBMISSION_PORT" "$MAIL_IMAP_PORT"; do
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null && continue 2; sleep 0.1; done
  echo "mail servers: nothing answers on $host:$port (logs in $MAIL_STATE_DIR)" >&2; exit 1
done
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$MAIL_DKIM_PORT") 2>/dev/null && break; sleep 0.1; done
echo "mail servers running: smtp $MAIL_SMTP_PORT, submission $MAIL_SUBMISSION_PORT, imap $MAIL_IMAP_PORT"
