#!/usr/bin/env bash
# Stops the mail servers started by start.sh (each one that is running) and waits for them to exit.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
postfix -c "$POSTFIX_DIR" status >/dev/null 2>&1 && postfix -c "$POSTFIX_DIR" stop >/dev/null 2>&1 || true
doveadm -c "$DOVECOT_CONF" stop >/dev/null 2>&1 || true
pidfile=$RUN_DIR/opendkim/opendkim.pid
if [ -s "$pidfile" ]; then
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$pidfile"
fi
# Postfix's master and Dovecot exit a moment after they are told to.
for _ in $(seq 1 50); do
  [ -s "$MAIL_STATE_DIR/postfix-queue/pid/master.pid" ] && kill -0 "$(tr -d ' ' < "$MAIL_STATE_DIR/postfix-queue/pid/master.pid")" 2>/dev/null && { sleep 0.1; continue; }
  [ -s "$MAIL_STATE_DIR/dovecot-base/master.pid" ] && kill -0 "$(cat "$MAIL_STATE_DIR/dovecot-base/master.pid")" 2>/dev/null && { sleep 0.1; continue; }
  break
done
echo "mail servers stopped"
