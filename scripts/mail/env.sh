# Shared settings of the mail scripts (sourced by setup.sh, start.sh, stop.sh). Every value can be
# set in the environment; the defaults are a production-like install on the standard ports.
#
#   DATABASE_URL        the platform's PostgreSQL (postgres://user@host:port/db); required by setup.sh
#   MAIL_CONFIG_DIR     where the generated configuration goes        (/etc/hostbase-mail)
#   MAIL_STATE_DIR      queue, sockets, pid and log files             (/var/lib/hostbase-mail)
#   MAIL_STORE_DIR      the mailboxes (Maildir per address)           ($MAIL_STATE_DIR/mailboxes)
#   MAIL_DKIM_DIR       OpenDKIM's KeyTable, SigningTable and keys    ($MAIL_STATE_DIR/dkim)
#   MAIL_HOST           the server's name (HELO, certificates)        (mail.localhost)
#   MAIL_LISTEN         addresses to listen on: "all" or an IPv4      (all)
#   MAIL_SMTP_PORT      SMTP, mail from the internet (25)
#   MAIL_SUBMISSION_PORT  SMTP submission, implicit TLS + AUTH (465)
#   MAIL_IMAP_PORT      IMAP, implicit TLS (993)
#   MAIL_DKIM_PORT      the OpenDKIM milter, on 127.0.0.1 (8891)
#   MAIL_PLATFORM_PORT  optional: SMTP on 127.0.0.1 only, no AUTH, DKIM-signed, for the platform's
#                       own mail from verified domains (e.g. 2587); absent: not opened
#   MAIL_TLS_CERT / MAIL_TLS_KEY  PEM certificate chain and key; absent: a self-signed pair is made
#   MAIL_DB_ROLE / MAIL_DB_PASSWORD  the read-only role the servers use (hostbase_mail / generated)
#   MAIL_VMAIL_USER     the system user owning the mailboxes          (hostbase-vmail)
set -euo pipefail
umask 022
MAIL_CONFIG_DIR=${MAIL_CONFIG_DIR:-/etc/hostbase-mail}
MAIL_STATE_DIR=${MAIL_STATE_DIR:-/var/lib/hostbase-mail}
MAIL_STORE_DIR=${MAIL_STORE_DIR:-$MAIL_STATE_DIR/mailboxes}
MAIL_DKIM_DIR=${MAIL_DKIM_DIR:-$MAIL_STATE_DIR/dkim}
MAIL_HOST=${MAIL_HOST:-mail.localhost}
MAIL_LISTEN=${MAIL_LISTEN:-all}
MAIL_SMTP_PORT=${MAIL_SMTP_PORT:-25}
MAIL_SUBMISSION_PORT=${MAIL_SUBMISSION_PORT:-465}
MAIL_IMAP_PORT=${MAIL_IMAP_PORT:-993}
MAIL_DKIM_PORT=${MAIL_DKIM_PORT:-8891}
MAIL_PLATFORM_PORT=${MAIL_PLATFORM_PORT:-}
MAIL_DB_ROLE=${MAIL_DB_ROLE:-hostbase_mail}
MAIL_VMAIL_USER=${MAIL_VMAIL_USER:-hostbase-vmail}
MAIL_TLS_CERT=${MAIL_TLS_CERT:-}
MAIL_TLS_KEY=${MAIL_TLS_KEY:-}
POSTFIX_DIR=$MAIL_CONFIG_DIR/postfix
DOVECOT_CONF=$MAIL_CONFIG_DIR/dovecot/dovecot.conf
OPENDKIM_CONF=$MAIL_CONFIG_DIR/opendkim/opendkim.conf
RUN_DIR=$MAIL_STATE_DIR/run
